// What components own: variables and zones declared `per: KIND` (one for each component of
// that kind, and for each player with per_player), card-valued variables, a card's
// position in its stack, moves to a position, and `find`.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agents/typed.hpp"
#include "log/log.hpp"
#include "runtime/wrap.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

// Two tiles sit between the players; each tile has a stack for each player and remembers
// who claimed it. Units are deployed onto a tile's side.
const std::string tiles = R"(game: Tiles
players: 2
components:
  tile:
    list:
      - {name: North, vp: 4}
      - {name: South, vp: 6}
    in: table
  unit:
    per_player: true
    list:
      - {name: Lord, strength: 2}
      - {name: Guard, strength: 1}
      - {name: Spy, strength: 0}
    name: "{owner} {name}"
    in: hand
zones:
  table: {visibility: everyone, order: row}
  hand: {per_player: true, visibility: owner, order: set}
  side: {per: tile, per_player: true, visibility: nobody}
  pile: {per: tile, visibility: everyone}
  gone: {visibility: nobody}
variables:
  claimed_by: {per: tile, type: player}
  bonus: {per: tile, per_player: true, initial: 0}
  last: {per_player: true, type: card}
flow: |
  repeat 3 times {
    for p in players { choose p: deploy }
  }
  for t in table {
    let w = best(sum(c.strength for c in t.side(q)) + t.bonus(q) for q in players)
    t.claimed_by = w
  }
actions:
  deploy:
    params: {c: player.hand, t: table}
    do: |
      move c to t.side(player) face down
      player.last = c
      if c.name == Spy { t.bonus(player) += 1 }
scoring:
  score: sum(t.vp for t in table where t.claimed_by == p)
)";

std::shared_ptr<const Game> game(const std::string& yaml) {
  auto l = load_text(yaml);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  return l.game;
}

// The message of the runtime error the first legal decision of a new game stops with.
std::string first_decision_error(const Game& g) {
  std::vector<Decision> legal;
  State s = new_game(g, 2, 1, default_options(g));
  legal_decisions(g, s, legal);
  try {
    apply(g, s, legal[0]);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "no error";
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = tiles;
  auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// Evaluates an expression against a state, through a scenario-like one-off function.
int64_t value_of(const std::string& yaml_extra, const std::vector<std::string>& moves, const std::string& expr) {
  std::string text = tiles + "functions:\n  probe: \"" + expr + "\"\n" + yaml_extra;
  auto g = game(text);
  State s = kata::test::play(*g, 2, moves);
  for (size_t i = 0; i < g->program.functions.size(); ++i)
    if (g->program.functions[i].name == "probe") return evaluate(*g, s, g->program.functions[i].body);
  FAIL("no probe");
  return 0;
}

}  // namespace

TEST_CASE("each component has its own zones and variables", "[components]") {
  auto g = game(tiles);
  // Two tiles, each with a side for each of the two seats (max players) and a pile.
  CHECK(g->zones[2].kind == 0);
  State s = kata::test::play(*g, 2, {"deploy P1 Lord North", "deploy P2 Spy North", "deploy P1 Guard South",
                                     "deploy P2 Guard North", "deploy P1 Spy North", "deploy P2 Lord South"});
  REQUIRE(s.over());
  // North: P1 Lord 2 + Spy 0 + bonus 1 = 3; P2 Spy 0 + Guard 1 + bonus 1 = 2. South: P1 1, P2 2.
  CHECK(scores(*g, s) == std::vector<int64_t>{4, 6});
  CHECK(g->instance_name(g->zones[2].first_instance + 1) == "North.side(P2)");
  CHECK(g->instance_name(g->zones[3].first_instance + 1) == "South.pile");
}

TEST_CASE("position, holder and find", "[components]") {
  std::vector<std::string> moves = {"deploy P1 Lord North", "deploy P2 Spy North", "deploy P1 Guard North"};
  CHECK(value_of("", moves, "position(find(c in P1.hand where true))") == 1);  // the Spy, alone in the hand
  CHECK(value_of("", moves, "size(find(t in table where t.name == North).side(P1))") == 2);
  CHECK(value_of("", moves, "position(top(find(t in table where t.name == North).side(P1)))") == 2);
  CHECK(value_of("", moves, "top(find(t in table where t.name == North).side(P1)).strength") == 1);
  CHECK(value_of("", moves, "holder(zone_of(P1.last)).vp") == 4);
  CHECK(value_of("", moves, "if holder(P1.hand) == none then 1 else 0") == 1);
  CHECK(value_of("", moves, "if find(t in table where t.vp == 5) == none then 1 else 0") == 1);
  CHECK(value_of("", moves, "find(t in table where t.bonus(P2) == 1).vp") == 4);
}

TEST_CASE("a move to a position puts the card N-th from the bottom", "[components]") {
  const std::string row = R"(game: Row
players: 1
components:
  card:
    each: {value: 1..4}
    in: row
zones:
  row: {visibility: everyone}
  out: {visibility: everyone}
variables:
  order: 0
flow: |
  move top(row) to row at position 1
  let c = top(row)
  move c to out
  move c to row at position 2
  move bottom(row) to row at position 4
  for x in row { order = order * 10 + x.value }
scoring:
  score: order
)";
  auto g = game(row);
  State s = new_game(*g, 1, 1, default_options(*g));
  REQUIRE(s.over());
  // 1 2 3 4 -> 4 1 2 3 -> (3 out) 4 1 2 -> 4 3 1 2 -> 3 1 2 4
  CHECK(scores(*g, s) == std::vector<int64_t>{3124});
}

TEST_CASE("a move to a position outside the zone stops the game", "[components]") {
  auto g = game(with("move c to t.side(player) face down", "move c to t.side(player) face down at position 3"));
  CHECK(first_decision_error(*g) == "position 3 is outside North.side(P1) (1 to 1)");
}

TEST_CASE("a card variable and a component's variables are shown only to who sees the card", "[components][views]") {
  auto g = game(tiles);
  State s = kata::test::play(*g, 2, {"deploy P1 Lord North"});
  PlayerView mine = make_view(*g, s, 0), theirs = make_view(*g, s, 1);
  std::string me = describe_view(*g, mine), them = describe_view(*g, theirs);
  CHECK(me.find("last=P1 Lord") != std::string::npos);
  // The viewer's own hand is not marked '*' ("face down: you know it"): a hand is seen by
  // its owner. A card on a side, face down, is.
  CHECK(me.find("P1 Guard") != std::string::npos);
  CHECK(me.find("P1 Guard*") == std::string::npos);
  CHECK(me.find("P1 Lord*") != std::string::npos);
  INFO(them);
  CHECK(them.find("P1 Lord") == std::string::npos);
  CHECK(them.find("last=a hidden card") != std::string::npos);
  // The tiles are on the table, seen by all: their variables are shown once set.
  State end = kata::test::play(*g, 2, {"deploy P1 Lord North", "deploy P2 Spy North", "deploy P1 Guard South",
                                       "deploy P2 Guard North", "deploy P1 Spy North", "deploy P2 Lord South"});
  CHECK(describe_view(*g, make_view(*g, end, 1)).find("North: claimed_by=P1 bonus(P1)=1 bonus(P2)=1") != std::string::npos);
  // Unset values (0, false, none) are left out.
  CHECK(describe_view(*g, make_view(*g, end, 1)).find("  South: claimed_by=P2\n") != std::string::npos);
  // A stack shows the place of each hidden card: P2 sees P1's North side as two hidden cards
  // under nothing else, and its own as known cards.
  CHECK(describe_view(*g, make_view(*g, end, 1)).find("North.side(P2) P2 Spy*, P2 Guard*") != std::string::npos);
  CHECK(describe_view(*g, make_view(*g, end, 1)).find("North.side(P1) 2 cards face down") != std::string::npos);
}

TEST_CASE("component members are checked", "[components][check]") {
  auto l = load_text(with("t.claimed_by = w", "t.side = w"));
  CHECK(l.messages() == std::vector<std::string>{"33:7: error: each player has one: write c.side(p) for player p"});
  l = load_text(with("t.claimed_by = w", "t.claimed_by(w) = w"));
  CHECK(l.messages() == std::vector<std::string>{"33:18: error: '.claimed_by' takes no player; write c.claimed_by"});
  l = load_text(with("t.claimed_by = w", "claimed_by = w"));
  CHECK(l.messages() == std::vector<std::string>{"33:5: error: 'claimed_by' belongs to each 'tile': write c.claimed_by for tile c"});
  l = load_text(with("move c to t.side(player) face down", "move c to side face down"));
  CHECK(l.messages() == std::vector<std::string>{"39:17: error: each 'tile' has a zone 'side': write c.side(p) for tile c"});
  l = load_text(with("side: {per: tile,", "side: {per: tiles,"));
  CHECK(l.messages() == std::vector<std::string>{"20:15: error: unknown component kind 'tiles'; did you mean 'tile'?"});
  l = load_text(with("player.last = c", "player.last = t.vp"));
  CHECK(l.messages() == std::vector<std::string>{"40:23: error: the assigned value must be a card, but this is a number"});
  l = load_text(with("player.last = c", "player.hand(P1) = c"));
  CHECK(l.messages() == std::vector<std::string>{"40:19: error: '.hand' takes no argument"});
  l = load_text(with("    in: table\n", "    in: pile\n"));
  CHECK(l.messages() == std::vector<std::string>{"8:9: error: zone 'pile' belongs to each 'tile' component; components start in a shared zone or a player's"});
  l = load_text(with("t.claimed_by = w", "t.claimed_by = find(q in players where q.last.strength)"));
  CHECK(l.messages() == std::vector<std::string>{"33:51: error: the condition after 'where' must be true or false, but this is a number"});
}

TEST_CASE("a component variable read through a card of another kind stops the game", "[components]") {
  auto g = game(with("player.last = c", "player.last = c\n      t.claimed_by = c.claimed_by"));
  CHECK(first_decision_error(*g) == "this card is not a 'tile'");
}

TEST_CASE("values() lists a property's values - a function's arguments are all evaluated before any is bound", "[components]") {
  // values(name) is the tiles' and units' names; only the kinds that declare a property count.
  CHECK(value_of("", {}, "count(v in values(vp))") == 2);
  CHECK(value_of("", {}, "count(v in values(name))") == 5);
  CHECK(value_of("", {}, "sum(v for v in values(strength))") == 3);
  // An aggregate in a later argument once overwrote the first argument.
  std::string extra = "  pick(a, b): \"a * 10 + b\"\n  probe2: \"pick(7, find(t in table where t.vp == 6).vp)\"\n";
  auto g = game(tiles + "functions:\n" + extra);
  State s = new_game(*g, 2, 1, default_options(*g));
  for (auto& f : g->program.functions)
    if (f.name == "probe2") CHECK(evaluate(*g, s, f.body) == 76);
}

TEST_CASE("a refused decision naming a card with spaces in its name is told the failed condition", "[components][notation]") {
  auto g = game(with("    params: {c: player.hand, t: table}\n", "    params: {c: player.hand, t: table}\n    when: t.vp == 4\n"));
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string why;
  CHECK_FALSE(parse_decision(*g, s, "deploy P1 Lord South", why));
  CHECK(why == "'deploy' requires t.vp == 4");
  CHECK_FALSE(parse_decision(*g, s, "deploy P1 Lord", why));
  CHECK(why == "'deploy' takes 2 values: deploy c t");
  CHECK_FALSE(parse_decision(*g, s, "deploy P1 Lord North extra", why));
  CHECK(why == "'deploy' takes 2 values: deploy c t");
  CHECK_FALSE(parse_decision(*g, s, "deploy P1 Knight North", why));
  CHECK(why == "'p1' is not a choice for c (choices: P1 Lord, P1 Guard, P1 Spy)");
  CHECK(parse_decision(*g, s, "deploy  p1 lord   north", why));
}

TEST_CASE("a view's legend explains the '?' of a hidden card among cards the viewer sees", "[components][views]") {
  auto marks = [](const std::string& second) {
    return game(R"(game: Marks
players: 2
components:
  card:
    each: {value: 1..3}
    name: "card{value}"
    in: box
zones:
  box: {visibility: nobody, order: stack}
  pile: {visibility: nobody, order: stack}
flow: |
  move top(box) to pile )" + second + R"(
  move top(box) to pile face down
)");
  };
  auto g = marks("face up");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 1));
  INFO(page);
  CHECK(page.find("pile           card3 ?\n") != std::string::npos);
  CHECK(page.find("  (? a face-down card you do not know, in its place in the pile)\n") != std::string::npos);
  // All hidden: the pile is counted, and there is no '?' to explain.
  auto hidden = marks("face down");
  State h = new_game(*hidden, 2, 1, default_options(*hidden));
  std::string all = describe_view(*hidden, make_view(*hidden, h, 1));
  INFO(all);
  CHECK(all.find("pile           2 cards face down") != std::string::npos);
  CHECK(all.find("(?") == std::string::npos);
}

namespace {

// Coins in a pile, taken in turn into hands that everyone sees.
std::string coins(const std::string& list, const std::string& name, const std::string& more = "") {
  return R"(game: Coins
players: 2
components:
  coin:
)" + list + name + R"(    in: pile
)" + more + R"(zones:
  pile: {visibility: everyone, order: set}
  hand: {per_player: true, visibility: everyone, order: set}
flow: |
  repeat 2 times {
    for p in players { choose p: take }
  }
actions:
  take:
    params: {c: pile}
    do: move c to player.hand
scoring:
  score: size(p.hand)
)";
}

}  // namespace

TEST_CASE("cards named alike are numbered if identical, else refused", "[components][notation]") {
  // Identical cards whose template has no {copy} get their number at the end.
  auto l = kata::test::load_text(coins("    list:\n      - {name: Coin, count: 3}\n", ""));
  REQUIRE(l.game);
  CHECK(l.game->card_names == std::vector<std::string>{"Coin1", "Coin2", "Coin3"});
  CHECK(l.game->card_plain_names == std::vector<std::string>{"Coin", "Coin", "Coin"});
  // A player could tell these apart, the notation could not: an error at the template.
  l = kata::test::load_text(coins("    each: {worth: 1..3}\n", "    name: \"Coin\"\n"));
  CHECK(l.messages() ==
        std::vector<std::string>{"6:11: error: two cards of 'coin' are both named 'Coin' but differ in 'worth' (1 and 2); "
                                 "name them apart (a property in the name, or {copy})"});
  // With {copy} they are numbered, whatever their properties.
  l = kata::test::load_text(coins("    each: {worth: 1..3}\n", "    name: \"Coin{copy}\"\n"));
  REQUIRE(l.game);
  CHECK(l.game->card_names == std::vector<std::string>{"Coin1", "Coin2", "Coin3"});
  // Without a template, a per_player kind's cards are named after their owner.
  l = kata::test::load_text(coins("    per_player: true\n    list:\n      - {name: Coin}\n", ""));
  REQUIRE(l.game);
  CHECK(l.game->card_names[0] == "P1 Coin");
  // Two kinds, or two owners, under one name.
  l = kata::test::load_text(coins("    list:\n      - {name: Coin}\n", "", "  token:\n    list:\n      - {name: Coin}\n    in: pile\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "8:3: error: a card of 'coin' and a card of 'token' are both named 'Coin'; card names must "
                            "differ (put {owner}, a property or {copy} in the name)"});
  l = kata::test::load_text(coins("    per_player: true\n    list:\n      - {name: Coin}\n", "    name: \"{name}\"\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "8:11: error: a card of 'coin' and a card of 'coin' (of P1 and P2) are both named 'Coin'; card "
                            "names must differ (put {owner}, a property or {copy} in the name)"});
}

TEST_CASE("a game of identical cards replays", "[components][notation]") {
  std::string rules = kata::test::temp("coins.yaml", coins("    list:\n      - {name: Coin, count: 4}\n", ""));
  std::string log = kata::test::temp("coins.jsonl");
  for (int seed = 1; seed <= 4; ++seed) {
    auto played = kata::test::run_kata(fmt::format("play {} --players 2 --agents random --seed {} -q --log {}", rules, seed, log));
    INFO(played.out);
    REQUIRE(played.status == 0);
    auto replayed = kata::test::run_kata("replay " + log);
    INFO(replayed.out);
    CHECK(replayed.status == 0);
    CHECK(kata::test::has(replayed.out, "Coin"));
  }
}

TEST_CASE("a title names a card on screens - the notation keeps its name", "[components][notation][views]") {
  // One entry titled, the others by the kind's template; the pile is hidden, so its
  // count uses the kind's noun.
  auto l = kata::test::load_text(coins("    list:\n      - {name: BigCoin, worth: 5, title: Big Coin}\n      - {name: Small, worth: 1, count: 2}\n",
                                       "    title: \"{name} worth {worth}\"\n    noun: token\n"));
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const Game& g = *l.game;
  CHECK(g.card_names == std::vector<std::string>{"BigCoin", "Small1", "Small2"});
  CHECK(g.card_plain_names == std::vector<std::string>{"Big Coin", "Small worth 1", "Small worth 1"});
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State s = new_game(g, 2, 1, default_options(g), &hooks);
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  REQUIRE(!legal.empty());
  // The notation names it; a screen's text of the same decision titles it.
  CHECK(decision_text(g, s, legal[0]) == "take BigCoin");
  CHECK(kata::plain(decision_screen_text(g, s, legal[0], 1)) == "take Big Coin");
  // Either is typed, case and spaces aside.
  std::string why;
  for (std::string typed : {"take BigCoin", "take big coin", "take BIGCOIN", "take Big Coin"}) {
    INFO(typed);
    auto d = kata::read_decision(g, s, typed, why);
    REQUIRE(d);
    CHECK(*d == legal[0]);
  }
  // What a seat is told titles it; the log keeps the name.
  events.clear();
  apply(g, s, legal[0], &hooks);
  std::string told = fmt::format("{}", fmt::join(describe_events(g, events, 1), "\n"));
  INFO(told);
  CHECK(told.find("Big Coin") != std::string::npos);
  CHECK(told.find("BigCoin") == std::string::npos);
  CHECK(fmt::format("{}", fmt::join(describe_events(g, events, -1), "\n")).find("BigCoin") != std::string::npos);
}

TEST_CASE("titles are checked - copies alike, other cards apart", "[components][check]") {
  // {index} would tell copies apart: screens never do.
  auto l = kata::test::load_text(coins("    list:\n      - {name: Coin, count: 2}\n", "    title: \"coin {index}\"\n"));
  CHECK(l.messages() == std::vector<std::string>{"7:12: error: the copies of 'Coin' are titled 'coin 1' and 'coin 2'; copies "
                                                 "look alike, so their title must be the same"});
  l = kata::test::load_text(coins("    list:\n      - {name: Coin, count: 2}\n", "    title: \"coin {copy}\"\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "7:12: error: a title cannot use '{copy}': copies of a card look alike, and screens name them alike"});
  // Two cards a player tells apart, titled alike (spaces and case aside).
  l = kata::test::load_text(coins("    list:\n      - {name: Gold, title: Big Coin}\n      - {name: Silver, title: bigcoin}\n", ""));
  CHECK(l.messages() == std::vector<std::string>{"4:3: error: 'Gold' and 'Silver' are both titled 'bigcoin'; cards a player "
                                                 "tells apart need titles that differ (case and spaces aside)"});
  l = kata::test::load_text(coins("    list:\n      - {name: Gold}\n", "    title: \"{wroth}\"\n"));
  CHECK(l.messages() == std::vector<std::string>{"7:12: error: the title template uses '{wroth}', which 'coin' components do not have"});
  l = kata::test::load_text(coins("    list:\n      - {name: Gold}\n", "    noun: [a, b, c]\n"));
  CHECK(l.messages() == std::vector<std::string>{"7:11: error: a noun is a word (tile), or two: one and several ([die, dice])"});
  l = kata::test::load_text(coins("    list:\n      - {name: Gold}\n", "    noun: \"t1le\"\n"));
  CHECK(l.messages() == std::vector<std::string>{"7:11: error: a noun is written in letters (tile, [die, dice])"});
}

TEST_CASE("screens count hidden components by their kind's noun", "[components][views]") {
  auto g = [](const std::string& noun) {
    auto l = kata::test::load_text(with("    name: \"{owner} {name}\"\n", "    name: \"{owner} {name}\"\n" + noun));
    INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
    REQUIRE(l.game);
    return l.game;
  };
  auto plain = g(""), units = g("    noun: unit\n"), staff = g("    noun: [staff, staves]\n");
  for (auto [game, many, one] : {std::tuple{plain, "3 hidden cards", "a card"}, {units, "3 hidden units", "a unit"},
                                 {staff, "3 hidden staves", "a staff"}}) {
    State s = new_game(*game, 2, 1, default_options(*game));
    std::string page = describe_view(*game, make_view(*game, s, 0));
    INFO(page);
    CHECK(page.find(many) != std::string::npos);
    CHECK(game->counted(1, game->card_kind[game->card_count - 1]) == one);
  }
  // Tiles and units together are cards; two tiles are tiles.
  CHECK(units->kind_of_all(std::vector<int>{0, units->card_count - 1}, [&](int c) { return units->card_kind[c]; }) == -1);
  CHECK(units->counted(2, -1) == "2 cards");
}
