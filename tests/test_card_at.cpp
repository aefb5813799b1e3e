// A card looked up by the values of its kind's first properties, `cell(2, -1)`
// (docs/language.md §3.6): found in O(1) on a board's coordinates, none off the board or
// where `where:` left a hole, the same compiled; and the checker's and the loader's errors.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

// Each check sets a bit of the score when it holds: 127 is all of them.
const std::string grid = R"(game: Grid
players: 1
components:
  cell:
    each: {x: 1..4, y: -2..2}
    where: x != 3 or y != 0
    in: board
  tag:
    list: [{label: 7}, {label: 100000}, {label: -5}]
    name: "tag{index}"
    in: board
  card:
    each: {suit: [Sun, Moon], rank: 1..3}
    in: board
zones:
  board: {visibility: everyone, order: set}
variables:
  r: 0
flow: |
  if cell(2, -1) != none and cell(2, -1).x == 2 and cell(2, -1).y == -1 { r += 1 }
  if cell(3, 0) == none and cell(3, 1) != none { r += 2 }
  if cell(5, 0) == none and cell(0, 0) == none and cell(1, 3) == none and cell(1, -3) == none { r += 4 }
  if count(q in board where q.x > 0 and cell(q.x, q.y) == q) == 19 { r += 8 }
  if tag(100000) != none and tag(-5).label == -5 and tag(8) == none and tag(2147483647) == none { r += 16 }
  if card(Moon, 2).rank == 2 and card(Moon, 2).suit == Moon and card(Sun, 4) == none { r += 32 }
  let n = 0
  for k in 1..4 { if cell(k, k - 3) != none { n += 1 } }
  # (3, 0) is the hole.
  if n == 3 and cell(1 - 2147483647 - 2147483647, 1) == none { r += 64 }
scoring:
  score: r
)";

std::string with(std::string s, const std::string& from, const std::string& to) {
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a kind called with property values gives its card, or none", "[card_at]") {
  auto l = load_text(grid);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  State s = new_game(*l.game, 1, 1, default_options(*l.game));
  REQUIRE(s.over());
  CHECK(scores(*l.game, s) == std::vector<int64_t>{127});
  auto native = kata::test::compiled(l.game);
  State t = new_game(*native, 1, 1, default_options(*native));
  CHECK(scores(*native, t) == std::vector<int64_t>{127});
}

TEST_CASE("a lookup's errors: the number and type of values, values that name no one card, a per-player kind", "[card_at]") {
  auto l = load_text(with(grid, "  let n = 0\n", "  let n = cell(1, 2, 3).x + cell(true, 1).x\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "26:11: error: 'cell(...)' takes 1 to 2 values, of its first properties (x, y), not 3",
                            "26:34: error: argument 1 of 'cell' must be a number, but this is true or false"});
  // x alone does not tell the cells apart: found when the file is loaded.
  l = load_text(with(grid, "  let n = 0\n", "  let n = cell(2).x\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "26:11: error: 'cell 1' and 'cell 2' have the same x (1): 'cell(...)' needs values that name one card"});
  l = load_text(with(with(grid, "  card:\n", "  piece:\n    per_player: true\n    list: [{strength: 1}]\n  card:\n"),
                     "  let n = 0\n", "  let n = piece(1).strength\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "29:11: error: 'piece' has a copy for each seat, so values do not name one card; 'piece(...)' looks "
                            "up a kind that is not per_player"});
  // A function of the file with the kind's name is called instead.
  l = load_text("game: G\nplayers: 1\ncomponents:\n  cell: {each: {x: 1..2}, in: board}\nzones:\n  board: {visibility: everyone}\n"
                "functions:\n  cell(a): a * 10\nvariables:\n  r: 0\nflow: r = cell(2)\nscoring:\n  score: r\n");
  CHECK(l.messages() == std::vector<std::string>{});
  REQUIRE(l.game);
  State s = new_game(*l.game, 1, 1, default_options(*l.game));
  CHECK(scores(*l.game, s) == std::vector<int64_t>{20});
}
