// The grammar: PEGTL finds no problem in it, expressions parse with the precedence the
// docs give, and every syntax error has its exact message and column.
#include <catch2/catch.hpp>
#include <tao/pegtl/contrib/analyze.hpp>

#include "support.hpp"
#include "syntax/grammar.hpp"
#include "syntax/parse.hpp"

using namespace kata;

namespace {

std::string shape(const Expr& e) {
  switch (e.kind) {
    case ExprKind::integer: return std::to_string(e.value);
    case ExprKind::name: return e.name;
    case ExprKind::member: return shape(*e.args[0]) + "." + e.name;
    case ExprKind::binary: return "(" + shape(*e.args[0]) + " " + e.op + " " + shape(*e.args[1]) + ")";
    case ExprKind::unary: return "(" + e.op + " " + shape(*e.args[0]) + ")";
    case ExprKind::aggregate: {
      std::string s = e.op + "(" + (e.args[2] ? shape(*e.args[2]) + " for " : "") + e.name + " in " + shape(*e.args[0]);
      return s + (e.args[1] ? " where " + shape(*e.args[1]) : "") + ")";
    }
    case ExprKind::from: return "(" + shape(*e.args[0]) + " from " + shape(*e.args[1]) + ")";
    case ExprKind::call: {
      std::string s = e.name + "(";
      for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + shape(*e.args[i]);
      return s + ")";
    }
    case ExprKind::conditional: return "(if " + shape(*e.args[0]) + " then " + shape(*e.args[1]) + " else " + shape(*e.args[2]) + ")";
    case ExprKind::range: return "(" + shape(*e.args[0]) + ".." + shape(*e.args[1]) + ")";
    default: return "?";
  }
}

std::string parse(const std::string& text) {
  Diagnostics d;
  auto e = parse_expression(text, Locator::plain(), d);
  if (!e) return "error " + std::to_string(d.items().at(0).pos.col) + ": " + d.items().at(0).message;
  return shape(*e);
}

std::string parse_block(const std::string& text) {
  Diagnostics d;
  Block b;
  if (!parse_program(text, Locator::plain(), d, b))
    return "error " + std::to_string(d.items().at(0).pos.col) + ": " + d.items().at(0).message;
  return std::to_string(b.size()) + " statements";
}

}  // namespace

TEST_CASE("the grammar has no problems PEGTL can find", "[grammar]") {
  CHECK(tao::pegtl::analyze<grammar::program>() == 0);
  CHECK(tao::pegtl::analyze<grammar::expression_text>() == 0);
}

TEST_CASE("expressions parse with the documented precedence", "[grammar]") {
  CHECK(parse("1 + 2 * 3") == "(1 + (2 * 3))");
  CHECK(parse("a - b - c") == "((a - b) - c)");
  CHECK(parse("not a and b or c") == "(((not a) and b) or c)");
  CHECK(parse("x.kamons >= 2 and -y < 3") == "((x.kamons >= 2) and ((- y) < 3))");
  CHECK(parse("sum(p.stake for p in players)") == "sum(p.stake for p in players)");
  CHECK(parse("count(p in players from first where p.fought)") == "count(p in (players from first) where p.fought)");
  CHECK(parse("best(strength(p) for p in players)") == "best(strength(p) for p in players)");
  CHECK(parse("if a then 1 else 2 + 3") == "(if a then 1 else (2 + 3))");
  CHECK(parse("top(p.hand).value") == "top(p.hand).value");
  CHECK(parse("1..15") == "(1..15)");
  CHECK(parse("a # a comment\n + 1") == "(a + 1)");
}

TEST_CASE("min and max take a list or two or more values, told apart after the first expression", "[grammar]") {
  CHECK(parse("max(a, b)") == "max(a, b)");
  CHECK(parse("min(1, x.v, 3 + 4) * 2") == "(min(1, x.v, (3 + 4)) * 2)");
  CHECK(parse("max(x.v for x in deck where x.v > 2)") == "max(x.v for x in deck where (x.v > 2))");
  CHECK(parse("min(x in deck)") == "min(x in deck)");  // the checker asks for a value
  CHECK(parse("max(min(a, b) for x in 1..3 where max(x, 1) > 2)") ==
        "max(min(a, b) for x in (1..3) where (max(x, 1) > 2))");
  CHECK(parse("max(max(1, 2), max(a for a in 1..2), min(3, 4))") ==
        "max(max(1, 2), max(a for a in (1..2)), min(3, 4))");
  // The other aggregates read their first expression once too.
  CHECK(parse("count(p in players where p.x)") == "count(p in players where p.x)");
  CHECK(parse("sum(sum(1 for a in 1..2) for b in 1..3)") == "sum(sum(1 for a in (1..2)) for b in (1..3))");
  // `max` and `min` without '(' are names.
  CHECK(parse("max + min") == "(max + min)");
}

TEST_CASE("syntax errors say what was expected, at the right column", "[grammar]") {
  // An unclosed bracket is reported where it was opened; a stray one where it stands.
  CHECK(parse("(1 + 2") == "error 1: '(' at line 1, column 1 is never closed");
  CHECK(parse("(1 + 2))") == "error 8: ')' closes nothing");
  CHECK(parse("f(1 + {2)") == "error 9: expected '}' (to close '{' at line 1, column 7)");
  CHECK(parse("1 +") == "error 4: expected an expression after the operator");
  CHECK(parse("if a then 1") == "error 12: expected 'else' (an 'if' expression needs both branches)");
  CHECK(parse("a.") == "error 3: expected a name after '.'");
  CHECK(parse("1 2") == "error 3: unexpected text after the expression");
  CHECK(parse("sum(p in)") == "error 9: expected a list after 'in'");
  CHECK(parse("not") == "error 4: expected an expression after 'not'");
  CHECK(parse("max(a)") == "error 6: expected ',' and more values (max(a, b)), or 'for' (max(VALUE for x in LIST))");
  CHECK(parse("min(a b)") == "error 7: expected ',' and more values (min(a, b)), or 'for' (min(VALUE for x in LIST))");
  CHECK(parse("max(a, )") == "error 8: expected a value after ','");
  CHECK(parse("sum(a, b)") == "error 6: expected 'in'");
  CHECK(parse("count(p.x in deck)") == "error 7: expected a variable name before 'in'");
  CHECK(parse("sum(x for 3 in deck)") == "error 11: expected a variable name after 'for'");
  CHECK(parse("sum(x for y deck)") == "error 13: expected 'in'");
  CHECK(parse_block("x = = 2") == "error 5: expected a value after the assignment");
  CHECK(parse_block("if x { y = 1 } else z") == "error 21: expected '{' or 'if' after 'else'");
  CHECK(parse_block("for p players { }") == "error 7: expected 'in'");
  CHECK(parse_block("move c") == "error 7: expected 'to' and a zone");
  CHECK(parse_block("move c to z face sideways") == "error 18: expected 'up' or 'down' after 'face'");
  CHECK(parse_block("repeat { }") == "error 8: expected 'until CONDITION' or 'N times' after 'repeat'");
  CHECK(parse_block("choose p flip") == "error 10: expected ':' after the player");
  CHECK(parse_block("if x { y = 1") == "error 6: '{' at line 1, column 6 is never closed");
  CHECK(parse_block("x = 1 )") == "error 7: ')' closes nothing");
  CHECK(parse_block("end") == "error 4: expected 'game' after 'end'");
}

TEST_CASE("statements parse", "[grammar]") {
  CHECK(parse_block("let x = 1; x += 2\nmove top(deck) to p.hand face up at bottom") == "3 statements");
  CHECK(parse_block("repeat 3 times { shuffle deck } repeat until done { end game }") == "2 statements");
  CHECK(parse_block("choose p: flip | draw\nphase deal\nwin p\nlook p at c\nreveal c\neliminate p") == "6 statements");
  CHECK(parse_block("give 2 coins to p\ntake 1 coins from p\ndeal 3 cards from deck to p.hand") == "3 statements");
  // The words stay free as names where an assignment follows them.
  CHECK(parse_block("give = 1; take += 2; deal -= 3") == "3 statements");
  CHECK(parse_block("deal 3 from deck to x") == "error 18: expected 'cards' after the number (deal 2 cards from deck to p.hand)");
  CHECK(parse_block("give 2 to p") == "error 8: expected the name of a player variable (give 2 coins to p)");
}

TEST_CASE("nesting is bounded, so untrusted text cannot exhaust the stack", "[grammar]") {
  std::string deep(200, '(');
  CHECK(parse(deep + "1") == "error 65: nesting deeper than 64 levels");
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  CHECK(parse(nots + "x").rfind("error", 0) == 0);
}
