// Determinizations (runtime/determinize.hpp), for every rule file in rules/: at random
// points of random games, for each seat, a determinization is a state the seat cannot
// tell from the true one: the same view; every card once, in play where it was in play;
// each card the seat sees where it is; the same zone sizes; a new random generator. And it
// is made from what the seat knows only: two states that differ only in which hidden card
// (of a kind and owner) lies where give the same determinization for the same generator.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck/catch.h>

#include <catch2/catch.hpp>
#include <iostream>

#include "runtime/determinize.hpp"
#include "support.hpp"

using namespace kata;

namespace {

// Where each card lies: zone and position, checking that no card is in two places.
std::vector<std::pair<int, int>> places(const Game& g, const State& s) {
  const Layout& l = g.layout;
  std::vector<std::pair<int, int>> at(g.card_count, {-1, -1});
  for (size_t z = 0; z < g.instance_zone.size(); ++z)
    for (int i = 0; i < s[l.zone_size + static_cast<int>(z)]; ++i) {
      int c = s[l.zone_cards + static_cast<int>(z) * g.card_count + i];
      RC_ASSERT(at[c].first == -1);
      at[c] = {static_cast<int>(z), i};
    }
  for (int c = 0; c < g.card_count; ++c) RC_ASSERT(s[l.card_zone + c] == at[c].first);
  return at;
}

struct Counts {
  int states = 0, dealt = 0;
};

void check_point(const Game& g, const State& s, int seat, uint64_t seed, Counts& n) {
  const Layout& l = g.layout;
  uint64_t rng = seed;
  State d;
  determinize(g, s, seat, rng, d);
  ++n.states;
  RC_ASSERT(make_view(g, d, seat) == make_view(g, s, seat));
  auto truth = places(g, s), dealt = places(g, d);
  for (size_t z = 0; z < g.instance_zone.size(); ++z)
    RC_ASSERT(d[l.zone_size + static_cast<int>(z)] == s[l.zone_size + static_cast<int>(z)]);
  for (int c = 0; c < g.card_count; ++c) {
    // The same cards in play (so the same multiset of cards), and those the seat sees
    // where they are, as they are.
    RC_ASSERT((truth[c].first >= 0) == (dealt[c].first >= 0));
    if (truth[c].first >= 0 && visible(g, s, seat, c)) {
      // In a set, which keeps card order, its position may change with the hidden cards
      // dealt there: the seat knows only that it is in the set (the view lists it so).
      RC_ASSERT(dealt[c].first == truth[c].first);
      if (!g.instance_set[truth[c].first]) RC_ASSERT(dealt[c].second == truth[c].second);
      RC_ASSERT(d[l.card_face + c] == s[l.card_face + c]);
      RC_ASSERT(visible(g, d, seat, c));
    } else if (truth[c].first >= 0) {
      RC_ASSERT(!visible(g, d, seat, c));
      n.dealt += dealt[c] != truth[c];
    }
  }
  RC_ASSERT((d[Layout::rng_hi] != s[Layout::rng_hi] || d[Layout::rng_lo] != s[Layout::rng_lo]));
  // What the seat cannot know changes nothing.
  uint64_t r = seed ^ 0x2545f4914f6cdd1dULL;
  State twin = rename_cards(g, s, kata::test::hidden_renaming(g, s, seat, r));
  RC_ASSERT(make_view(g, twin, seat) == make_view(g, s, seat));
  uint64_t rng2 = seed;
  State d2;
  determinize(g, twin, seat, rng2, d2);
  RC_ASSERT(d2 == d);
  RC_ASSERT(rng2 == rng);
}

}  // namespace

TEST_CASE("a determinization is a state the seat cannot tell from the true one",
          "[properties][determinize]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    Counts n;
    rc::prop(g->path + ": determinizations", [&, g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      int lead_in = *rc::gen::inRange(0, 60);
      State s = new_game(*g, players, seed, kata::test::random_options(*g, players));
      uint64_t rng = seed ^ 0x5bd1e995u;
      kata::test::random_steps(*g, s, lead_in, rng);
      for (int seat = 0; seat < players; ++seat)
        check_point(*g, s, seat, rng + static_cast<uint64_t>(seat), n);
    });
    // Where the game hides cards, the property must have dealt some elsewhere. (Catch runs
    // the test case once for each property, so only one of them counted here.)
    if (n.states > 0 && hides_information(*g)) CHECK(n.dealt > kata::test::per_cases(100));
    if (n.states > 0)
      std::cout << fmt::format("{}: {} determinizations, {} cards dealt elsewhere\n", g->path,
                               n.states, n.dealt);
  }
}

TEST_CASE("the seat's own hidden cards and the others' stay with their owners", "[determinize]") {
  // A per-seat kind: three seats' cards in their hands, seen only by their owners, and a
  // shared face-down pile. P1's view of a determinization has its own hand as it is, and
  // P2's cards stay in P2's hand.
  auto l = kata::test::load_text(R"(game: Hands
players: 3
components:
  unit:
    per_player: true
    list: [{name: Guard, count: 3}, {name: Scout, count: 2}]
    name: "{owner} {name}{copy}"
    in: hand
  token: {each: {value: 1..6}, name: "t{value}", in: pile}
zones:
  hand: {per_player: true, visibility: owner, order: set}
  pile: {visibility: nobody}
flow: |
  shuffle pile
  choose P1: pass
actions:
  pass:
    do: move top(pile) to player.hand
scoring:
  score: 0
)");
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 3, 5, default_options(g));
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    uint64_t rng = seed;
    State d;
    determinize(g, s, 0, rng, d);
    CHECK(make_view(g, d, 0) == make_view(g, s, 0));
    for (int c = 0; c < g.card_count; ++c) {
      int z = d[g.layout.card_zone + c];
      if (g.card_owner[c] >= 0) CHECK(g.instance_owner[z] == g.card_owner[c]);
    }
  }
  CHECK(hides_information(g));
}
