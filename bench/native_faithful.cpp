// Kobayakawa, played decision for decision as the interpreter plays rules/kobayakawa.yaml.
// Zones are arrays kept bottom first ("top" is the last element), exactly as the interpreter
// stores them, because the shuffle permutes positions of that array. See native_faithful.hpp.
#include "native_faithful.hpp"

#include <utility>

namespace native_faithful {

namespace {

constexpr int card_count = 15;  // card ids 0..14, value id + 1
constexpr int starting_kamons = 4;
constexpr int centre_kamons = 8;
constexpr int final_stake = 2;

// The interpreter's generator (runtime/state.hpp): splitmix64 ...
inline uint64_t next_random(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// ... and its uniform integer in [0, n) (Lemire's method).
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

struct Pile {
  int8_t cards[card_count];
  int size = 0;
  void push(int c) { cards[size++] = static_cast<int8_t>(c); }
  int pop() { return cards[--size]; }
  int top() const { return cards[size - 1]; }
};

}  // namespace

Result playout(int players, uint64_t seed) {
  const int n = players;
  uint64_t rng = seed;
  next_random(rng);  // the interpreter's new_game decorrelates nearby seeds
  uint64_t choice_rng = seed ^ 0xa0761d6478bd642fULL;
  int decisions = 0;
  auto choose = [&](uint32_t options) {
    ++decisions;
    return uniform(choice_rng, options);
  };

  Pile deck, kobayakawa, hand[max_players], discard[max_players];
  for (int c = 0; c < card_count; ++c) deck.push(c);
  int kamons[max_players], stake[max_players];
  bool fought[max_players], alive[max_players];
  for (int p = 0; p < n; ++p) {
    kamons[p] = starting_kamons;
    stake[p] = 0;
    fought[p] = false;
    alive[p] = true;
  }
  int centre = centre_kamons, removed = 0, round = 0, first = 0, alive_count = n;
  int order[max_players], k = 0;  // alive players from `first`, rebuilt each round

  while (centre != 0 && alive_count > 1) {
    ++round;
    k = 0;
    for (int i = 0; i < n; ++i) {
      int p = (first + i) % n;
      if (alive[p]) order[k++] = p;
    }

    // deal
    for (int p = 0; p < n; ++p) {
      for (int i = 0; i < hand[p].size; ++i) deck.push(hand[p].cards[i]);
      hand[p].size = 0;
      for (int i = 0; i < discard[p].size; ++i) deck.push(discard[p].cards[i]);
      discard[p].size = 0;
    }
    for (int i = 0; i < kobayakawa.size; ++i) deck.push(kobayakawa.cards[i]);
    kobayakawa.size = 0;
    for (int i = deck.size - 1; i > 0; --i)
      std::swap(deck.cards[i], deck.cards[uniform(rng, static_cast<uint32_t>(i + 1))]);
    for (int i = 0; i < k; ++i) hand[order[i]].push(deck.pop());
    kobayakawa.push(deck.pop());

    // draw: flip | draw, then discard one of the two cards in hand order
    for (int i = 0; i < k; ++i) {
      int p = order[i];
      if (choose(2) == 0) {
        kobayakawa.push(deck.pop());
      } else {
        Pile& h = hand[p];
        h.push(deck.pop());
        // The hand is a set: it keeps its cards in card order.
        if (h.cards[0] > h.cards[1]) std::swap(h.cards[0], h.cards[1]);
        int j = static_cast<int>(choose(2));
        discard[p].push(h.cards[j]);
        if (j == 0) h.cards[0] = h.cards[1];
        h.size = 1;
      }
    }

    // bet: fight | pass (fight only with kamons left)
    const int prize = centre > final_stake ? 1 : final_stake;
    for (int i = 0; i < k; ++i) {
      int p = order[i];
      bool fight = kamons[p] > 0 ? choose(2) == 0 : (choose(1), false);
      if (fight) {
        stake[p] = kamons[p] < prize ? kamons[p] : prize;
        kamons[p] -= stake[p];
        fought[p] = true;
      } else {
        fought[p] = false;
      }
    }

    // combat
    int fighters = 0, lowest = 0, pot = 0;
    for (int i = 0; i < k; ++i) {
      int p = order[i];
      pot += stake[p];
      if (!fought[p]) continue;
      int v = hand[p].top() + 1;
      if (fighters == 0 || v < lowest) lowest = v;
      ++fighters;
    }
    if (fighters == 0) {
      removed += prize;
      centre -= prize;
    } else {
      const int bonus = kobayakawa.top() + 1;
      int winner = -1, best = 0;
      for (int i = 0; i < k; ++i) {
        int p = order[i];
        if (!fought[p]) continue;
        int v = hand[p].top() + 1;
        int strength = v + (v == lowest ? bonus : 0);
        if (winner < 0 || strength > best) winner = p, best = strength;
      }
      kamons[winner] += pot + prize;
      centre -= prize;
      first = winner;
    }
    for (int i = 0; i < k; ++i) {
      int p = order[i];
      stake[p] = 0;
      fought[p] = false;
      if (kamons[p] == 0) alive[p] = false, --alive_count;
    }
  }
  (void)removed;
  (void)round;

  Result r{};
  for (int p = 0; p < n; ++p) r.kamons[p] = kamons[p];
  r.decisions = decisions;
  return r;
}

}  // namespace native_faithful
