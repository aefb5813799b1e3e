// Remembered positions, for `repetitions()`: a 64-bit hash of each position a decision was
// made in, in a ring of the state's slots (Layout::history), so that a state stays flat
// data. Two positions that differ share a hash with a chance of about 2^-64.
#include "runtime/engine.hpp"

namespace kata {

namespace {

// One value into the hash: a multiply and a rotation (the mixing of a Zobrist-free hash:
// any change of any value changes the result).
uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

uint64_t position_hash(const Game& g, const int32_t* s) {
  const Layout& l = g.layout;
  // Not the chooser nor the choice: between two decisions they are still the last one's,
  // and whose turn it is lies in the game's own variables.
  uint64_t h = 0;
  int instances = static_cast<int>(g.instance_zone.size());
  for (int z = 0; z < instances; ++z) {
    int n = s[l.zone_size + z];
    const int32_t* cards = s + l.zone_cards + z * g.card_count;
    h = mix(h, static_cast<uint32_t>(n));
    if (g.instance_set[z]) {
      // A set's cards as a multiset: copies of a card are alike wherever they stand in it.
      uint64_t sum = 0;
      for (int i = 0; i < n; ++i) sum += mix(1, static_cast<uint32_t>(g.card_class[cards[i]] * 2 + s[l.card_face + cards[i]]));
      h = mix(h, sum);
    } else {
      for (int i = 0; i < n; ++i) h = mix(h, static_cast<uint32_t>(g.card_class[cards[i]] * 2 + s[l.card_face + cards[i]]));
    }
  }
  for (int32_t slot : g.position_slots) h = mix(h, static_cast<uint32_t>(s[slot]));
  return h;
}

}  // namespace

void remember_position(const Game& g, int32_t* s) {
  const Layout& l = g.layout;
  if (l.history_cap == 0) return;
  uint64_t h = position_hash(g, s);
  int32_t& made = s[l.history];
  int32_t* entry = s + l.history + 1 + 2 * (made % l.history_cap);
  entry[0] = static_cast<int32_t>(h >> 32);
  entry[1] = static_cast<int32_t>(h);
  ++made;  // at most limits.decisions (10^8), so it never wraps
}

int64_t count_repetitions(const Game& g, const int32_t* s) {
  const Layout& l = g.layout;
  if (l.history_cap == 0) return 0;
  uint64_t h = position_hash(g, s);
  int32_t hi = static_cast<int32_t>(h >> 32), lo = static_cast<int32_t>(h);
  int made = s[l.history], kept = made < l.history_cap ? made : l.history_cap;
  int64_t count = 0;
  for (int i = 0; i < kept; ++i) {
    const int32_t* entry = s + l.history + 1 + 2 * i;
    count += entry[0] == hi && entry[1] == lo;
  }
  return count;
}

}  // namespace kata
