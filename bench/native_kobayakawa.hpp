// A hand-written, native C++ playout of Kobayakawa: the yardstick the benchmark measures the
// interpreter against. It plays the rules the way the rule file in rules/ is to implement them
// (the French rulebook plus the decisions in rulebooks/NOTES.md): 3 to 6 players, 4 kamons each
// and 8 in the centre, a round per centre kamon (the last round stakes and pays 2), combat ties
// to whoever acts first, eliminated players skipped. Every decision is a uniform random choice
// among its two legal options, as a random agent would make it; the random stream itself is
// not the interpreter's, so games match in distribution, not seed for seed. The state is one
// flat struct of small integers and nothing allocates. What this file leaves to others: agents
// other than random play, event logs, views, and anything to do with rule files.
#pragma once

#include <array>
#include <cstdint>

namespace native_kobayakawa {

inline constexpr int min_players = 3;
inline constexpr int max_players = 6;
inline constexpr int card_count = 15;  // cards valued 1..15
inline constexpr int start_kamons = 4;
inline constexpr int start_centre = 8;

// splitmix64 (Steele, Lea, Flood): one 64-bit word of state, a few cycles per number.
// Used for the shuffle and for every random choice.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // A uniform integer in [0, n), n >= 1, without bias (Lemire's multiply-and-reject; for the
  // small n used here the rejection loop almost never runs).
  uint32_t below(uint32_t n) {
    uint64_t m = (next() >> 32) * n;
    if (static_cast<uint32_t>(m) < n) {
      const uint32_t threshold = (0u - n) % n;
      while (static_cast<uint32_t>(m) < threshold) m = (next() >> 32) * n;
    }
    return static_cast<uint32_t>(m >> 32);
  }

 private:
  uint64_t state_;
};

// The whole game between rounds. Seats are 0..players-1, clockwise.
struct State {
  int8_t players = 0;
  int8_t centre = 0;       // kamons still in the centre; counts the rounds down
  int8_t removed = 0;      // centre kamons that left the game in rounds nobody fought
  int8_t first = 0;        // seat of the first player
  int8_t alive_count = 0;  // players not eliminated
  uint8_t alive_mask = 0;  // bit s set: seat s is not eliminated
  std::array<int8_t, max_players> kamons{};
  int32_t decisions = 0;  // random choices made so far
  int32_t rounds = 0;     // rounds played so far
};

// The set-up: 4 kamons each, 8 in the centre, seat 0 first. players must be in 3..6.
State initial_state(int players);

// True once the centre is empty or at most one player is left.
inline bool is_over(const State& s) { return s.centre == 0 || s.alive_count <= 1; }

// Plays one whole round (deal, draw phase, bets, combat) with uniform random choices.
// Precondition: !is_over(s).
void play_round(State& s, Rng& rng);

// The end of one random game.
struct Result {
  std::array<int8_t, max_players> kamons{};  // final kamons per seat: the scores
  int players = 0;
  int decisions = 0;  // flip/draw choices, discards (after a draw only), fight/pass choices
  int rounds = 0;
};

// Plays one random game from the set-up to the end. players must be in 3..6.
Result playout(int players, uint64_t seed);

// The winners: bit s set when seat s has the most kamons (ties share the win).
uint32_t winners_mask(const Result& r);

}  // namespace native_kobayakawa
