// Hand-written, native C++ Connect Four and Breakthrough: the yardsticks kata's playouts of
// rules/connect4.yaml and rules/breakthrough.yaml are measured against (bench_classics.cpp).
// Both are bitboards, as fast game programs write them: Connect Four keeps each player's
// discs in a 64-bit word of 7 columns of 7 bits (6 cells and a guard bit, the usual
// layout), Breakthrough each player's pawns in a 64-bit word of 8 rows of 8 squares.
// A random playout lists the legal moves and picks one uniformly, as kata's random
// playouts do, with the splitmix64 generator of native_kobayakawa.hpp; the random stream
// is not kata's, so games match kata's in distribution, not seed for seed. perft counts
// the move sequences of each length, which tests/test_perft.cpp checks against the
// published figures, so the twins are known to play the rule files' games.
#pragma once

#include <cstdint>
#include <vector>

namespace native_classics {

// The end of one random game: its winner (0 for the first player, 1 for the second, -1
// for a draw) and the moves made.
struct Result {
  int winner = -1;
  int moves = 0;
};

namespace connect4 {

// Plays one random game from the empty grid, the first player first.
Result playout(uint64_t seed);

// The number of move sequences of each length 1..depth from the empty grid (a won game
// stops: its sequences go no deeper).
std::vector<uint64_t> perft(int depth);

}  // namespace connect4

namespace breakthrough {

// Plays one random game from the set-up (two rows of pawns each), the first player first.
Result playout(uint64_t seed);

// As connect4::perft, from the set-up.
std::vector<uint64_t> perft(int depth);

}  // namespace breakthrough

}  // namespace native_classics
