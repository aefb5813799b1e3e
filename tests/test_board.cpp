// Boards as graphs: components kept by a `where:` worked out at load time, `links:`
// between them, and neighbours(), linked(), walk() over the links. Also: a `when` is
// decided as soon as the parameters it reads are chosen.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agents/menu.hpp"
#include "log/log.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::load_file;
using kata::test::load_text;
using kata::test::legal_texts;
using kata::test::has;

namespace {

// A ring of six points 0..5 and a centre 6 linked to 0 and 3 only; one piece each.
const std::string ring = R"yaml(game: Ring
players: 2
components:
  point:
    each: {n: 0..9}
    where: n <= 6
    in: board
  piece:
    per_player: true
    list: [{name: pawn}]
    name: "{owner} {name}"
    in: reserve
links:
  point: "(a.n < 6 and b.n < 6 and (abs(a.n - b.n) == 1 or abs(a.n - b.n) == 5)) or (a.n == 6 and (b.n == 0 or b.n == 3))"
zones:
  board: {visibility: everyone, order: set}
  reserve: {per_player: true, visibility: everyone}
  spot: {per: point, visibility: everyone}
flow: |
  move top(P1.reserve) to at(1).spot
  move top(P2.reserve) to at(4).spot
  choose P1: go
actions:
  go:
    params:
      origin: board
      target: walk(origin, top(origin.spot).n + 2, q where size(q.spot) == 0)
    when: size(origin.spot) > 0 and top(origin.spot).owner == player
    do: move top(origin.spot) to target.spot
functions:
  at(k): "find(q in board where q.n == k)"
  ends(k, s): "sum(pow2(e.n) for e in walk(at(k), s, q where size(q.spot) == 0))"
  pow2(k): "if k == 0 then 1 else if k == 1 then 2 else if k == 2 then 4 else if k == 3 then 8 else if k == 4 then 16 else if k == 5 then 32 else 64"
)yaml";

std::shared_ptr<const Game> game(const std::string& yaml) {
  auto l = load_text(yaml);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  return l.game;
}

int64_t probe(const std::string& expr) {
  auto g = game(ring + "  probe: \"" + expr + "\"\n");
  State s = new_game(*g, 2, 1, default_options(*g));
  for (auto& f : g->program.functions)
    if (f.name == "probe") return evaluate(*g, s, f.body);
  FAIL("no probe");
  return 0;
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = ring;
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a kind's where: keeps the rows for which it holds", "[board]") {
  CHECK(probe("count(q in board)") == 7);
  CHECK(probe("max(q.n for q in board)") == 6);
}

TEST_CASE("links join the points both ways - neighbours and linked read them", "[board]") {
  CHECK(probe("count(x in neighbours(at(0)))") == 3);  // 1, 5 and the centre
  CHECK(probe("count(x in neighbours(at(6)))") == 2);
  CHECK(probe("if linked(at(3), at(6)) and linked(at(6), at(3)) and not linked(at(1), at(6)) then 1 else 0") == 1);
  CHECK(probe("abs(0 - 7) + abs(7)") == 14);
}

TEST_CASE("walk: exactly N steps, never straight back, through points that pass its condition", "[board]") {
  // P1 stands on 1, P2 on 4. From 0 in one step: 1 (occupied, but an end is not tested), 5, 6.
  CHECK(probe("ends(0, 1)") == 2 + 32 + 64);
  // Two steps from 0: through 5 to 4; through 6 to 3; not through 1 (occupied); never back to 0.
  CHECK(probe("ends(0, 2)") == 16 + 8);
  // Three steps from 0: 5-4 is blocked (4 is occupied); 6-3 then 2 or 4.
  CHECK(probe("ends(0, 3)") == 4 + 16);
  // Zero steps: the start itself.
  CHECK(probe("ends(2, 0)") == 4);
}

TEST_CASE("a when is decided before the lists of later parameters are worked out", "[board]") {
  // `target`'s list reads top(origin.spot).n, which fails on an empty point: it is only
  // worked out for the origin that holds P1's piece.
  auto g = game(ring);
  State s = new_game(*g, 2, 1, default_options(*g));
  std::vector<std::string> texts = legal_texts(*g, s);
  // Pieces have no property n (0), so a piece walks 2 steps: from 1, 1-0-5, 1-0-6, 1-2-3.
  CHECK(texts == std::vector<std::string>{"go 1 3", "go 1 5", "go 1 6"});
}

TEST_CASE("where: and links: are worked out at load time and may not read the game's state", "[board][check]") {
  auto l = load_text(with("where: n <= 6", "where: n <= size(board)"));
  CHECK(l.messages() == std::vector<std::string>{
                            "6:17: error: a component's 'where:' is worked out when the file is loaded: it may use numbers, properties, abs(), min(), max() and aggregates over ranges, not this"});
  l = load_text(with("where: n <= 6", "where: n"));
  CHECK(l.messages() == std::vector<std::string>{"6:12: error: a component's 'where:' must be true or false, but this is a number"});
  l = load_text(with("links:\n  point:", "links:\n  pont:"));
  CHECK(l.messages() == std::vector<std::string>{"14:3: error: unknown component kind 'pont'; did you mean 'point'?"});
  l = load_text(with("(a.n == 6 and", "(a.n == player_count and"));
  CHECK(l.messages().size() == 1);
  CHECK(l.messages()[0].find("a 'links:' condition is worked out when the file is loaded") != std::string::npos);
}

TEST_CASE("a load-time result beyond 64 bits is an error in the file, not a crash", "[board][check]") {
  // INT64_MIN / -1 used to stop kata with SIGFPE while the file was loaded.
  for (const char* where : {"where: (0 - 65536 * 32768) * (65536 * 32768) * 2 / (0 - 1) > n",
                            "where: sum(v * 2147483647 * 2147483647 for v in 1..3) > n",
                            "where: 0 - abs((0 - 65536 * 32768) * (65536 * 32768) * 2) < n"}) {
    INFO(where);
    auto l = load_text(with("where: n <= 6", where));
    CHECK_FALSE(l.game);
    CHECK(l.diags.error_count() == 1);
    std::vector<std::string> m = l.messages();
    CHECK(std::count_if(m.begin(), m.end(), [](const std::string& s) {
            return s.rfind("6:", 0) == 0 && s.find("error: the result is too large to work out (beyond 64-bit numbers)") != std::string::npos;
          }) == 1);
  }
}

TEST_CASE("load-time values mean what the same expressions mean at run time", "[board][check]") {
  // Division by zero stops the game at run time: at load time it is an error at the
  // division, not 0.
  auto zero = load_text(with("where: n <= 6", "where: n <= 6 and n / 0 == 0"));
  CHECK_FALSE(zero.game);
  CHECK(zero.diags.error_count() == 1);
  std::vector<std::string> m = zero.messages();
  INFO(fmt::format("{}", fmt::join(m, "\n")));
  CHECK(std::any_of(m.begin(), m.end(), [](const std::string& s) { return s.rfind("6:", 0) == 0 && has(s, "error: division by zero"); }));
  // best is the element of the highest value (not the first), a range is not cut short,
  // and best of nothing is none (-1), as the runtime's aggregates.
  auto points = [&](const std::string& where) {
    auto l = load_text(with("where: n <= 6", where));
    INFO(where);
    REQUIRE(l.game);
    for (const KindInfo& k : l.game->kinds)
      if (k.name == "point") return k.card_count;
    return -1;
  };
  CHECK(points("where: n <= 6") == 7);
  CHECK(points("where: n <= 6 and best(x for x in 1..3) == 3") == 7);
  CHECK(points("where: n <= 6 and worst(0 - x for x in 1..3) == 3") == 7);
  CHECK(points("where: n <= 6 and count(x in 1..4096) == 4096") == 7);
  // A longer range is an error, as at run time, not cut short.
  auto range = load_text(with("where: n <= 6", "where: n <= 6 and count(x in 1..5000) > 0"));
  CHECK_FALSE(range.game);
  std::vector<std::string> rm = range.messages();
  CHECK(std::any_of(rm.begin(), rm.end(), [](const std::string& s) { return has(s, "error: a range of more than 4096 numbers"); }));
  CHECK(points("where: n <= 6 and best(x for x in 1..3 where x > 5) < 0") == 7);
  CHECK(points("where: n <= best(x for x in 1..9 where x * x <= 40)") == 7);
}

namespace {
// A random expression the checker lets through at load time: numbers (now and then one
// near the 32-bit edge, so products leave 64 bits), + - * / %, abs, min, max, comparisons,
// and/or/not, if/then/else and aggregates over short ranges (now and then one too long),
// with the names x0, x1... bound by the aggregates around it.
class ConstantText {
 public:
  explicit ConstantText(uint32_t seed) : rng_(seed) {}
  std::string number(int depth, int size) {
    if (size <= 0 || pick(4) == 0) return leaf(depth);
    switch (pick(12)) {
      case 0: return fmt::format("({} + {})", number(depth, size - 1), number(depth, size - 1));
      case 1: return fmt::format("({} - {})", number(depth, size - 1), number(depth, size - 1));
      case 2: return fmt::format("({} * {})", number(depth, size - 1), number(depth, size - 1));
      case 3: return fmt::format("({} / {})", number(depth, size - 1), number(depth, size - 1));
      case 4: return fmt::format("({} % {})", number(depth, size - 1), number(depth, size - 1));
      case 5: return fmt::format("abs({})", number(depth, size - 1));
      case 6: return fmt::format("{}({}, {})", pick(2) ? "min" : "max", number(depth, size - 1), number(depth, size - 1));
      case 7: return fmt::format("(if {} then {} else {})", boolean(depth, size - 1), number(depth, size - 1), number(depth, size - 1));
      case 8: return fmt::format("-{}", leaf(depth));
      default: {
        if (depth >= 3) return leaf(depth);
        static const char* ops[] = {"sum", "max", "min", "best", "worst"};
        std::string x = fmt::format("x{}", depth);
        std::string where = pick(2) ? fmt::format(" where {}", boolean(depth + 1, size - 1)) : "";
        if (pick(3) == 0) return fmt::format("count({} in {}{})", x, range(), where);
        if (pick(4) == 0) return fmt::format("find({} in {}{})", x, range(), where);
        return fmt::format("{}({} for {} in {}{})", ops[pick(5)], number(depth + 1, size - 1), x, range(), where);
      }
    }
  }
  std::string boolean(int depth, int size) {
    static const char* cmp[] = {"==", "!=", "<", "<=", ">", ">="};
    switch (size <= 0 ? 0 : pick(6)) {
      case 0: case 1: return fmt::format("({} {} {})", number(depth, size - 1), cmp[pick(6)], number(depth, size - 1));
      case 2: return fmt::format("({} and {})", boolean(depth, size - 1), boolean(depth, size - 1));
      case 3: return fmt::format("({} or {})", boolean(depth, size - 1), boolean(depth, size - 1));
      case 4: return fmt::format("not {}", boolean(depth, size - 1));
      default: {
        if (depth >= 3) return "true";
        std::string x = fmt::format("x{}", depth);
        return fmt::format("{}({} for {} in {})", pick(2) ? "any" : "all", boolean(depth + 1, size - 1), x, range());
      }
    }
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  std::string leaf(int depth) {
    if (depth > 0 && pick(2)) return fmt::format("x{}", pick(depth));
    if (pick(4) == 0) return pick(2) ? "2147483647" : "1073741824";
    return std::to_string(pick(7));
  }
  std::string range() {
    if (pick(12) == 0) return "1..5000";  // longer than a range may be
    int lo = pick(7) - 3;
    return fmt::format("{}..{}", lo, lo + pick(6) - 1);
  }
  std::mt19937 rng_;
};

}  // namespace

TEST_CASE("random load-time expressions mean what they mean at run time", "[board][check][properties]") {
  // The same condition as a kind's `where:` (worked out while the file loads) and in the
  // flow (while the game runs): the same truth, or the same error.
  int errors = 0, truths = 0, cases = 0;
  rc::prop("load time and run time agree", [&] {
    ConstantText text(*rc::gen::arbitrary<uint32_t>());
    std::string condition = text.boolean(0, *rc::gen::inRange(2, 8));
    RC_TAG(condition.size() > 60 ? "long" : "short");
    auto at_load = load_text("game: G\nplayers: 1\ncomponents:\n  point:\n    each: {v: 0..1}\n"
                             "    where: v == 0 or " + condition + "\nflow: ''\n");
    auto in_play = load_text("game: G\nplayers: 1\nvariables:\n  t: 0\nflow: |\n  if " + condition +
                             " { t = 1 }\n");
    RC_ASSERT(in_play.game != nullptr);
    std::string played;
    int64_t t = -1;
    try {
      State s = new_game(*in_play.game, 1, 1, default_options(*in_play.game));
      t = s[in_play.game->layout.globals];
    } catch (const RuntimeError& e) {
      played = e.what();
    }
    ++cases;
    if (!at_load.game) {
      RC_ASSERT(at_load.messages().size() == 1u);
      std::string loaded = at_load.messages()[0];
      RC_ASSERT(loaded.substr(loaded.find("error: ") + 7) == played);
      ++errors;
      return;
    }
    RC_ASSERT(played.empty());
    int points = -1;
    for (const KindInfo& k : at_load.game->kinds)
      if (k.name == "point") points = k.card_count;
    RC_ASSERT(points - 1 == t);
    truths += static_cast<int>(t);
  });
  INFO(fmt::format("{} cases: {} errors, {} true", cases, errors, truths));
  // The cases reach every outcome: errors, true and false.
  CHECK(errors >= kata::test::per_cases(2));
  CHECK(truths >= kata::test::per_cases(20));
  CHECK(cases - errors - truths >= kata::test::per_cases(20));
}

TEST_CASE("a typed decision is refused on the first condition that fails, before later lists are worked out", "[board][notation]") {
  auto g = game(ring);
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string why;
  // Point 0 is empty: target's list (top(origin.spot).n) would fail; the when is told instead.
  CHECK_FALSE(parse_decision(*g, s, "go 0 1", why));
  CHECK(why == "'go' requires size(origin.spot) > 0 and top(origin.spot).owner == player");
  CHECK(parse_decision(*g, s, "go 1 5", why));
}

TEST_CASE("a board is drawn from a view, as text and as SVG", "[board][views]") {
  // The ring's points on a circle: 0 right, going round; the centre marked.
  std::string drawn = ring + R"yaml(board:
  points: point
  x: "if n == 6 then 2 else if n == 0 then 4 else if n == 3 then 0 else if n == 1 or n == 5 then 3 else 1"
  y: "if n == 6 or n == 0 or n == 3 then 1 else if n == 1 or n == 2 then 0 else 2"
  zone: spot
  label: name
  marked: n == 6
)yaml";
  auto g = game(drawn);
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string text = draw_board(*g, make_view(*g, s, 0));
  // Row 0: points 2 and 1 (P1's pawn on 1); row 1: 3, the centre, 0; row 2: 4 (P2's pawn) and 5.
  // Two units of x a character apart would crowd the labels: each unit is two wide.
  // Each link is drawn: along a row with '-', to the next row with '/' or '\\'.
  CHECK(text == R"(      .---1p
     /     \
    .---*---.
     \     /
      2p--.
    a piece: its player's number and initial (p pawn)
    . a free point, * a marked one
    - / \ a link between two points
)");
  std::string svg = board_svg(*g, make_view(*g, s, 1));
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("<title>P1 pawn on 1</title>") != std::string::npos);
  CHECK(std::count(svg.begin(), svg.end(), '\n') > 10);
  // The describe_view page shows the drawing instead of the points' zones.
  std::string page = describe_view(*g, make_view(*g, s, 0));
  CHECK(page.find(text) != std::string::npos);
  CHECK(page.find(".spot") == std::string::npos);
  // A board's keys are checked like the rest.
  auto l = load_text(ring + "board: {points: point, x: \"n\", y: \"size(board)\", zone: reserve}\n");
  CHECK(l.messages().size() == 2);
}

TEST_CASE("the standard library's boards: 54 corners and 72 sides - 64 squares and 112 sides", "[board]") {
  for (auto [file, points, links] : {std::tuple{"hexboard.yaml", 54, 72}, std::tuple{"squaregrid.yaml", 64, 112}}) {
    std::string yaml = fmt::format(R"yaml(game: Board
players: 1
import: [stdlib/{}]
flow: "end game"
functions:
  probe: "count(q in board) * 1000 + sum(count(n in neighbours(q)) for q in board) / 2"
)yaml", file);
    auto g = game(yaml);
    State s = new_game(*g, 1, 1, default_options(*g));
    for (auto& f : g->program.functions)
      if (f.name == "probe") CHECK(evaluate(*g, s, f.body) == points * 1000 + links);
  }
}

namespace {

std::string stdlib_board(const std::string& file) {
  return fmt::format(R"yaml(game: Board
players: 2
import: [stdlib/{}]
flow: "end game"
)yaml", file);
}

// Whether python3's XML parser reads the text (true when there is no python3 to ask).
bool parses_as_xml(const std::string& text, const std::string& name) {
  if (std::system("python3 -c 'import xml.dom.minidom' >/dev/null 2>&1") != 0) {
    WARN("python3 is not installed: the SVG is not parsed as XML");
    return true;
  }
  std::string path = kata::test::temp(name);
  std::ofstream(path) << text;
  return std::system(("python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' " + path).c_str()) == 0;
}

}  // namespace

TEST_CASE("a square grid's drawing labels its rows by y and its columns by x", "[board][views]") {
  auto g = game(stdlib_board("squaregrid.yaml"));
  State s = new_game(*g, 2, 1, default_options(*g));
  CHECK(draw_board(*g, make_view(*g, s, 0)) == R"(    y
       1  2  3  4  5  6  7  8   x
    8  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    7  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    6  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    5  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    4  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    3  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    2  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    1  .--.--.--.--.--.--.--.
       1  2  3  4  5  6  7  8   x
    a piece: its player's number and initial
    . a free point
    - | a link between two points
)");
  // A quarter turn clockwise: the left column (x = 1) is now the top row, the top row
  // (y = 8) the right column: x labels the rows, y the columns.
  auto turned = game(stdlib_board("squaregrid.yaml") + "board: {points: point, x: \"x\", y: \"9 - y\", coordinates: [x, y], turn: 90}\n");
  std::string text = draw_board(*turned, make_view(*turned, s, 0));
  CHECK(text.substr(0, text.find("    3")) == R"(    x
       1  2  3  4  5  6  7  8   y
    1  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
    2  .--.--.--.--.--.--.--.
       |  |  |  |  |  |  |  |
)");
  // An onlooker's drawing is not turned.
  CHECK(draw_board(*turned, public_view(*turned, s)) == draw_board(*g, public_view(*g, s)));
}

TEST_CASE("a board's empty_name: is what the legend calls an empty point", "[board][views]") {
  auto g = game(stdlib_board("squaregrid.yaml") + "board: {points: point, x: \"x\", y: \"9 - y\", coordinates: [x, y], empty_name: an empty cell}\n");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string text = draw_board(*g, make_view(*g, s, 0));
  CHECK(kata::test::has(text, "\n    . an empty cell\n"));
  CHECK_FALSE(kata::test::has(text, "a free point"));
  CHECK(kata::test::has(board_svg(*g, make_view(*g, s, 0)), "<svg"));
  auto c4 = load_file("rules/connect4.yaml");
  REQUIRE(c4.game);
  State c = new_game(*c4.game, 2, 1, default_options(*c4.game));
  CHECK(kata::test::has(draw_board(*c4.game, make_view(*c4.game, c, 0)), "    . an empty cell\n"));
}

TEST_CASE("a hexagonal board's drawing labels its rows by y and lists each row's x", "[board][views]") {
  auto g = game(stdlib_board("hexboard.yaml"));
  State s = new_game(*g, 2, 1, default_options(*g));
  // The point x/y: row y, and the x listed at the row's end in the same place among them
  // as the point among the row's points.
  CHECK(draw_board(*g, make_view(*g, s, 0)) == R"(     y                             x
     8        -7  -4  -1           -7 -4 -1
             / \ / \ / \
     7      -8  -5  -2   1         -8 -5 -2  1
            |   |   |   |
     5      -7  -4  -1   2         -7 -4 -1  2
           / \ / \ / \ / \
     4    -8  -5  -2   1   4       -8 -5 -2  1  4
          |   |   |   |   |
     2    -7  -4  -1   2   5       -7 -4 -1  2  5
         / \ / \ / \ / \ / \
     1  -8  -5  -2   1   4   7     -8 -5 -2  1  4  7
        |   |   |   |   |   |
    -1  -7  -4  -1   2   5   8     -7 -4 -1  2  5  8
         \ / \ / \ / \ / \ /
    -2    -5  -2   1   4   7       -5 -2  1  4  7
          |   |   |   |   |
    -4    -4  -1   2   5   8       -4 -1  2  5  8
           \ / \ / \ / \ /
    -5      -2   1   4   7         -2  1  4  7
            |   |   |   |
    -7      -1   2   5   8         -1  2  5  8
             \ / \ / \ /
    -8         1   4   7            1  4  7
    a piece: its player's number and initial
    -8 a free point, drawn as its x
    a point is named x/y: y at the row's left, every x of a row, pieces' too, at the row's right
    | / \ a link between two points
)");
}

TEST_CASE("Kendo: each player sees their camp at the bottom, the palace named", "[board][views]") {
  auto l = load_file("rules/kendo.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 2, 1, default_options(g));
  PlayerView p1 = make_view(g, s, 0), p2 = make_view(g, s, 1), everyone = public_view(g, s);
  CHECK(p1.board_turn == 0);
  CHECK(p2.board_turn == 180);
  CHECK(everyone.board_turn == 0);
  std::string mine = R"(     y                             x
     8        2S  -4  -1           -7 -4 -1
             / \ / \ / \
     7      2P  2s  -2   1         -8 -5 -2  1
            |   |   |   |
     5      2S  2s  -1   2         -7 -4 -1  2
           / \ / \ / \ / \
     4    2S  2s  -2   1   4       -8 -5 -2  1  4
          |   |   |   |   |
     2    -7  2s  -1   2   5       -7 -4 -1  2  5
         / \ / \ /|\ / \ / \
     1  -8  -5  -2|  1   4   7     -8 -5 -2  1  4  7
        |   |   |\|/|   |   |
     0  |   |   | * |   |   |       0
        |   |   |/|\|   |   |
    -1  -7  -4  -1|  2   5   8     -7 -4 -1  2  5  8
         \ / \ / \|/ \ / \ /
    -2    -5  -2   1  1s   7       -5 -2  1  4  7
          |   |   |   |   |
    -4    -4  -1   2  1s  1S       -4 -1  2  5  8
           \ / \ / \ / \ /
    -5      -2   1  1s  1S         -2  1  4  7
            |   |   |   |
    -7      -1   2  1s  1P         -1  2  5  8
             \ / \ / \ /
    -8         1   4  1S            1  4  7
    a piece: its player's number and initial (P Prince, S Samurai, s Soldier)
    -8 a free point, drawn as its x, * palace
    a point is named x/y: y at the row's left, every x of a row, pieces' too, at the row's right
    | / \ a link between two points
)";
  CHECK(draw_board(g, p1) == mine);
  CHECK(draw_board(g, everyone) == mine);
  // P2's camp (-8/7, the Prince) at the bottom: the board turned half round, each row's x
  // listed in the order the row now shows them.
  std::string theirs = draw_board(g, p2);
  CHECK(theirs.substr(0, theirs.find("    -7")) == "     y                             x\n    -8        1S   4   1            7  4  1\n             / \\ / \\ / \\\n");
  CHECK(theirs.find("     7       1  -2  2s  2P          1 -2 -5 -8\n") != std::string::npos);
  // The SVG: the same labels, a legend and a caption; valid XML.
  std::string svg = board_svg(g, p2);
  CHECK(svg.find(">Kendo: P1 to play (as P2 sees it)</text>") != std::string::npos);
  CHECK(svg.find("> 7  4  1</text>") != std::string::npos);
  CHECK(svg.find(">-8</text>") != std::string::npos);
  CHECK(svg.find(">palace</text>") != std::string::npos);
  CHECK(svg.find(">letters: P Prince, S Samurai, s Soldier</text>") != std::string::npos);
  CHECK(svg.find("fill=\"#1f5fbf\"/><text x=\"92.0\" y=\"") != std::string::npos);  // P2's colour
  CHECK(parses_as_xml(svg, "kata-kendo-board.svg"));
}

TEST_CASE("a board on a triangular lattice turns by sixths - with 3 and 4 Kendo players each camp is at the bottom right", "[board][views]") {
  // The standard hexagonal board turned a sixth clockwise: its upper left side (x = -8)
  // is now its top, and its rows are those of one x each.
  auto g = game(stdlib_board("hexboard.yaml") + "board: {points: point, x: \"4 * (2 * x + y)\", y: \"-7 * y\", coordinates: [x, y], turn: 60}\n");
  State s = new_game(*g, 2, 1, default_options(*g));
  CHECK(draw_board(*g, make_view(*g, s, 0)) == R"(     x                             y
    -8         1   4   7            1  4  7
             / \ / \ / \
    -7      -1   2   5   8         -1  2  5  8
            |   |   |   |
    -5      -2   1   4   7         -2  1  4  7
           / \ / \ / \ / \
    -4    -4  -1   2   5   8       -4 -1  2  5  8
          |   |   |   |   |
    -2    -5  -2   1   4   7       -5 -2  1  4  7
         / \ / \ / \ / \ / \
    -1  -7  -4  -1   2   5   8     -7 -4 -1  2  5  8
        |   |   |   |   |   |
     1  -8  -5  -2   1   4   7     -8 -5 -2  1  4  7
         \ / \ / \ / \ / \ /
     2    -7  -4  -1   2   5       -7 -4 -1  2  5
          |   |   |   |   |
     4    -8  -5  -2   1   4       -8 -5 -2  1  4
           \ / \ / \ / \ /
     5      -7  -4  -1   2         -7 -4 -1  2
            |   |   |   |
     7      -8  -5  -2   1         -8 -5 -2  1
             \ / \ / \ /
     8        -7  -4  -1           -7 -4 -1
    a piece: its player's number and initial
    1 a free point, drawn as its y
    a point is named x/y: x at the row's left, every y of a row, pieces' too, at the row's right
    | / \ a link between two points
)");
  // Other angles are rounded down to a sixth (there) or a quarter (on a square grid).
  auto at = [&](const std::string& board, int degrees) {
    auto t = game(stdlib_board(board) + fmt::format("board: {{points: point, x: \"4 * (2 * x + y)\", y: \"-7 * y\", coordinates: [x, y], turn: {}}}\n", degrees));
    return draw_board(*t, make_view(*t, s, 0));
  };
  CHECK(at("hexboard.yaml", 72) == at("hexboard.yaml", 60));
  CHECK(at("hexboard.yaml", 179) == at("hexboard.yaml", 120));
  CHECK(at("hexboard.yaml", 45) == at("hexboard.yaml", 0));
  CHECK(at("hexboard.yaml", 120) != at("hexboard.yaml", 90));

  // Kendo's camps with 3 and 4 players: two turns by a sixth (P3 of 3) list each point as x/y.
  auto l = load_file("rules/kendo.yaml");
  REQUIRE(l.game);
  for (int players : {3, 4})
    for (int seat = 0; seat < players; ++seat) {
      State k = new_game(*l.game, players, 1, default_options(*l.game));
      std::string board = draw_board(*l.game, make_view(*l.game, k, seat));
      INFO(players << " players, as P" << seat + 1 << "\n" << board);
      // The lines of the board itself: after the heading, up to the legend.
      std::vector<std::string> rows;
      for (size_t at = board.find('\n') + 1, end; (end = board.find('\n', at)) != std::string::npos && board.compare(at, 11, "    a piece") != 0; at = end + 1)
        rows.push_back(board.substr(at, end - at));
      REQUIRE(rows.size() == 25);  // 13 rows of points, the lines of links between them
      std::string prince = std::to_string(seat + 1) + "P";
      size_t row = 0, col = std::string::npos;
      for (size_t r = 0; r < rows.size() && col == std::string::npos; ++r)
        if ((col = rows[r].find(prince)) != std::string::npos) row = r;
      REQUIRE(col != std::string::npos);
      CHECK(row >= 20);                     // in the bottom three rows of points
      CHECK(col >= rows[12].find('*'));     // right of the palace
    }
}

TEST_CASE("the SVG's caption gives the result - its text is escaped", "[board][views]") {
  auto g = game(R"yaml(game: "Rock & <Roll>"
players: 2
import: [stdlib/squaregrid.yaml]
flow: "win P2"
scoring:
  score: "seat(p) * 10"
)yaml");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string svg = board_svg(*g, make_view(*g, s, -1));
  CHECK(svg.find("<title>Rock &amp; &lt;Roll&gt;</title>") != std::string::npos);
  CHECK(svg.find(">Rock &amp; &lt;Roll&gt;: over, winner P2; scores: P1 10, P2 20</text>") != std::string::npos);
  CHECK(parses_as_xml(svg, "kata-caption.svg"));
}

TEST_CASE("the SVG's caption leaves out scores the game did not score - and says why it ended", "[board][views]") {
  auto g = game(R"yaml(game: Race
players: 2
import: [stdlib/squaregrid.yaml]
variables:
  points: {per_player: true}
flow: "win P2"
scoring:
  parts:
    points: p.points
  notes:
    - text: "P2 reached the goal first."
      when: "true"
)yaml");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string svg = board_svg(*g, make_view(*g, s, -1));
  INFO(svg);
  CHECK(svg.find(">Race: over, winner P2</text>") != std::string::npos);
  CHECK(svg.find("scores") == std::string::npos);
  CHECK(svg.find(">P2 reached the goal first.</text>") != std::string::npos);
  CHECK(parses_as_xml(svg, "kata-reason.svg"));
}

TEST_CASE("a board's coordinates are the points' properties - its turn is a number", "[board][check]") {
  std::string yaml = stdlib_board("squaregrid.yaml") + "board: {points: point, x: \"x\", y: \"y\", coordinates: [x, z], turn: \"viewer\"}\n";
  auto l = load_text(yaml);
  CHECK(l.messages() == std::vector<std::string>{
                            "5:53: error: the board's coordinates are properties of 'point', and 'z' is not one",
                            "5:68: error: the board's 'turn:' must be a number, but this is a player"});
}

TEST_CASE("a menu names the piece on each point a move names, as the chooser sees it", "[board][prompt]") {
  auto l = load_file("rules/kendo.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 2, 1, default_options(g));
  std::vector<std::string> labels = legal_texts(g, s);
  auto items = menu_items(g, make_view(g, s, 0), labels);
  REQUIRE(items.size() == labels.size());
  // The point moved from holds P1's soldier; the point moved to is free.
  CHECK(items[0].text() == "go 4/-5 -1/-4 (P1 Soldier on 4/-5)");
  CHECK(items[0].notes == std::vector<std::string>{"", "P1 Soldier", ""});
  // A typed item is read without the pieces.
  Menu whole(items);
  CHECK(whole.typed("go 4/-5 -1/-4") == 0);
  // One value at a time: each origin with its piece.
  Menu menu(items, 5);
  std::string shown = menu.show();
  CHECK(shown.find("go — choose the point of the piece you move:\n") != std::string::npos);
  CHECK(shown.find(") 4/-5 (P1 Soldier, 4 choices)\n") != std::string::npos);
  CHECK(shown.find(") 8/-4 (P1 Samurai, 2 choices)\n") != std::string::npos);
}

TEST_CASE("a menu names no piece its chooser cannot see on a point", "[board][prompt]") {
  // The ring with its pieces standing face down on points nobody sees.
  std::string hidden = ring;
  for (std::string from : {"reserve: {per_player: true, visibility: everyone}", "spot: {per: point, visibility: everyone}"})
    hidden.replace(hidden.find(from), from.size(), std::regex_replace(from, std::regex("everyone"), "nobody"));
  hidden += "board: {points: point, x: n, y: \"0\", zone: spot}\n";
  std::string seen = ring + "board: {points: point, x: n, y: \"0\", zone: spot}\n";
  for (auto& [yaml, text] : {std::pair{hidden, std::string("go 1 3")}, std::pair{seen, std::string("go 1 3 (P1 pawn on 1)")}}) {
    auto g = game(yaml);
    State s = new_game(*g, 2, 1, default_options(*g));
    std::vector<std::string> labels = legal_texts(*g, s);
    REQUIRE(!labels.empty());
    CHECK(menu_items(*g, make_view(*g, s, 0), labels).front().text() == text);
  }
}

TEST_CASE("events name a board point's zone by its point - the log keeps the zone's name", "[board][log]") {
  auto l = load_file("rules/kendo.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State s = new_game(g, 2, 1, default_options(g), &hooks);
  std::vector<std::string> told = describe_events(g, events, 0);
  bool setup = false;
  for (auto& line : told) setup = setup || line.rfind("8 pieces move from P1's reserve — to 8/-7: P1 Prince; to 7/-8: P1 Samurai;", 0) == 0;
  CHECK(setup);
  events.clear();
  std::string why;
  auto d = parse_decision(g, s, "go 4/-5 -1/-4", why);
  REQUIRE(d);
  apply(g, s, *d, &hooks);
  auto move = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::move; });
  REQUIRE(move != events.end());
  // A seat is told a card with copies without its number; the log keeps it.
  CHECK(describe_event(g, *move, 0) == "P1 Soldier moves from 4/-5 to -1/-4");
  CHECK(event_json(g, *move).dump() == R"({"card":"P1 Soldier3","from":"4/-5.spot","to":"-1/-4.spot","type":"move"})");
  // Other zones are named by their label (the log keeps their names).
  for (size_t z = 0; z < g.zones.size(); ++z)
    if (g.zones[z].name == "reserve") {
      CHECK(g.place_name(g.zone_instance(static_cast<int>(z), 0)) == "P1's reserve");
      CHECK(g.instance_name(g.zone_instance(static_cast<int>(z), 0)) == "P1.reserve");
    }
}

TEST_CASE("a board's text drawing leaves out the links it cannot draw straight, or all with lines: false", "[board][views]") {
  // Diagonal links on a square grid are three columns aside over two lines: left out.
  auto diagonal = game(stdlib_board("squaregrid.yaml") +
                       "links:\n  point: \"abs(a.x - b.x) + abs(a.y - b.y) == 1 or (abs(a.x - b.x) == 1 and abs(a.y - b.y) == 1)\"\n");
  State s = new_game(*diagonal, 2, 1, default_options(*diagonal));
  std::string text = draw_board(*diagonal, make_view(*diagonal, s, 0));
  CHECK(text.find("    8  .--.--.--.--.--.--.--.\n       |  |  |  |  |  |  |  |\n") != std::string::npos);
  CHECK(text.find("    - | a link between two points; some links cannot be drawn in text (the SVG, --svg, shows them all)\n") !=
        std::string::npos);
  // lines: false: the rows of points on consecutive lines, as without links.
  auto plain = game(stdlib_board("hexboard.yaml") +
                    "board: {points: point, x: \"4 * (2 * x + y)\", y: \"-7 * y\", coordinates: [x, y], lines: false}\n");
  State t = new_game(*plain, 2, 1, default_options(*plain));
  std::string drawn = draw_board(*plain, make_view(*plain, t, 0));
  CHECK(drawn.find("     8        -7  -4  -1           -7 -4 -1\n     7      -8  -5  -2   1         -8 -5 -2  1\n") != std::string::npos);
  CHECK(drawn.substr(0, drawn.find("    a piece")).find('/') == std::string::npos);
  CHECK(drawn.find("    the links between points are not drawn in text (the SVG, --svg, shows them)\n") != std::string::npos);
  // lines: takes true or false.
  auto l = load_text(stdlib_board("hexboard.yaml") + "board: {points: point, x: \"x\", y: \"y\", lines: often}\n");
  CHECK_FALSE(l.game);
  CHECK(fmt::format("{}", fmt::join(l.messages(), "\n")).find("expected whether the text drawing draws the links (true or false), found 'often'") !=
        std::string::npos);
}
