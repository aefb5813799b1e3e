// The game log: JSON Lines, one object per line. A header (rule file and its SHA-256,
// kata version, players, seed, options, agents), then every chance outcome, move, reveal
// and decision in order, then the result. docs/log-format.md is its schema. The same
// events, filtered by what a seat may know, are what that player is told.
#pragma once

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

#include "runtime/engine.hpp"
#include "runtime/view.hpp"
#include "syntax/source.hpp"  // sha256_hex

namespace kata {

// One event as a log line (everything, for the record).
nlohmann::json event_json(const Game& g, const Event& e);
// One event as `viewer` was shown it (a seat; -1 sees everything); empty if nothing.
std::string describe_event(const Game& g, const Event& e, int viewer);
// Events as `viewer` is told them, one line each, except routine bookkeeping: a run of
// card moves from one zone, or into one zone, is one line ("5 cards move from deck —
// P1.hand: 4 and 9; P2.hand: 2 cards; pile: 10"), naming only the cards the viewer
// saw move. Which moves are grouped depends only on their zones, which everyone is told.
// Events in a zone the screens leave out (`show: false`) are not told: bookkeeping. A
// decision told by a message of its effect is told once (told_by_message): its moves, turns
// and looks of cards the viewer does not see or that the message names to it are left out.
// A message of the flow tells the next move, turn or look, seen by the viewer, of each card
// it names to it: that line is left out too.
std::vector<std::string> describe_events(const Game& g, const std::vector<Event>& events, int viewer);
// The same lines for a screen: each card's name one unit that wrapping never splits
// (runtime/wrap.hpp). Print them with print_screen or through a WrappingStream.
std::vector<std::string> screen_events(const Game& g, const std::vector<Event>& events, int viewer);
// The last message (`say to`) the rule file addressed to `viewer` alone among `events`, as
// screen_events tells it, or empty: what a game tells one player just before asking them
// ("Name P2's hidden card"), which their menu repeats.
std::string last_message_to(const Game& g, const std::vector<Event>& events, int viewer);
// Whether the first decision among `events` (Event::decision, up to the end of its effect)
// is told to `viewer` by a message of its effect, a `say` that viewer is told: then it is
// not told again as "P1 chose: NOTATION" (play, replay), nor are the moves that message
// tells (describe_events). It depends only on what the viewer is told.
bool told_by_message(const Game& g, const std::vector<Event>& events, int viewer);
// A message (`say`) as `viewer` is told it: each card by name if that seat saw it when it
// was said, else as card_text names a hidden card. -1 names every card.
std::string said_text(const Game& g, const Event& e, int viewer);

struct LogHeader {
  std::string rules;   // path of the rule file
  std::string sha256;  // of its text
  std::string game;
  int players = 0;
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> options;  // name, value as text
  std::vector<std::string> agents;
  bool forced = false;  // chance outcomes were fixed, not drawn from the seed
};

class LogWriter {
 public:
  explicit LogWriter(std::ostream& out) : out_(out) {}
  ~LogWriter() { flush(); }
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;
  // From now on the lines are kept here until flush (or the end of the writer), so that
  // rewind can forget them: a game with an undo is logged as if the undone part had not
  // been played (play_match).
  void hold() { held_ = true; }
  void rewind() { kept_.clear(); }
  void flush();
  void header(const LogHeader& h);
  void events(const Game& g, const std::vector<Event>& events);
  void decision(int number, int player, const std::string& text);
  void result(const Game& g, const State& s);
  void error(const std::string& message);
  // `kata play --resume` went on from here: the game had stopped (`stopped` said why)
  // after `decisions` decisions; `agents` play from now on.
  void resume(int decisions, const std::string& stopped, const std::vector<std::string>& agents);

 private:
  void line(const nlohmann::json& j);
  std::ostream& out_;
  bool held_ = false;
  std::string kept_;
};

LogHeader make_header(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                      const std::vector<std::string>& agents);
// An option's value as text: a number, true/false, or a symbol's name.
std::string option_text(const Game& g, size_t option, int64_t value);

// The largest log kata reads (kata replay, kata play --resume) and its longest line, in
// bytes (docs/language.md §7): both are checked as the log is read, before anything is
// parsed, so no log makes kata read or hold more than this.
inline constexpr size_t max_log_size = 16 << 20;
inline constexpr size_t max_log_line = 1 << 20;

// A log's lines, as read_log reads them; `error` says why it could not be read, at line
// `error_line` (0: the file as a whole).
struct LogText {
  std::vector<std::string> lines;  // without their '\n'
  std::string error;
  int error_line = 0;
};
// Reads the log at `path`: a regular file of at most max_log_size bytes, no line of it
// longer than max_log_line.
LogText read_log(const std::string& path);

// Replays a log: re-runs the game and checks every line against what happens.
struct ReplayResult {
  bool ok = false;
  std::string error;  // "log.jsonl:12: ..." when not ok
  int decisions = 0;
  int players = 0;           // the header's player count, once it is read
  bool bad_viewer = false;   // the viewer is not a seat of this game: nothing was replayed
  State final;
  std::shared_ptr<const Game> game;
  // The game as the viewer saw it, line by line; each name whole (unbroken spaces: print
  // through a WrappingStream, or read it with plain()).
  std::vector<std::string> shown;
  // A game stopped before its end (a player quit, a script ran out): the log ends with
  // `error` lines where a decision was awaited. It is ok, and `final` is the game there.
  bool stopped = false;
  std::string stop_reason;  // the error line's message, or less for a seat (see replay_log)
  int stop_line = 0;        // the first of the trailing `error` lines
  // What `kata play --resume` needs to go on.
  uint64_t seed = 0;
  bool forced = false;
  std::vector<int64_t> options;
  std::vector<std::pair<int, std::string>> actions;  // each decision: its chooser and notation
  std::vector<std::string> agents;  // the latest: the header's, or the last `resume` line's
  // For each seat, the number of decisions made before its latest agent began: a `resume`
  // line naming the same agent for a seat goes on with it.
  std::vector<int> agents_since;
};
// `viewer` is -1 for everything (an onlooker), else a seat. Any other value, or a seat the
// header's game does not have, stops the replay after the header with `bad_viewer`. With a
// seat as viewer, errors say where and what kind of mismatch only: they never quote a log
// line or name a card, since the log holds what that seat could not see. The reason a game
// stopped is told a seat only if it is the stopped player's own, or "P1 (KIND) stopped
// before the end" (a refused script line may name a card by its place).
//
// `refusal` says why a logged decision is not legal, in the words a person or a script is
// told (agents/typed.hpp's refusal_reason: the log is below the agents, so they hand it
// down); without it, the notation's own reason (parse_decision).
using Refusal = std::string (*)(const Game& g, const State& s, const std::string& text);
ReplayResult replay_log(const std::string& path, int viewer, std::shared_ptr<Sources>& sources,
                        Diagnostics& diags, Refusal refusal = nullptr);

}  // namespace kata
