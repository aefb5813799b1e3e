// What the rule files in rules/ put on a player's screen: the page of a view
// (describe_view), played through whole games. The rules of what a page may show are in
// docs/language.md §2.5.1; these tests hold the four games to them.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "support.hpp"

using namespace kata;

namespace {

// Every page P1 is shown in a random game of `file` with `players`, from the start to the
// end, joined.
std::string pages(const std::string& file, int players, uint64_t seed) {
  auto l = kata::test::load_file(file);
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, players, seed, default_options(g));
  std::string out;
  std::vector<Decision> legal;
  uint64_t rng = seed;
  while (s.status() == Status::waiting) {
    out += describe_view(g, make_view(g, s, 0));
    legal_decisions(g, s, legal);
    apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
  }
  return out + describe_view(g, make_view(g, s, 0));
}

}  // namespace

TEST_CASE("the screens of Kenjin leave out its bookkeeping variables", "[screens]") {
  for (uint64_t seed : {1, 2}) {
    std::string all = pages("rules/kenjin.yaml", 3, seed);
    for (const char* name : {"seat_a", "seat_b", "conqueror", "port_bonus", "camp_bonus", "supplied"})
      CHECK_FALSE(kata::test::has(all, name));
    // What a player reads stays: the victory points.
    CHECK(kata::test::has(all, "vp="));
  }
}
