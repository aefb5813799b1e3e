// The checker: every error in a file is reported at once, each with its exact text and
// position, and with a hint where one helps. Warnings for what is declared but unused.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

const std::string& base = kata::test::tiny_game;
using kata::test::with;
using kata::test::has;

}  // namespace

TEST_CASE("a valid file has no diagnostics", "[check]") {
  auto l = load_text(base);
  CHECK(l.messages().empty());
  CHECK(l.game != nullptr);
}

TEST_CASE("unknown names get a hint", "[check]") {
  auto l = load_text(with("move top(deck) to p.hand", "move top(deck) to p.hnad"));
  CHECK(l.messages() == std::vector<std::string>{
                            "14:42: error: unknown player variable or zone 'hnad'; did you mean 'hand'?"});
  l = load_text(with("shuffle deck", "shuffle dekc"));
  CHECK(l.messages() == std::vector<std::string>{"13:11: error: unknown name 'dekc'; did you mean 'deck'?"});
  l = load_text(with("choose p: keep", "choose p: kep"));
  CHECK(l.messages() == std::vector<std::string>{
                            "15:32: error: unknown action 'kep'; did you mean 'keep'?"});
}

TEST_CASE("every error in a file is reported in one run", "[check]") {
  std::string s = with("shuffle deck", "shuffle dekc");
  s.replace(s.find("player.score += c.value"), 23, "player.score += c.valeu");
  s.replace(s.find("players: 2..3"), 13, "plyers: 2..3");
  auto l = load_text(s);
  CHECK(l.messages() == std::vector<std::string>{
                            "2:1: error: unknown key 'plyers' in a rule file; did you mean 'players'?",
                            "13:11: error: unknown name 'dekc'; did you mean 'deck'?",
                            "19:27: error: unknown card property 'valeu'; did you mean 'value'?"});
}

TEST_CASE("kata: names the one version of the language", "[check]") {
  CHECK(load_text("kata: 1\n" + base).messages().empty());
  for (const char* version : {"2", "1.0", "0", "one", "[1]"}) {
    auto l = load_text(std::string("kata: ") + version + "\n" + base);
    INFO(version);
    REQUIRE(l.messages().size() == 1);
    CHECK(has(l.messages()[0], "1:7: error: this file is written for version '"));
    CHECK(has(l.messages()[0], "of the kata language; this kata reads version 1 (write `kata: 1`, or leave the key out)"));
  }
}

TEST_CASE("types are checked", "[check]") {
  auto l = load_text(with("player.score += c.value", "player.score += c"));
  CHECK(l.messages() == std::vector<std::string>{"19:25: error: the assigned value must be a number, but this is a card"});
  l = load_text(with("shuffle deck", "shuffle deck + 1"));
  CHECK(l.messages() == std::vector<std::string>{"13:11: error: the operand of '+' must be a number, but this is a zone"});
  l = load_text(with("shuffle deck", "if deck { shuffle deck }"));
  CHECK(l.messages() == std::vector<std::string>{"13:6: error: the condition of 'if' must be true or false, but this is a zone"});
  l = load_text(with("shuffle deck", "shuffle deck\n  let n = top(deck) == 3"));
  CHECK(l.messages() == std::vector<std::string>{"14:11: error: '==' compares a card with a number"});
}

TEST_CASE("arities and per-player names are checked", "[check]") {
  auto l = load_text(with("move top(deck) to p.hand", "move top(deck, deck) to p.hand"));
  CHECK(l.messages() == std::vector<std::string>{"14:27: error: 'top' takes 1 argument, not 2"});
  l = load_text(with("move top(deck) to p.hand", "move top(deck) to hand"));
  CHECK(l.messages() == std::vector<std::string>{"14:40: error: each player has a zone 'hand': write p.hand for player p"});
}

TEST_CASE("min and max of values take numbers, and are not a function's name", "[check]") {
  auto l = load_text(with("player.score += c.value", "player.score += max(c.value, 2, -c.value)"));
  CHECK(l.messages().empty());
  l = load_text(with("player.score += c.value", "player.score += max(c.value, c)"));
  CHECK(l.messages() == std::vector<std::string>{"19:38: error: argument 2 of 'max' must be a number, but this is a card"});
  l = load_text(with("player.score += c.value", "player.score += min(1, 2, player)"));
  CHECK(l.messages() == std::vector<std::string>{"19:35: error: argument 3 of 'min' must be a number, but this is a player"});
  l = load_text(with("player.score += c.value", "player.score += max(c.value)"));
  CHECK(l.messages() == std::vector<std::string>{
                            "19:36: error: expected ',' and more values (max(a, b)), or 'for' (max(VALUE for x in LIST))"});
  l = load_text(with("player.score += c.value", "player.score += min(v in 1..3)"));
  CHECK(l.messages() == std::vector<std::string>{"19:25: error: 'min' needs a value: min(VALUE for x in LIST)"});
  l = load_text(with("scoring:", "functions:\n  max(a, b): a\nscoring:"));
  CHECK(l.messages() == std::vector<std::string>{"21:3: error: 'max' is a builtin function; choose another name"});
}

TEST_CASE("YAML problems are positioned diagnostics", "[check]") {
  auto l = load_text("game: [unclosed\n");
  REQUIRE(l.messages().size() == 1);
  CHECK(l.messages()[0].rfind("2:1: error: malformed YAML", 0) == 0);
  l = load_text(with("players: 2..3", "players: many"));
  CHECK(l.messages() == std::vector<std::string>{"2:10: error: expected the number of players, or a range such as 3..6 (a whole number), found 'many'"});
  l = load_text(with("players: 2..3", "players: 5..2"));
  CHECK(l.messages() == std::vector<std::string>{"2:10: error: players must be between 1 and 16, the smaller number first"});
  l = load_text(with("  deck: {visibility: nobody}", "  deck: {visibility: hidden}"));
  CHECK(l.messages() == std::vector<std::string>{"8:22: error: unknown visibility 'hidden'; expected everyone, owner, nobody or top"});
}

TEST_CASE("an error inside an expression points at its column in the file", "[check]") {
  auto l = load_text(with("for p in players { move top(deck) to p.hand }", "for p in players { move top(deck) to p.hand) }"));
  CHECK(l.messages() == std::vector<std::string>{"14:46: error: expected '}' (to close '{' at line 14, column 20)"});
}

TEST_CASE("recursion is refused", "[check]") {
  auto l = load_text(with("scoring:", "procedures:\n  again: again()\nscoring:"));
  CHECK(l.messages() == std::vector<std::string>{
                            "21:3: error: procedure 'again' calls itself; recursion is not allowed"});
  l = load_text(with("scoring:", "functions:\n  f(x): f(x)\nscoring:"));
  CHECK(l.messages() == std::vector<std::string>{
                            "21:3: warning: function 'f' is never used",
                            "21:9: error: function 'f' calls itself; recursion is not allowed"});
}

TEST_CASE("warnings for what is never used or reached", "[check]") {
  auto l = load_text(with("  hand: {per_player: true, visibility: owner}",
                          "  hand: {per_player: true, visibility: owner}\n  spare: {}") +
                     "phases:\n  lost: shuffle deck\n");
  CHECK(l.messages() == std::vector<std::string>{
                            "10:3: warning: zone 'spare' is never used",
                            "24:3: warning: phase 'lost' can never be reached: no 'phase lost' enters it"});
  CHECK(l.game != nullptr);
}

TEST_CASE("a rule file needs a game and a flow", "[check]") {
  auto l = load_text("players: 2\n");
  CHECK(l.messages() == std::vector<std::string>{"1:1: error: a rule file needs 'game:', the game's name"});
  l = load_text("game: x\nplayers: 2\n");
  CHECK(l.messages() == std::vector<std::string>{"1:7: error: a rule file needs 'flow:', the game's program"});
}

TEST_CASE("lists are not compared - builtins are not redefined - option defaults are valid", "[check]") {
  auto l = load_text(with("shuffle deck", "shuffle deck\n  let same = players == players"));
  CHECK(l.messages() == std::vector<std::string>{"14:14: error: '==' compares single values; lists cannot be compared"});
  l = load_text(with("scoring:", "functions:\n  top(z): 1\nscoring:"));
  CHECK(l.messages() == std::vector<std::string>{"21:3: error: 'top' is a builtin function; choose another name"});
  l = load_text(with("scoring:", "options:\n  n: {default: 9, min: 1, max: 5}\n  r: {default: x, values: [y, z]}\nscoring:"));
  CHECK(l.messages() == std::vector<std::string>{"21:3: error: the default of option 'n' is outside its min and max",
                                                 "22:3: error: the default of option 'r' is not one of its values"});
}

TEST_CASE("a condition's refusal names the action's parameters", "[check]") {
  auto ok = load_text(with("    do: player.score += c.value",
                           "    when: {if: c.value > 1, refuse: \"{player} may not keep {c}\"}\n    do: player.score += c.value"));
  CHECK(ok.messages().empty());
  auto typo = load_text(with("    do: player.score += c.value",
                             "    when:\n      - {if: c.value > 1, refuse: \"not {card}\"}\n    do: player.score += c.value"));
  CHECK(typo.messages() == std::vector<std::string>{"20:41: error: 'card' is not a parameter of 'keep'; its parameters are player, c"});
  auto near = load_text(with("    do: player.score += c.value",
                             "    when:\n      - {if: c.value > 1, refuse: \"not {playr}\"}\n    do: player.score += c.value"));
  CHECK(near.messages() == std::vector<std::string>{"20:41: error: 'playr' is not a parameter of 'keep'; did you mean 'player'?"});
  auto open = load_text(with("    do: player.score += c.value",
                             "    when:\n      - {if: c.value > 1, refuse: \"not {c\"}\n    do: player.score += c.value"));
  CHECK(open.messages() == std::vector<std::string>{"20:40: error: '{' is never closed; a refusal's '{name}' names a parameter"});
  auto no_if = load_text(with("    do: player.score += c.value",
                              "    when:\n      - {refuse: \"no\"}\n    do: player.score += c.value"));
  REQUIRE(no_if.messages().size() == 1);
  CHECK(no_if.messages()[0].find("a condition written as a mapping needs 'if:'") != std::string::npos);
  auto other = load_text(with("    do: player.score += c.value",
                              "    when:\n      - {if: c.value > 1, else: \"no\"}\n    do: player.score += c.value"));
  REQUIRE_FALSE(other.messages().empty());
  CHECK(other.messages()[0].find("unknown key 'else'") != std::string::npos);
}

TEST_CASE("the show key takes true, false or its word - scoring's parts and notes are checked",
          "[check]") {
  auto l = load_text(with("deck: {visibility: nobody}", "deck: {visibility: nobody, show: maybe}"));
  CHECK(
      l.messages() ==
      std::vector<std::string>{
          "8:36: error: unknown show 'maybe' for a zone; expected true, false or when_not_empty"});
  l = load_text(with("score: {per_player: true, initial: 0}",
                     "score: {per_player: true, initial: 0, show: when_not_empty}"));
  CHECK(l.messages() == std::vector<std::string>{"11:47: error: unknown show 'when_not_empty' for "
                                                 "a variable; expected true, false or when_set"});
  l = load_text(with("deck: {visibility: nobody}", "deck: {visibility: nobody, show: [a]}"));
  CHECK(l.messages() ==
        std::vector<std::string>{"8:36: error: expected true, false or a word (a single value)"});
  l = load_text(with("  score: p.score\n", "  parts: [p.score]\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "21:10: error: 'parts' maps each part's name to its value for player p"});
  l = load_text(with("  score: p.score\n", "  parts: {won: p.score, cards: p.hand, won: 1}\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "21:34: error: a part of the score must be a number, but this is a zone",
            "21:40: error: 'won' is declared twice in 'parts'"});
  l = load_text(
      with("  score: p.score\n", "  score: p.score\n  notes: [{text: Why., when: p.score > 0}]\n"));
  CHECK(l.messages() == std::vector<std::string>{"22:30: error: unknown name 'p'"});
  l = load_text(with("  score: p.score\n",
                     "  score: p.score\n  notes: [{text: Why.}, {when: true, txt: x}, 3]\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "22:11: error: a note needs 'when:', the condition under which it is shown",
            "22:25: error: a note needs 'text:', the sentence shown",
            "22:38: error: unknown key 'txt' in a note; did you mean 'text'?",
            "22:47: error: a note is a mapping (text:, when:)"});
  l = load_text(with("  score: p.score\n", "  notes: {text: Why., when: true}\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{"21:10: error: 'notes' is a list of {text:, when:}"});
  l = load_text(with("  score: p.score\n", "  notes: [{text: Why., when: 3}]\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "21:30: error: a note's condition must be true or false, but this is a number"});
  l = load_text(
      with("  score: p.score\n", "  tiebreak: p.score\n  notes: [{text: Why., when: true}]\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{"21:3: error: 'scoring' has tie-breaks or a winners rule but no "
                                 "score: add 'score:' or 'parts:'"});
  l = load_text(with("  score: p.score\n", "  winners: lowest\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{
            "21:3: error: 'scoring' needs 'score:' or 'parts:', each player's score"});
}

TEST_CASE("a declared name is one expressions can write, and hides nothing the language gives", "[check][names]") {
  auto errors = [](const std::string& text) {
    auto l = load_text(text);
    return fmt::format("{}", fmt::join(l.messages(), "\n"));
  };
  // Reserved words, names the language gives (players, the chooser, seats) and
  // non-identifiers, for each kind of declaration an expression names.
  CHECK(has(errors(with("  deck: {visibility: nobody}\n", "  deck: {visibility: nobody}\n  let: {visibility: nobody}\n")),
            "9:3: error: 'let' is a reserved word of the language; a zone needs another name"));
  CHECK(has(errors(with("  score: {per_player: true, initial: 0}\n",
                        "  score: {per_player: true, initial: 0}\n  players: {initial: 0}\n")),
            "12:3: error: 'players' is a name the language gives (players, the player choosing, seats P1 to "
            "P16); a variable needs another name"));
  CHECK(has(errors(with("  card:\n", "  P3:\n")), "4:3: error: 'P3' is a name the language gives"));
  CHECK(has(errors(with("game: Tiny\n", "game: Tiny\noptions:\n  player: {default: 1}\n")),
            "3:3: error: 'player' is a name the language gives"));
  CHECK(has(errors(with("  hand: {per_player", "  \"a b\": {per_player")),
            "9:3: error: 'a b' is not a name: a name is a letter or '_', then letters, digits and '_'; a "
            "zone needs another name"));
  CHECK(has(errors(with("params: {c: player.hand}", "params: {c: player.hand, not: players}")),
            "'not' is a reserved word of the language; a parameter needs another name"));
  CHECK(has(errors(with("scoring:", "procedures:\n  tally(viewer): say \"x\"\nscoring:")),
            "'viewer' is a name the language gives"));
  // P17 is no seat; contextual words (count, card) are names where they do not stand.
  CHECK(errors(with("  score: {per_player: true, initial: 0}\n",
                    "  score: {per_player: true, initial: 0}\n  P17: {initial: 0}\n  count: {initial: 0}\n")) == "");
  // Actions, phases and properties are read where the grammar takes any word: a reserved
  // word may name them, a non-identifier may not.
  std::string flip = with("choose p: keep", "choose p: flip", with("  keep:\n", "  flip:\n"));
  CHECK(errors(with("each: {value: 1..6}", "each: {value: 1..6, end: 0..0}", flip)) == "");
  CHECK(has(errors(with("  keep:\n", "  keep-it:\n", with("choose p: keep", "choose p: keep-it"))),
            "'keep-it' is not a name"));
}
