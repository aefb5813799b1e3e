// Bots that search: `ismcts` (information-set Monte Carlo tree search over determinizations
// of what the seat knows), `mcts` (the same on the true state, for games that hide nothing,
// or as a cheating upper bound), and `greedy` (the best immediate score on a
// determinization). They decide from an InfoSet (runtime/determinize.hpp), never from the
// state, and draw only from their own generator: a game with them is reproducible.
// docs/agents.md describes them, their rewards and their budgets.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "agents/agent.hpp"
#include "runtime/determinize.hpp"

namespace kata {

// How much a search may do: a number of iterations, or a time (not reproducible).
struct SearchBudget {
  int iterations = 0;
  int milliseconds = 0;
};

// What a search did, for benchmarks and tests.
struct SearchStats {
  int iterations = 0;
  int failed = 0;  // iterations stopped by a runtime error in a determinization
  int nodes = 0;
};

// Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): each iteration samples a
// determinization from `info`, walks the tree by UCT among the children its legal
// decisions allow (counting each child's availability), adds one node, plays on at
// random and backs up the rewards: 1 for a win, 1/k each for a win shared by k seats, 0
// otherwise, each node for the seat that chose its decision. Returns the index, in
// info.legal(), of the root decision visited most. With a cheating InfoSet it is UCT on
// the true state (`mcts`).
int search_decision(const InfoSet& info, const SearchBudget& budget, uint64_t& rng,
                    SearchStats* stats = nullptr);

// The legal decision after which the seat's score is best (highest, or lowest where the
// lowest score wins; one that wins the game at once before any), applied to one
// determinization; ties broken at random. A game without a score compares wins only.
int greedy_decision(const InfoSet& info, uint64_t& rng);

// ismcts[:N|:Nms], mcts[:N|:Nms][:cheat], greedy. Null and `error` empty if `spec` names
// none of them; null and a message if it names one badly. With `game`, mcts refuses a
// game that hides information unless `cheat` is given (without it, at its first decision).
std::unique_ptr<Agent> make_search_agent(const std::string& spec, int seat, uint64_t seed,
                                         const Game* game, std::string& error);

}  // namespace kata
