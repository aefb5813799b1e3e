// The bitboards of native_classics.hpp. Each game is a few words of state, copied by value
// into perft's recursion; a playout allocates nothing.
#include "native_classics.hpp"

#include "native_kobayakawa.hpp"

namespace native_classics {

using native_kobayakawa::Rng;

// The index of the k-th set bit of m (k from 0; m has more than k bits set).
static int nth_bit(uint64_t m, uint32_t k) {
  for (; k > 0; --k) m &= m - 1;
  return __builtin_ctzll(m);
}

namespace connect4 {

namespace {

// Bit 7 * col + row is the cell of column col (0 to 6) and row row (0 to 5, from the
// bottom); bit 7 * col + 6 is a guard, never set, so lines do not run from one column
// into the next.
struct Grid {
  uint64_t discs[2] = {0, 0};
  int8_t height[7] = {0, 7, 14, 21, 28, 35, 42};  // the next free bit of each column
};

bool full(const Grid& g, int col) { return g.height[col] == 7 * col + 6; }

// Four in a line: along a column (shift 1), a row (7) and the two diagonals (6, 8).
bool four(uint64_t d) {
  for (int s : {1, 7, 6, 8}) {
    uint64_t m = d & (d >> s);
    if (m & (m >> (2 * s))) return true;
  }
  return false;
}

void count(const Grid& g, int side, int depth, int level, std::vector<uint64_t>& out) {
  for (int col = 0; col < 7; ++col) {
    if (full(g, col)) continue;
    ++out[level];
    if (level + 1 == depth) continue;
    Grid next = g;
    next.discs[side] |= uint64_t{1} << next.height[col]++;
    if (!four(next.discs[side])) count(next, side ^ 1, depth, level + 1, out);
  }
}

}  // namespace

Result playout(uint64_t seed) {
  Rng rng(seed);
  Grid g;
  Result r;
  for (int side = 0; r.moves < 42; side ^= 1) {
    int open[7], n = 0;
    for (int col = 0; col < 7; ++col)
      if (!full(g, col)) open[n++] = col;
    int col = open[rng.below(static_cast<uint32_t>(n))];
    g.discs[side] |= uint64_t{1} << g.height[col]++;
    ++r.moves;
    if (four(g.discs[side])) {
      r.winner = side;
      return r;
    }
  }
  return r;
}

std::vector<uint64_t> perft(int depth) {
  std::vector<uint64_t> out(depth, 0);
  if (depth > 0) count(Grid{}, 0, depth, 0, out);
  return out;
}

}  // namespace connect4

namespace breakthrough {

namespace {

// Bit 8 * row + col is the square of row row (0 to 7, from the first player's side) and
// column col (0 to 7). The first player's pawns go up the rows, the second's down.
struct Board {
  uint64_t pawns[2] = {0xffffULL, 0xffffULL << 48};
};

constexpr uint64_t not_first_col = ~0x0101010101010101ULL;
constexpr uint64_t not_last_col = ~0x8080808080808080ULL;

// Where side's pawns may go: straight on to an empty square, and to the column on each
// side to an empty square or onto an opposing pawn. `shift[k]` is how far a move of
// kind k goes (up for the first player, down for the second).
struct Moves {
  uint64_t to[3];
  int shift[3];
};

Moves moves(const Board& b, int side) {
  uint64_t own = b.pawns[side], empty = ~(b.pawns[0] | b.pawns[1]);
  if (side == 0)
    return {{(own << 8) & empty, ((own & not_first_col) << 7) & ~own,
             ((own & not_last_col) << 9) & ~own},
            {8, 7, 9}};
  return {
      {(own >> 8) & empty, ((own & not_first_col) >> 9) & ~own, ((own & not_last_col) >> 7) & ~own},
      {-8, -9, -7}};
}

// Moves side's pawn to square `to` from `to - shift`, taking what stands there; true if
// that wins: the far row reached, or the other side's last pawn taken.
bool play(Board& b, int side, int to, int shift) {
  uint64_t bit = uint64_t{1} << to;
  b.pawns[side] ^= bit | (uint64_t{1} << (to - shift));
  b.pawns[side ^ 1] &= ~bit;
  return (side == 0 ? to >= 56 : to < 8) || b.pawns[side ^ 1] == 0;
}

void count(const Board& b, int side, int depth, int level, std::vector<uint64_t>& out) {
  Moves m = moves(b, side);
  for (int k = 0; k < 3; ++k)
    for (uint64_t to = m.to[k]; to; to &= to - 1) {
      ++out[level];
      if (level + 1 == depth) continue;
      Board next = b;
      if (!play(next, side, __builtin_ctzll(to), m.shift[k]))
        count(next, side ^ 1, depth, level + 1, out);
    }
}

}  // namespace

Result playout(uint64_t seed) {
  Rng rng(seed);
  Board b;
  Result r;
  for (int side = 0;; side ^= 1) {
    Moves m = moves(b, side);
    int n0 = __builtin_popcountll(m.to[0]), n1 = __builtin_popcountll(m.to[1]);
    uint32_t k = rng.below(static_cast<uint32_t>(n0 + n1 + __builtin_popcountll(m.to[2])));
    int kind = k < static_cast<uint32_t>(n0) ? 0 : k < static_cast<uint32_t>(n0 + n1) ? 1 : 2;
    k -= kind == 0 ? 0 : kind == 1 ? n0 : n0 + n1;
    ++r.moves;
    // A side with a pawn always has a move: its most advanced pawn can go diagonally.
    if (play(b, side, nth_bit(m.to[kind], k), m.shift[kind])) {
      r.winner = side;
      return r;
    }
  }
}

std::vector<uint64_t> perft(int depth) {
  std::vector<uint64_t> out(depth, 0);
  if (depth > 0) count(Board{}, 0, depth, 0, out);
  return out;
}

}  // namespace breakthrough

}  // namespace native_classics
