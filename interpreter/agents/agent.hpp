// Players that choose. An agent decides from its own view and the labels of its legal
// decisions, never from the state: what it is given is what its seat may know. Bots that
// use no information (random) say so, and the runner then skips building views for them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/menu.hpp"
#include "runtime/view.hpp"

namespace kata {

class InfoSet;  // runtime/determinize.hpp

// An agent's answer: an index into the legal decisions, or text in the notation (short
// forms too: agents/typed.hpp); -2 to stop the game, undo to take back its last decision.
struct Choice {
  static constexpr int undo = -3;
  int index = -1;
  std::string text;
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string kind() const = 0;
  // False for agents that need neither view nor labels (the runner then gives empty ones).
  virtual bool needs_view() const { return true; }
  // Search bots (agents/search.hpp) decide from their seat's information set: 1 asks for
  // one, 2 for one that shows the true state (mcts:cheat); 0, the others, for none. The
  // runner then calls inform() before each choose() with it, valid during that call.
  virtual int wants_info_set() const { return 0; }
  virtual void inform(const InfoSet* info) { (void)info; }
  virtual Choice choose(const Game& g, const PlayerView& view, const std::vector<std::string>& labels,
                        int count) = 0;
  // The last choice was text that names no legal decision; `why` says why. Return false
  // to give up (the runner then stops with an error).
  virtual bool refused(const std::string& why) {
    (void)why;
    return false;
  }
  // This seat's decision, one of `count` legal ones, was taken from a log (kata play
  // --resume) instead of asked: a bot draws from its generator as if it had chosen, so a
  // resumed game goes on as the game played in one go would; a person saw what came before.
  virtual void replayed(int count) { (void)count; }
  // What this seat was shown happen, one line per event, each card's name one unit of a
  // screen (log.hpp's screen_events: print it with print_screen).
  virtual void observe(const std::string& line) { (void)line; }
  // The last message the rule file addressed to this seat alone (log.hpp's
  // last_message_to), told among the lines observed: what it is asked to do next.
  virtual void asked(const std::string& line) { (void)line; }
  // Someone at the terminal (asked nothing when the game is played again after an undo).
  virtual bool person() const { return false; }
  // An undo: the game is played again from its start to an earlier decision (play_match).
  // Forget it, and start again as when made, so that a bot asked again chooses as before.
  virtual void restart() {}
  // The game played again after an undo has reached the decision undone (the `times`-th
  // undo of the match): from here a bot draws afresh, so that taking a decision back does
  // not show what the bots would answer to it.
  virtual void undone(int times) { (void)times; }
  // The game ended; the final view of this seat.
  virtual void game_over(const Game& g, const PlayerView& view) {
    (void)g;
    (void)view;
  }
};

// Uniformly random among the legal decisions, from its own generator.
class RandomAgent : public Agent {
 public:
  explicit RandomAgent(uint64_t seed) : seed_(seed), rng_(seed) {}
  std::string kind() const override { return "random"; }
  bool needs_view() const override { return false; }
  Choice choose(const Game&, const PlayerView&, const std::vector<std::string>&, int count) override;
  void restart() override { rng_ = seed_; }
  void undone(int times) override;
  void replayed(int count) override;

 private:
  uint64_t seed_, rng_;
};

// Plays the lines of a script file in order (the notation a human types; '#' comments).
class ScriptAgent : public Agent {
 public:
  ScriptAgent(std::string path, std::vector<std::string> lines, std::vector<int> line_numbers)
      : path_(std::move(path)), lines_(std::move(lines)), numbers_(std::move(line_numbers)) {}
  static std::unique_ptr<ScriptAgent> load(const std::string& path, std::string& error);
  std::string kind() const override { return "script:" + path_; }
  Choice choose(const Game& g, const PlayerView& view, const std::vector<std::string>& labels, int count) override;
  bool refused(const std::string& why) override;
  // After an undo, it starts again where it started (after the lines it skipped).
  void restart() override { next_ = first_; }
  std::string where() const;
  // Goes on after the first `lines` lines (they were played before a resume).
  void skip(size_t lines) { next_ = first_ = std::min(lines, lines_.size()); }

 private:
  std::string path_;
  std::vector<std::string> lines_;
  std::vector<int> numbers_;
  size_t next_ = 0, first_ = 0;
};

// Someone at the terminal. With several humans at one terminal, the screen and its
// scrollback are cleared and the next player confirms before their view appears; at the
// end no one's private view is shown (the caller shows the public one, see public_view).
struct Terminal {
  std::istream& in;
  std::ostream& out;
  int humans = 0;
  int last_seat = -1;
  bool clear_screen = true;
  // The columns `out` wraps at (runtime/wrap.hpp), 0 if it does not: `rules` lays the
  // reference out to fit.
  size_t width = 0;
};

// Before each decision the person sees what happened since their last turn, their view
// and a menu (menu.hpp); they type a number, a decision in notation (or in short, see
// typed.hpp) or its start, or a command: help, log (the last lines they were told), rules
// (the game's reference), back, undo (their last decision, when they are the only person
// at the terminal), quit (asks first). The end of input quits at once. Bad input gets a
// message and the prompt again.
class HumanAgent : public Agent {
 public:
  HumanAgent(Terminal& t, int seat) : t_(t), seat_(seat) {}
  std::string kind() const override { return "human"; }
  Choice choose(const Game& g, const PlayerView& view, const std::vector<std::string>& labels, int count) override;
  bool refused(const std::string& why) override;
  void observe(const std::string& line) override;
  void asked(const std::string& line) override;
  bool person() const override { return true; }
  void restart() override;
  void replayed(int count) override;
  void game_over(const Game& g, const PlayerView& view) override;
  // How many of the last lines told `log` shows.
  static constexpr size_t log_lines = 20;

 private:
  void hand_over();
  void tell_news();
  // The menu, under the game's last message to this seat when it was about this decision.
  std::string menu_screen() const;
  // What to do with a line typed at the prompt: a choice, or nothing (ask again).
  std::optional<Choice> answer(const Game& g, const PlayerView& view, const std::string& line,
                               const std::vector<std::string>& labels);
  bool confirm_quit();
  Terminal& t_;
  int seat_;
  std::vector<std::string> news_;
  std::deque<std::string> told_;  // the last lines observed, for `log`
  std::optional<Menu> menu_;
  bool retry_ = false;  // the last answer was refused: the same decision is asked again
  // The game's last message to this seat alone, repeated above the menu of the decision
  // that follows it (and only that one): "Name P2's hidden card" stays in sight while
  // the person reads the page, goes back or asks for the list again.
  std::string asked_;
  bool asked_new_ = false;  // told since the last decision was asked
};

// Makes an agent from its name on the command line: human, random, script:FILE, and the
// search bots ismcts[:N|:Nms], mcts[:N|:Nms][:cheat] and greedy (agents/search.hpp,
// docs/agents.md). With the game, an mcts that would see hidden cards is refused here
// (without it, it stops the game at its first decision).
// The agents that need no one at the terminal, as a message lists them: "random,
// script:FILE, ...". make_agent's message for an unknown name lists these and human.
std::string bot_names();

std::unique_ptr<Agent> make_agent(const std::string& spec, int seat, uint64_t seed, Terminal& t,
                                  std::string& error, const Game* game = nullptr);

}  // namespace kata
