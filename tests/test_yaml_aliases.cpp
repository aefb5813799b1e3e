// YAML aliases (`*name`) repeat the node their anchor names, and the loader reads each
// repetition: what they repeat is counted, 1048576 nodes and characters in all
// (docs/language.md §7), so a few lines of anchors naming anchors, or a long text named
// by thousands of aliases, is refused before it is read, at the mapping or list that holds
// the alias that went over.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "scenario/scenario.hpp"
#include "support.hpp"

using kata::test::load_text;

namespace {

const std::string head = "kata: 1\ngame: G\nplayers: 1\nflow: ''\n";

// Sixteen actions whose `doc:` is an alias of one text of 65535 characters: 16 x 65536
// repeated (each alias counts its node and the text's length), the limit exactly. With
// `extra`, one more alias, of an empty text, which counts one.
std::string sixteen_docs(bool extra) {
  std::string text = head + "doc: &t \"" + std::string(65535, 'x') + "\"\nactions:\n";
  text += "  first: {doc: &e \"\", do: ''}\n";
  for (int i = 0; i < 16; ++i) text += "  a" + std::to_string(i) + ": {doc: *t, do: ''}\n";
  if (extra) text += "  last: {doc: *e, do: ''}\n";
  return text;
}

}  // namespace

TEST_CASE("aliases repeat at most 1048576 nodes and characters", "[budgets][yaml]") {
  auto at_limit = load_text(sixteen_docs(false));
  CHECK(at_limit.game);  // (with warnings: the actions are offered nowhere)
  CHECK_FALSE(at_limit.diags.has_errors());
  auto over = load_text(sixteen_docs(true));
  CHECK_FALSE(over.game);
  // At the mapping that holds the alias which went over (line 24: `last:`'s).
  REQUIRE(over.messages() ==
          std::vector<std::string>{"24:9: error: aliases repeat too much: more than 1048576 nodes and characters in all "
                                   "(each '*name' counts all that its anchor names, each time)"});
}

TEST_CASE("a billion laughs is refused at once", "[budgets][yaml]") {
  // Ten lists of ten aliases of the list before: 10^9 nodes, in nine short lines.
  std::string text = head + "doc: ok\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 9; ++i) {
    text += fmt::format("x{0}: &a{0} [", i);
    for (int k = 0; k < 10; ++k) text += fmt::format("{}*a{}", k ? ", " : "", i - 1);
    text += "]\n";
  }
  auto l = load_text(text);
  CHECK_FALSE(l.game);
  REQUIRE(l.messages().size() == 1);
  CHECK(l.messages()[0].find("error: aliases repeat too much") != std::string::npos);
}

TEST_CASE("one long text named by many aliases is refused before it is read", "[budgets][yaml]") {
  // 2000 conditions, each the same 1 MiB text: gigabytes read, and parsed, one by one.
  std::string text = head + "doc: &t \"" + std::string((1 << 20) - 16, 'x') + "\"\nactions:\n  go:\n    when: [";
  for (int i = 0; i < 2000; ++i) text += i ? ", *t" : "*t";
  text += "]\n";
  auto l = load_text(text);
  CHECK_FALSE(l.game);
  REQUIRE(l.messages().size() == 1);
  // At the list of conditions.
  CHECK(l.messages()[0].rfind("8:11: error: aliases repeat too much", 0) == 0);
}

TEST_CASE("an alias used a few times is read as its anchor", "[yaml]") {
  auto l = load_text(head + "variables:\n  a: &zero {initial: 0}\n  b: *zero\n  c: *zero\n");
  INFO(l.messages().size());
  REQUIRE(l.game);
  CHECK(l.game->globals.size() == 3);
}

// A scenario is read as a rule file is (syntax/rulefile.hpp, read_yaml): the same budget.
namespace {

// Connect four's first move, then sixteen expectations whose `because:` is an alias of one
// text of 65535 characters (the scenario's name): the limit exactly, as sixteen_docs.
std::string sixteen_becauses(bool extra) {
  std::string text = "scenario: &t \"" + std::string(65535, 'x') + "\"\nrules: " KATA_SOURCE_DIR
                     "/rules/connect4.yaml\nplayers: 2\nsteps:\n  - {play: P1 drop 4, because: &e \"\"}\n";
  for (int i = 0; i < 16; ++i) text += "  - {expect: \"size(cell(4, 1).spot) == 1\", because: *t}\n";
  if (extra) text += "  - {expect: \"size(cell(4, 1).spot) == 1\", because: *e}\n";
  return text;
}

std::vector<std::string> scenario_messages(const kata::ScenarioResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diags.items()) out.push_back(fmt::format("{}:{}: {}", d.pos.line, d.pos.col, d.message));
  return out;
}

}  // namespace

TEST_CASE("a scenario's aliases repeat at most 1048576 nodes and characters", "[budgets][yaml][scenario]") {
  auto at_limit = kata::run_scenario(kata::test::temp("aliases-at-limit.yaml", sixteen_becauses(false)));
  CHECK(scenario_messages(at_limit).empty());
  CHECK(at_limit.passed);
  auto over = kata::run_scenario(kata::test::temp("aliases-over.yaml", sixteen_becauses(true)));
  // At the list of steps, which holds the alias that went over (line 22: the last step's).
  REQUIRE(scenario_messages(over) ==
          std::vector<std::string>{"22:5: aliases repeat too much: more than 1048576 nodes and characters in all "
                                   "(each '*name' counts all that its anchor names, each time)"});
}

TEST_CASE("a billion laughs in a scenario is refused at once", "[budgets][yaml][scenario]") {
  std::string text = "rules: " KATA_SOURCE_DIR "/rules/connect4.yaml\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i < 9; ++i) {
    text += fmt::format("x{0}: &a{0} [", i);
    for (int k = 0; k < 10; ++k) text += fmt::format("{}*a{}", k ? ", " : "", i - 1);
    text += "]\n";
  }
  auto r = kata::run_scenario(kata::test::temp("aliases-laughs.yaml", text));
  REQUIRE(r.diags.items().size() == 1);
  CHECK(r.diags.items()[0].message.rfind("aliases repeat too much", 0) == 0);
}

TEST_CASE("a scenario is UTF-8 text without control characters", "[yaml][scenario]") {
  auto r = kata::run_scenario(kata::test::temp("scenario-bad-byte.yaml", "scenario: ab\xff\n"));
  CHECK(scenario_messages(r) == std::vector<std::string>{"1:13: not UTF-8 text (byte 0xFF): a scenario is UTF-8"});
}
