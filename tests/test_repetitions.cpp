// Positions that come back (docs/language.md §4.6.1): repetitions() counts the earlier
// decisions made in the current position, a card standing for any of its copies, a set's
// cards in any order, a stack's in its own, a `position: false` variable left out, and at
// most limits.positions remembered; interpreted and compiled alike, also in compiled
// playouts; and the checker's errors.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

// Two Stones (copies) and a Gem move between a set and a stack; the game ends when a
// position stands for the fourth time. The score tells repetitions() now, and `last`
// what it was at the start of the turn.
const std::string shuttle = R"(game: Shuttle
players: 2
components:
  stone: {list: [{name: Stone, count: 2}, {name: Gem}], in: left}
zones:
  left: {visibility: everyone, order: set}
  right: {visibility: everyone}
variables:
  mover: {type: player, initial: P1}
  moves: {initial: 0, position: false}
  last: {initial: 0, position: false}
limits:
  positions: 16
flow: |
  repeat until repetitions() >= 3 {
    last = repetitions()
    choose mover: shift | back | pass
    moves += 1
    mover = next(mover)
  }
actions:
  shift: {params: {c: left}, do: move c to right}
  back: {params: {c: right}, do: move c to left}
  pass: {}
scoring:
  score: repetitions() * 1000 + moves
)";

int64_t repeats(const Game& g, const State& s) { return scores(g, s)[0] / 1000; }

}  // namespace

TEST_CASE("repetitions() counts the decisions made in the position the game stands in", "[repetitions]") {
  auto l = load_text(shuttle);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    INFO("compiled: " << compiled);
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    auto after = [&](const std::vector<std::string>& d) { return repeats(*g, kata::test::play(*g, 2, d)); };
    CHECK(after({}) == 0);
    // The same cards with the other player to move: another position.
    CHECK(after({"pass"}) == 0);
    // `moves` changed, but is not part of the position.
    CHECK(after({"pass", "pass"}) == 1);
    CHECK(after({"pass", "pass", "pass", "pass"}) == 2);
    // A fourth time ends the game, before the choice.
    State end = kata::test::play(*g, 2, {"pass", "pass", "pass", "pass", "pass", "pass"});
    CHECK(end.over());
    CHECK(scores(*g, end)[0] == 3006);
    // One Stone or the other on the stack: copies are alike.
    CHECK(after({"shift Stone1", "back Stone1", "shift Stone2"}) == 1);
    // A set's cards in any order; a stack's in its own: Stone under the Gem is not the
    // Gem under it.
    CHECK(after({"shift Stone1", "shift Gem"}) == 0);
    CHECK(after({"shift Stone1", "shift Gem", "back Stone1", "shift Stone1"}) == 0);
    CHECK(after({"shift Gem", "shift Stone1", "back Stone1"}) == 1);
  }
}

TEST_CASE("repetitions() remembers the last limits.positions decisions", "[repetitions]") {
  auto four = std::vector<std::string>{"pass", "pass", "pass", "pass"};
  for (auto [cap, want] : {std::pair{16, 2}, std::pair{3, 1}, std::pair{2, 1}, std::pair{1, 0}}) {
    INFO("positions: " << cap);
    auto l = load_text(kata::test::with("positions: 16", fmt::format("positions: {}", cap), shuttle));
    REQUIRE(l.game);
    for (bool compiled : {false, true}) {
      auto g = compiled ? kata::test::compiled(l.game) : l.game;
      CHECK(repeats(*g, kata::test::play(*g, 2, four)) == want);
    }
  }
}

TEST_CASE("a game that remembers positions plays alike interpreted and compiled, playouts too", "[repetitions][native]") {
  auto l = load_text(shuttle);
  REQUIRE(l.game);
  auto native = kata::test::compiled(l.game);
  for (uint64_t seed = 1; seed <= 40; ++seed) kata::test::lockstep(*l.game, *native, 2, seed, default_options(*l.game));
  // A game that never calls repetitions() keeps no positions.
  std::string none = kata::test::with("repeat until repetitions() >= 3", "repeat until moves >= 9", shuttle);
  none = kata::test::with("last = repetitions()", "last = 0", none);
  auto plain = load_text(kata::test::with("repetitions() * 1000 + moves", "moves", none));
  REQUIRE(plain.game);
  CHECK(plain.game->layout.history_cap == 0);
  CHECK(l.game->layout.history_cap == 16);
  // A program large enough that compiled code is written in chunks (native/codegen.cpp,
  // whole_size), whose playouts draw each site's decision in a function of its own.
  std::string bulk = "phases:\n  bulk: |\n";
  for (int i = 0; i < 1500; ++i) bulk += fmt::format("    last = last + {}\n", i % 7);
  std::string large = kata::test::with("flow: |\n", "flow: |\n  phase bulk\n", shuttle) + bulk;
  large = kata::test::with("repeat until repetitions() >= 3 {\n    last = repetitions()", "repeat until repetitions() >= 3 {", large);
  auto big = load_text(large);
  INFO(Catch::Detail::stringify(big.messages()));
  REQUIRE(big.game);
  auto big_native = kata::test::compiled(big.game);
  for (uint64_t seed = 1; seed <= 10; ++seed) kata::test::lockstep(*big.game, *big_native, 2, seed, default_options(*big.game));
}

TEST_CASE("the checker refuses a repetitions() or a positions: it cannot use", "[repetitions][check]") {
  auto errors = [](const std::string& from, const std::string& to) { return kata::test::refused(from, to, shuttle); };
  CHECK_THAT(errors("repeat until repetitions() >= 3", "repeat until repetitions(mover) >= 3"),
             Catch::Contains("'repetitions' takes 0 arguments, not 1"));
  CHECK_THAT(errors("positions: 16", "positions: 0"), Catch::Contains("positions must be 1 to 4096"));
  CHECK_THAT(errors("positions: 16", "positions: 4097"), Catch::Contains("positions must be 1 to 4096"));
  CHECK_THAT(errors("moves: {initial: 0, position: false}", "moves: {initial: 0, position: maybe}"),
             Catch::Contains("position"));
  CHECK_THAT(errors("positions: 16", "position: 16"), Catch::Contains("did you mean 'positions'"));
}
