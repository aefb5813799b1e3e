// The one interface to a running game, used alike by the CLI, the agents, the log and the
// tests: start a game, list the legal decisions, apply one, see what a player may see,
// and score the end. Nothing here prints; errors in a rule file's logic surface as
// RuntimeError, positioned in the rule file.
#pragma once

#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/game.hpp"
#include "runtime/state.hpp"

namespace kata {

struct RuntimeError : std::runtime_error {
  RuntimeError(Pos p, const std::string& message) : std::runtime_error(message), pos(p) {}
  Pos pos;
};
// A fixed shuffle order (Hooks::forced_shuffles) that is not cards of the zone, each once:
// the file that supplied it is at fault, not the rule file.
struct ForcedOrderError : RuntimeError {
  using RuntimeError::RuntimeError;
};
// A fixed blind pick (Hooks::forced_picks) that names a card the decision could not draw.
struct ForcedPickError : RuntimeError {
  using RuntimeError::RuntimeError;
};

// A value of a message (`say`) as it was when said. A card is told by name to the seats
// in `seen_by`, and as `hidden` (card_text) to the others; `failed`: it could not be
// worked out (a runtime error), and is told as "?".
struct SaidValue {
  int64_t value = 0;
  uint32_t seen_by = 0;
  std::string hidden;
  bool failed = false;
};

// What happened, for logs and for what a player is told. `seen_by` is the set of seats
// that may know the identity of `card` through this event.
struct Event {
  // `done`: the effect of the last decision has ended (its action's statements, and the
  // procedures they call); what follows is the flow's. A decision's events are those from
  // its `decision` to its `done`, or to the next `decision` when its effect asks one first.
  // `quiet`: a call of a `show: false` procedure begins (`to` 1) or ends (`to` 0); the
  // events between are bookkeeping, not told on screens (messages aside).
  enum Kind : uint8_t { shuffle, move, flip, reveal, look, eliminate, phase, decision, win, over, say, pick, done, quiet };
  Kind kind;
  int32_t player = -1;  // say: the seat it is told to, or -1 for every seat
  int32_t card = -1;
  int32_t from = -1, to = -1;  // zone instances; say: `from` is the message (Program::messages);
                               // flip: `to` is the face after it, 1 up, 0 down
                               // pick: `player` drew `card` from `from` (a blind pick)
  uint32_t seen_by = 0;
  std::vector<int32_t> order;  // shuffle: the zone's cards after it, bottom first
  Decision choice;  // decision: what was chosen
  std::vector<SaidValue> said;  // say: its values
};

// Optional hooks into a run: an event sink, and chance outcomes fixed in advance (each
// shuffle takes the next list: those cards on top, first listed on top, the rest random;
// each blind pick takes the next card, one for each card parameter it draws).
struct Hooks {
  std::vector<Event>* events = nullptr;
  std::deque<std::vector<int32_t>>* forced_shuffles = nullptr;
  std::deque<int32_t>* forced_picks = nullptr;
};

// Options: the defaults, and setting one from text ("name", "value"); false and a message
// when the option or the value is not valid.
std::vector<int64_t> default_options(const Game& g);
bool set_option(const Game& g, std::vector<int64_t>& values, const std::string& name,
                const std::string& value, std::string& error);

// A number of players, in the one wording of every message that tells one: "1 player",
// "2 players", and a range "3 to 6 players" (kata check, kata rules, setup_error).
std::string players_text(int least, int most);

// Why a game cannot start with this many players and these options ("" if it can): the
// player count is outside the game's range, or an option has a value other than its
// default with a player count its `players:` does not allow.
std::string setup_error(const Game& g, int players, const std::vector<int64_t>& options);

// Positions (positions.cpp), for `repetitions()`: apply() remembers the position each
// decision is made in, when the game calls repetitions(); count_repetitions is how many
// remembered positions are the state's own. A position is the cards of every zone (each
// as its first copy, with its face) and the variables but those of `position: false`.
void remember_position(const Game& g, int32_t* s);
int64_t count_repetitions(const Game& g, const int32_t* s);

// A new game with `players` seats, run up to its first decision.
State new_game(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
               Hooks* hooks = nullptr);
// A new game before its flow runs: options set, variables at their initial values, each
// card in its kind's starting zone (`in:`) or out of play. new_game is this, run from the
// flow's start. A scenario's position (docs/scenarios.md) is set up on it, then run_from.
State initial_state(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);
// A state kept from one game to the next of the same rules, for many games in a row
// (simulate's, the benchmarks'): new_game_in makes in it the state new_game makes, but
// writes only the slots the set-up fills and each zone's cards up to its starting size,
// where new_game writes every zone's room for every card (a board of 42 spots and 84
// pieces: 45 zones of 84 cards, 16 kB, against 1.6 kB). The slots past a zone's size keep
// the last game's cards: no rule reads them (a zone's cards are those below its size), and
// they are cards of the same game, as the kernel asks of every slot of a zone's list
// (docs/performance.md).
struct ReusedState {
  uint64_t game = 0;  // the Game::serial of the game whose state it holds; 0: none yet
  State state;
};
State& new_game_in(ReusedState& r, const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);
// initial_state into r, as new_game_in writes it (before the flow runs).
void initial_state_in(ReusedState& r, const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);
// Runs the effects from instruction `pc` up to the next decision or the end of the game.
void run_from(const Game& g, State& s, int pc, Hooks* hooks = nullptr);

// The legal decisions of the player to choose (none when the game is over). The cards of
// a set that the chooser cannot see are one decision, a blind pick (blind_card in
// state.hpp), after the action's other decisions: the chooser cannot tell them apart, and
// their order is not its to know (docs/language.md §4.4.1).
void legal_decisions(const Game& g, const State& s, std::vector<Decision>& out);
// Whether a card parameter's list may hold cards of a set that the chooser cannot see, so
// that a decision may be a blind pick: false for a zone that is no set, or for the
// chooser's own zone that it sees whole (`player.hand` with `visibility: owner`), and for
// every card of a game whose cards are always seen (Game::cards_always_seen); true where
// the rule file alone cannot tell.
bool may_pick_blind(const Game& g, const Param& p);
// The set zone of a card the chooser cannot see there, or -1 (a blind pick stands for it).
int blind_zone_of(const Game& g, const State& st, int32_t card);
// `d` as the chooser can know it: each card it cannot see in a set replaced by the blind
// pick of that set (as legal_decisions lists it); true if there was one.
bool blind_decision(const Game& g, const State& st, Decision& d);
// Applies a legal decision and runs the game up to the next one. A blind pick's card is a
// chance outcome, drawn with the state's random generator among the cards it stands for
// (an Event::pick), or taken from Hooks::forced_picks.
void apply(const Game& g, State& s, const Decision& d, Hooks* hooks = nullptr);

// Plays on to the end, each decision drawn uniformly among the legal ones with `rng`
// (uniform() in state.hpp): what legal_decisions and apply would do in a loop, in one call.
void play_randomly(const Game& g, State& s, uint64_t& rng);

// At the end: each seat's score (from `scoring:`), and the winners as a bit mask.
std::vector<int64_t> scores(const Game& g, const State& s);
uint32_t winners(const State& s);

// The end of a game as screens show it, worked out from the final state: each seat's
// score, the parts of it and the tie-breaks (`scoring:`), and the notes whose condition
// holds (indices into Game::score_notes). Empty rows where the file declares none.
struct ScoreTable {
  std::vector<int64_t> scores;
  std::vector<std::vector<int64_t>> parts;      // [part][seat]
  std::vector<std::vector<int64_t>> tiebreaks;  // [tiebreak][seat]
  std::vector<int32_t> notes;
  bool operator==(const ScoreTable&) const = default;
};
ScoreTable score_table(const Game& g, const State& s);

// The names of the register code's instructions (Program::xcode; runtime/xcode.cpp): all
// of them, and those a game's code holds, for tests that check what rule files exercise.
std::vector<std::string> register_op_names();
std::vector<std::string> register_ops_in(const Game& g);
// Evaluates a compiled expression against a state (for invariants and tests).
int64_t evaluate(const Game& g, const State& s, int node);
// The same with the first bound name (a score's `p`, a board turn's `viewer`) set to `x`.
int64_t evaluate_with(const Game& g, const State& s, int64_t x, int node);

// Works out a load-time value (a component's `where:`, a `links:` condition, a board's
// `x`/`y`/`marked`) with the evaluator every game runs, so it means what it means in play:
// `bound` are the frame's first names (a row's properties, the two cards of a link), and
// the node may read nothing of a game's state (the checker's constant_only). `budget` is
// what is left of the load's steps (each call spends one, each round of an aggregate one
// more); a call that runs out leaves it below zero. Errors are RuntimeErrors at their node.
int64_t evaluate_at_load(const Game& g, int node, const std::vector<int64_t>& bound, int64_t& budget);

// Whether `viewer` (a seat, or -1 for an onlooker who sees all) knows which card `card` is.
bool visible(const Game& g, const State& s, int viewer, int card);

// Where `card` lies in its zone instance, counted from the bottom from 0 (-1 out of play).
int place_in_zone(const Game& g, const State& s, int card);

}  // namespace kata
