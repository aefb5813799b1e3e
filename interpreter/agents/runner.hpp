// Playing games: one match with its agents (and optionally a log), and many random-bot
// matches in parallel for balance statistics. Results never depend on the number of
// threads: game i always uses the seed derived from (seed, i) and results are gathered
// in game order.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "log/log.hpp"

namespace kata {

struct MatchResult {
  State final;
  bool completed = false;  // false: an agent gave up (quit, or a script ran out)
  std::string stopped_by;  // why it stopped early
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

// describe_view of public_view, titled "as everyone sees it".
std::string describe_public_view(const Game& g, const State& s);


// The seed of game `i` of a simulation.
uint64_t game_seed(uint64_t seed, uint64_t i);

// One random playout, as fast as the runtime allows (no views, no events); returns the
// final state. The benchmark measures this.
State random_playout(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options);

struct SimulationStats {
  int games = 0;
  int players = 0;
  int errors = 0;
  std::vector<std::string> error_messages;  // the first few
  std::vector<double> wins;                 // by seat; a shared win counts 1/k
  std::vector<int> outright_wins;
  std::vector<double> score_mean, score_min, score_max, score_stdev;
  double length_mean = 0, length_min = 0, length_max = 0;
  std::vector<std::pair<int64_t, int>> score_histogram;  // all seats: score -> count
  std::vector<std::string> invariant_failures;
};

SimulationStats simulate(const Game& g, int games, int players, uint64_t seed,
                         const std::vector<int64_t>& options, int jobs, bool check_invariants,
                         const std::function<void(int done)>& progress = {});
// `progress` is called from the worker threads, one at a time, with counts that only grow;
// the last call has done == games.

}  // namespace kata
