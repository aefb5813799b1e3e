// Strength and speed of the search bots: not a test but a measurement, hidden from ctest
// (tag [.]); run it by hand: kata_tests "[strength]". It plays ismcts:200 (KATA_STRENGTH_BOT
// to change it) in each seat in turn against random bots on every game of rules/, and
// prints its share of wins with a 95% interval beside the random share, and its decisions
// per second. KATA_STRENGTH_GAMES sets the number of games (100), KATA_STRENGTH_ONLY keeps
// the rule files whose path holds it. docs/agents.md gives the figures.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "agents/runner.hpp"
#include "agents/search.hpp"
#include "support.hpp"

using namespace kata;

TEST_CASE("strength of a search bot against random bots", "[.][strength]") {
  const char* env = std::getenv("KATA_STRENGTH_BOT");
  std::string spec = env ? env : "ismcts:200";
  const char* games_env = std::getenv("KATA_STRENGTH_GAMES");
  int games = games_env ? std::atoi(games_env) : 100;
  std::istringstream in;
  std::ostringstream out;
  Terminal t{in, out};
  const char* only = std::getenv("KATA_STRENGTH_ONLY");  // a part of the rule file's path
  for (const auto& g : kata::test::rule_games()) {
    if (only && g->path.find(only) == std::string::npos) continue;
    int players = g->min_players;
    double wins = 0, squares = 0;
    long decisions = 0;
    double seconds = 0;
    for (int i = 0; i < games; ++i) {
      int seat = i % players;
      uint64_t seed = game_seed(2026, static_cast<uint64_t>(i));
      std::vector<std::unique_ptr<Agent>> agents;
      for (int p = 0; p < players; ++p) {
        std::string error;
        agents.push_back(make_agent(p == seat ? spec : "random", p, seed, t, error, g.get()));
        REQUIRE(agents.back());
      }
      // The bot's decisions and the time spent in them.
      struct Timed : Agent {
        std::unique_ptr<Agent> inner;
        long count = 0;
        double seconds = 0;
        std::string kind() const override { return inner->kind(); }
        bool needs_view() const override { return inner->needs_view(); }
        int wants_info_set() const override { return inner->wants_info_set(); }
        void inform(const InfoSet* info) override { inner->inform(info); }
        Choice choose(const Game& g, const PlayerView& v, const std::vector<std::string>& l,
                      int n) override {
          auto start = std::chrono::steady_clock::now();
          Choice c = inner->choose(g, v, l, n);
          seconds +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          ++count;
          return c;
        }
      };
      auto timed = std::make_unique<Timed>();
      timed->inner = std::move(agents[seat]);
      Timed* bot = timed.get();
      agents[seat] = std::move(timed);
      MatchResult r = play_match(*g, players, seed, default_options(*g), agents);
      REQUIRE(r.completed);
      uint32_t w = winners(r.final);
      double share = (w >> seat) & 1u ? 1.0 / __builtin_popcount(w) : 0.0;
      wins += share;
      squares += share * share;
      decisions += bot->count;
      seconds += bot->seconds;
    }
    double mean = wins / games, var = squares / games - mean * mean;
    double half = 1.96 * std::sqrt(var / games);
    std::cout << fmt::format(
        "{} ({} players, {} games): {} wins {:.1f}% +- {:.1f}% (random share {:.1f}%), {} "
        "decisions, "
        "{:.0f} decisions/s\n",
        g->name, players, games, spec, 100 * mean, 100 * half, 100.0 / players, decisions,
        decisions / seconds);
  }
}

TEST_CASE("what a search does at random points of each game", "[.][strength]") {
  // How many of its iterations a determinization's runtime error dropped, and the tree's
  // size: a search that drops most is planning on nothing.
  for (const auto& g : kata::test::rule_games()) {
    SearchStats total;
    int points = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      State s = new_game(*g, g->min_players, seed, default_options(*g));
      uint64_t rng = seed;
      kata::test::random_steps(*g, s, static_cast<int>(seed % 30), rng);
      if (s.over()) continue;
      InfoSet info(*g, s, s.chooser());
      SearchStats st;
      search_decision(info, {100, 0}, rng, &st);
      total.iterations += st.iterations, total.failed += st.failed, total.nodes += st.nodes;
      ++points;
    }
    std::cout << fmt::format("{}: {} points, {} iterations, {} dropped, {} nodes\n", g->name,
                             points, total.iterations, total.failed, total.nodes);
  }
}
