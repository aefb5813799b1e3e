// Imports: a rule file reads pieces from other files (beside it, or in stdlib/),
// overrides them by declaring the same names, and renames them to its own words; an error
// inside an imported file says where it was imported from.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agents/typed.hpp"
#include "support.hpp"

using namespace kata;

namespace {

std::string dir() {
  static std::string d = kata::test::scratch_dir("imports");
  return d;
}

std::string write(const std::string& name, const std::string& text) {
  return kata::test::scratch_file("imports", name, text);
}

kata::test::Loaded load(const std::string& path) { return kata::test::load_path(path); }

}  // namespace

TEST_CASE("an imported piece is used, and overridden by a declaration of the same name", "[imports]") {
  // (`override: true` says it is meant: tests/test_imports_hygiene.cpp.)
  write("piece.yaml", "variables:\n  count: {initial: 5}\nprocedures:\n  bump: count += 1\n");
  auto l = load(write("main.yaml", "game: G\nplayers: 1\nimport: [piece.yaml]\nvariables:\n  count: {initial: 10, override: true}\nflow: bump()\n"));
  REQUIRE(l.game);
  State s = new_game(*l.game, 1, 1, default_options(*l.game));
  CHECK(s[l.game->layout.globals] == 11);
}

TEST_CASE("rename gives an imported piece the game's own words", "[imports]") {
  auto l = load(write("renamed.yaml", "game: G\nplayers: 2\nimport:\n  - file: " KATA_SOURCE_DIR "/stdlib/betting.yaml\n"
                                      "    rename: {reserve: chips, join: call}\n"
                                      "variables:\n  chips: {per_player: true, initial: 3, override: true}\n"
                                      "flow: betting_round(P2)\n"));
  INFO(l.messages().size());
  REQUIRE(l.game);
  State s = new_game(*l.game, 2, 1, default_options(*l.game));
  std::string why;
  CHECK(parse_decision(*l.game, s, "call", why));
  CHECK_FALSE(parse_decision(*l.game, s, "join", why));
  CHECK(why == "there is no action 'join'");
  CHECK(l.messages().empty());  // unused library pieces are not warned about
}

TEST_CASE("renaming a name the imported file does not declare is an error with a hint", "[imports]") {
  auto l = load(write("misnamed.yaml", "game: G\nplayers: 2\nimport:\n  - file: " KATA_SOURCE_DIR "/stdlib/betting.yaml\n"
                                       "    rename: {reserv: chips}\n"
                                       "flow: betting_round(P2)\n"));
  REQUIRE(l.messages().size() == 1);
  CHECK(l.messages()[0].find("5:14: error: '" KATA_SOURCE_DIR "/stdlib/betting.yaml' declares no 'reserv' to rename; did you mean 'reserve'?") != std::string::npos);
}

TEST_CASE("the stdlib is found by name", "[imports]") {
  auto l = load(write("deck.yaml", "game: G\nplayers: 2\nimport: [stdlib/deck.yaml, stdlib/turns.yaml]\n"
                                   "components:\n  card: {each: {v: 1..4}, in: deck}\n"
                                   "flow: shuffle_and_deal(2, first)\n"));
  REQUIRE(l.game);
  State s = new_game(*l.game, 2, 1, default_options(*l.game));
  CHECK(s[l.game->layout.zone_size + l.game->zone_instance(1, 0)] == 2);
  CHECK(s[l.game->layout.zone_size + l.game->zone_instance(1, 1)] == 2);
}

TEST_CASE("the stdlib is $KATA_STDLIB when set, else the source tree's for a program of the build tree", "[imports]") {
  // (The installed kata's, found beside it, is ctest's `install` test: tests/install.cmake.)
  const char* set = std::getenv("KATA_STDLIB");
  std::optional<std::string> saved = set ? std::optional<std::string>(set) : std::nullopt;
  unsetenv("KATA_STDLIB");
  CHECK(std::filesystem::equivalent(stdlib_dir(), KATA_SOURCE_DIR "/stdlib"));
  setenv("KATA_STDLIB", dir().c_str(), 1);
  CHECK(stdlib_dir() == dir());
  setenv("KATA_STDLIB", "", 1);  // empty, as if not set
  CHECK(std::filesystem::equivalent(stdlib_dir(), KATA_SOURCE_DIR "/stdlib"));
  if (saved)
    setenv("KATA_STDLIB", saved->c_str(), 1);
  else
    unsetenv("KATA_STDLIB");
}

TEST_CASE("an error in an imported file says where it was imported from", "[imports]") {
  write("broken.yaml", "procedures:\n  oops: shuffle nowhere\n");
  std::string main = write("uses_broken.yaml", "game: G\nplayers: 1\nimport: [broken.yaml]\nflow: oops()\n");
  auto l = load(main);
  REQUIRE(l.diags.items().size() == 1);
  std::string text = format_diagnostic(*l.sources, l.diags.items()[0]);
  CHECK(text == "broken.yaml:2:17: error: unknown name 'nowhere'\n"
                "    2 |   oops: shuffle nowhere\n"
                "      |                 ^\n" +
                main + ":3:10: note: in the file imported from here\n"
                "    3 | import: [broken.yaml]\n"
                "      |          ^\n");
}

TEST_CASE("missing and circular imports are errors, not crashes", "[imports]") {
  auto l = load(write("missing.yaml", "game: G\nplayers: 1\nimport: [nothere.yaml]\nflow: ''\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "3:10: error: cannot find 'nothere.yaml' (looked beside this file and in the stdlib)"});
  write("a.yaml", "import: [b.yaml]\n");
  write("b.yaml", "import: [a.yaml]\n");
  l = load(write("cycle.yaml", "game: G\nplayers: 1\nimport: [a.yaml]\nflow: ''\n"));
  REQUIRE_FALSE(l.messages().empty());
  REQUIRE(l.diags.items().size() == 1);
  CHECK(format_diagnostic(*l.sources, l.diags.items()[0]).rfind("b.yaml:1:10: error: circular import: a.yaml -> b.yaml -> a.yaml\n", 0) == 0);
  l = load(write("badimport.yaml", "game: G\nplayers: 1\nimport: [{rename: {a: b}}]\nflow: ''\n"));
  CHECK(l.messages() == std::vector<std::string>{"3:10: error: an import needs 'file:'"});
}

TEST_CASE("the messages of an imported file follow its renames", "[imports]") {
  auto l = load(write("renamed-say.yaml", "game: G\nplayers: 2\nimport:\n  - file: " KATA_SOURCE_DIR
                                          "/stdlib/betting.yaml\n"
                                          "    rename: {reserve: chips, join: call, pass: fold}\n"
                                          "variables:\n  chips: {per_player: true, initial: 3, override: true}\n"
                                          "flow: betting_round(P2)\n"));
  REQUIRE(l.game);
  std::vector<std::string> texts;
  for (const Message& m : l.game->program.messages) {
    std::string t;
    for (size_t i = 0; i < m.text.size(); ++i) t += (i ? "{}" : "") + m.text[i];
    texts.push_back(t);
  }
  INFO(texts.size());
  // "joins ... reserve" reads "calls ... chips"; "passes" reads "folds" ("es" spelt again).
  CHECK(std::find(texts.begin(), texts.end(), "{} calls, staking {} of their chips") !=
        texts.end());
  CHECK(std::find(texts.begin(), texts.end(), "{} folds") != texts.end());
  // Without renames, the library's own words.
  auto plain = load(write("plain-say.yaml",
                          "game: G\nplayers: 2\nimport: " KATA_SOURCE_DIR "/stdlib/betting.yaml\n"
                          "flow: betting_round(P2)\n"));
  REQUIRE(plain.game);
  bool joins = false;
  for (const Message& m : plain.game->program.messages)
    joins = joins || (m.text.size() > 1 && m.text[1] == " joins, staking ");
  CHECK(joins);
}

TEST_CASE("labels and refusals of an imported file follow its renames, placeholders too", "[imports]") {
  write("pile.yaml", R"(components:
  coin:
    each: {value: 1..3}
    in: pot
    label: "coin worth {value}"
zones:
  pot: {visibility: everyone, label: "the pot of coins"}
  purse: {per_player: true, visibility: owner, label: "{player}'s purse"}
actions:
  grab:
    params: {c: pot}
    when:
      - {if: "c.value < 3", refuse: "You cannot grab {c}: grab a coin under 3 from the pot."}
    do: move c to player.purse
)");
  auto l = load(write("renamed-labels.yaml", R"(game: G
players: 2
import: [{file: pile.yaml, rename: {coin: chip, value: worth, pot: bank, purse: wallet, grab: take}}]
flow: |
  for p in players { choose p: take }
)"));
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);  // {value} and {player} still name something
  const Game& g = *l.game;
  State s = new_game(g, 2, 1, default_options(g));
  std::string why;
  // (A card of `each: {value: 1..3}` is named by its value.)
  CHECK_FALSE(read_decision(g, s, "take 3", why));
  CHECK(why == "You cannot take 3: take a chip under 3 from the bank.");
  auto d = read_decision(g, s, "take 1", why);
  REQUIRE(d);
  apply(g, s, *d);
  std::string screen = describe_view(g, make_view(g, s, 0));
  CHECK(kata::test::has(screen, "the bank of chips:"));
  CHECK(kata::test::has(screen, "P1's wallet:"));
  CHECK(kata::test::has(screen, "chip worth 1"));
}
