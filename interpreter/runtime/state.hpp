// The game state: one flat vector of int32 slots laid out by the Game's Layout, so a copy
// is one allocation and a memcpy, and equality is a memcmp. Everything that changes during
// a game is here, including the program counter, the locals of the running effects and the
// random number generator; everything that does not is in the Game.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/game.hpp"

namespace kata {

struct State {
  std::vector<int32_t> slots;

  int32_t operator[](int i) const { return slots[i]; }
  Status status() const { return static_cast<Status>(slots[Layout::status]); }
  bool over() const { return status() == Status::over; }
  int chooser() const { return slots[Layout::chooser]; }
  int players() const { return slots[Layout::players]; }
  int decisions() const { return slots[Layout::decisions]; }
  bool operator==(const State& o) const = default;
};

// One legal choice: an action and the values of its parameters. A card parameter holds a
// card, or blind_card(z): "a card of set zone z that the chooser cannot see", drawn when
// the decision is applied.
struct Decision {
  int32_t action = -1;
  int32_t args[4] = {0, 0, 0, 0};
  bool operator==(const Decision& o) const = default;
};

constexpr int32_t blind_card(int zone) { return -2 - zone; }
constexpr bool is_blind(int32_t card) { return card <= -2; }
constexpr int blind_zone(int32_t card) { return -2 - card; }

// splitmix64: small, fast and well understood; its 64-bit state lives in two slots.
inline uint64_t next_random(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A uniform integer in [0, n), without modulo bias (Lemire's method).
inline uint32_t uniform(uint64_t& x, uint32_t n) {
  uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(next_random(x))) * n;
  uint32_t low = static_cast<uint32_t>(m);
  if (low < n) {
    uint32_t t = (0u - n) % n;
    while (low < t) {
      m = static_cast<uint64_t>(static_cast<uint32_t>(next_random(x))) * n;
      low = static_cast<uint32_t>(m);
    }
  }
  return static_cast<uint32_t>(m >> 32);
}

}  // namespace kata
