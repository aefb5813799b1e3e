// Playing games: one match with its agents (and optionally a log), many matches in
// parallel for balance statistics (random bots, or agents named by their specs), and an
// arena where agents play against each other. Results never depend on the number of
// threads: game i always uses the seed derived from (seed, i), each game has agents of its
// own made from that seed, and results are gathered in game order.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "agents/stats.hpp"
#include "log/log.hpp"

namespace kata {

struct MatchResult {
  State final;
  bool completed = false;  // false: an agent gave up (quit, or a script ran out)
  std::string stopped_by;  // why it stopped early
  // By seat: the decisions its agent made, and the seconds spent in its Agent::choose
  // (the only figure that is not the same from run to run).
  std::vector<int> chosen;
  std::vector<double> seconds;
  // By seat, a search bot's decisions whose samples were states consistent with what the
  // seat was told since chance was last used, and those for which none was found (its
  // samples were then determinizations of the present; runtime/determinize.hpp).
  std::vector<int> consistent, fell_back;
  std::vector<Decision> decisions;  // every decision of the game, in order
};

// Going on with a game that stopped before its end (kata play --resume): its decisions,
// verified by replay_log, are made again instead of asked. The agents are told what they
// were told then; the log is written from where those decisions end, with a `resume` line.
struct Resume {
  std::vector<std::pair<int, std::string>> actions;  // chooser and notation, in order
  std::string stopped;                               // why the game stopped
  std::vector<std::string> agents;                   // who plays on
};

// Set to a signal's number by a handler (kata play: SIGINT, SIGTERM, SIGHUP): the match
// stops before its next decision, or when a read at the prompt is interrupted, as when a
// person quits ("stopped by a signal (SIGTERM)"), so that a held log is still written.
extern volatile std::sig_atomic_t stop_requested;

// Plays one game to the end. Throws RuntimeError for errors in the rules' logic. A typed
// decision is read with read_decision (short forms too). When a person asks to undo
// (Choice::undo), the game is played again from the start with the same seed and options
// and the decisions made so far, up to the person's last one: their decisions are taken
// again without asking them, bots are restarted and asked again (they choose as before),
// and then the person is asked again; from there the bots draw afresh (Agent::undone). An
// undo is refused once the person has seen a card they had not seen at that decision. With a person playing, the log is held (LogWriter::
// hold) and rewritten on an undo, so it reads as if the undone decisions never happened;
// the caller's LogWriter writes it out when it is flushed or destroyed. A resumed game's
// logged decisions are made again first (Agent::replayed), undo or not.
MatchResult play_match(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                       std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log = nullptr,
                       const Resume* resume = nullptr);

// What `seat` is told as decision `d` is made in `s` (which it then applies, with its
// events), as play_match tells it: another seat's decision as the seat may know it, unless
// a message of its effect tells it, and the events it is shown; appended to `out`. The undo
// check and the search bots' samples (History, runtime/determinize.hpp) compare with it.
void told_step(const Game& g, State& s, const Decision& d, int seat, std::vector<std::string>& out);

// describe_screen of public_view, titled "as everyone sees it" (print it with print_screen).
std::string describe_public_view(const Game& g, const State& s);


// The seed of game `i` of a simulation.
uint64_t game_seed(uint64_t seed, uint64_t i);

// One random playout, as fast as the runtime allows (no views, no events); returns the
// final state. The benchmark measures this.
State random_playout(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);
// The same playout in a state kept from the last game of g (new_game_in): what simulate
// plays, and what the benchmarks measure.
State& random_playout(ReusedState& r, const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);

// Makes the agent that plays `spec` at `seat` in one game whose seed is `seed` (every game
// has agents of its own: bots keep state, and each draws from a generator of its own
// derived from the game's seed and its seat); null, and `error` set, if it cannot. Called
// from several threads at once.
using AgentMaker = std::function<std::unique_ptr<Agent>(const std::string& spec, int seat,
                                                        uint64_t seed, std::string& error)>;

// `progress` (simulate, arena) is called from the worker threads, one at a time, with
// counts of finished games that only grow; the last call has done == games.
using Progress = std::function<void(int done)>;

// The statistics of a simulation, as raw counts that add up exactly: the statistics of
// games played in parts (kata simulate --shard) and merged (merge_stats) are those of the
// whole run, to the last bit. Every figure printed is worked out from these by summarize.
struct SimulationStats {
  int games = 0;  // games played (a shard's: its own)
  int players = 0;
  int errors = 0;
  // The first few errors, by the game's index in the whole run (from 0), in game order.
  std::vector<std::pair<int, std::string>> first_errors;
  static constexpr size_t errors_kept = 5;
  // [seat][k - 1]: the games the seat won as one of k winners (k = 1: outright).
  std::vector<std::vector<int64_t>> wins_by_winners;
  std::vector<Counts> scores;  // [seat]: final score -> games (games without error)
  Counts lengths;              // decisions in a game -> games
  // The winner's margin: the best score among the winners minus the best among the
  // others, in each game with both winners and others -> games.
  Counts margins;
  // By action (Game::actions) and by card: the decisions that chose it (as the action, or
  // as one of the decision's parameters), and the decisions at which it was legal (some
  // legal decision had it).
  std::vector<int64_t> action_chosen, action_legal, card_chosen, card_legal;
  // Lead changes in a game -> games (the leader: the one seat with the highest score
  // after a decision; with a tie for the highest, no one leads and the lead has not changed).
  Counts lead_changes;
  // Games with one leader at mid-game (after half the game's decisions, rounded down),
  // and those of them the leader won (alone or shared).
  int64_t midgame_leader_games = 0, midgame_leader_wins = 0;

  // Worked out by summarize() from the counts above.
  std::vector<std::string> error_messages;  // "game N: message", N from 1
  std::vector<double> wins;                 // by seat; a shared win counts 1/k (win_share)
  std::vector<int> outright_wins;
  std::vector<double> score_mean, score_min, score_max, score_stdev;
  double length_mean = 0, length_min = 0, length_max = 0;
  std::vector<std::pair<int64_t, int>> score_histogram;  // all seats: score -> count
  std::vector<std::string> invariant_failures;
};

// Fills the figures of `st` worked out from its counts.
void summarize(SimulationStats& st);

// Adds the counts of `from` (other games of the same run) to `into`, and summarizes it;
// false when they cannot be added (different player counts).
bool merge_stats(SimulationStats& into, const SimulationStats& from);

// Which games of a run of `games` a shard plays: shard `index` (from 0) of `count` plays
// indexes index, index + count, ...; how many that is.
int shard_games(int games, int index, int count);

// The most threads simulate and arena play on (--jobs): each holds its games' states and
// a stack, and more than a machine's cores make nothing faster.
inline constexpr int max_jobs = 64;

// Thrown by simulate and arena when the threads asked for cannot be started (too little
// memory, a limit on processes): what the system said, and how many did start.
struct ThreadsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Plays `games` games. Without `agents`, every seat picks at random, on the fast path (no
// agents, no views, no events). With them, seat p is played by `agents[p]`, made with
// `make` for each game, through play_match (check_invariants is then not available).
// With `shards` > 1, plays only the games of shard `shard` (from 0) of the run (see
// shard_games), each with the seed it has in the whole run. Without `per_decision`, the
// statistics of each decision (action and card uses, leads) are left out and the fast
// path plays each game in one call (play_randomly: compiled code's own playout).
SimulationStats simulate(const Game& g, int games, int players, uint64_t seed,
                         const std::vector<int64_t>& options, int jobs, bool check_invariants,
                         const Progress& progress = {}, const std::vector<std::string>& agents = {},
                         const AgentMaker& make = {}, int shard = 0, int shards = 1,
                         bool per_decision = true);

// Two ways of playing a game compared (kata compare): game i of A and game i of B are
// played on the same seed (common random numbers) by the same agents, so that what differs
// between them is the rules, not the luck of the draw. Each side's own statistics are
// those kata simulate reports; the paired figures are over the games i that neither side
// stopped with an error (and, for each figure, where both sides have it).
struct ComparisonStats {
  SimulationStats a, b;
  int64_t pairs = 0;               // games i without an error on either side
  std::vector<Paired> win, score;  // by seat: the win share (1/k of a shared win), the score
  Paired length;                   // decisions
  Paired margin;                   // games where both have a winner's margin
  Paired lead_changes;             // games of scored rule files (both)
  Paired midgame_leader_won;  // 1 when the leader at mid-game won; games with one on both sides
  // Shares of the decisions where an action or a card was legal that chose it, by name:
  // A's names in their order, then those of B that A does not have (a card's name without
  // its copy number: the copies of a card are one row).
  struct Row {
    std::string name;
    PairedShare share;
  };
  std::vector<Row> actions, cards;
};

// Plays `games` pairs of games: A is `ga` with `options_a`, B is `gb` with `options_b`,
// both with `players` seats (which both must allow) and, like simulate, random bots on
// the fast path unless `agents` are named (made for each side's game by make_a, make_b).
// The result does not depend on `jobs`.
ComparisonStats compare(const Game& ga, const std::vector<int64_t>& options_a, const Game& gb,
                        const std::vector<int64_t>& options_b, int games, int players,
                        uint64_t seed, int jobs, const Progress& progress = {},
                        const std::vector<std::string>& agents = {}, const AgentMaker& make_a = {},
                        const AgentMaker& make_b = {});

// One agent of an arena's list, over all the games it played.
struct ArenaEntry {
  std::string spec;
  int games = 0;    // games it played that ended without error
  double wins = 0;  // a shared win counts 1/k (win_share)
  int outright_wins = 0;
  Summary score;          // its final score in each of those games
  int64_t decisions = 0;  // decisions it made in them
  double seconds = 0;     // time spent in its Agent::choose, in them
  // A search bot's decisions sampled from states consistent with the history, and those
  // that fell back to determinizations of the present (MatchResult).
  int64_t consistent = 0, fell_back = 0;
};

struct ArenaStats {
  int games = 0, players = 0, errors = 0;
  bool rotate = false;
  std::vector<std::string> error_messages;  // the first few
  std::vector<ArenaEntry> entries;          // in the order of the list of agents
  Summary length;                           // decisions per game
};

// Which agent of the list (one per seat) plays `seat` in game `i`: the seat's own, or,
// rotating, the list rotated by i: agent (seat + i) mod players. Over any `players`
// consecutive games each agent plays each seat once.
int seated_agent(int i, int seat, int players, bool rotate);

// Plays `games` games among `agents` (one spec per seat; the same spec twice is two
// entries), made with `make` for each game.
ArenaStats arena(const Game& g, int games, uint64_t seed, const std::vector<int64_t>& options,
                 int jobs, const std::vector<std::string>& agents, bool rotate,
                 const AgentMaker& make, const Progress& progress = {});

}  // namespace kata
