// The interpreter against a hand-written native Kobayakawa (bench/native_faithful.cpp)
// that draws its random numbers exactly as the interpreter does: for every seed and player
// count, both must end with the same kamons after the same number of decisions. A
// disagreement means the rule file or the machine does something the rules do not say.
#include <catch2/catch.hpp>

#include "../bench/native_faithful.hpp"
#include "agents/runner.hpp"
#include "support.hpp"

TEST_CASE("rules/kobayakawa.yaml plays exactly like the native implementation", "[twin]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  auto options = kata::default_options(*l.game);
  int compared = 0;
  for (int players = 3; players <= 6; ++players)
    for (uint64_t seed = 1; seed <= 2000; ++seed) {
      kata::State s = kata::random_playout(*l.game, players, seed, options);
      native_faithful::Result r = native_faithful::playout(players, seed);
      auto kamons = kata::scores(*l.game, s);
      INFO("players " << players << ", seed " << seed);
      REQUIRE(s.decisions() == r.decisions);
      for (int p = 0; p < players; ++p) REQUIRE(kamons[p] == r.kamons[p]);
      ++compared;
    }
  CHECK(compared == 8000);
}
