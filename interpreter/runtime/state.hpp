// The game state: one flat vector of int32 slots laid out by the Game's Layout, so a copy
// is one allocation and a memcpy, and equality is a memcmp. Everything that changes during
// a game is here, including the program counter, the locals of the running effects and the
// random number generator; everything that does not is in the Game.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/game.hpp"
#include "runtime/kernel.hpp"

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

// next_random and uniform (the generator every chance draws from) are the kernel's
// (runtime/kernel.hpp), shared with compiled code.

}  // namespace kata
