// The runtime: effects, visibility, turn order, limits and the decision interface, each on
// a rule file small enough to read in the test.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "log/log.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::load_text;
using kata::test::legal_texts;
using kata::test::has;

namespace {

std::shared_ptr<const Game> game(const std::string& yaml) {
  auto l = load_text(yaml);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  return l.game;
}

const std::string cards = R"(game: Cards
players: 2..4
components:
  card:
    each: {value: 1..5}
    in: deck
zones:
  deck: {visibility: nobody}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner, order: set}
  table: {visibility: everyone}
variables:
  total: {per_player: true, initial: 0}
flow: |
  for p in players { move top(deck) to p.hand }
  move top(deck) to pile
  move top(deck) to pile
  for p in players from P2 { choose p: take | play }
actions:
  take:
    do: move top(deck) to player.hand
  play:
    params: {c: player.hand}
    when: c.value > 1
    do: |
      move c to table
      player.total += c.value
scoring:
  score: p.total
)";

}  // namespace

TEST_CASE("cards move, and owners see their own zones only", "[runtime]") {
  auto g = game(cards);
  State s = new_game(*g, 2, 1, default_options(*g));
  REQUIRE(s.status() == Status::waiting);
  CHECK(s.chooser() == 1);  // players from P2
  int p1_card = s[g->layout.zone_cards + g->zone_instance(2, 0) * g->card_count];
  CHECK(visible(*g, s, 0, p1_card));
  CHECK_FALSE(visible(*g, s, 1, p1_card));
  CHECK(visible(*g, s, -1, p1_card));
  // The pile shows its top card only; the card now covered was seen when it was on top,
  // and stays known to whoever saw it.
  int pile = g->zone_instance(1, 0);
  int bottom = s[g->layout.zone_cards + pile * g->card_count];
  int top = s[g->layout.zone_cards + pile * g->card_count + 1];
  CHECK(visible(*g, s, 0, top));
  CHECK(visible(*g, s, 1, bottom));
}

TEST_CASE("the same seed gives the same game - a copy equals its original", "[runtime]") {
  auto g = game(cards);
  State a = new_game(*g, 2, 42, default_options(*g));
  State b = new_game(*g, 2, 42, default_options(*g));
  CHECK(a == b);
  State c = a;
  CHECK(c == a);
  std::vector<Decision> legal;
  legal_decisions(*g, c, legal);
  apply(*g, c, legal.front());
  CHECK_FALSE(c == a);
}

TEST_CASE("legal decisions enumerate parameters and respect 'when'", "[runtime]") {
  auto g = game(cards);
  auto s = kata::test::play(*g, 2, {"take"});  // P2 takes a second card
  REQUIRE(s.chooser() == 0);
  std::vector<Decision> legal;
  legal_decisions(*g, s, legal);
  int card = s[g->layout.zone_cards + g->zone_instance(2, 0) * g->card_count];
  int value = static_cast<int>(g->card_props[card]);
  auto l = legal_texts(*g, s);
  CHECK(l.front() == "take");
  CHECK(l.size() == (value > 1 ? 2u : 1u));
  std::string why;
  if (value == 1) {
    CHECK_FALSE(parse_decision(*g, s, "play 1", why));
    CHECK(why == "'play' requires c.value > 1");
  }
  CHECK_FALSE(parse_decision(*g, s, "plya", why));
  CHECK(why == "there is no action 'plya'; did you mean 'play'?");
  CHECK_FALSE(parse_decision(*g, s, "play 9", why));
  CHECK(why.rfind("'9' is not a choice for c (choices: ", 0) == 0);
}

// `q != player` and `seat(q) != 3` read only the chooser and q, so their values are kept
// for each q while the cards are tried; `c.value < seat(q) + 2` reads both and is not.
TEST_CASE("a 'when' reading only its last parameter is worked out once per value", "[runtime]") {
  auto g = game(R"(game: Give
players: 3..4
components:
  card:
    each: {value: 1..3}
    in: row
zones:
  row: {visibility: everyone}
variables:
  total: {per_player: true, initial: 0}
flow: |
  choose P1: give
actions:
  give:
    params: {c: row, q: players}
    when:
      - q != player
      - seat(q) != 3
      - c.value < seat(q) + 2
    do: q.total += c.value
scoring:
  score: p.total
)");
  const Action& give = g->program.actions[0];
  CHECK(give.when_cache[0] >= 0);
  CHECK(give.when_cache[1] >= 0);
  CHECK(give.when_cache[2] == -1);
  State s = new_game(*g, 4, 1, default_options(*g));
  // q is P2 (cards 1 to 3) or P4 (cards 1 to 3); P1 is the chooser, P3 is refused.
  CHECK(legal_texts(*g, s) == std::vector<std::string>{"give 1 P2", "give 1 P4", "give 2 P2", "give 2 P4",
                                                  "give 3 P2", "give 3 P4"});
}

TEST_CASE("views hide what a player may not know", "[runtime]") {
  auto g = game(cards);
  State s = new_game(*g, 2, 7, default_options(*g));
  PlayerView v0 = make_view(*g, s, 0);
  PlayerView all = make_view(*g, s, -1);
  for (size_t z = 0; z < v0.zones.size(); ++z) {
    REQUIRE(v0.zones[z].cards.size() == all.zones[z].cards.size());
    const auto& name = g->zones[g->instance_zone[v0.zones[z].instance]].name;
    for (size_t i = 0; i < v0.zones[z].cards.size(); ++i) {
      bool hidden = v0.zones[z].cards[i].card < 0;
      if (name == "deck") CHECK(hidden);
      if (g->instance_name(v0.zones[z].instance) == "P2.hand") CHECK(hidden);
      if (g->instance_name(v0.zones[z].instance) == "P1.hand") CHECK_FALSE(hidden);
    }
  }
  // P2's hand is a set: P1 is told which set a card is in, never where it lies there; in
  // a stack everyone sees where a card lies.
  int first_of_p2 = s[g->layout.zone_cards + g->zone_instance(2, 1) * g->card_count];
  CHECK(card_text(*g, s, first_of_p2, 0) == "a card from P2.hand");
  CHECK(card_text(*g, s, first_of_p2, 1) == g->card_names[first_of_p2]);
  CHECK(card_text(*g, s, s[g->layout.zone_cards + g->zone_instance(0, 0) * g->card_count], 0) == "deck#1");
}

TEST_CASE("an endless loop stops with a positioned error", "[runtime]") {
  auto g = game("game: Loop\nplayers: 1\nvariables:\n  n: 0\nflow: |\n  while true { n += 1 }\nlimits: {steps: 1000}\n");
  try {
    new_game(*g, 1, 1, default_options(*g));
    FAIL("no error");
  } catch (const RuntimeError& e) {
    CHECK(e.pos.line == 6);
    CHECK(std::string(e.what()) == "the effects ran more than 1000 steps without a decision (an endless loop?); raise limits.steps if this is intended");
  }
}

TEST_CASE("a game that never ends stops at the decision limit", "[runtime]") {
  auto g = game("game: Forever\nplayers: 1\nflow: |\n  while true { choose P1: wait }\nactions:\n  wait: {do: ''}\nlimits: {decisions: 5}\n");
  State s = new_game(*g, 1, 1, default_options(*g));
  std::vector<Decision> legal;
  for (int i = 0; i < 5; ++i) {
    legal_decisions(*g, s, legal);
    apply(*g, s, legal[0]);
  }
  legal_decisions(*g, s, legal);
  CHECK_THROWS_AS(apply(*g, s, legal[0]), RuntimeError);
}

TEST_CASE("turn order skips eliminated players - best() breaks ties by list order", "[runtime]") {
  auto g = game(R"(game: Order
players: 4
variables:
  seen: 0
  winner: {type: player}
  n: 0
flow: |
  eliminate P3
  for p in players from P3 { seen = seen * 10 + seat(p) }
  winner = best(0 for p in players from P4)
  n = count(p in all_players where not alive(p))
)");
  State s = new_game(*g, 4, 1, default_options(*g));
  CHECK(s.over());
  CHECK(s[g->layout.globals + 0] == 412);
  CHECK(s[g->layout.globals + 1] == 3);
  CHECK(s[g->layout.globals + 2] == 1);
}

TEST_CASE("a shuffle can be fixed in advance", "[runtime]") {
  auto g = game(cards);
  std::deque<std::vector<int32_t>> forced = {{4, 2}};  // cards "5" then "3" on top
  Hooks hooks{nullptr, &forced};
  auto g2 = game(std::string(cards).replace(cards.find("flow: |\n"), 8, "flow: |\n  shuffle deck\n"));
  State s = new_game(*g2, 2, 1, default_options(*g2), &hooks);
  int h1 = s[g2->layout.zone_cards + g2->zone_instance(2, 0) * g2->card_count];
  int h2 = s[g2->layout.zone_cards + g2->zone_instance(2, 1) * g2->card_count];
  CHECK(g2->card_names[h1] == "5");
  CHECK(g2->card_names[h2] == "3");
}

TEST_CASE("runtime errors name the problem", "[runtime]") {
  auto g = game("game: Empty\nplayers: 1\ncomponents:\n  card: {each: {v: 1..2}}\nzones:\n  deck: {}\n  pile: {}\nflow: |\n  move top(deck) to pile\n");
  try {
    new_game(*g, 1, 1, default_options(*g));
    FAIL("no error");
  } catch (const RuntimeError& e) {
    CHECK(e.pos.line == 9);
    CHECK(e.pos.col == 8);
    CHECK(std::string(e.what()) == "no card here (the value is none: an empty zone?)");
  }
}

TEST_CASE("options are set by name, with their values checked", "[runtime]") {
  auto g = game("game: Opt\nplayers: 1\noptions:\n  n: {default: 3, min: 1, max: 5}\n  rule: {default: french, values: [french, english]}\n  fast: false\nflow: ''\n");
  auto v = default_options(*g);
  std::string why;
  CHECK(set_option(*g, v, "n", "5", why));
  CHECK(v[0] == 5);
  CHECK_FALSE(set_option(*g, v, "n", "6", why));
  CHECK(why == "option 'n' must be between 1 and 5");
  CHECK(set_option(*g, v, "rule", "english", why));
  CHECK(g->symbol_name(v[1]) == "english");
  CHECK_FALSE(set_option(*g, v, "rule", "german", why));
  CHECK(why == "option 'rule' has no value 'german'; its values are french, english");
  CHECK_FALSE(set_option(*g, v, "rule", "englsh", why));
  CHECK(why ==
        "option 'rule' has no value 'englsh'; did you mean 'english'? its values are french, "
        "english");
  CHECK_FALSE(set_option(*g, v, "fast", "maybe", why));
  CHECK(why == "option 'fast' is true or false, not 'maybe'");
  CHECK_FALSE(set_option(*g, v, "nn", "1", why));
  CHECK(why == "unknown option 'nn'; did you mean 'n'? the options of Opt are n, rule, fast");
  CHECK_FALSE(set_option(*g, v, "bogus", "1", why));
  CHECK(why == "unknown option 'bogus'; the options of Opt are n, rule, fast");
}

TEST_CASE("face down hides a card even in a zone everyone sees - flipping it back down keeps it known", "[runtime]") {
  auto g = game(R"(game: Faces
players: 2
components:
  card: {each: {v: 1..3}, in: deck}
zones:
  deck: {}
  table: {visibility: everyone}
  shared: {visibility: owner}
flow: |
  move top(deck) to table face down
  move top(deck) to table
  flip top(table) face down
  move top(deck) to shared
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  int table = g->zone_instance(1, 0), shared = g->zone_instance(2, 0);
  int hidden = s[g->layout.zone_cards + table * g->card_count];
  int flipped = s[g->layout.zone_cards + table * g->card_count + 1];
  int nobody = s[g->layout.zone_cards + shared * g->card_count];
  CHECK_FALSE(visible(*g, s, 0, hidden));  // entered face down
  CHECK(visible(*g, s, 0, flipped));       // seen face up, then turned down: remembered
  CHECK_FALSE(visible(*g, s, 0, nobody));  // a shared zone has no owner to see it
  CHECK_FALSE(visible(*g, s, 1, nobody));
}

TEST_CASE("eliminated players do not win on points", "[runtime]") {
  auto g = game("game: Out\nplayers: 2\nvariables:\n  pts: {per_player: true, initial: 0}\n"
                "flow: |\n  P1.pts = 5\n  eliminate P1\nscoring: {score: p.pts}\n");
  State s = new_game(*g, 2, 1, default_options(*g));
  CHECK(winners(s) == 2u);  // P2, though P1 had more points
}

TEST_CASE("numbers beyond 32 bits are refused, not wrapped", "[runtime]") {
  auto l = load_text("game: Big\nplayers: 1\nvariables:\n  x: 0\nflow: x = 3000000000\n");
  CHECK(l.messages() == std::vector<std::string>{"5:11: error: number too large (at most 2147483647)"});
}

TEST_CASE("deal, give and take", "[runtime]") {
  auto g = game(R"(game: Sugar
players: 2
components:
  card: {each: {v: 1..10}, in: deck}
zones:
  deck: {}
  hand: {per_player: true, visibility: owner}
variables:
  coins: {per_player: true, initial: 5}
flow: |
  deal 3 cards from deck to P1.hand
  deal 1 card from deck to P2.hand
  give 2 coins to P1
  take 4 coins from P2
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  CHECK(s[g->layout.zone_size + g->zone_instance(1, 0)] == 3);
  CHECK(s[g->layout.zone_size + g->zone_instance(1, 1)] == 1);
  CHECK(s[g->layout.zone_size + g->zone_instance(0, 0)] == 6);
  CHECK(s[g->layout.player_vars + 0] == 7);
  CHECK(s[g->layout.player_vars + 1] == 1);
}

TEST_CASE("min and max of values, at load time, interpreted and compiled", "[runtime][native]") {
  // `where:` keeps the squares with min(x, y) + max(x - 3, 0) < 3: 3 + 3 + 2 + 1 of them.
  auto g = game(R"yaml(game: Extremes
players: 3
components:
  cell: {each: {x: 1..4, y: 1..3}, where: "min(x, y) + max(x - 3, 0) < 3", in: grid}
zones:
  grid: {visibility: everyone}
variables:
  pts: {per_player: true, initial: 0}
  a: 0
  b: 0
  c: 0
  d: 0
  e: 0
  f: 0
  g: 0
functions:
  low(p): "min(p.pts, 4, seat(p) * 3)"
flow: |
  P1.pts = 1
  P2.pts = 5
  P3.pts = 3
  a = max(P1.pts, P2.pts, P3.pts)
  b = min(P1.pts, P2.pts) - max(-7, -9)
  c = sum(low(p) for p in players)
  d = max(min(a, b), 2) * 10 + max(size(grid), 0)
  e = max(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 3, 2, 1) + min(9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1)
  f = min(2000000000 * 2, 5) - max(-2000000000 * 2, -1)
  g = max(p.pts * 2 for p in players where min(p.pts, 4) > 2)
)yaml");
  for (auto& h : {g, kata::test::compiled(g)}) {
    State s = new_game(*h, 3, 1, default_options(*h));
    CHECK(s.over());
    CHECK(s[g->layout.globals + 0] == 5);
    CHECK(s[g->layout.globals + 1] == 8);
    CHECK(s[g->layout.globals + 2] == 8);   // 1 + 4 + 3
    CHECK(s[g->layout.globals + 3] == 59);  // min(5, 8) = 5, and 9 squares
    CHECK(s[g->layout.globals + 4] == 16);
    CHECK(s[g->layout.globals + 5] == 6);
    CHECK(s[g->layout.globals + 6] == 10);
  }
}

TEST_CASE("functions give the same values whether their calls are inlined or not", "[runtime]") {
  // Calls with plain arguments are inlined by the compiler; `twice(n + 1)` is not. The
  // functions nest aggregates inside aggregates, so their frames must not overlap.
  auto g = game(R"yaml(game: Functions
players: 3
variables:
  pts: {per_player: true, initial: 0}
  a: 0
  b: 0
  c: 0
  d: 0
functions:
  twice(x): "x * 2"
  rich: "count(q in players where q.pts > 2)"
  above(p, n): "count(q in players where q.pts > n and q != p)"
  most(n): "max(above(p, n) + twice(seat(p)) for p in players)"
flow: |
  P1.pts = 1
  P2.pts = 5
  P3.pts = 3
  let n = 2
  a = most(n)
  b = sum(above(p, p.pts) for p in players)
  c = twice(n + 1) + twice(n)
  d = sum(rich() * 10 + seat(p) for p in players)
)yaml");
  State s = new_game(*g, 3, 1, default_options(*g));
  CHECK(s.over());
  CHECK(s[g->layout.globals + 0] == 7);  // P3: one above 2 (P2) + 6
  CHECK(s[g->layout.globals + 1] == 3);  // P1: 2 above 1, P2: none, P3: 1 above 3
  CHECK(s[g->layout.globals + 2] == 10);
  CHECK(s[g->layout.globals + 3] == 66);
}

TEST_CASE("routine moves are told in one line, naming only the cards each seat saw", "[runtime]") {
  auto g = game(cards);
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State s = new_game(*g, 3, 7, default_options(*g), &hooks);
  auto name = [&](int zone, int i) { return g->card_names[s[g->layout.zone_cards + zone * g->card_count + i]]; };
  int p2 = g->zone_instance(2, 1), pile = g->zone_instance(1, 0);
  std::string dealt = fmt::format("5 cards move from deck — to P1.hand: a card; to P2.hand: {}; to P3.hand: a card; to pile: {} and {}",
                                  name(p2, 0), name(pile, 0), name(pile, 1));
  CHECK(describe_events(*g, events, 1) == std::vector<std::string>{dealt});
  // One move is told alone; moves from and to different zones are not grouped.
  std::vector<Event> two = {events[0], events[4]};
  CHECK(describe_events(*g, {events[0]}, 1) == std::vector<std::string>{"A card moves from deck to P1.hand"});
  CHECK(describe_events(*g, two, 1) == std::vector<std::string>{fmt::format("2 cards move from deck — to P1.hand: a card; to pile: {}", name(pile, 1))});
  CHECK(describe_events(*g, {events[0], events[2]}, 1) == std::vector<std::string>{"2 cards move from deck — to P1.hand: a card; to P3.hand: a card"});
  Event again = events[0];
  CHECK(describe_events(*g, {events[0], again}, 1) == std::vector<std::string>{"2 cards move from deck to P1.hand: 2 cards"});
  // Cards turned the same way one after another in one zone; `to` is the face after.
  Event flip{Event::flip, -1, events[1].card, p2, 1, 0b111, {}, {}, {}};
  Event hidden_flip = flip;
  hidden_flip.seen_by = 0b010;
  CHECK(describe_events(*g, {flip, hidden_flip}, 0) == std::vector<std::string>{fmt::format("2 cards are turned face up in P2.hand: {} and an unseen card", name(p2, 0))});
  CHECK(describe_events(*g, {flip, hidden_flip}, 1) == std::vector<std::string>{fmt::format("2 cards are turned face up in P2.hand: {} and {}", name(p2, 0), name(p2, 0))});
  Event down = hidden_flip;
  down.to = 0;
  CHECK(describe_events(*g, {flip, down}, 0) == std::vector<std::string>{fmt::format("{} is turned face up in P2.hand", name(p2, 0)), "A card is turned face down in P2.hand"});
  CHECK(event_json(*g, down)["face"] == "down");
  Event back = events[1];
  std::swap(back.from, back.to);
  CHECK(describe_events(*g, {events[0], back}, 1).size() == 2);
  // Into one zone from several.
  Event a = events[0], b = events[1];
  std::swap(a.from, a.to);
  std::swap(b.from, b.to);
  CHECK(describe_events(*g, {a, b}, 1) == std::vector<std::string>{fmt::format("2 cards move to deck — from P1.hand: a card; from P2.hand: {}", name(p2, 0))});
}

TEST_CASE("a refusal says the rule file's message, or quotes no function of it", "[runtime]") {
  auto g = game(R"(game: Refusals
players: 2
components:
  card:
    each: {value: 1..6}
    in: deck
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set}
functions:
  big(c): "c.value > 3"
flow: |
  for p in players { move all deck to p.hand }
  choose P1: low | high | plain
actions:
  low:
    params: {c: player.hand}
    when: {if: c.value < 3, refuse: "{player} can't play {c}: only a 1 or a 2 is low."}
  high:
    doc: Play a big card.
    params: {c: player.hand}
    when: big(c)
  plain:
    params: {c: player.hand}
    when: c.value == 6
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string why;
  CHECK_FALSE(parse_decision(*g, s, "low 5", why));
  CHECK(why == "P1 can't play 5: only a 1 or a 2 is low.");
  CHECK_FALSE(parse_decision(*g, s, "high 2", why));
  CHECK(why == "'high 2' is not allowed now (high: Play a big card.)");
  CHECK_FALSE(parse_decision(*g, s, "plain 2", why));
  CHECK(why == "'plain' requires c.value == 6");
  // The choices a refusal suggests are the legal ones.
  CHECK_FALSE(parse_decision(*g, s, "low 9", why));
  CHECK(why == "'9' is not a choice for c (choices: 1, 2)");
}

TEST_CASE("the show key keeps bookkeeping off the screen, never out of the view", "[runtime]") {
  auto g = game(R"(game: Marks
players: 2
components:
  card: {each: {value: 1..3}, in: box}
zones:
  box: {visibility: nobody, show: when_not_empty}
  pile: {visibility: everyone, show: false}
  spare: {visibility: everyone}
variables:
  helper: {show: false, initial: 7}
  chosen: {type: player, show: when_set}
  gained: {per_player: true, show: when_set}
flow: |
  choose P1: go
  move all box to pile
  chosen = P2
  P2.gained = 4
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 0));
  CHECK(page.find("box") != std::string::npos);
  CHECK(page.find("pile") == std::string::npos);
  CHECK(page.find("spare          (empty)") != std::string::npos);
  CHECK(page.find("helper") == std::string::npos);
  CHECK(page.find("chosen") == std::string::npos);
  CHECK(page.find("gained") == std::string::npos);
  apply(*g, s, {0, {}});
  page = describe_view(*g, make_view(*g, s, 0));
  CHECK(page.find("box") == std::string::npos);
  CHECK(page.find("chosen = P2") != std::string::npos);
  // A seat with nothing to show has no line.
  CHECK(page.find("\n  P1") == std::string::npos);
  CHECK(page.find("\n  P2: gained=4\n") != std::string::npos);
  // The view still holds every one of them.
  PlayerView v = make_view(*g, s, 0);
  CHECK(v.globals[0] == 7);
  CHECK(v.zones.size() == 3);
  CHECK(v.zones[1].cards.size() == 3);
}

TEST_CASE("the end of a game shows its score table: parts, total, tie-break, winners, notes",
          "[runtime]") {
  auto g = game(R"(game: Table
players: 3
variables:
  a: {per_player: true}
  b: {per_player: true}
  z: {per_player: true}
flow: |
  P1.a = 3
  P1.b = 2
  P2.a = 5
  P3.a = 1
  P3.b = 4
  end game
scoring:
  parts:
    won: p.a
    bonus: p.b
    nothing: p.z
  tiebreak: -seat(p)
  notes:
    - {text: Two seats tied on points., when: "P1.a + P1.b == P2.a"}
    - {text: Never shown., when: "false"}
)");
  State s = new_game(*g, 3, 1, default_options(*g));
  CHECK(scores(*g, s) == std::vector<int64_t>{5, 5, 5});
  CHECK(winners(s) == 1u);  // the tie-break: the earlier seat
  std::string page = describe_view(*g, make_view(*g, s, 1));
  INFO(page);
  CHECK(page.find("Game over. Winner: P1\n"
                  "            won  bonus  total  tie-break\n"
                  "  P1          3      2      5         -1  winner\n"
                  "  P2 (you)    5      0      5         -2\n"
                  "  P3          1      4      5         -3\n"
                  "Two seats tied on points.\n") != std::string::npos);
  CHECK(page.find("nothing") == std::string::npos);
  CHECK(page.find("Never") == std::string::npos);
}

TEST_CASE("named tie-breaks head their columns, and a line says what they decide", "[runtime]") {
  auto g = game(R"(game: Table
players: 3
variables:
  a: {per_player: true}
  b: {per_player: true}
flow: |
  P1.a = 3
  P2.a = 3
  P3.a = 1
  P1.b = 1
  P2.b = 2
  end game
scoring:
  score: p.a
  tiebreak: {gems: p.b, seat: -seat(p)}
)");
  State s = new_game(*g, 3, 1, default_options(*g));
  CHECK(winners(s) == 2u);
  std::string page = describe_view(*g, make_view(*g, s, 0));
  INFO(page);
  CHECK(kata::test::has(page, "Game over. Winner: P2\n"
                              "            score  gems  seat\n"
                              "  P1 (you)      3     1    -1\n"
                              "  P2            3     2    -2  winner\n"
                              "  P3            1     0    -3\n"
                              "A tie on the score goes to the most gems, then the most seat.\n"));
  auto twice = kata::test::load_text(R"(game: Table
players: 2
variables:
  a: {per_player: true}
flow: ""
scoring:
  score: p.a
  tiebreak: {gems: p.a, gems: p.a}
)");
  CHECK(twice.messages() == std::vector<std::string>{"8:25: error: 'gems' is declared twice in 'tiebreak'"});
}

TEST_CASE("an end where nothing was scored shows no table, only the winners and the notes",
          "[runtime]") {
  // A variant's points, counted only when the variant is on: off, every part is 0.
  auto g = game(R"(game: Variant
players: 2
options:
  long: {default: false}
variables:
  pts: {per_player: true}
flow: |
  if long { P1.pts = 4 }
  win P2
scoring:
  parts:
    pts: p.pts
  notes:
    - {text: P2 won at once., when: "true"}
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 0));
  INFO(page);
  CHECK(page.find("Game over. Winner: P2\nP2 won at once.\n") != std::string::npos);
  CHECK(page.find("total") == std::string::npos);
  // With the variant on, the part is shown again.
  auto on = default_options(*g);
  on[0] = 1;
  State l = new_game(*g, 2, 1, on);
  CHECK(describe_view(*g, make_view(*g, l, 0)).find("pts") != std::string::npos);
}

TEST_CASE("win none ends the game with nobody winning", "[runtime]") {
  auto g = game(
      "game: Draw\nplayers: 2\nvariables:\n  w: {type: player}\n  pts: {per_player: true, initial: "
      "3}\n"
      "flow: |\n  win w\n  P1.pts = 9\nscoring: {score: p.pts}\n");
  State s = new_game(*g, 2, 1, default_options(*g));
  CHECK(s.over());
  CHECK(winners(s) == 0u);
  CHECK(scores(*g, s) == std::vector<int64_t>{3, 3});
  CHECK(describe_view(*g, make_view(*g, s, -1)).find("Game over. Winners: none\n") !=
        std::string::npos);
}

TEST_CASE("a flip that leaves a card as it was is no event", "[runtime]") {
  auto g = game(R"yaml(game: Flips
players: 2
components:
  card: {list: [{name: Ace}, {name: King}], in: deck}
zones:
  deck: {visibility: nobody}
  table: {visibility: everyone, order: row}
flow: |
  move top(deck) to table face up
  move top(deck) to table face down
  for c in table { flip c face up }
)yaml");
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State s = new_game(*g, 2, 1, default_options(*g), &hooks);
  REQUIRE(s.over());
  // Only the face-down card turns: one flip event, and one line that names one card.
  CHECK(std::count_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::flip; }) == 1);
  std::vector<std::string> told = describe_events(*g, events, 0);
  CHECK(std::count_if(told.begin(), told.end(), [](const std::string& l) { return has(l, "turned face up"); }) == 1);
  CHECK(std::none_of(told.begin(), told.end(), [](const std::string& l) { return has(l, "2 cards are turned"); }));
}
