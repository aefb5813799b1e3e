// Move-generation counts ("perft", as game-playing programs call them): how many sequences of
// exactly `depth` decisions, or turns, can be played from a state. They pin a game's legal
// moves down to a number a test can assert and a person can check by hand at depth 1.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/engine.hpp"

namespace kata {

// What perft counts a sequence of.
enum class PerftUnit : uint8_t {
  decision,  // each decision, whoever makes it
  // A turn: the decisions one seat makes in a row, until another seat is to choose or the
  // game ends (a capture of several jumps, made one jump at a time, is one turn). A seat
  // that chooses again right after its own turn, the other seat having had nothing to
  // choose, continues that turn.
  turn,
};

// The deepest perft the command line and scenarios ask for.
inline constexpr int max_perft_depth = 12;

// The number of sequences of `depth` legal decisions (or turns) from `s`, whoever makes
// them. A game that ends before `depth` adds nothing (as the usual published counts have
// it); depth 0 counts 1. `per_depth`, when given, receives the count at each depth
// 1..depth.
uint64_t perft(const Game& g, const State& s, int depth, std::vector<uint64_t>* per_depth = nullptr,
               PerftUnit unit = PerftUnit::decision);

// A perft checked against the counts it should give, which stops as soon as it cannot
// give them: once the count at some depth passes `at_most` there (`over_depth`, 0-based;
// `counts` are then partial), or once it has applied `max_positions` decisions
// (`out_of_positions`). Its work is bounded by the counts asked for and the limit, never
// by the game: what a scenario's untrusted `perft:` step runs.
struct BoundedPerft {
  std::vector<uint64_t> counts;  // at depths 1..at_most.size()
  int over_depth = -1;
  bool out_of_positions = false;
};
BoundedPerft perft_at_most(const Game& g, const State& s, const std::vector<uint64_t>& at_most,
                           uint64_t max_positions, PerftUnit unit = PerftUnit::decision);

}  // namespace kata
