// The search bots on a compiled game (interpreter/native/) decide exactly as on the
// interpreted one: on every rule file in rules/, ismcts, mcts and greedy make the same
// decisions and write the same log, in a game whose events are logged (the game
// interpreted, the bots' searches compiled: `kata play --compiled`) and in an arena where
// nothing is recorded (everything compiled: `kata arena --compiled`). Also from the
// command line, for play, simulate and arena.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "agents/runner.hpp"
#include "log/log.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::has;
using kata::test::run_kata;

namespace {

// Every search bot, and random; seat p of round k is played by the (p + k)-th, so that
// in a few rounds each bot plays several seats and meets the others.
const std::vector<std::string> bots = {"ismcts:8", "mcts:8:cheat", "greedy", "random"};

std::vector<std::string> seated(int players, int round) {
  std::vector<std::string> out;
  for (int p = 0; p < players; ++p) out.push_back(bots[(p + round) % bots.size()]);
  return out;
}

std::unique_ptr<Agent> bot(const std::string& spec, int seat, uint64_t seed, std::string& error) {
  static std::istringstream in;
  static std::ostringstream out;
  static Terminal t{in, out};
  return make_agent(spec, seat, seed, t, error);
}

// One game with its log, as `kata play --log` writes it; the log's text.
std::string logged_game(const Game& g, int players, uint64_t seed, const std::vector<std::string>& specs) {
  std::vector<std::unique_ptr<Agent>> agents;
  for (int p = 0; p < players; ++p) {
    std::string error;
    agents.push_back(bot(specs[p], p, seed, error));
    INFO(error);
    REQUIRE(agents.back());
  }
  std::ostringstream text;
  {
    LogWriter log(text);
    auto options = default_options(g);
    log.header(make_header(g, players, seed, options, specs));
    MatchResult r = play_match(g, players, seed, options, agents, &log);
    REQUIRE(r.completed);
  }
  return text.str();
}

}  // namespace

TEST_CASE("search bots decide alike on the compiled game, logged or not, on every rule file",
          "[native][search]") {
  for (const auto& g : kata::test::rule_games()) {
    auto native = kata::test::compiled(g);
    int players = g->min_players;
    // A long game is played by the bots that do not search; their decisions still go
    // through the compiled game's listing and effects (greedy applies each move to look).
    bool cheap = kata::test::long_game(*native);
    for (int round = 0; round < static_cast<int>(bots.size()); ++round) {
      auto specs = cheap ? std::vector<std::string>(players, bots[2 + round % 2]) : seated(players, round);
      if (cheap && round >= 2) break;
      INFO(g->path << ", " << players << " players, round " << round);
      std::string a = logged_game(*g, players, 11 + round, specs);
      std::string b = logged_game(*native, players, 11 + round, specs);
      CHECK(a == b);
      CHECK(has(a, "\"result\""));
    }
    // An arena records nothing: there, whole games run compiled.
    auto specs = cheap ? std::vector<std::string>{"greedy", "random"} : seated(players, 0);
    auto options = default_options(*g);
    ArenaStats x = arena(*g, 4, 5, options, 1, specs, true, bot);
    ArenaStats y = arena(*native, 4, 5, options, 2, specs, true, bot);
    INFO(g->path);
    REQUIRE(x.errors == 0);
    REQUIRE(y.errors == 0);
    CHECK(x.length.mean() == y.length.mean());
    for (size_t e = 0; e < specs.size(); ++e) {
      CHECK(x.entries[e].wins == y.entries[e].wins);
      CHECK(x.entries[e].decisions == y.entries[e].decisions);
      CHECK(x.entries[e].score.mean() == y.entries[e].score.mean());
    }
  }
}

TEST_CASE("play, simulate and arena give the same results with --compiled and search bots",
          "[cli][native][search]") {
  kata::test::use_test_cache();
  std::string plain_log = kata::test::temp("kata-bots-plain.jsonl");
  std::string compiled_log = kata::test::temp("kata-bots-compiled.jsonl");
  auto play = "play rules/kobayakawa.yaml --players 3 --agents ismcts:10,greedy,random --seed 4 -q --log ";
  auto plain = run_kata(play + plain_log);
  auto compiled = run_kata(play + compiled_log + " --compiled");
  INFO(compiled.out);
  CHECK(plain.status == 0);
  CHECK(compiled.status == 0);
  CHECK(plain.out == compiled.out);
  std::ifstream pa(plain_log), pb(compiled_log);
  std::stringstream la, lb;
  la << pa.rdbuf();
  lb << pb.rdbuf();
  CHECK(has(la.str(), "\"result\""));
  CHECK(la.str() == lb.str());
  for (std::string command :
       {"simulate rules/hogen.yaml --games 6 --agents ismcts:10,greedy,random --seed 3 --json",
        "arena rules/kenjin.yaml --games 4 --agents ismcts:10,greedy --rotate --jobs 2 --no-timing --json"}) {
    INFO(command);
    auto a = run_kata(command);
    auto b = run_kata(command + " --compiled");
    CHECK(a.status == 0);
    CHECK(b.status == 0);
    CHECK(a.out == b.out);
  }
}

TEST_CASE("arena and simulate --compiled make their bots for the compiled game, not the one it replaced",
          "[cli][native][search]") {
  // mcts (without :cheat) reads the game it was made for; that game used to be the
  // interpreted one, freed once --compiled replaced it, and game 2 read freed memory.
  kata::test::use_test_cache();
  for (std::string command :
       {"arena rules/kendo.yaml --agents mcts:10,random --games 2 --rotate --seed 2026 --no-timing",
        "simulate rules/kendo.yaml --agents random,mcts:10 --games 2 --seed 2026"}) {
    INFO(command);
    auto plain = run_kata(command + " --json");
    auto compiled = run_kata(command + " --json --compiled");
    CHECK(plain.status == 0);
    CHECK(compiled.status == 0);
    CHECK(plain.out == compiled.out);
  }
}
