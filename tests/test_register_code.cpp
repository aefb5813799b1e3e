// The register code (runtime/xcode.cpp): the expressions the machine and the listing of
// decisions work out run as jumps and registers, not by the tree walk. Values whose
// answers are known by hand, worked out three ways (register code, the tree walk alone,
// compiled code): `and`, `or` and `if`, each with a side that would fail if it were
// worked out, aggregates over each kind of list with eliminated players, empty
// lists and nesting. tests/test_native_nodes.cpp plays its rule files the three ways in
// lockstep, raises every runtime error each way, and checks that they hold every
// instruction of the register code.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "support.hpp"

using namespace kata;

namespace {

// Each value: its expression and the number it must come to.
const std::vector<std::pair<std::string, int64_t>> values = {
    {"if x == 0 or 1 / x > 0 then 3 else 4", 3},
    {"if x != 0 and 1 / x > 0 then 3 else 4", 4},
    {"if x > 0 or x + 1 > 0 then 3 else 4", 3},
    {"if x > 0 or x > 1 then 3 else 4", 4},
    {"if x == 0 and x + 1 == 1 then 3 else 4", 3},
    {"if (x == 0 and x < 1) == (x < 1 or x > 1) then 3 else 4", 3},
    {"if x == 0 then 4 else 1 / x", 4},
    {"if x != 0 then 1 / x else 6", 6},
    {"if not (x + 2 > 0) then 1 else 2", 2},
    {"if x > 0 then 1 else if x == 0 then 2 else 3", 2},
    {"sum(i for i in 1..4 where i != 2)", 8},
    {"count(p in players)", 2},
    {"count(p in all_players)", 3},
    {"sum(p.pts for p in all_players)", 21},
    {"seat(best(p.pts for p in players))", 3},
    {"seat(worst(p.pts for p in all_players))", 1},
    {"seat(find(p in players from P3))", 3},
    {"seat(find(p in players from P2 where p != P3))", 1},
    {"sum(seat(p) * 10 for p in players from P3) + count(p in players from P1 where p.pts > 6)", 41},
    {"if find(c in empty) == none then 1 else 0", 1},
    {"if best(c.v for c in empty) == none then 1 else 0", 1},
    {"if all(c.v > 9 for c in empty) then 1 else 0", 1},
    {"if all(c.v > 0 for c in deck) and not all(c.v > 1 for c in deck) then 1 else 0", 1},
    {"if any(c in deck where c.v == 5) and not any(c.v > 5 for c in deck) then 1 else 0", 1},
    {"min(c.v for c in deck where c.v > 2) * 10 + max(c.v for c in deck)", 35},
    {"min(c.v for c in empty) + max(i for i in 1..0)", 0},
    {"worst(c.v for c in deck).v * 10 + best(c.v for c in deck).v", 15},
    {"sum(sum(i * j for j in 1..i) for i in 1..3)", 25},
    {"count(i in 1..3 where any(j > i for j in 1..3))", 2},
    {"sum(count(q in players where q.pts > p.pts) for p in all_players)", 1},
    {"size(deck) * 10 + size(empty)", 50},
    {"min(x + 4, 3) * 10 + max(x - 1, -5)", 29},
};

std::string game_text() {
  std::string text = R"(game: Values
players: 3
components:
  card: {each: {v: 1..5}, in: deck}
zones:
  deck: {visibility: everyone}
  empty: {visibility: everyone}
variables:
  x: 0
  pts: {per_player: true}
)";
  for (size_t i = 0; i < values.size(); ++i) text += fmt::format("  r{}: 0\n", i);
  text += "flow: |\n  P1.pts = 5\n  P2.pts = 9\n  P3.pts = 7\n  eliminate P2\n";
  for (size_t i = 0; i < values.size(); ++i) text += fmt::format("  r{} = {}\n", i, values[i].first);
  return text;
}

}  // namespace

TEST_CASE("register code works out values as the tree walk and compiled code do", "[xcode]") {
  auto l = test::load_text(game_text());
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  REQUIRE(!l.game->program.xcode.empty());
  for (int way = 0; way < 3; ++way) {
    auto g = way == 0 ? l.game : way == 1 ? test::tree_walked(*l.game) : test::compiled(l.game);
    INFO((way == 0 ? "register code" : way == 1 ? "tree walk" : "compiled"));
    State s = new_game(*g, 3, 1, default_options(*g));
    REQUIRE(s.over());
    int32_t first = g->layout.globals + 1;  // after x
    for (size_t i = 0; i < values.size(); ++i) {
      INFO(values[i].first);
      CHECK(s[first + static_cast<int32_t>(i)] == values[i].second);
    }
  }
}
