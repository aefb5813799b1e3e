// A blind pick: a decision over the cards of a set that the chooser cannot see (a card
// taken at random from another's hand) is one decision, named by the set ("take a card
// from P2.hand"), and which card it takes is a chance outcome drawn from the game's
// generator, logged as a `pick` and checked on replay like a shuffle (docs/language.md
// §4.4.1, docs/log-format.md).
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "agents/menu.hpp"
#include "agents/runner.hpp"
#include "log/log.hpp"
#include "scenario/scenario.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::legal_texts;

namespace {

// The game (also a seed of the `play` fuzz target): each player is dealt two cards, and
// two cards go to the pile, one face down. In turn, each takes a card from the next
// player's hand without seeing it, or takes a card of the pile (the face-down one
// unseen), or passes. A player scores the strength of the cards in hand.
const std::string blind_file = "fuzz/corpus/play/blind-pick.yaml";

std::shared_ptr<const Game> blind() {
  auto l = kata::test::load_file(blind_file);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  return l.game;
}

// The card P1 holds now that it did not hold in `before`.
int taken(const Game& g, const State& before, const State& after) {
  for (int c = 0; c < g.card_count; ++c)
    if (after[g.layout.card_zone + c] != before[g.layout.card_zone + c] &&
        after[g.layout.card_zone + c] == g.zone_instance(1, 0))
      return c;
  return -1;
}

Decision the(const Game& g, const State& s, const std::string& text) {
  std::string why;
  auto d = parse_decision(g, s, text, why);
  INFO(why);
  REQUIRE(d);
  return *d;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("a blind pick from another's hand is one decision, named by the hand", "[blind]") {
  auto g = blind();
  State s = new_game(*g, 2, 1, default_options(*g));
  REQUIRE(s.chooser() == 0);
  std::vector<Decision> legal;
  legal_decisions(*g, s, legal);
  // P2's two cards are one decision. Of the pile's, the face-up one is named, and comes
  // first (whatever the card order): the blind picks follow an action's other decisions.
  int up = -1;
  for (int c = 0; c < g->card_count; ++c)
    if (s[g->layout.card_zone + c] == g->zone_instance(2, 0) && s[g->layout.card_face + c]) up = c;
  REQUIRE(up >= 0);
  std::string pile = g->card_names[up];
  CHECK(legal_texts(*g, s) == std::vector<std::string>{"take a card from P2.hand", "grab " + pile,
                                                        "grab a card from pile", "pass"});
  CHECK(is_blind(legal[0].args[0]));
  CHECK(is_blind(legal[2].args[0]));
  // The notation reads back, and the old "#" form is no choice.
  CHECK(the(*g, s, "take a card from p2.hand") == legal[0]);
  std::string why;
  CHECK_FALSE(parse_decision(*g, s, "grab pile#1", why));
  CHECK(why == fmt::format("'pile#1' is not a choice for c (choices: {}, a card from pile)", pile));
  // The terminal's menu has one item for each.
  auto items = menu_items(*g, make_view(*g, s, 0), legal_texts(*g, s));
  REQUIRE(items.size() == 4);
  CHECK(items[0].text() == "take a card from P2.hand");
  CHECK(items[2].text() == "grab a card from pile");
  // P2, who sees its hand, is offered its own cards by name when it is its turn; P1's
  // hand is then the blind one.
  apply(*g, s, the(*g, s, "pass"));
  legal_decisions(*g, s, legal);
  CHECK(legal_texts(*g, s)[0] == "take a card from P1.hand");
}

TEST_CASE("which card a blind pick takes follows the seed, and nothing the chooser cannot see",
          "[blind]") {
  auto g = blind();
  std::set<int> places;
  std::set<int> cards;
  for (uint64_t seed = 1; seed <= 64; ++seed) {
    State s = new_game(*g, 2, seed, default_options(*g));
    State again = s, before = s;
    Decision d = the(*g, s, "take a card from P2.hand");
    apply(*g, s, d);
    apply(*g, again, d);
    CHECK(s == again);  // same seed, same decisions: the same card
    int c = taken(*g, before, s);
    REQUIRE(c >= 0);
    REQUIRE(before[g->layout.card_zone + c] == g->zone_instance(1, 1));
    // Its place among P2's cards (in card order): both are drawn, not always the first.
    const int32_t* hand =
        before.slots.data() + g->layout.zone_cards + g->zone_instance(1, 1) * g->card_count;
    places.insert(hand[0] == c ? 0 : 1);
    cards.insert(c);
  }
  CHECK(places == std::set<int>{0, 1});
  CHECK(cards.size() > 4);
}

TEST_CASE("two games that differ only in P2's hidden cards read the same to P1 at a blind pick",
          "[blind][leaks]") {
  auto g = blind();
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    State a = new_game(*g, 3, seed, default_options(*g));
    uint64_t rng = seed * 977;
    std::vector<int> to = kata::test::hidden_renaming(*g, a, 0, rng);
    State b = rename_cards(*g, a, to);
    std::vector<Decision> la, lb;
    legal_decisions(*g, a, la);
    legal_decisions(*g, b, lb);
    CHECK(la == lb);
    CHECK(legal_texts(*g, a) == legal_texts(*g, b));
    PlayerView va = make_view(*g, a, 0), vb = make_view(*g, b, 0);
    CHECK(va == vb);
    CHECK(describe_view(*g, va) == describe_view(*g, vb));
    std::vector<std::string> ma, mb;
    for (const MenuItem& i : menu_items(*g, va, legal_texts(*g, a))) ma.push_back(i.text());
    for (const MenuItem& i : menu_items(*g, vb, legal_texts(*g, b))) mb.push_back(i.text());
    CHECK(ma == mb);
    // The pick is told to P1 alike; the move that follows names the card to P1 (it comes
    // into its sight), and to P3 as a card from P2.hand.
    Decision d = the(*g, a, "take a card from P2.hand");
    std::vector<Event> ea, eb;
    Hooks ha{&ea, nullptr}, hb{&eb, nullptr};
    apply(*g, a, d, &ha);
    apply(*g, b, d, &hb);
    REQUIRE(ea.size() >= 2);
    REQUIRE(ea[1].kind == Event::pick);
    CHECK(describe_event(*g, ea[1], 0) == "you draw a card from P2.hand");
    CHECK(describe_event(*g, ea[1], 2) == "P1 draws a card from P2.hand");
    CHECK(describe_event(*g, ea[1], 1) ==
          fmt::format("P1 draws {} from P2.hand", g->card_names[ea[1].card]));
    CHECK(describe_events(*g, ea, 2) == describe_events(*g, eb, 2));
  }
}

TEST_CASE("a blind pick is logged and replayed, and a tampered pick is refused", "[blind][log]") {
  std::string rules = blind_file;
  std::string log = kata::test::temp("blind.jsonl");
  auto r = kata::test::run_kata(
      fmt::format("play {} --players 2 --agents random --seed 4 --quiet --log {}", rules, log));
  REQUIRE(r.status == 0);
  std::string text = read(log);
  INFO(text);
  size_t at = text.find("{\"card\":");
  while (at != std::string::npos && text.find("\"type\":\"pick\"", at) > text.find('\n', at))
    at = text.find("{\"card\":", at + 1);
  REQUIRE(at != std::string::npos);
  std::string line = text.substr(at, text.find('\n', at) - at);
  auto j = nlohmann::json::parse(line);
  std::string card = j["card"];
  CHECK(kata::test::run_kata("replay " + log).status == 0);
  // Another card of the game in its place: drawn from the seed, the pick differs.
  std::string other = card == "Monk" ? "Guard" : "Monk";
  auto tampered = [&](bool forced, const std::string& name) {
    std::string t = text;
    std::string changed = line;
    changed.replace(changed.find("\"" + card + "\""), card.size() + 2, "\"" + name + "\"");
    t.replace(at, line.size(), changed);
    if (forced) t.replace(t.find("\"forced\":false"), 14, "\"forced\":true");
    return kata::test::temp("blind-tampered.jsonl", t);
  };
  auto bad = kata::test::run_kata("replay " + tampered(false, other));
  CHECK(bad.status != 0);
  CHECK(kata::test::has(bad.out, "the game diverges: the log says {\"card\":\"" + other));
  // Forced, the log's pick is used, if it is a card the decision could draw: here one the
  // game does not have, then one not in the hand.
  auto none = kata::test::run_kata("replay " + tampered(true, "Nobody"));
  CHECK(none.status != 0);
  CHECK(kata::test::has(none.out, "the pick names 'Nobody', which is not a card of the game"));
  // A card of the game that is not there to draw (in the chooser's own hand, say).
  std::string elsewhere;
  std::string chooser = j["player"];
  std::string zone = j["zone"];
  for (std::string n : {"Monk", "Guard", "Spy", "Scout", "Knight", "Lord", "Duke", "Hermit"}) {
    if (n == card) continue;
    auto forced = kata::test::run_kata("replay " + tampered(true, n));
    if (forced.status != 0 && kata::test::has(forced.out, "the pick cannot be used")) {
      CHECK(kata::test::has(forced.out,
                            fmt::format("the pick cannot be used: the fixed pick names {}, which "
                                        "is not a card {} could pick from {} here",
                                        n, chooser, zone)));
      elsewhere = n;
      break;
    }
  }
  CHECK(!elsewhere.empty());
  // As a seat, the message names no card.
  auto as = kata::test::run_kata("replay --as P2 " + tampered(true, "Nobody"));
  CHECK(as.status != 0);
  CHECK(kata::test::has(as.out, "the pick names a card the game does not have"));
}

TEST_CASE("a blind pick: the interpreter and compiled code play the same game", "[blind][native]") {
  auto g = blind();
  auto native = kata::test::compiled(g);
  for (int players = 2; players <= 3; ++players)
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      INFO(players << " players, seed " << seed);
      kata::test::lockstep(*g, *native, players, seed, default_options(*g));
    }
}

TEST_CASE("a blind pick beside a negative number: the number is no blind card", "[blind]") {
  auto l = kata::test::load_text(R"(game: Bids
players: 2
components:
  card:
    list:
      - {name: Ace, v: 1}
      - {name: Bee, v: 2}
      - {name: Cee, v: 3}
      - {name: Dee, v: 4}
    in: deck
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set}
variables:
  bid: {per_player: true, initial: 0}
flow: |
  shuffle deck
  repeat 2 times { for p in players { move top(deck) to p.hand } }
  choose P1: steal
actions:
  steal:
    params: {c: P2.hand, n: -3..-2}
    do: |
      move c to player.hand
      player.bid = n
scoring:
  score: sum(c.v for c in p.hand)
)");
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 2, 5, default_options(g));
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  CHECK(legal_texts(g, s) ==
        std::vector<std::string>{"steal a card from P2.hand -3", "steal a card from P2.hand -2"});
  apply(g, s, legal[1]);
  CHECK(s.over());
  CHECK(s[g.layout.player_vars + 0 * g.max_players + 0] == -2);
}

TEST_CASE("a game that shows every card to everyone offers no blind pick", "[blind]") {
  // Kendo's pieces are all on the table or in reserves everyone sees.
  for (const char* f : {"rules/breakthrough.yaml", "rules/connect4.yaml", "rules/chess.yaml", "rules/tictactoe.yaml",
                        "rules/kendo.yaml"}) {
    auto l = kata::test::load_file(f);
    REQUIRE(l.game);
    CHECK(l.game->cards_always_seen);
  }
  for (const char* f : {"rules/kobayakawa.yaml", "rules/kenjin.yaml", "rules/hogen.yaml"}) {
    auto l = kata::test::load_file(f);
    REQUIRE(l.game);
    CHECK_FALSE(l.game->cards_always_seen);
  }
  // Chips in a bag and a set that everyone sees; the first player does something to the
  // bag and moves its chips into the set, where the second player takes one. Only a flip
  // that may turn a chip down, or a move face down, makes the game one that may hide a
  // card; then, the bag shuffled after a chip was turned down, that chip is a blind pick.
  auto game = [](const std::string& turn, const std::string& into) {
    return kata::test::load_text(R"(game: Open
players: 2
components:
  chip: {each: {n: 1..3}, name: "chip{n}", in: bag}
zones:
  bag: {visibility: everyone}
  pool: {visibility: everyone, order: set}
  kept: {per_player: true, visibility: everyone, order: set}
flow: |
  choose P1: turn
  choose P2: take
actions:
  turn:
    do: |
      )" + turn + R"(
      shuffle bag
      move all bag to pool)" + into + R"(
  take:
    params:
      c: {from: pool}
    do: move c to player.kept
)");
  };
  struct Case {
    std::string turn, into;
    bool always_seen, blind;
  };
  for (const Case& k : {Case{"flip top(bag) face up", "", true, false}, Case{"move top(bag) to bag", "", true, false},
                        Case{"flip top(bag) face up", " face up", true, false},
                        Case{"flip top(bag)", "", false, false},  // the move into the set turns it up
                        Case{"flip top(bag) face down", " face down", false, true},
                        Case{"move top(bag) to bag face down", " face down", false, true}}) {
    CAPTURE(k.turn, k.into);
    auto l = game(k.turn, k.into);
    INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
    REQUIRE(l.game);
    CHECK(l.game->cards_always_seen == k.always_seen);
    State s = new_game(*l.game, 2, 1, default_options(*l.game));
    std::vector<Decision> legal;
    legal_decisions(*l.game, s, legal);
    REQUIRE(legal.size() == 1);
    apply(*l.game, s, legal[0]);
    auto texts = legal_texts(*l.game, s);
    INFO(fmt::format("{}", fmt::join(texts, " | ")));
    CHECK(texts.size() == 3);
    bool named = true;
    for (const char* chip : {"take chip1", "take chip2", "take chip3"})
      named = named && std::find(texts.begin(), texts.end(), chip) != texts.end();
    CHECK(named == !k.blind);
    if (k.blind) CHECK(std::find(texts.begin(), texts.end(), "take a card from pool") != texts.end());
  }
}

TEST_CASE("a position cannot put a card face down in a game that shows every card", "[blind][position]") {
  // Breakthrough from a position with P1's pawn on 11 placed `face: FACE`.
  auto placed = [](const std::string& face) {
    return run_scenario(kata::test::temp("face-" + face + "-pawn.yaml",
                                         "rules: " + std::string(KATA_SOURCE_DIR) + "/rules/breakthrough.yaml" + R"(
players: 2
position:
  at: play
  zones:
    11.spot: [{card: P1 Pawn1, face: )" + face + R"(}]
    88.spot: [P2 Pawn1]
steps:
  - expect: size(grid) == 64
)"));
  };
  auto r = placed("down");
  CHECK_FALSE(r.passed);
  REQUIRE_FALSE(r.diags.items().empty());
  CHECK(r.diags.items()[0].message ==
        "'P1 Pawn1' cannot be face down: in this game every card is always seen by everyone (every zone is, and "
        "nothing turns a card face down)");
  auto up = placed("up");
  INFO((up.diags.items().empty() ? std::string() : up.diags.items()[0].message));
  CHECK(up.passed);
}
