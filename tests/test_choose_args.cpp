// `choose P: jump(c)`: a choose that gives an action the values of its first parameters
// (docs/language.md §3.9) offers only the decisions with those values, interpreted and
// compiled alike; menus and typed decisions follow; the checker refuses what cannot fit.
#include <catch2/catch.hpp>

#include "runtime/view.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::legal_texts;
using kata::test::load_text;

namespace {

const std::string given = R"(game: Given
players: 2
components:
  tok:
    each: {v: 1..5}
    name: "t{v}"
    in: pile
zones:
  pile: {visibility: everyone, order: set}
  out: {visibility: everyone}
variables:
  pick: 3
  total: 0
flow: |
  choose P1: take(tok(pick)) | skip
  choose P2: give(P1) | skip
  let n = 2
  choose P2: give(P1, n + 1)
  choose P1: take(tok(pick)) | skip
  choose P1: take(none) | give(P2, 4) | skip
  choose P2: give(P2)
actions:
  take:
    params: {t: pile}
    do: |
      move t to out
      total += t.v
  give:
    params: {q: all_players, k: 1..4}
    when: [k != 3 or q != player]
    do: total += 10 * k
  skip:
    do: total += 1000
scoring:
  score: total
)";

using Texts = std::vector<std::string>;

}  // namespace

TEST_CASE("a choose that gives values offers only the decisions with them", "[choose_args]") {
  auto l = load_text(given);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  for (bool compiled : {false, true}) {
    INFO("compiled: " << compiled);
    auto g = compiled ? kata::test::compiled(l.game) : l.game;
    const Game& game = *g;
    State s = new_game(game, 2, 1, default_options(game));
    // A card given by a lookup: only t3 of the five.
    CHECK(legal_texts(game, s) == Texts{"take t3", "skip"});
    s = kata::test::play(game, 2, {"take t3"});
    // A player given, the number left free: every k (P2 gives to P1, so k = 3 is fine).
    CHECK(legal_texts(game, s) == Texts{"give P1 1", "give P1 2", "give P1 3", "give P1 4", "skip"});
    // Both given, the second from a local of the flow: one decision.
    s = kata::test::play(game, 2, {"take t3", "skip"});
    CHECK(legal_texts(game, s) == Texts{"give P1 3"});
    // t3 has left the pile: the value is not in the list, and take offers nothing.
    s = kata::test::play(game, 2, {"take t3", "skip", "give P1 3"});
    CHECK(legal_texts(game, s) == Texts{"skip"});
    // none offers nothing either; a given value that fails a `when` neither.
    s = kata::test::play(game, 2, {"take t3", "skip", "give P1 3", "skip"});
    CHECK(legal_texts(game, s) == Texts{"give P2 4", "skip"});
    s = kata::test::play(game, 2, {"take t3", "skip", "give P1 3", "skip", "skip"});
    CHECK(legal_texts(game, s) == Texts{"give P2 1", "give P2 2", "give P2 4"});
    s = kata::test::play(game, 2, {"take t3", "skip", "give P1 3", "skip", "skip", "give P2 4"});
    CHECK(s.over());
    CHECK(scores(game, s)[0] == 3 + 1000 + 30 + 1000 + 1000 + 40);
  }
}

TEST_CASE("a value other than the one given is refused with the choice there is", "[choose_args]") {
  auto l = load_text(given);
  REQUIRE(l.game);
  State s = new_game(*l.game, 2, 1, default_options(*l.game));
  std::string why;
  CHECK_FALSE(parse_decision(*l.game, s, "take t2", why));
  CHECK(why == "'t2' is not a choice for t (choices: t3)");
  CHECK(parse_decision(*l.game, s, "take t3", why));
  // What a menu asks for the parameter: the value given alone.
  Decision d;
  d.action = l.game->program.sites[s[Layout::site]].actions[0];
  CHECK(parameter_domain(*l.game, s, d, 0) == std::vector<int64_t>{2});
  s = kata::test::play(*l.game, 2, {"take t3", "skip"});
  CHECK_FALSE(parse_decision(*l.game, s, "give P2 3", why));
  CHECK(why == "'p2' is not a choice for q (choices: P1)");  // as typed, case aside
  CHECK_FALSE(parse_decision(*l.game, s, "give P1 2", why));
  CHECK(why == "'2' is not a choice for k (choices: 3)");
}

TEST_CASE("the checker refuses values that cannot fit the action", "[choose_args][check]") {
  auto errors = [](const std::string& from, const std::string& to) { return kata::test::refused(from, to, given); };
  auto m = errors("choose P2: give(P1, n + 1)", "choose P2: give(P1, n, 3)");
  CHECK_THAT(m, Catch::Contains("'give' has 2 parameters (q, k): 3 values are too many"));
  m = errors("choose P2: give(P1) | skip", "choose P2: give(P1) | skip(1)");
  CHECK_THAT(m, Catch::Contains("'skip' has no parameters: it takes no values"));
  m = errors("choose P2: give(P1) | skip", "choose P2: give(3) | skip");
  CHECK_THAT(m, Catch::Contains("value 1 of 'give' is its parameter 'q', a player, but this is a number"));
  m = errors("choose P2: give(P1, n + 1)", "choose P2: give(P1, P2)");
  CHECK_THAT(m, Catch::Contains("value 2 of 'give' is its parameter 'k', a number, but this is a player"));
  m = errors("choose P2: give(P1) | skip", "choose P2: give(P1) | give(P2)");
  CHECK_THAT(m, Catch::Contains("'give' is offered twice in one 'choose'"));
  m = errors("choose P2: give(P1) | skip", "choose P2: give(P1 | skip");
  CHECK_THAT(m, Catch::Contains("'(' at line 16, column 18 is never closed"));
  m = errors("choose P2: give(P1) | skip", "choose P2: give(nobody) | skip");
  CHECK_THAT(m, Catch::Contains("nobody"));
  // Values may come before the action they are given to is checked, and a `none` fits a card.
  CHECK(load_text(kata::test::with("choose P1: take(tok(pick)) | skip", "choose P1: take(none) | skip", given)).game);
}
