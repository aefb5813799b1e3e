// Nothing a seat is told may depend on what it cannot know: the identity or the order of
// the cards it cannot see (docs/language.md, "What a seat is told"). For every rule file in
// rules/, a game is played to a random point; there a second game is made that differs
// from it only in what one seat X cannot know: the cards X cannot see are renamed among
// themselves (which card lies where, and so in what order hidden cards sit in a stack, a
// hand or a deck), kind by kind. Both games then go on with the same decisions (the others'
// renamed; X's the same item of its menu), and X must be told byte for byte the same: its
// view and screen, its menu, why a start of a decision it types is refused, the notation of
// the others' decisions and every event.
//
// The comparison runs while the two games stay the same up to the renaming. It stops where
// they may rightly differ for X: a renamed card comes into X's sight, or the rules read a
// hidden card so that the games part (a decision legal in one is not in the other, or the
// states are no longer the same up to the renaming).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "agents/runner.hpp"
#include "agents/typed.hpp"
#include "log/log.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::random_options;
using kata::test::renamed_in_sight;
using kata::test::same_but_locals;

namespace {

const std::vector<std::shared_ptr<const Game>>& games() { return kata::test::rule_games(); }

// A renaming of the cards `viewer` cannot see, among cards of the same kind (so that each
// card's component variables go with it). to[c] is c's name in the other game.
// Either all of them at random, or two only: a renaming of many cards soon meets a rule
// that reads one (a face-down card and a face-up one swapped), so a swap of two makes the
// twins last longer.
std::vector<int> hidden_renaming(const Game& g, const State& s, int viewer, uint64_t seed, bool all) {
  std::vector<int> to(g.card_count);
  for (int c = 0; c < g.card_count; ++c) to[c] = c;
  std::vector<std::vector<int>> hidden;
  for (const KindInfo& k : g.kinds) {
    hidden.emplace_back();
    for (int c = k.first_card; c < k.first_card + k.card_count; ++c)
      if (s[g.layout.card_zone + c] >= 0 && !visible(g, s, viewer, c)) hidden.back().push_back(c);
  }
  if (!all) {
    std::vector<int> kinds;
    for (size_t k = 0; k < hidden.size(); ++k)
      if (hidden[k].size() > 1) kinds.push_back(static_cast<int>(k));
    if (kinds.empty()) return to;
    const std::vector<int>& h = hidden[kinds[uniform(seed, static_cast<uint32_t>(kinds.size()))]];
    int x = h[uniform(seed, static_cast<uint32_t>(h.size()))], y = x;
    while (y == x) y = h[uniform(seed, static_cast<uint32_t>(h.size()))];
    std::swap(to[x], to[y]);
    return to;
  }
  for (const std::vector<int>& h : hidden) {
    std::vector<int> image = h;
    for (size_t i = image.size(); i > 1; --i) std::swap(image[i - 1], image[uniform(seed, static_cast<uint32_t>(i))]);
    for (size_t i = 0; i < h.size(); ++i) to[h[i]] = image[i];
  }
  return to;
}

// A set keeps its cards in card order, whatever order they came in.
bool sets_in_card_order(const Game& g, const State& s) {
  for (size_t z = 0; z < g.instance_zone.size(); ++z) {
    const int32_t* cs = s.slots.data() + g.layout.zone_cards + static_cast<int>(z) * g.card_count;
    if (g.instance_set[z] && !std::is_sorted(cs, cs + s[g.layout.zone_size + static_cast<int>(z)])) return false;
  }
  return true;
}

// Whether an event showed `viewer` a renamed card (it may be out of sight again after).
bool renamed_shown(const std::vector<Event>& events, int viewer, const std::vector<int>& to) {
  for (const Event& e : events)
    if (e.card >= 0 && to[e.card] != e.card && ((e.seen_by >> viewer) & 1u)) return true;
  return false;
}

// Each event alone, and as they are told together; and whether a message of the decision's
// effect tells it (told_by_message: then neither its notation nor the moves the message
// tells are told again), which must depend only on what the viewer is shown too.
std::vector<std::string> told(const Game& g, const std::vector<Event>& events, int viewer) {
  std::vector<std::string> out;
  out.push_back(told_by_message(g, events, viewer) ? "decision told by a message" : "decision told by its notation");
  for (const Event& e : events)
    if (std::string line = describe_event(g, e, viewer); !line.empty()) out.push_back(line);
  for (std::string& line : describe_events(g, events, viewer)) out.push_back("told: " + line);
  return out;
}

std::vector<std::string> menu(const Game& g, const State& s, const std::vector<Decision>& legal) {
  std::vector<std::string> out;
  for (const Decision& d : legal) out.push_back(decision_text(g, s, d));
  return out;
}

// The items of the terminal's menu, with the decisions each stands for.
std::vector<std::pair<std::string, std::vector<int>>> human_menu(const Game& g, const State& s,
                                                                 const std::vector<Decision>& legal, int viewer) {
  std::vector<std::pair<std::string, std::vector<int>>> out;
  for (const MenuItem& item : menu_items(g, make_view(g, s, viewer), menu(g, s, legal)))
    out.emplace_back(item.text(), item.decisions);
  return out;
}

// What the chooser is told when it types an action and one value of its first parameter
// (a start that may lead to no legal decision: the refusal then says why, quoting the
// `when:` refusals the next parameter's values meet). At most two values of each action,
// each one the chooser sees.
std::vector<std::string> refusals(const Game& g, const State& s) {
  std::vector<std::string> out;
  int chooser = s.chooser();
  for (int action : g.program.sites[s[Layout::site]].actions) {
    const Action& a = g.program.actions[action];
    if (a.params.size() < 2) continue;
    Decision d;
    d.action = action;
    int tried = 0;
    for (int64_t x : parameter_domain(g, s, d, 0)) {
      if (tried == 2) break;
      if (a.params[0].type == Type::card && !visible(g, s, chooser, static_cast<int>(x))) continue;
      std::string value = a.params[0].type == Type::card ? card_text(g, s, static_cast<int>(x), chooser)
                                                         : value_text(g, a.params[0].type, x);
      out.push_back(refusal_reason(g, s, a.name + " " + value));
      ++tried;
    }
  }
  return out;
}

// What `viewer` sees of a state: its view and its screen.
void same_sight(const Game& g, const State& a, const State& b, int viewer) {
  PlayerView va = make_view(g, a, viewer), vb = make_view(g, b, viewer);
  RC_ASSERT(va == vb);
  RC_ASSERT(describe_view(g, va) == describe_view(g, vb));
  RC_ASSERT(board_svg(g, va) == board_svg(g, vb));
}

struct Outcome {
  int compared = 0;  // decisions after which the two games were compared
  int renamed = 0;   // cards renamed
};

// Plays `a` to a random point, makes its twin, and plays both while they may not differ
// for `viewer`, asserting that the viewer is told the same.
Outcome play_twins(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options, int lead_in,
                   bool rename_all) {
  std::vector<Event> ea, eb;
  Hooks ha{&ea, nullptr}, hb{&eb, nullptr};
  State a = new_game(g, players, seed, options, &ha);
  uint64_t rng = seed ^ 0x5bd1e995u;
  std::vector<Decision> la, lb;
  for (int i = 0; i < lead_in && !a.over(); ++i) {
    legal_decisions(g, a, la);
    apply(g, a, la[uniform(rng, static_cast<uint32_t>(la.size()))], &ha);
  }
  Outcome out;
  if (a.over()) return out;
  int viewer = static_cast<int>(uniform(rng, static_cast<uint32_t>(players)));
  std::vector<int> to = hidden_renaming(g, a, viewer, rng, rename_all);
  for (int c = 0; c < g.card_count; ++c) out.renamed += to[c] != c;
  // Nothing hidden from the viewer here (chess hides nothing): the twin is the game itself.
  if (out.renamed == 0) return out;
  State b = rename_cards(g, a, to);
  RC_ASSERT(rename_cards(g, a, to) == b);
  same_sight(g, a, b, viewer);
  while (!a.over()) {
    legal_decisions(g, a, la);
    try {
      legal_decisions(g, b, lb);
    } catch (const RuntimeError&) {
      break;  // the twin is a state the rules never reach (a hidden card where none could be)
    }
    int chooser = a.chooser();
    RC_ASSERT(b.chooser() == chooser);
    size_t i = uniform(rng, static_cast<uint32_t>(la.size()));
    Decision da = la[i], db;
    if (chooser == viewer) {
      // The viewer's menu is the same, and it picks the same item of it.
      RC_ASSERT(menu(g, a, la) == menu(g, b, lb));
      // So is the menu a person sees, made from the view and the labels.
      RC_ASSERT(human_menu(g, a, la, viewer) == human_menu(g, b, lb, viewer));
      // And what it is told of a start that may lead nowhere.
      RC_ASSERT(refusals(g, a) == refusals(g, b));
      db = lb[i];
    } else {
      db = rename_cards(g, da, to);
      if (std::find(lb.begin(), lb.end(), db) == lb.end()) break;  // the rules read a hidden card
      RC_ASSERT(decision_text(g, a, da, viewer) == decision_text(g, b, db, viewer));
    }
    ea.clear();
    eb.clear();
    apply(g, a, da, &ha);
    try {
      apply(g, b, db, &hb);
    } catch (const RuntimeError&) {
      break;
    }
    if (!same_but_locals(g, rename_cards(g, a, to), b)) break;  // the rules read a hidden card
    RC_ASSERT(sets_in_card_order(g, a));
    if (renamed_in_sight(g, a, viewer, to) || renamed_shown(ea, viewer, to)) break;
    RC_ASSERT(told(g, ea, viewer) == told(g, eb, viewer));
    same_sight(g, a, b, viewer);
    ++out.compared;
  }
  return out;
}

}  // namespace

TEST_CASE("a seat is told the same in two games that differ only in what it cannot know", "[properties][leaks]") {
  for (const auto& g : games()) {
    INFO(g->path);
    int compared = 0, games_compared = 0, renamed = 0;
    rc::prop(g->path + ": twins", [&, g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      int lead_in = *rc::gen::inRange(0, 40);
      bool rename_all = *rc::gen::arbitrary<bool>();
      Outcome o = play_twins(*g, players, seed, random_options(*g, players), lead_in, rename_all);
      renamed += o.renamed;
      if (o.renamed > 0) compared += o.compared, games_compared += o.compared > 0;
    });
    // Where the game hides cards, the property must have something to compare: cards
    // renamed, and decisions played with the twins apart.
    if (renamed > 0) {
      CHECK(games_compared > kata::test::per_cases(20));
      CHECK(compared > kata::test::per_cases(100));
    }
    if (renamed > 0) std::cout << fmt::format("{}: {} cards renamed, {} games and {} decisions compared\n", g->path, renamed, games_compared, compared);
  }
}

TEST_CASE("what the other seats know changes nothing a seat is shown", "[properties][leaks]") {
  // A seat is not told which cards the others know (a `look` tells it only that a card of
  // a zone was looked at): two states that differ only in the other seats' knowledge must
  // give it the same view, screen, picture and menu. The `*` on a face-down card it knows
  // is its own knowledge alone (docs/language.md §4.4.1).
  for (const auto& g : games()) {
    INFO(g->path);
    int differed = 0, runs = 0;
    rc::prop(g->path + ": others' knowledge", [&, g = g]() {
      ++runs;
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t rng = *rc::gen::arbitrary<uint64_t>();
      State a = new_game(*g, players, rng, random_options(*g, players));
      kata::test::random_steps(*g, a, *rc::gen::inRange(0, 60), rng);
      int viewer = static_cast<int>(uniform(rng, static_cast<uint32_t>(players)));
      // Each card: every other seat knows it, none does, or as before, at random.
      State b = a;
      uint32_t others = ((1u << players) - 1) & ~(1u << viewer);
      for (int c = 0; c < g->card_count; ++c) {
        int32_t& known = b.slots[g->layout.card_known + c];
        switch (uniform(rng, 3)) {
          case 0: known |= static_cast<int32_t>(others); break;
          case 1: known &= ~static_cast<int32_t>(others); break;
          default: break;
        }
      }
      differed += !(a == b);
      PlayerView va = make_view(*g, a, viewer), vb = make_view(*g, b, viewer);
      RC_ASSERT(va == vb);
      RC_ASSERT(describe_view(*g, va) == describe_view(*g, vb));
      RC_ASSERT(board_svg(*g, va) == board_svg(*g, vb));
      if (a.status() == Status::waiting && a.chooser() == viewer) {
        std::vector<Decision> la, lb;
        legal_decisions(*g, a, la);
        legal_decisions(*g, b, lb);
        RC_ASSERT(menu(*g, a, la) == menu(*g, b, lb));
        RC_ASSERT(human_menu(*g, a, la, viewer) == human_menu(*g, b, lb, viewer));
      }
    });
    // Each game's property is a section of its own: checked where it ran.
    if (runs > 0) CHECK(differed > 0);
  }
}

TEST_CASE("renaming the cards a seat cannot see changes nothing it is shown now", "[leaks]") {
  // The twin made at a point is the same as its original to the seat; a renaming of
  // nothing is the original itself.
  for (const auto& g : games()) {
    INFO(g->path);
    State s = new_game(*g, g->min_players, 3, default_options(*g));
    std::vector<int> same(g->card_count);
    for (int c = 0; c < g->card_count; ++c) same[c] = c;
    CHECK(rename_cards(*g, s, same) == s);
  }
}

TEST_CASE("Kenjin: a face-down deployment is not named by its place in the hand", "[leaks]") {
  // The case: P2's hand starts in the rule file's order and is never shuffled, so
  // "P2.hand#1" named P2's Lord to P1. Two games that differ only in which card P2 deploys
  // face down must read the same to P1 and P3.
  auto l = kata::test::load_file("rules/kenjin.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 3, 11, default_options(g));
  std::vector<Decision> legal;
  while (s.chooser() != 1) {
    legal_decisions(g, s, legal);
    apply(g, s, legal.front());
  }
  legal_decisions(g, s, legal);
  // P2's Lord or P2's Brute, both secret units, deployed face down on the same battlefield.
  auto deploy = [&](const std::string& card) {
    for (const Decision& d : legal)
      if (g.program.actions[d.action].name == "deploy" && g.card_names[d.args[0]] == card) return d;
    FAIL("no deployment of " << card);
    return Decision{};
  };
  std::vector<Decision> secret = {deploy("P2 Lord"), deploy("P2 Brute")};
  secret[1].args[1] = secret[0].args[1];
  for (int viewer : {0, 2}) {
    std::string one = decision_text(g, s, secret[0], viewer), two = decision_text(g, s, secret[1], viewer);
    CHECK(one == two);
    CHECK(one.find("a card from P2.hand") != std::string::npos);
    CHECK(one.find('#') == std::string::npos);
  }
  // P2 itself reads its own cards by name.
  CHECK(decision_text(g, s, secret[0], 1) != decision_text(g, s, secret[1], 1));
  // What the others are told of the move and see afterwards is the same too.
  for (int viewer : {0, 2}) {
    State one = s, two = s;
    std::vector<Event> e1, e2;
    Hooks h1{&e1, nullptr}, h2{&e2, nullptr};
    apply(g, one, secret[0], &h1);
    apply(g, two, secret[1], &h2);
    CHECK(told(g, e1, viewer) == told(g, e2, viewer));
    CHECK(describe_view(g, make_view(g, one, viewer)) == describe_view(g, make_view(g, two, viewer)));
  }
}

namespace {

// A random player that keeps every line it is told.
class Listener : public Agent {
 public:
  explicit Listener(uint64_t seed) : rng_(seed) {}
  std::string kind() const override { return "random"; }
  Choice choose(const Game&, const PlayerView&, const std::vector<std::string>&, int count) override {
    return {static_cast<int>(uniform(rng_, static_cast<uint32_t>(count))), {}};
  }
  void observe(const std::string& line) override { heard.push_back(line); }
  std::vector<std::string> heard;

 private:
  uint64_t rng_;
};

}  // namespace

TEST_CASE("replay --as shows a seat what it was told during the game, and its own decisions", "[leaks]") {
  for (const auto& g : games()) {
    INFO(g->path);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      int players = g->max_players;
      auto options = default_options(*g);
      std::string path = kata::test::temp(fmt::format("told-{}.jsonl", seed));
      std::vector<std::unique_ptr<Agent>> agents;
      std::vector<Listener*> listeners;
      std::vector<std::string> names;
      for (int p = 0; p < players; ++p) {
        auto l = std::make_unique<Listener>(seed * 31 + p);
        listeners.push_back(l.get());
        agents.push_back(std::move(l));
        names.push_back("random");
      }
      {
        std::ofstream out(path);
        LogWriter log(out);
        log.header(make_header(*g, players, seed, options, names));
        REQUIRE(play_match(*g, players, seed, options, agents, &log).completed);
      }
      for (int viewer = 0; viewer < players; ++viewer) {
        std::shared_ptr<Sources> sources;
        Diagnostics diags;
        ReplayResult r = replay_log(path, viewer, sources, diags);
        REQUIRE(r.ok);
        std::vector<std::string> shown;
        std::string own = seat_name(viewer) + " chose: ";
        for (const std::string& line : r.shown)
          if (line.rfind(own, 0) != 0) shown.push_back(line);
        CHECK(shown == listeners[viewer]->heard);
      }
      std::filesystem::remove(path);
    }
  }
}

// Copies of a card (the same name but for its copy number: four Peasants) are alike on the
// table. Which copy a seat played follows from what it played before, so a copy number
// told to another seat would tell of hidden cards ("P2 Peasant3" face up: two Peasants of
// P2's are down somewhere). Every screen names copies alike: a state whose copies are
// permuted among themselves looks the same to every seat, and so do the next decision and
// what it tells.
TEST_CASE("copies are alike on every screen - permuting a card's copies changes nothing a seat is told", "[leaks]") {
  int tried = 0;
  for (const auto& game : kata::test::rule_games()) {
    const Game& g = *game;
    std::map<std::string, std::vector<int>> copies;
    for (int c = 0; c < g.card_count; ++c) copies[g.card_plain_names[c]].push_back(c);
    if (std::all_of(copies.begin(), copies.end(), [](const auto& kv) { return kv.second.size() < 2; })) continue;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      int players = std::min(std::max(3, g.min_players), g.max_players);
      State a = new_game(g, players, seed, default_options(g));
      uint64_t rng = seed * 7919 + 1;
      kata::test::random_steps(g, a, static_cast<int>(uniform(rng, 80)), rng);
      if (a.status() != Status::waiting) continue;
      std::vector<int> to(static_cast<size_t>(g.card_count));
      for (int c = 0; c < g.card_count; ++c) to[c] = c;
      for (auto& [name, cs] : copies)
        for (size_t i = cs.size(); i > 1; --i) std::swap(to[cs[i - 1]], to[cs[uniform(rng, static_cast<uint32_t>(i))]]);
      State b = rename_cards(g, a, to);
      INFO(g.name << ", seed " << seed << ", after " << a.decisions() << " decisions");
      for (int v = 0; v < players; ++v)
        CHECK(describe_view(g, make_view(g, a, v)) == describe_view(g, make_view(g, b, v)));
      std::vector<Decision> la, lb;
      legal_decisions(g, a, la);
      legal_decisions(g, b, lb);
      Decision da = la[uniform(rng, static_cast<uint32_t>(la.size()))], db = da;
      const Action& act = g.program.actions[da.action];
      for (size_t k = 0; k < act.params.size(); ++k)
        if (act.params[k].type == Type::card && db.args[k] >= 0 && db.args[k] < g.card_count) db.args[k] = to[db.args[k]];
      REQUIRE(std::find(lb.begin(), lb.end(), db) != lb.end());
      for (int v = 0; v < players; ++v)
        if (v != a.chooser()) CHECK(decision_screen_text(g, a, da, v) == decision_screen_text(g, b, db, v));
      std::vector<Event> ea, eb;
      Hooks ha{&ea, nullptr}, hb{&eb, nullptr};
      apply(g, a, da, &ha);
      apply(g, b, db, &hb);
      for (int v = 0; v < players; ++v) CHECK(describe_events(g, ea, v) == describe_events(g, eb, v));
      ++tried;
    }
  }
  CHECK(tried >= 10);
}
