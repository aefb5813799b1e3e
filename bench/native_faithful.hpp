// A plain native C++ playout of Kobayakawa that makes exactly the random choices the
// interpreter's kata::random_playout makes on rules/kobayakawa.yaml with default options: same
// splitmix64 streams (the game's for shuffles, the agent's for decisions), same zone orders,
// same legal-decision orders. For every seed and player count it ends with the same kamons and
// the same decision count as the interpreter, so it serves both as the fair benchmark yardstick
// and as a cross-check of the interpreter. Flat arrays, no allocation; standalone (it includes
// no interpreter header).
#pragma once

#include <cstdint>

namespace native_faithful {

inline constexpr int min_players = 3;
inline constexpr int max_players = 6;

struct Result {
  int kamons[max_players];  // final kamons per seat (0 for seats beyond `players`)
  int decisions;            // random choices made (flip/draw, discard, fight/pass)
};

// One whole random game of `players` (3..6) from `seed`.
Result playout(int players, uint64_t seed);

}  // namespace native_faithful
