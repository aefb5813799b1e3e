// The search bots (agents/search.hpp): they cannot peek (two states that differ only in
// what the bot's seat cannot know give the same decision for the same seed), games with
// them are reproducible, and their specs are read and refused as docs/agents.md says.
#include <rapidcheck/catch.h>

#include <catch2/catch.hpp>

#include "agents/runner.hpp"
#include "agents/search.hpp"
#include "support.hpp"

using namespace kata;

namespace {

std::unique_ptr<Agent> bot(const std::string& spec, int seat, uint64_t seed,
                           const Game* g = nullptr) {
  std::istringstream in;
  std::ostringstream out;
  static Terminal t{in, out};
  std::string error;
  auto a = make_agent(spec, seat, seed, t, error, g);
  INFO(error);
  REQUIRE(a);
  return a;
}

}  // namespace

TEST_CASE("a bot cannot peek: what its seat cannot know does not change its decision",
          "[properties][search]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    int differed = 0, runs = 0;
    rc::prop(g->path + ": twins decide alike", [&, g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      int lead_in = *rc::gen::inRange(0, 40);
      State s = new_game(*g, players, seed, kata::test::random_options(*g, players));
      uint64_t rng = seed ^ 0x5bd1e995u;
      kata::test::random_steps(*g, s, lead_in, rng);
      RC_PRE(!s.over());
      ++runs;
      int seat = s.chooser();
      State twin = kata::test::rename(*g, s, kata::test::hidden_renaming(*g, s, seat, rng));
      differed += twin != s;
      InfoSet a(*g, s, seat), b(*g, twin, seat);
      uint64_t ra = rng, rb = rng;
      RC_ASSERT(search_decision(a, {20, 0}, ra) == search_decision(b, {20, 0}, rb));
      RC_ASSERT(greedy_decision(a, ra) == greedy_decision(b, rb));
    });
    // (Catch runs the test case once for each property: only one of them counted here.)
    if (runs > 0 && hides_information(*g)) CHECK(differed > kata::test::per_cases(20));
  }
}

TEST_CASE("a game between search bots is reproducible", "[search]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    int players = g->min_players;
    auto play = [&] {
      std::vector<std::unique_ptr<Agent>> agents;
      agents.push_back(bot("ismcts:8", 0, 7));
      agents.push_back(bot("greedy", 1, 7));
      for (int p = 2; p < players; ++p) agents.push_back(bot("random", p, 7));
      MatchResult r = play_match(*g, players, 7, default_options(*g), agents);
      REQUIRE(r.completed);
      return r.final;
    };
    CHECK(play() == play());
  }
}

TEST_CASE("an mcts made without the game stops a game that hides cards at its first decision", "[search]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  std::vector<std::unique_ptr<Agent>> agents;
  agents.push_back(bot("mcts:5", 0, 1));
  for (int p = 1; p < 3; ++p) agents.push_back(bot("random", p, 1));
  MatchResult r = play_match(*l.game, 3, 1, default_options(*l.game), agents);
  CHECK(!r.completed);
  CHECK(r.stopped_by == "P1 (mcts:5) stopped before the end");
}

TEST_CASE("mcts sees everything, so it is refused where cards are hidden unless it cheats",
          "[search]") {
  std::istringstream in;
  std::ostringstream out;
  Terminal t{in, out};
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    std::string error;
    auto fair = make_agent("mcts:50", 0, 1, t, error, g.get());
    if (hides_information(*g)) {
      CHECK(!fair);
      CHECK(error ==
            "agent 'mcts:50': this game hides cards from the players, and mcts would see them; use "
            "ismcts, or mcts:...:cheat for an upper bound that sees every card");
      error.clear();
      CHECK(make_agent("mcts:50:cheat", 0, 1, t, error, g.get()));
    } else {
      CHECK(fair);
    }
    CHECK(error.empty());
  }
  // Kendo's pieces are all in sight; the other three games hide cards.
  int hiding = 0;
  for (const auto& g : kata::test::rule_games()) hiding += hides_information(*g);
  CHECK(hiding == 3);
}

TEST_CASE("search agents' specs", "[search]") {
  std::istringstream in;
  std::ostringstream out;
  Terminal t{in, out};
  std::string error;
  for (const char* good : {"ismcts", "ismcts:1", "ismcts:400", "ismcts:500ms", "mcts",
                           "mcts:9999999", "mcts:20ms:cheat", "mcts:cheat", "greedy"}) {
    error.clear();
    INFO(good);
    auto a = make_agent(good, 0, 1, t, error);
    CHECK(a);
    CHECK(error.empty());
    if (a) CHECK(a->kind() == good);
  }
  auto bad = [&](const std::string& spec) {
    error.clear();
    CHECK(!make_agent(spec, 0, 1, t, error));
    return error;
  };
  CHECK(bad("ismcts:0") ==
        "bad option '0' in agent 'ismcts:0'; write ismcts:N (iterations, 1 to 9999999) or "
        "ismcts:Nms (a time budget "
        "in milliseconds)");
  CHECK(bad("ismcts:10000000") ==
        "bad option '10000000' in agent 'ismcts:10000000'; write ismcts:N (iterations, 1 to "
        "9999999) or ismcts:Nms "
        "(a time budget in milliseconds)");
  CHECK(bad("ismcts:cheat") ==
        "bad option 'cheat' in agent 'ismcts:cheat'; write ismcts:N (iterations, 1 to 9999999) or "
        "ismcts:Nms (a time "
        "budget in milliseconds)");
  CHECK(bad("mcts:5:5") ==
        "bad option '5' in agent 'mcts:5:5'; write mcts:N (iterations, 1 to 9999999) or mcts:Nms "
        "(a time budget in "
        "milliseconds), then :cheat if wanted");
  CHECK(bad("greedy:5") == "agent 'greedy' takes no options (in 'greedy:5')");
  CHECK(bad("ismct") ==
        "unknown agent 'ismct'; did you mean 'ismcts'? the agents are human, random, script:FILE, "
        "ismcts[:N], mcts[:N], greedy");
}
