// Hygienic imports (docs/language.md, "Imports"): an import's `rename:` renames the
// imported file's declarations and their uses, never a name bound inside it (a parameter,
// a `let`, a loop's or an aggregate's variable) nor a use of one; a new name that a local
// would capture is an error at the rename. Replacing an imported declaration needs
// `override: true` on the declaration that replaces it (else a warning), and
// `override: true` that replaces nothing is an error.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "support.hpp"
#include "syntax/rulefile.hpp"

using namespace kata;

namespace {

std::string write(const std::string& name, const std::string& text) {
  return kata::test::scratch_file("hygiene", name, text);
}

kata::test::Loaded load(const std::string& path) { return kata::test::load_path(path); }

std::string all(const kata::test::Loaded& l) {
  return fmt::format("{}", fmt::join(l.messages(), "\n"));
}

// The value of global variable `name` in a new game (of one player), its flow run.
int64_t global(const kata::test::Loaded& l, const std::string& name) {
  const Game& g = *l.game;
  State s = new_game(g, 1, 1, default_options(g));
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (g.globals[i].name == name) return s[g.layout.globals + static_cast<int>(i)];
  FAIL("no global " << name);
  return 0;
}

// A library whose procedures and functions bind names spelt like its variable `gold` and
// like the name the tests give it, `coins`.
const char* const shadowing_library = R"yaml(variables:
  gold: {initial: 5}
  seen: {initial: 0}
functions:
  worth(gold, coins): "gold * 10 + coins"
  total(n): "sum(gold for gold in 1..n)"
procedures:
  earn: |
    gold = worth(gold, 3)
    for gold in 1..2 { seen += gold }
    seen += total(3)
    let gold = 100
    seen += gold
)yaml";

}  // namespace

TEST_CASE("a rename leaves alone the parameters and locals spelt like the old or the new name",
          "[imports][hygiene]") {
  write("shadowing.yaml", shadowing_library);
  auto l =
      load(write("shadowing_main.yaml",
                 "game: G\nplayers: 1\nimport: [{file: shadowing.yaml, rename: {gold: coins}}]\n"
                 "flow: earn()\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  // worth(gold, coins) keeps its two parameters (renaming by spelling made it
  // worth(coins, coins), 3 * 10 + 3); the loop's, the aggregate's and the let's `gold` are
  // theirs: 1 + 2, 1 + 2 + 3, 100.
  CHECK(global(l, "coins") == 53);
  CHECK(global(l, "seen") == 109);
}

TEST_CASE("a new name that a local would capture is an error at the rename", "[imports][hygiene]") {
  SECTION("a procedure's parameter (stdlib/turns.yaml, issue 14)") {
    std::string main = write("captured_turns.yaml",
                             "game: G\nplayers: 3\n"
                             "import: [{file: stdlib/turns.yaml, rename: {first: seat_number}}]\n"
                             "flow: first_player_at(2)\n");
    auto l = load(main);
    INFO(all(l));
    REQUIRE_FALSE(l.messages().empty());
    CHECK(l.messages()[0] ==
          "3:45: error: renaming 'first' to 'seat_number' would make its use at "
          "stdlib/turns.yaml:16:7 name the parameter "
          "'seat_number' of procedure 'first_player_at' instead; choose another name");
    std::string text = format_diagnostic(*l.sources, l.diags.items()[0]);
    CHECK(kata::test::has(
        text,
        "stdlib/turns.yaml:16:7: note: the use of 'first' that 'seat_number' would capture\n"
        "   16 |       first = P1\n"));
    // Another name is no one's.
    auto fine = load(write("renamed_turns.yaml",
                           "game: G\nplayers: 3\n"
                           "import: [{file: stdlib/turns.yaml, rename: {first: leader}}]\n"
                           "flow: first_player_at(2)\n"));
    INFO(all(fine));
    REQUIRE(fine.game);
    CHECK(fine.messages().empty());
    const Game& g = *fine.game;
    State s = new_game(g, 3, 1, default_options(g));
    REQUIRE(g.globals.at(0).name == "leader");
    CHECK(s[g.layout.globals] == 1);  // P2
  }
  SECTION("a let, a loop's variable and an aggregate's; once, at the first in the file") {
    write("capturing.yaml", R"yaml(variables:
  gold: {initial: 5}
procedures:
  pay: |
    let coins = 2
    gold -= coins
  count_up: "for coins in 1..3 { gold += coins }"
functions:
  rich: "any(gold > coins for coins in 1..3)"
)yaml");
    auto l =
        load(write("capturing_main.yaml",
                   "game: G\nplayers: 1\nimport: [{file: capturing.yaml, rename: {gold: coins}}]\n"
                   "flow: pay()\n"));
    REQUIRE_FALSE(l.messages().empty());
    CHECK(l.messages()[0] ==
          "3:42: error: renaming 'gold' to 'coins' would make its use at capturing.yaml:6:5 name "
          "the 'let' variable "
          "'coins' instead; choose another name");
    auto messages = l.messages();
    CHECK(std::count_if(messages.begin(), messages.end(), [](const std::string& m) {
            return m.find("renaming 'gold'") != std::string::npos;
          }) == 1);
    // Each kind of local, named in the message.
    write("capturing_loop.yaml",
          "variables:\n  gold: {initial: 5}\nprocedures:\n  count_up: \"for coins in 1..3 { gold "
          "+= coins }\"\n");
    l = load(
        write("capturing_loop_main.yaml",
              "game: G\nplayers: 1\nimport: [{file: capturing_loop.yaml, rename: {gold: coins}}]\n"
              "flow: count_up()\n"));
    REQUIRE_FALSE(l.messages().empty());
    CHECK(l.messages()[0] ==
          "3:47: error: renaming 'gold' to 'coins' would make its use at capturing_loop.yaml:4:34 "
          "name the loop variable "
          "'coins' instead; choose another name");
    write("capturing_sum.yaml",
          "variables:\n  gold: {initial: 5}\nfunctions:\n  rich: \"any(gold > coins for coins in "
          "1..3)\"\n");
    l = load(
        write("capturing_sum_main.yaml",
              "game: G\nplayers: 1\nimport: [{file: capturing_sum.yaml, rename: {gold: coins}}]\n"
              "flow: ''\n"));
    REQUIRE_FALSE(l.messages().empty());
    CHECK(l.messages()[0] ==
          "3:46: error: renaming 'gold' to 'coins' would make its use at capturing_sum.yaml:4:14 "
          "name the variable "
          "'coins' of 'any' instead; choose another name");
  }
}

TEST_CASE("a new name that the imported file uses without declaring is an error at the rename",
          "[imports][hygiene]") {
  // `bonus` is the importing file's: renaming `gold` to it would make `gold += bonus` read
  // `bonus += bonus`.
  write("hook.yaml", "variables:\n  gold: {initial: 5}\nprocedures:\n  earn: gold += bonus\n");
  auto l = load(write("hook_main.yaml",
                      "game: G\nplayers: 1\nimport: [{file: hook.yaml, rename: {gold: bonus}}]\n"
                      "options:\n  bonus: 2\nflow: earn()\n"));
  INFO(all(l));
  auto messages = l.messages();
  CHECK(std::find(
            messages.begin(), messages.end(),
            "3:37: error: renaming 'gold' to 'bonus' would make 'bonus' at hook.yaml:4:17, a name "
            "'hook.yaml' uses "
            "but does not declare, name the renamed declaration instead; choose another name") !=
        messages.end());
}

TEST_CASE("a rename follows a kind into the zones of each, and properties into name templates",
          "[imports][hygiene]") {
  auto l =
      load(write("renamed_board.yaml",
                 "game: G\nplayers: 2\n"
                 "import: [{file: stdlib/hexboard.yaml, rename: {point: node, x: col, y: row}}]\n"
                 "flow: |\n  say \"{count(q in board where q.col == 0)} nodes\"\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  CHECK(l.game->kinds.at(0).name == "node");
}

TEST_CASE("a new name the imported file declares already, or that two names take, is an error",
          "[imports][hygiene]") {
  write("two_names.yaml", "variables:\n  gold: {initial: 5}\n  silver: {initial: 2}\nflow: ''\n");
  auto l = load(
      write("taken.yaml",
            "game: G\nplayers: 1\nimport: [{file: two_names.yaml, rename: {gold: silver}}]\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{"3:42: error: renaming 'gold' to 'silver': 'two_names.yaml' "
                                 "declares 'silver' already (at "
                                 "two_names.yaml:3:3); rename that too, or choose another name"});
  l = load(write("both.yaml",
                 "game: G\nplayers: 1\nimport: [{file: two_names.yaml, rename: {gold: coins, "
                 "silver: coins}}]\n"));
  CHECK(l.messages() == std::vector<std::string>{"3:55: error: 'gold' and 'silver' are both "
                                                 "renamed 'coins': two declarations of one name; "
                                                 "choose another name"});
  // Swapped, the two names are still two.
  l = load(write("swapped.yaml",
                 "game: G\nplayers: 1\nimport: [{file: two_names.yaml, rename: {gold: silver, "
                 "silver: gold}}]\n"
                 "flow: gold = silver * 10\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(global(l, "silver") == 5);
  CHECK(global(l, "gold") == 50);
}

TEST_CASE(
    "overriding an imported declaration without 'override: true' is a warning at the override",
    "[imports][hygiene]") {
  write("piece.yaml", "variables:\n  count: {initial: 5}\nprocedures:\n  bump: count += 1\n");
  std::string main = write("overrides.yaml",
                           "game: G\nplayers: 1\nimport: [piece.yaml]\nvariables:\n  count: "
                           "{initial: 10}\nflow: bump()\n");
  auto l = load(main);
  REQUIRE(l.game);
  CHECK(global(l, "count") == 11);  // it does override
  REQUIRE(l.messages() ==
          std::vector<std::string>{
              "5:3: warning: variable 'count' overrides the one imported from 'piece.yaml' "
              "(declared at "
              "piece.yaml:2:3); declare it with 'override: true' if that is meant"});
  CHECK(format_diagnostic(*l.sources, l.diags.items()[0]) ==
        main +
            ":5:3: warning: variable 'count' overrides the one imported from 'piece.yaml' "
            "(declared at piece.yaml:2:3); "
            "declare it with 'override: true' if that is meant\n"
            "    5 |   count: {initial: 10}\n"
            "      |   ^\n"
            "piece.yaml:2:3: note: the imported declaration\n"
            "    2 |   count: {initial: 5}\n"
            "      |   ^\n");

  // With it, nothing is said.
  l = load(write("overrides_knowingly.yaml",
                 "game: G\nplayers: 1\nimport: [piece.yaml]\n"
                 "variables:\n  count: {initial: 10, override: true}\n"
                 "procedures:\n  bump: {override: true, do: count += 2}\nflow: bump()\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  CHECK(global(l, "count") == 12);

  // A renamed declaration is overridden under its new name.
  l = load(write("overrides_renamed.yaml",
                 "game: G\nplayers: 1\nimport: [{file: piece.yaml, rename: {count: score}}]\n"
                 "variables:\n  score: {initial: 3}\nflow: bump()\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "5:3: warning: variable 'score' overrides the one imported from 'piece.yaml' (declared "
            "at "
            "piece.yaml:2:3 as 'count'); declare it with 'override: true' if that is meant"});

  // One import's declaration replacing another's is said the same way, at the one that
  // replaces (in the second import).
  write("other_piece.yaml", "variables:\n  count: {initial: 7}\n");
  l = load(write("two_pieces.yaml",
                 "game: G\nplayers: 1\nimport: [piece.yaml, other_piece.yaml]\nflow: bump()\n"));
  REQUIRE(l.diags.items().size() == 1);
  CHECK(format_diagnostic(*l.sources, l.diags.items()[0])
            .rfind("other_piece.yaml:2:3: warning: variable 'count' overrides the one imported "
                   "from 'piece.yaml' (declared at "
                   "piece.yaml:2:3); declare it with 'override: true' if that is meant\n",
                   0) == 0);
}

TEST_CASE("'override: true' that overrides nothing is an error", "[imports][hygiene]") {
  write("piece_again.yaml", "variables:\n  count: {initial: 5}\nprocedures:\n  bump: count += 1\n");
  auto l = load(write("overrides_nothing.yaml",
                      "game: G\nplayers: 1\nimport: [piece_again.yaml]\n"
                      "variables:\n  cuont: {initial: 10, override: true}\nflow: bump()\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{"5:3: error: variable 'cuont' is declared with 'override: true' "
                                 "but overrides nothing: no "
                                 "imported variable is named 'cuont'; did you mean 'count'?"});
  // A procedure does not override a variable.
  l = load(write("overrides_other_kind.yaml",
                 "game: G\nplayers: 1\nimport: [piece_again.yaml]\n"
                 "procedures:\n  count: {override: true, do: bump()}\nflow: count()\n"));
  REQUIRE_FALSE(l.messages().empty());
  CHECK(l.messages()[0] ==
        "5:3: error: procedure 'count' is declared with 'override: true' but overrides nothing: no "
        "imported procedure is "
        "named 'count'");
}

TEST_CASE("'override: true' holds when the file it overrides was read first by the importing file",
          "[imports][hygiene]") {
  // inner.yaml is read once, where main imports it first: when outer.yaml imports it, it
  // adds nothing, and outer's `x` replaces inner's only as outer is merged into main.
  write("inner.yaml", "variables:\n  x: {initial: 1}\n");
  write("outer.yaml", "import: [inner.yaml]\nvariables:\n  x: {initial: 2, override: true}\n");
  auto l = load(
      write("diamond.yaml", "game: G\nplayers: 1\nimport: [inner.yaml, outer.yaml]\nflow: ''\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  CHECK(global(l, "x") == 2);
  // And in the other order, where outer.yaml reads inner.yaml itself.
  l = load(write("diamond_other_way.yaml",
                 "game: G\nplayers: 1\nimport: [outer.yaml, inner.yaml]\nflow: ''\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  CHECK(global(l, "x") == 2);
}

TEST_CASE("links and invariants override in long form", "[imports][hygiene]") {
  write("checked.yaml", "variables:\n  n: {initial: 0}\ninvariants:\n  small: n < 3\n");
  auto l = load(write("checked_main.yaml",
                      "game: G\nplayers: 1\nimport: [checked.yaml]\n"
                      "invariants:\n  small: {if: n < 10, override: true}\nflow: n = 5\n"));
  INFO(all(l));
  REQUIRE(l.game);
  CHECK(l.messages().empty());
  l = load(write(
      "checked_short.yaml",
      "game: G\nplayers: 1\nimport: [checked.yaml]\ninvariants:\n  small: n < 10\nflow: n = 5\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "5:3: warning: invariant 'small' overrides the one imported from 'checked.yaml' "
            "(declared at "
            "checked.yaml:4:3); declare it with 'override: true' if that is meant"});
  l = load(write("checked_bad.yaml",
                 "game: G\nplayers: 1\nimport: [checked.yaml]\n"
                 "invariants:\n  small: {override: true}\nflow: n = 5\n"));
  REQUIRE_FALSE(l.messages().empty());
  CHECK(l.messages()[0] ==
        "5:10: error: an invariant written as a mapping needs 'if:', the condition");
}

TEST_CASE("every rule file, imported with all its declarations renamed, plays as itself",
          "[imports][hygiene]") {
  for (const std::string& file : kata::test::rule_files()) {
    INFO(file);
    std::string path = std::string(KATA_SOURCE_DIR) + "/" + file;
    Sources sources;
    Diagnostics diags;
    auto rf = load_rule_file(path, sources, diags);
    REQUIRE(rf);
    std::set<std::string> names;
    for (const auto& o : rf->options) names.insert(o.name);
    for (const auto& c : rf->components) {
      names.insert(c.kind);
      names.insert(c.properties.begin(), c.properties.end());
    }
    for (const auto* list : {&rf->functions, &rf->procedures, &rf->phases})
      for (const auto& r : *list) names.insert(r.name);
    for (const auto& z : rf->zones) names.insert(z.name);
    for (const auto& v : rf->variables) names.insert(v.name);
    for (const auto& a : rf->actions) names.insert(a.name);
    for (const auto& i : rf->invariants) names.insert(i.name);
    // A kind's property `name` is what its cards are named by (the language's word).
    names.erase("name");
    std::string renames;
    for (const auto& n : names) renames += (renames.empty() ? "" : ", ") + n + ": " + n + "_r";
    auto original = kata::test::load_path(path);
    auto renamed = load(write("renamed_" + std::filesystem::path(file).filename().string(),
                              "import: [{file: " + path + ", rename: {" + renames + "}}]\n"));
    INFO(all(renamed));
    REQUIRE(original.game);
    REQUIRE(renamed.game);
    CHECK(renamed.messages().empty());
    const Game& a = *original.game;
    const Game& b = *renamed.game;
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      State s = new_game(a, a.min_players, seed, default_options(a));
      State t = new_game(b, b.min_players, seed, default_options(b));
      uint64_t rng_a = seed, rng_b = seed;
      kata::test::random_steps(a, s, 200, rng_a);
      kata::test::random_steps(b, t, 200, rng_b);
      CHECK(s == t);
    }
  }
}
