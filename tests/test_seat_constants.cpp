// Per-seat constants (docs/language.md §2.5): a per_player variable's `initial:` as a list,
// one value for each seat, and `constant: true`, which no statement may assign; interpreted
// and compiled alike, and the checker's errors.
#include <catch2/catch.hpp>
#include <fmt/format.h>

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

TEST_CASE("a player's initial value naming a seat the game does not have stops the set-up there", "[seat_constants]") {
  // Neither value is read by the flow: the set-up itself refuses them, at the value.
  const std::string text = R"(game: Seats
players: 2..4
variables:
  partner: {per_player: true, type: player, initial: [P2, P1, P4, P3], constant: true}
  single: {type: player, initial: P1}
  marked: {per: card, type: player}
components:
  card: {each: {value: 1..2}, in: deck}
zones:
  deck: {visibility: nobody}
flow: |
  choose P1: go
actions:
  go: ""
scoring:
  score: 0
)";
  auto failure = [](const std::string& t, int players) -> std::string {
    auto l = load_text(t);
    INFO(Catch::Detail::stringify(l.messages()));
    REQUIRE(l.game);
    std::string said[2];
    for (bool compiled : {false, true}) {
      auto g = compiled ? kata::test::compiled(l.game) : l.game;
      try {
        new_game(*g, players, 1, default_options(*g));
      } catch (const RuntimeError& e) {
        said[compiled] = fmt::format("{}:{}: {}", e.pos.line, e.pos.col, e.what());
      }
    }
    CHECK(said[0] == said[1]);
    return said[0];
  };
  CHECK(failure(text, 4) == "");
  CHECK(failure(text, 3) == "4:63: there is no player 4");  // P3's value
  CHECK(failure(text, 2) == "");                             // only P1's and P2's are set up
  CHECK(failure(kata::test::with("initial: [P2, P1, P4, P3]", "initial: [P3, P4, P1, P2]", text), 2) ==
        "4:55: there is no player 3");
  CHECK(failure(kata::test::with("initial: P1", "initial: P4", text), 3) == "5:35: there is no player 4");
  CHECK(failure(kata::test::with("type: player}", "type: player, initial: P3}", text), 2) == "6:46: there is no player 3");
  // none is no seat, and allowed.
  CHECK(failure(kata::test::with("initial: P1", "initial: none", text), 2) == "");
}
