// The human's menus over whole games of every rule file in rules/: no menu, listed whole
// or walked one parameter at a time, shows two entries a person cannot tell apart, and
// every entry leads to a legal decision; and the menu of several actions is grouped under
// a heading per action and fits a 40-line terminal.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "agents/menu.hpp"
#include "agents/typed.hpp"
#include "support.hpp"

namespace {

// The entries of a menu step as shown, without their numbers.
std::vector<std::string> entries(const std::string& shown) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < shown.size()) {
    size_t end = shown.find('\n', at);
    std::string line = shown.substr(at, end - at);
    at = end == std::string::npos ? shown.size() : end + 1;
    size_t paren = line.find(") ");
    if (line.size() > 4 && paren != std::string::npos && paren <= 4 &&
        line.find_first_not_of(" 0123456789") == paren)
      out.push_back(line.substr(paren + 2));
  }
  return out;
}

// Walks every step of the menu (each value, then back), checking each step's entries.
void walk(kata::Menu& m, int depth, std::string& problem) {
  std::string shown = m.show();
  std::vector<std::string> e = entries(shown);
  std::set<std::string> seen;
  for (const std::string& s : e)
    if (!seen.insert(s).second && problem.empty()) problem = "twice: " + s + "\n" + shown;
  if (std::count(shown.begin(), shown.end(), '\n') > 30 && problem.empty())
    problem = "too long for a 40-line terminal:\n" + shown;
  if (depth > 4) return;
  for (size_t k = 0; k < m.size(); ++k) {
    kata::Menu copy = m;
    if (copy.pick(k) < 0) walk(copy, depth + 1, problem);
  }
}

}  // namespace

TEST_CASE("no menu of any game lists two entries that read the same", "[prompt][menu]") {
  for (const auto& game : kata::test::rule_games()) {
    const kata::Game& g = *game;
    for (int players = g.min_players; players <= std::min(g.max_players, 4); ++players)
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        kata::State s = kata::new_game(g, players, seed, kata::default_options(g));
        uint64_t rng = seed * 7919;
        std::vector<kata::Decision> legal;
        for (int step = 0; step < 400 && !s.over(); ++step) {
          kata::legal_decisions(g, s, legal);
          std::vector<std::string> labels;
          for (auto& d : legal) labels.push_back(kata::decision_text(g, s, d));
          kata::PlayerView view = kata::make_view(g, s, s.chooser());
          auto items = kata::menu_items(g, view, labels);
          std::string problem;
          std::set<std::string> texts;
          for (const auto& item : items)
            if (!texts.insert(item.text()).second && problem.empty())
              problem = "item twice: " + item.text();
          // Two copies of one card ("Peasant1", "Peasant4") side by side: choices that
          // the menu should have listed once.
          std::map<std::string, std::set<std::string>> copies;
          for (const auto& item : items)
            for (size_t k = 1; k < item.parts.size(); ++k)
              for (int c = 0; c < g.card_count; ++c)
                if (g.card_names[c] == item.parts[k] && g.card_plain_names[c] != g.card_names[c])
                  copies[item.parts[0] + " " + std::to_string(k) + " " + g.card_plain_names[c]]
                      .insert(item.parts[k]);
          for (const auto& [where, names] : copies)
            if (names.size() > 1 && problem.empty())
              problem = "copies listed apart: " + *names.begin() + ", " + *names.rbegin();
          kata::Menu m(items);
          walk(m, 0, problem);
          INFO(g.name << " with " << players << " players, seed " << seed << ", decision " << step);
          INFO(problem);
          REQUIRE(problem.empty());
          kata::apply(g, s, legal[kata::uniform(rng, static_cast<uint32_t>(legal.size()))]);
        }
      }
  }
}

namespace {

// Two seats, each with a Lord and three Guards in a hand of the given order.
std::string guards(const std::string& order) {
  return R"(game: Guards
players: 2
components:
  tile:
    list:
      - {name: North}
      - {name: South}
    in: table
  unit:
    per_player: true
    list:
      - {name: Lord}
      - {name: Guard, count: 3}
    name: "{owner} {name}{copy}"
    in: hand
zones:
  table: {visibility: everyone, order: row}
  hand: {per_player: true, visibility: owner, order: )" +
         order + R"(}
  side: {per: tile, per_player: true, visibility: everyone}
flow: |
  repeat 4 times {
    for p in players { choose p: deploy }
  }
actions:
  deploy:
    params: {c: player.hand, t: table}
    do: move c to t.side(player)
scoring:
  score: 0
)";
}

std::vector<std::string> texts(const kata::Game& g, const kata::State& s) {
  std::vector<std::string> labels = kata::test::legal_texts(g, s);
  std::vector<std::string> out;
  for (auto& item : kata::menu_items(g, kata::make_view(g, s, s.chooser()), labels))
    out.push_back(item.text());
  return out;
}

}  // namespace

TEST_CASE(
    "identical cards are one choice in a set and below the top of a stack - the last copy by its "
    "plain name",
    "[prompt][menu]") {
  using V = std::vector<std::string>;
  auto set = kata::test::load_text(guards("set"));
  REQUIRE(set.game);
  kata::State s = kata::new_game(*set.game, 2, 1, kata::default_options(*set.game));
  CHECK(texts(*set.game, s) == V{"deploy P1 Lord North", "deploy P1 Lord South",
                                 "deploy P1 Guard North (x3)", "deploy P1 Guard South (x3)"});
  // In a stack the top Guard (Guard3) is the top: the two below it are one choice.
  auto stack = kata::test::load_text(guards("stack"));
  REQUIRE(stack.game);
  kata::State t = kata::new_game(*stack.game, 2, 1, kata::default_options(*stack.game));
  CHECK(texts(*stack.game, t) == V{"deploy P1 Lord North", "deploy P1 Lord South",
                                   "deploy P1 Guard1 North (x2)", "deploy P1 Guard1 South (x2)",
                                   "deploy P1 Guard3 North", "deploy P1 Guard3 South"});
  // In a row each Guard has its place.
  auto row = kata::test::load_text(guards("row"));
  REQUIRE(row.game);
  kata::State r = kata::new_game(*row.game, 2, 1, kata::default_options(*row.game));
  CHECK(texts(*row.game, r).size() == 8);
  // The last Guard in a set hand: by its plain name, and typed so.
  for (const char* d : {"deploy P1 Guard1 North", "deploy P2 Guard1 North",
                        "deploy P1 Guard2 North", "deploy P2 Guard2 North"}) {
    std::string why;
    auto decision = kata::parse_decision(*set.game, s, d, why);
    INFO(d << ": " << why);
    REQUIRE(decision);
    kata::apply(*set.game, s, *decision);
  }
  CHECK(texts(*set.game, s) == V{"deploy P1 Lord North", "deploy P1 Lord South",
                                 "deploy P1 Guard North", "deploy P1 Guard South"});
}

TEST_CASE(
    "a parameter's doc in long form is told with the values allowed when a typed value is refused",
    "[prompt][notation]") {
  std::string text = guards("set");
  const std::string short_params = "params: {c: player.hand, t: table}";
  text.replace(text.find(short_params), short_params.size(),
               "params:\n      c: {from: player.hand, doc: the unit from your hand}\n      t: "
               "{from: table}");
  auto l = kata::test::load_text(text);
  REQUIRE(l.messages().empty());
  const kata::Game& g = *l.game;
  CHECK(g.program.actions[0].params[0].doc == "the unit from your hand");
  CHECK(g.program.actions[0].params[1].doc.empty());
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::string why;
  // Interchangeable cards once, as the menu names them, and the doc.
  CHECK_FALSE(kata::read_decision(g, s, "deploy 0/0 North", why));
  CHECK(why == "'0/0' is not a choice for the unit from your hand (choices: P1 Lord, P1 Guard)");
  CHECK_FALSE(kata::read_decision(g, s, "deploy P1 Guard2 East", why));
  CHECK(why == "'east' is not a choice for a tile (choices: North, South)");
  CHECK_FALSE(kata::read_decision(g, s, "deploy guard east", why));
  CHECK(why == "'east' is not a choice for a tile (choices: North, South)");
  // Without a doc, a card by its kind's noun where the kind has one, else by the kind's name.
  std::string nouned = text;
  nouned.replace(nouned.find("  tile:\n"), 8, "  tile:\n    noun: battlefield\n");
  auto n = kata::test::load_text(nouned);
  REQUIRE(n.messages().empty());
  CHECK_FALSE(kata::read_decision(*n.game, s, "deploy guard east", why));
  CHECK(why == "'east' is not a choice for a battlefield (choices: North, South)");
  std::string vowel = text;
  for (size_t at; (at = vowel.find("tile")) != std::string::npos;) vowel.replace(at, 4, "Island");
  auto v = kata::test::load_text(vowel);
  REQUIRE(v.messages().empty());
  CHECK_FALSE(kata::read_decision(*v.game, s, "deploy guard east", why));
  CHECK(why == "'east' is not a choice for an Island (choices: North, South)");

  // Written wrong, the long form is an error.
  auto bad = kata::test::load_text(
      kata::test::has(text, "t: {from: table}")
          ? text.replace(text.find("t: {from: table}"), 16, "t: {form: table}")
          : text);
  CHECK(bad.messages() ==
        std::vector<std::string>{
            "28:10: error: parameter 't' needs 'from:', the list it is chosen from",
            "28:11: error: unknown key 'form' in a parameter; did you mean 'from'?"});
}

TEST_CASE("a refusal tells a long list of values by their number and a few of them",
          "[prompt][notation]") {
  auto l = kata::test::load_text(R"(game: Numbers
players: 2
flow: |
  for p in players { choose p: pick }
actions:
  pick:
    params: {n: {from: 1..30, doc: how many}}
scoring:
  score: 0
)");
  REQUIRE(l.messages().empty());
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::string why;
  CHECK_FALSE(kata::read_decision(g, s, "pick 31", why));
  CHECK(why == "'31' is not a choice for how many (30 choices, for example: 1, 2, 3, 4, 5, 6)");
}

TEST_CASE("a menu of one action says what it does, as a menu of several does under each heading",
          "[prompt][menu]") {
  std::string text = guards("set");
  const std::string plain = "  deploy:\n    params";
  text.replace(text.find(plain), plain.size(),
               "  deploy:\n    doc: Put a unit face down beside a tile. It fights there later.\n    params");
  auto l = kata::test::load_text(text);
  REQUIRE(l.game);
  kata::State s = kata::new_game(*l.game, 2, 1, kata::default_options(*l.game));
  std::vector<std::string> labels = kata::test::legal_texts(*l.game, s);
  kata::Menu whole(kata::menu_items(*l.game, kata::make_view(*l.game, s, 0), labels));
  CHECK(whole.show().rfind("Put a unit face down beside a tile. (deploy):\n   1) deploy P1 Lord North\n", 0) == 0);
  // Walked one parameter at a time, too.
  kata::Menu walked(kata::menu_items(*l.game, kata::make_view(*l.game, s, 0), labels), 2);
  CHECK(walked.show().rfind("Put a unit face down beside a tile. (deploy):\n", 0) == 0);
  // Without a doc there is nothing to add to the action's name.
  auto bare = kata::test::load_text(guards("set"));
  REQUIRE(bare.game);
  kata::Menu none(kata::menu_items(*bare.game, kata::make_view(*bare.game, s, 0), labels));
  CHECK(none.show().rfind("   1) deploy P1 Lord North\n", 0) == 0);
}
