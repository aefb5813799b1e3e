// A state reused from one game to the next (ReusedState, new_game_in): what simulate plays
// and the benchmarks measure must be the game new_game starts, slot for slot where a rule
// can read, whatever games the state held before, interpreted or compiled.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "agents/runner.hpp"
#include "runtime/engine.hpp"
#include "support.hpp"

using namespace kata;

namespace {

// a and b agree on every slot but those of a zone's list past its size (which a reused
// state keeps from its last game); the slots compared are counted into `stale`'s
// complement: `stale` is the number of list slots that differ.
void same_where_read(const Game& g, const State& a, const State& b, int* stale = nullptr) {
  REQUIRE(a.slots.size() == b.slots.size());
  const Layout& l = g.layout;
  int zones = l.zone_cards - l.zone_size;
  for (size_t i = 0; i < a.slots.size(); ++i) {
    int at = static_cast<int>(i);
    if (at >= l.zone_cards && at < l.card_zone) {
      int z = (at - l.zone_cards) / g.card_count, k = (at - l.zone_cards) % g.card_count;
      REQUIRE(z < zones);
      REQUIRE(a.slots[l.zone_size + z] == b.slots[l.zone_size + z]);
      if (k >= a.slots[l.zone_size + z]) {
        // Past the size: any card of the game, never anything else.
        REQUIRE(b.slots[i] >= 0);
        REQUIRE(b.slots[i] < g.card_count);
        if (stale && a.slots[i] != b.slots[i]) ++*stale;
        continue;
      }
    }
    INFO(fmt::format("slot {}", i));
    REQUIRE(a.slots[i] == b.slots[i]);
  }
}

// Cards dealt into hands and played onto a table: `count` cards, and `pad` variables.
std::string dealt(int count, int pad) {
  std::string vars;
  for (int i = 0; i < pad; ++i) vars += fmt::format("  v{}: {{initial: 0}}\n", i);
  return fmt::format(R"(game: Dealt
players: 2
components:
  card:
    each: {{value: 1..{}}}
    in: deck
zones:
  deck: {{visibility: nobody}}
  hand: {{per_player: true, visibility: owner}}
  table: {{visibility: everyone}}
variables:
  last: {{initial: 0}}
{}flow: |
  for p in players {{ move top(deck) to p.hand }}
  repeat 3 times {{ for p in players {{ choose p: play }} }}
actions:
  play:
    params: {{c: player.hand}}
    do: |
      move c to table
      last = c.value
      if size(deck) > 0 {{ move top(deck) to player.hand }}
)",
                     count, vars);
}

}  // namespace

TEST_CASE("a reused state starts and plays each game as a new one, interpreted and compiled", "[runtime][reused]") {
  kata::test::use_test_cache();
  for (const auto& loaded : kata::test::rule_games()) {
    for (const auto& g : {loaded, kata::test::compiled(loaded)}) {
      INFO(g->name << (g->native ? " compiled" : " interpreted"));
      auto options = default_options(*g);
      ReusedState r;
      int stale = 0;
      // The player counts in turn, and seeds far apart: each game starts where the last
      // left its cards, at another count of seats.
      for (uint64_t i = 0; i < 24; ++i) {
        int players = g->min_players + static_cast<int>(i % static_cast<uint64_t>(g->max_players - g->min_players + 1));
        uint64_t seed = game_seed(7, i);
        INFO(players << " players, seed " << seed);
        same_where_read(*g, new_game(*g, players, seed, options), new_game_in(r, *g, players, seed, options), &stale);
        State fresh = random_playout(*g, players, seed, options);
        State& again = random_playout(r, *g, players, seed, options);
        same_where_read(*g, fresh, again, &stale);
        CHECK(scores(*g, fresh) == scores(*g, again));
        CHECK(winners(fresh) == winners(again));
      }
      // The reuse is real: slots past the sizes did keep another game's cards (every rule
      // file moves cards into zones that start empty).
      CHECK(stale > 0);
    }
  }
}

TEST_CASE("a reused state that held another game is written whole", "[runtime][reused]") {
  const auto& games = kata::test::rule_games();
  ReusedState r;
  for (size_t i = 0; i < 2 * games.size(); ++i) {
    const Game& g = *games[(i * 7) % games.size()];
    INFO(g.name);
    auto options = default_options(g);
    random_playout(r, g, g.min_players, i + 1, options);
    // Another game now: its new game is new_game's, past the zones' sizes too.
    const Game& next = *games[(i * 7 + 3) % games.size()];
    CHECK(new_game_in(r, next, next.max_players, i, default_options(next)) ==
          new_game(next, next.max_players, i, default_options(next)));
  }
  // Two games of as many slots, one of fewer cards: the state the first left is not taken
  // for the second's (its lists hold cards the second has not).
  auto big = kata::test::load_text(dealt(20, 0)).game;
  REQUIRE(big);
  std::shared_ptr<const Game> small;
  for (int pad = 0; pad < 200 && !small; ++pad) {
    auto g = kata::test::load_text(dealt(10, pad)).game;
    REQUIRE(g);
    if (g->layout.total == big->layout.total) small = g;
  }
  REQUIRE(small);
  REQUIRE(small->card_count < big->card_count);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    ReusedState t;
    random_playout(t, *big, 2, seed, default_options(*big));
    REQUIRE(t.state.slots.size() == new_game(*small, 2, seed, default_options(*small)).slots.size());
    CHECK(new_game_in(t, *small, 2, seed, default_options(*small)) == new_game(*small, 2, seed, default_options(*small)));
  }
  // Options other than the defaults are set up anew, then reused from.
  for (const auto& g : games) {
    if (g->options.empty()) continue;
    auto options = default_options(*g);
    const OptionInfo& o = g->options[0];
    // Another of its values: a choice, or one within its bounds.
    for (int64_t v : o.choices)
      if (v != o.default_value) options[0] = v;
    if (o.choices.empty()) options[0] = o.default_value < o.max ? o.default_value + 1 : o.default_value - 1;
    if (options[0] == o.default_value || !setup_error(*g, g->max_players, options).empty()) continue;
    ReusedState s;
    random_playout(s, *g, g->max_players, 3, default_options(*g));
    CHECK(new_game_in(s, *g, g->max_players, 4, options) == new_game(*g, g->max_players, 4, options));
    same_where_read(*g, new_game(*g, g->max_players, 5, default_options(*g)),
                    new_game_in(s, *g, g->max_players, 5, default_options(*g)));
  }
}

TEST_CASE("a reused state's runs cover every slot a new game sets, in order, within the state", "[runtime][reused]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->name);
    const Layout& l = g->layout;
    for (const InitialSlots& made : g->initial_slots) {
      if (made.slots.empty()) continue;
      std::vector<bool> covered(made.slots.size(), false);
      int32_t end = 0;
      for (auto [first, count] : made.runs) {
        REQUIRE(count > 0);
        REQUIRE(first >= end);  // in order, apart
        end = first + count;
        REQUIRE(end <= static_cast<int32_t>(made.slots.size()));
        for (int32_t i = first; i < end; ++i) covered[static_cast<size_t>(i)] = true;
      }
      // What must be written: the slots before the lists, each zone's starting cards, the
      // slots after the lists.
      for (int32_t i = 0; i < l.zone_cards; ++i) REQUIRE(covered[static_cast<size_t>(i)]);
      for (int z = 0; z < l.zone_cards - l.zone_size; ++z)
        for (int32_t k = 0; k < made.slots[static_cast<size_t>(l.zone_size + z)]; ++k)
          REQUIRE(covered[static_cast<size_t>(l.zone_cards + z * g->card_count + k)]);
      for (size_t i = static_cast<size_t>(l.card_zone); i < made.slots.size(); ++i) REQUIRE(covered[i]);
      // Fewer runs than zones where zones start empty (the point of the runs).
      CHECK(made.runs.size() <= static_cast<size_t>(l.zone_cards - l.zone_size) + 2);
    }
  }
}
