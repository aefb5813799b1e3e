// Move-generation counts ("perft", as chess programs call them): how many sequences of
// exactly `depth` decisions can be played from a state. They pin a game's legal moves
// down to a number a test can assert and a person can check by hand at depth 1.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/engine.hpp"

namespace kata {

// The number of sequences of `depth` legal decisions from `s`, whoever makes them. A game
// that ends before `depth` decisions adds nothing (like a mate in chess perft); depth 0
// counts 1. `per_depth`, when given, receives the count at each depth 1..depth.
uint64_t perft(const Game& g, const State& s, int depth, std::vector<uint64_t>* per_depth = nullptr);

}  // namespace kata
