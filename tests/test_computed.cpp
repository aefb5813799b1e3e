// Functions computed by statements (`do:` ending with `return VALUE`, docs/language.md
// §2.7): a value computed with loops and names of its own, usable wherever a function is
// (a `when` too); the checker keeps them free of effects.
#include <catch2/catch.hpp>

#include "support.hpp"

using namespace kata;
using kata::test::legal_texts;
using kata::test::load_text;

namespace {

const std::string runs = R"(game: Runs
players: 2
components:
  cell:
    each: {x: 1..6}
    name: "c{x}"
    in: row
zones:
  row: {visibility: everyone, order: set}
  marks: {per_player: true, visibility: everyone, order: set}
variables:
  best: 0
functions:
  # The longest run of p's cells, with a name that lives across the rounds.
  longest:
    params: [p]
    doc: The longest run of consecutive cells p holds.
    do: |
      let most = 0
      let run = 0
      for x in 1..6 {
        if contains(p.marks, cell(x)) { run += 1 } else { run = 0 }
        if run > most { most = run }
      }
      return most
  # The first x from which k cells are free, by a while loop: 0 if none.
  gap(k):
    do: |
      let x = 1
      let found = 0
      while found == 0 and x + k - 1 <= 6 {
        if all(not contains(P1.marks, cell(i)) and not contains(P2.marks, cell(i)) for i in x..x + k - 1) {
          found = x
        }
        x += 1
      }
      return found
flow: |
  move cell(2) to P1.marks
  move cell(3) to P1.marks
  move cell(5) to P1.marks
  best = longest(P1) * 10 + gap(2)
  choose P2: mark
actions:
  mark:
    params: {c: row}
    when: [longest(P1) + 4 >= c.x, gap(1) != c.x]
    do: move c to player.marks
scoring:
  score: best
)";

}  // namespace

TEST_CASE("a function computed by statements gives its value, in effects and in conditions", "[computed]") {
  auto l = load_text(runs);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    INFO("compiled: " << compiled);
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    State s = new_game(*g, 2, 1, default_options(*g));
    // P1 holds 2, 3 and 5: its longest run is 2; no two free cells in a row (1, 4, 6 free).
    CHECK(s[g->layout.globals] == 20);
    // The row holds c1, c4 and c6 (the others are P1's); c.x <= 2 + 4 keeps them all, and
    // gap(1) is 1, so not c1.
    CHECK(legal_texts(*g, s) == std::vector<std::string>{"mark c4", "mark c6"});
  }
}

TEST_CASE("a computed function's for over many cards, interpreted and compiled", "[computed]") {
  // 300 cards: a loop's buffer larger than compiled code keeps on its stack.
  auto l = load_text(R"(game: Many
players: 1
components:
  card: {each: {v: 1..300}, in: deck}
zones:
  deck: {visibility: everyone, order: set}
variables:
  total: 0
functions:
  heavy:
    do: |
      let t = 0
      for c in deck where c.v % 3 != 0 { t += c.v }
      return t
flow: total = heavy()
scoring:
  score: total
)");
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    State s = new_game(*g, 1, 1, default_options(*g));
    CHECK(scores(*g, s)[0] == 45150 - 3 * 5050);  // all, less the multiples of 3
  }
}

TEST_CASE("a parameter a computed function assigns is checked for what it becomes, compiled too", "[computed]") {
  // Called with 2 only, but n is assigned: compiled code must not take n's range from its
  // calls and leave out the check on the product, which goes past 64 bits.
  const std::string grow =
      "functions:\n"
      "  grow(n):\n"
      "    do: |\n"
      "      n = n * 2000000000 * 2000000000\n"
      "      return n * 2000000000\n";
  auto l = load_text(kata::test::with("functions:\n", grow,
                                      kata::test::with("  best = longest(P1) * 10 + gap(2)", "  best = grow(2) % 7", runs)));
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    INFO("compiled: " << compiled);
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    CHECK_THROWS_WITH(new_game(*g, 2, 1, default_options(*g)), Catch::Contains("too large"));
  }
}

TEST_CASE("a syntax error in a computed function's do: is the only error reported for it",
          "[computed][check]") {
  // The do: of twice(n) starts with `statement` (on line 8) and returns t.
  auto twice = [](const std::string& statement) {
    std::string file = "game: Twice\nplayers: 2\nvariables:\n  best: 0\nfunctions:\n  twice(n):\n";
    file += "    do: |\n      " + statement + "\n      return t\nflow: |\n  best = twice(2)\n";
    return load_text(file).messages();
  };
  CHECK(twice("let t = n * 2").empty());
  CHECK(twice("let t = n +* 2") ==
        std::vector<std::string>{"8:18: error: expected an expression after the operator"});
  CHECK(twice("let t = (n * 2") ==
        std::vector<std::string>{"8:15: error: '(' at line 8, column 15 is never closed"});
}

TEST_CASE("the checker keeps a computed function free of effects", "[computed][check]") {
  auto errors = [](const std::string& from, const std::string& to) { return kata::test::refused(from, to, runs); };
  auto m = errors("      return most\n", "");
  CHECK_THAT(m, Catch::Contains("function 'longest' computed by statements must end with 'return VALUE', its value"));
  m = errors("        if run > most { most = run }", "        if run > most { return run }");
  CHECK_THAT(m, Catch::Contains("'return' is the last statement of a function's 'do:'"));
  m = errors("  choose P2: mark", "  choose P2: mark\n  return 3");
  CHECK_THAT(m, Catch::Contains("'return' gives the value of a function computed by statements ('do:')"));
  m = errors("      let most = 0\n", "      let most = 0\n      move cell(1) to p.marks\n");
  CHECK_THAT(m, Catch::Contains("a function changes nothing: its 'do:' may hold 'let', assignments to its own names"));
  m = errors("      let most = 0\n", "      let most = 0\n      say \"hello\"\n");
  CHECK_THAT(m, Catch::Contains("a function changes nothing"));
  m = errors("      let most = 0\n", "      let most = 0\n      best = 3\n");
  CHECK_THAT(m, Catch::Contains("a function changes nothing: it assigns only its own names (its parameters and 'let's)"));
  m = errors("      let most = 0\n", "      let most = 0\n      most = P1\n");
  CHECK_THAT(m, Catch::Contains("the assigned value must be a number, but this is a player"));
  m = errors("      return most\n", "      return row\n");
  CHECK_THAT(m, Catch::Contains("a function returns one value, not a zone"));
  m = errors("      return most\n", "      return most + longest(p)\n");
  CHECK_THAT(m, Catch::Contains("longest"));  // recursion is refused, as for any function
  m = errors("    doc: The longest run", "    value: 3\n    doc: The longest run");
  CHECK_THAT(m, Catch::Contains("'longest' has 'value:' and 'do:': a function is one or the other"));
  // A name of its own ends with its block; a parameter may be assigned.
  m = errors("      return most\n", "      for i in 1..2 { let inner = i }\n      return inner\n");
  CHECK_THAT(m, Catch::Contains("inner"));
  CHECK(load_text(kata::test::with("      return most\n", "      p = P2\n      return most\n", runs)).game);
  // `for` takes its list once: a name changed in the body does not change the rounds.
  const std::string rounds =
      "functions:\n"
      "  rounds(n):\n"
      "    do: |\n"
      "      let k = n\n"
      "      let t = 0\n"
      "      for i in 1..k where i <= k {\n"
      "        k = 1\n"
      "        t += i\n"
      "      }\n"
      "      return t\n";
  auto l = load_text(kata::test::with("functions:\n", rounds,
                                      kata::test::with("  best = longest(P1) * 10 + gap(2)", "  best = rounds(3)", runs)));
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    State s = new_game(*g, 2, 1, default_options(*g));
    CHECK(s[g->layout.globals] == 6);
  }
}
