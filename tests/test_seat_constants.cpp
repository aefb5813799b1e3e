// Per-seat constants (docs/language.md §2.5): a per_player variable's `initial:` as a list,
// one value for each seat, and `constant: true`, which no statement may assign; interpreted
// and compiled alike, and the checker's errors.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

const std::string seats = R"(game: Seats
players: 2..4
options:
  base: {default: 10, min: 0, max: 100}
variables:
  forward: {per_player: true, initial: [1, -1, 2, -2], constant: true}
  partner: {per_player: true, type: player, initial: [P2, P1, P1, P2], constant: true}
  start: {per_player: true, initial: [base, base + 1, "base + 2", base * 2]}
  limit: {initial: base, constant: true}
  total: 0
flow: |
  for p in players { total += p.forward * 1000 + seat(p.partner) * 100 + p.start + limit }
scoring:
  score: total
)";

}  // namespace

TEST_CASE("a per-seat initial list gives each seat its value, interpreted and compiled", "[seat_constants]") {
  auto l = load_text(seats);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    INFO("compiled: " << compiled);
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    for (int n : {2, 3, 4}) {
      INFO(n << " players");
      State s = new_game(*g, n, 1, default_options(*g));
      REQUIRE(s.over());
      const int64_t forward[] = {1, -1, 2, -2}, partner[] = {2, 1, 1, 2}, start[] = {10, 11, 12, 20};
      int64_t want = 0;
      for (int p = 0; p < n; ++p) want += forward[p] * 1000 + partner[p] * 100 + start[p] + 10;
      CHECK(scores(*g, s)[0] == want);
    }
  }
  // A seat's value names a seat the game does not have: the set-up stops, as an initial
  // value naming one does.
  auto far = load_text(kata::test::with("initial: [P2, P1, P1, P2]", "initial: [P4, P1, P1, P2]", seats));
  REQUIRE(far.game);
  CHECK_THROWS_WITH(new_game(*far.game, 2, 1, default_options(*far.game)), Catch::Contains("there is no player 4"));
  CHECK(new_game(*far.game, 4, 1, default_options(*far.game)).over());
}

TEST_CASE("the checker refuses what a per-seat list or a constant cannot be", "[seat_constants][check]") {
  auto errors = [](const std::string& from, const std::string& to) { return kata::test::refused(from, to, seats); };
  auto m = errors("initial: [1, -1, 2, -2]", "initial: [1, -1]");
  CHECK_THAT(m, Catch::Contains("'forward' has 2 initial values, but the game has up to 4 seats: give one for each, P1's first"));
  m = errors("initial: [1, -1, 2, -2]", "initial: [1, -1, 2, -2, 3]");
  CHECK_THAT(m, Catch::Contains("'forward' has 5 initial values"));
  m = errors("forward: {per_player: true, initial: [1, -1, 2, -2]", "forward: {initial: [1, -1, 2, -2]");
  CHECK_THAT(m, Catch::Contains("'forward' has one initial value for each seat, which only a per_player variable has"));
  m = errors("initial: [P2, P1, P1, P2]", "initial: [P2, 4, P1, P2]");
  CHECK_THAT(m, Catch::Contains("P2's initial value of 'partner' must be a player, but this is a number"));
  m = errors("initial: [base, base + 1", "initial: [total, base + 1");
  CHECK_THAT(m, Catch::Contains("an initial value may use options, not variables"));
  m = errors("  for p in players {", "  P1.forward = 3\n  for p in players {");
  CHECK_THAT(m, Catch::Contains("'forward' is a constant (constant: true): it keeps its initial values"));
  m = errors("  for p in players {", "  limit += 1\n  for p in players {");
  CHECK_THAT(m, Catch::Contains("'limit' is a constant (constant: true): it keeps its initial value"));
  m = errors("  for p in players {", "  give 2 forward to P1\n  for p in players {");
  CHECK_THAT(m, Catch::Contains("'forward' is a constant"));
  m = errors("initial: [1, -1, 2, -2]", "initial: []");
  CHECK_THAT(m, Catch::Contains("a list of initial values needs one for each seat"));
  // A variable that is not constant may still be assigned, and a local of the same name too.
  CHECK(load_text(kata::test::with("  for p in players {", "  P1.start = 3\n  let limit = 4\n  limit = 5\n  for p in players {", seats)).game);
}
