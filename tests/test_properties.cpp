// Properties over random games of every rule file in rules/, as OpenSpiel runs one generic
// random-play test over every game: the file's invariants hold in every state, every legal
// decision applies, games end within the file's bound, a copy equals its original, a
// replayed log ends in the same state, and no view reveals a card its player may not see.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <filesystem>
#include <fstream>

#include "agents/runner.hpp"
#include "log/log.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::random_options;

namespace {

struct Loaded {
  std::string path;
  std::shared_ptr<const Game> game;
};

std::vector<Loaded> games() {
  std::vector<Loaded> out;
  for (const auto& g : kata::test::rule_games()) out.push_back({g->path, g});
  return out;
}

void check_invariants(const Game& g, const State& s) {
  for (const Invariant& inv : g.invariants) {
    if (!evaluate(g, s, inv.node)) RC_FAIL("invariant '" + inv.name + "' does not hold");
  }
}

// The state with the identities of the cards hidden from `viewer` permuted among their
// places: a state that player cannot tell from the real one.
State permute_hidden(const Game& g, const State& s, int viewer, uint64_t seed) {
  std::vector<int> places, cards;
  const Layout& l = g.layout;
  for (size_t z = 0; z < g.instance_zone.size(); ++z)
    for (int i = 0; i < s[l.zone_size + static_cast<int>(z)]; ++i) {
      int slot = l.zone_cards + static_cast<int>(z) * g.card_count + i;
      if (!visible(g, s, viewer, s[slot])) {
        places.push_back(slot);
        cards.push_back(s[slot]);
      }
    }
  // Within each kind: a component's kind shows on its back (docs/language.md §4.4).
  std::vector<int> moved = cards;
  for (int kind = 0; kind < static_cast<int>(g.kinds.size()); ++kind) {
    std::vector<size_t> at;
    for (size_t k = 0; k < cards.size(); ++k)
      if (g.card_kind[cards[k]] == kind) at.push_back(k);
    for (size_t i = at.size(); i > 1; --i) std::swap(moved[at[i - 1]], moved[at[uniform(seed, static_cast<uint32_t>(i))]]);
  }
  State t = s;
  for (size_t k = 0; k < places.size(); ++k) {
    int from = cards[k], to = moved[k];
    t.slots[places[k]] = to;
    t.slots[l.card_zone + to] = s[l.card_zone + from];
    t.slots[l.card_face + to] = s[l.card_face + from];
    t.slots[l.card_known + to] = s[l.card_known + from];
  }
  return t;
}

}  // namespace

TEST_CASE("every rule file loads", "[properties]") {
  REQUIRE_FALSE(games().empty());
}

TEST_CASE("random games keep every invariant, apply every legal decision and end in time", "[properties]") {
  for (const auto& [path, g] : games()) {
    INFO(path);
    rc::prop(path + ": random games", [g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      State s = new_game(*g, players, seed, random_options(*g, players));
      check_invariants(*g, s);
      std::vector<Decision> legal;
      while (!s.over()) {
        RC_ASSERT(s.decisions() < g->max_decisions);
        legal_decisions(*g, s, legal);
        RC_ASSERT(!legal.empty());
        // Every legal decision applies without error (on copies), and a copy is equal to
        // its original, before and after the same decision.
        for (const Decision& d : legal) {
          State a = s, b = s;
          RC_ASSERT(a == s);
          apply(*g, a, d);
          apply(*g, b, d);
          RC_ASSERT(a == b);
        }
        size_t k = *rc::gen::inRange<size_t>(0, legal.size());
        apply(*g, s, legal[k]);
        check_invariants(*g, s);
      }
      RC_ASSERT(s.over());
    });
  }
}

TEST_CASE("no view reveals a card its player may not see", "[properties]") {
  for (const auto& [path, g] : games()) {
    INFO(path);
    rc::prop(path + ": views", [g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      State s = new_game(*g, players, seed, random_options(*g, players));
      std::vector<Decision> legal;
      while (!s.over()) {
        for (int viewer = 0; viewer < players; ++viewer) {
          PlayerView v = make_view(*g, s, viewer);
          for (const ZoneView& z : v.zones)
            for (const CardView& c : z.cards) RC_ASSERT(c.card < 0 || visible(*g, s, viewer, c.card));
          // Permuting what the viewer cannot see changes nothing they are shown.
          State t = permute_hidden(*g, s, viewer, seed + viewer);
          RC_ASSERT(make_view(*g, t, viewer) == v);
          RC_ASSERT(describe_view(*g, make_view(*g, t, viewer)) == describe_view(*g, v));
        }
        legal_decisions(*g, s, legal);
        apply(*g, s, legal[*rc::gen::inRange<size_t>(0, legal.size())]);
      }
    });
  }
}

TEST_CASE("a replayed log ends in the same state", "[properties]") {
  for (const auto& [path, g] : games()) {
    INFO(path);
    rc::prop(path + ": replay", [g = g, path = path]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      auto options = random_options(*g, players);
      std::string log_path = kata::test::temp("prop-" + std::to_string(seed) + ".jsonl");
      State final;
      {
        std::ofstream out(log_path);
        LogWriter log(out);
        std::vector<std::unique_ptr<Agent>> agents;
        std::vector<std::string> names;
        for (int p = 0; p < players; ++p) {
          agents.push_back(std::make_unique<RandomAgent>(seed + p));
          names.push_back("random");
        }
        log.header(make_header(*g, players, seed, options, names));
        final = play_match(*g, players, seed, options, agents, &log).final;
      }
      std::shared_ptr<Sources> sources;
      Diagnostics diags;
      ReplayResult r = replay_log(log_path, -1, sources, diags);
      std::filesystem::remove(log_path);
      RC_ASSERT(r.error == "");
      RC_ASSERT(r.ok);
      RC_ASSERT(r.final == final);
    });
  }
}
