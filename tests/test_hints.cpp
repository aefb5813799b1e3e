// Errors that name the real cause (issue 16): what a newcomer writes by habit from other
// languages or from YAML (`&&`, `=`, `1 <= x <= 7`, a call split by a flow list, a brace
// left open inside another block, a misspelt aggregate) gets a message that says what to
// write, at the place to change; and one mistake does not hide or invent others.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "syntax/parse.hpp"

using namespace kata;
using kata::test::has;
using kata::test::load_text;
using kata::test::run_kata;
using kata::test::temp;

namespace {

using kata::test::with;

using Messages = std::vector<std::string>;

}  // namespace

TEST_CASE("a call split by a YAML flow list is named as such, at the comma", "[hints]") {
  auto l = load_text(
      with("    params: {c: player.hand}\n",
           "    params: {c: player.hand}\n    when: [max(c.value, 1) > 2, c.value < 6]\n"));
  CHECK(l.messages() ==
        Messages{
            "19:23: error: YAML splits the list at this ',' inside 'max(c.value, 1) > 2': quote "
            "the item "
            "(\"max(c.value, 1) > 2\") or write the list one item a line (- max(c.value, 1) > 2)"});
  // The call is still read whole and checked: its own mistake is found too.
  l = load_text(
      with("    params: {c: player.hand}\n",
           "    params: {c: player.hand}\n    when: [max(c.value, 1) > 2, c.vlaue < 6]\n"));
  CHECK(l.messages() ==
        Messages{
            "19:23: error: YAML splits the list at this ',' inside 'max(c.value, 1) > 2': quote "
            "the item "
            "(\"max(c.value, 1) > 2\") or write the list one item a line (- max(c.value, 1) > 2)",
            "19:35: error: unknown card property 'vlaue'; did you mean 'value'?"});
  // The same in a list of tiebreaks.
  l = load_text(with("score: p.score", "score: p.score\n  tiebreak: [max(p.score, 1), p.score]"));
  CHECK(
      l.messages() ==
      Messages{
          "22:25: error: YAML splits the list at this ',' inside 'max(p.score, 1)': quote the item "
          "(\"max(p.score, 1)\") or write the list one item a line (- max(p.score, 1))"});
  // Quoted, or a block list, it is what was meant.
  CHECK(
      load_text(
          with("    params: {c: player.hand}\n",
               "    params: {c: player.hand}\n    when: [\"max(c.value, 1) > 2\", c.value < 6]\n"))
          .messages()
          .empty());
  CHECK(load_text(with("    params: {c: player.hand}\n",
                       "    params: {c: player.hand}\n    when:\n      - max(c.value, 1) > 2\n     "
                       " - c.value < 6\n"))
            .messages()
            .empty());
}

TEST_CASE("the whole line and the caret of a hint, as kata check prints them", "[hints]") {
  auto file = temp("split-when.yaml",
                   with("    params: {c: player.hand}\n",
                        "    params: {c: player.hand}\n    when: [max(c.value, 1) > 2]\n"));
  auto r = run_kata("check " + file);
  CHECK(r.status == 1);
  CHECK(has(
      r.out,
      file + ":19:23: error: YAML splits the list at this ',' inside 'max(c.value, 1) > 2': quote "
             "the item (\"max(c.value, 1) > 2\") or write the list one item a line (- max(c.value, "
             "1) > 2)\n"
             "   19 |     when: [max(c.value, 1) > 2]\n"
             "      |                       ^\n"));
  file = temp("and-and.yaml", with("do: player.score += c.value",
                                   "do: if c.value > 1 && c.value < 5 { player.score += 1 }"));
  r = run_kata("check " + file);
  CHECK(r.status == 1);
  CHECK(has(r.out, file + ":19:24: error: '&&' is not an operator; write 'and' (a and b)\n"
                          "   19 |     do: if c.value > 1 && c.value < 5 { player.score += 1 }\n"
                          "      |                        ^\n"));
}

TEST_CASE("operators of other languages get the word to write instead", "[hints]") {
  auto in_do = [](const std::string& effect) {
    return load_text(with("do: player.score += c.value", "do: " + effect)).messages();
  };
  CHECK(in_do("if c.value > 1 && c.value < 5 { player.score += 1 }") ==
        Messages{"19:24: error: '&&' is not an operator; write 'and' (a and b)"});
  CHECK(in_do("if c.value > 1 || c.value < 5 { player.score += 1 }") ==
        Messages{"19:24: error: '||' is not an operator; write 'or' (a or b)"});
  CHECK(in_do("if !(c.value > 1) { player.score += 1 }") ==
        Messages{"19:12: error: '!' is not an operator; write 'not' (not a)"});
  CHECK(in_do("if c.value = 1 { player.score += 1 }") ==
        Messages{"19:20: error: '=' sets a variable; write '==' to compare (a == b)"});
  CHECK(
      in_do("if 1 <= c.value <= 5 { player.score += 1 }") ==
      Messages{
          "19:25: error: comparisons do not chain: write '1 <= x and x <= 7', not '1 <= x <= 7'"});
  // `!=` is an operator: no hint.
  CHECK(in_do("if c.value != 1 { player.score += 1 }").empty());
  // In a condition of its own (`when:`), the same words.
  auto when = [](const std::string& cond) {
    return load_text(with("    params: {c: player.hand}\n",
                          "    params: {c: player.hand}\n    when: " + cond + "\n"))
        .messages();
  };
  CHECK(when("c.value > 1 && c.value < 5") ==
        Messages{"19:23: error: '&&' is not an operator; write 'and' (a and b)"});
  CHECK(when("c.value = 1") ==
        Messages{"19:19: error: '=' sets a variable; write '==' to compare (a == b)"});
  CHECK(
      when("1 <= c.value <= 5") ==
      Messages{
          "19:24: error: comparisons do not chain: write '1 <= x and x <= 7', not '1 <= x <= 7'"});
  CHECK(when("not c.value > 1 and !(c.value < 3)") ==
        Messages{"19:31: error: '!' is not an operator; write 'not' (not a)"});
}

TEST_CASE("a misspelt aggregate is named, with the closest one", "[hints]") {
  auto l = load_text(with("score: p.score", "score: p.score + cuont(q in players)"));
  CHECK(l.messages() == Messages{"21:20: error: unknown aggregate 'cuont'; did you mean 'count'?"});
  l = load_text(with("score: p.score", "score: p.score + smu(q.score for q in players)"));
  CHECK(l.messages() == Messages{"21:20: error: unknown aggregate 'smu'; did you mean 'sum'?"});
  l = load_text(with("score: p.score", "score: p.score + total(q.score for q in players)"));
  CHECK(l.messages() ==
        Messages{"21:20: error: 'total' is not an aggregate: only sum, count, min, max, any, all, "
                 "best, worst and find range a variable ('x in LIST')"});
}

TEST_CASE("a missing '}' is reported at the block that lacks it, as the indentation shows",
          "[hints]") {
  auto l = load_text(with("  for p in players { choose p: keep }\n",
                          "  repeat 2 times {\n"
                          "    if true {\n"
                          "      shuffle deck\n"
                          "  }\n"
                          "  for p in players { choose p: keep }\n"));
  CHECK(l.messages() == Messages{"16:13: error: '{' at line 16, column 13 is never closed"});
  REQUIRE(l.diags.items().size() == 1);
  REQUIRE(l.diags.items()[0].notes.size() == 1);
  CHECK(l.diags.items()[0].notes[0].message == "this '}' is indented for the block around it");
  CHECK(l.diags.items()[0].notes[0].pos.line == 18);
  CHECK(l.diags.items()[0].notes[0].pos.col == 3);
  // Where the indentation says nothing, the outer brace left open is the one named.
  l = load_text(with("  for p in players { choose p: keep }\n",
                     "  repeat 2 times {\n"
                     "    if true { shuffle deck }\n"
                     "  for p in players { choose p: keep }\n"));
  CHECK(l.messages() == Messages{"15:18: error: '{' at line 15, column 18 is never closed"});
}

TEST_CASE("a syntax error does not also warn that what it would have used is unused", "[hints]") {
  const std::string procs = "procedures:\n  deal_to(p): move top(deck) to p.hand\nscoring:";
  auto fine = with(
      "scoring:", procs,
      with("for p in players { move top(deck) to p.hand }", "for p in players { deal_to(p) }"));
  CHECK(load_text(fine).messages().empty());
  auto broken = with("for p in players { deal_to(p) }", "for p in players { deal_to(p) ) }", fine);
  CHECK(load_text(broken).messages() ==
        Messages{"14:33: error: expected '}' (to close '{' at line 14, column 20)"});
}

TEST_CASE("two separate mistakes are both reported, each with its own hint", "[hints]") {
  auto text = with("do: player.score += c.value",
                   "do: if c.value > 1 && c.value < 5 { player.score += 1 }");
  text = with("score: p.score", "score: p.score + cuont(q in players)", text);
  CHECK(load_text(text).messages() ==
        Messages{"19:24: error: '&&' is not an operator; write 'and' (a and b)",
                 "21:20: error: unknown aggregate 'cuont'; did you mean 'count'?"});
}

TEST_CASE("a syntax error in a block of statements does not hide those of the statements after it",
          "[hints]") {
  auto text = with("  shuffle deck\n", "  shuffle deck && deck\n");
  text = with("{ choose p: keep }", "{ choose p keep }", text);
  CHECK(load_text(text).messages() ==
        Messages{"13:16: error: '&&' is not an operator; write 'and' (a and b)",
                 "15:31: error: expected ':' after the player"});
  // Read again from the next statement of the outer level: what is inside the broken
  // block, its '}' and an 'else' going on from it are not taken for statements.
  text = with("  for p in players { move top(deck) to p.hand }\n",
              "  if true {\n"
              "    shuffle deck &&\n"
              "  }\n"
              "  else {\n"
              "    shuffle deck\n"
              "  }\n"
              "  shuffle deck &&\n");
  CHECK(load_text(text).messages() ==
        Messages{"15:18: error: '&&' is not an operator; write 'and' (a and b)",
                 "20:16: error: '&&' is not an operator; write 'and' (a and b)"});
  // At most max_more_syntax_errors more times in one text.
  std::string many;
  for (int i = 0; i < 20; ++i) many += "  shuffle deck &&\n";
  CHECK(load_text(with("  shuffle deck\n", many)).messages().size() == 1 + max_more_syntax_errors);
}

TEST_CASE("an invariant that fails under --check-invariants shows the values of its sides",
          "[hints]") {
  auto file =
      temp("small-score.yaml",
           with("scoring:", "invariants:\n  small: sum(p.score for p in players) < 2\nscoring:"));
  auto r = run_kata("simulate " + file + " -g 1 -p 2 --seed 1 --check-invariants");
  CHECK(r.status == 1);
  CHECK(
      has(r.out,
          "  game 1: " + file +
              ":21:3: invariant 'small' does not hold: the left side is 2, the right side is 2\n"));
}

TEST_CASE("a rule file's invariant that fails in a scenario shows the values of its sides",
          "[hints]") {
  auto rules =
      temp("hints-small.yaml",
           with("scoring:", "invariants:\n  small: sum(p.score for p in players) < 3\nscoring:"));
  auto file = temp("hints-small-scenario.yaml", R"(scenario: the invariant breaks after the keeps
rules: hints-small.yaml
players: 2
shuffles:
  - [3, 4, 1, 2, 5, 6]
steps:
  - play: P1 keep 3
  - play: P2 keep 4
)");
  auto r = run_kata("test " + file);
  CHECK(r.status == 1);
  CHECK(has(
      r.out,
      file + ":7:11: error: the rule file's invariant 'small' does not hold after this step\n"));
  CHECK(has(r.out, rules + ":21:3: note: the invariant\n"));
  CHECK(has(r.out, "      = note: actual: the left side is 3, the right side is 3\n"));
}
