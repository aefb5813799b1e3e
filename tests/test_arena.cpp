// Bots against each other: the statistics (agents/stats.hpp) on known values, the seating
// of `kata arena --rotate`, and `kata arena` and `kata simulate --agents` driven from the
// command line: determinism for any --jobs, the JSON shape, and the errors for bad agents.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "agents/runner.hpp"
#include "agents/stats.hpp"
#include "support.hpp"

using namespace kata;
using namespace kata::test;

namespace {

constexpr double z2 = z95 * z95;

}  // namespace

TEST_CASE("the Wilson interval on known values", "[stats]") {
  Interval none = wilson_interval(0, 0);
  CHECK(none.low == 0);
  CHECK(none.high == 1);
  Interval zero = wilson_interval(0, 10);
  CHECK(zero.low == 0);
  CHECK(zero.high == Approx(z2 / (10 + z2)));  // 0.2775
  CHECK(zero.high == Approx(0.27753).epsilon(1e-4));
  Interval all = wilson_interval(10, 10);
  CHECK(all.low == Approx(10 / (10 + z2)));  // 0.7225
  CHECK(all.high == 1);
  Interval half = wilson_interval(50, 100);
  CHECK(half.low == Approx(0.40383).epsilon(1e-4));
  CHECK(half.high == Approx(0.59617).epsilon(1e-4));
  // A shared win counts a fraction; the interval is the same formula.
  Interval third = wilson_interval(133.5, 400);
  CHECK(third.low < 133.5 / 400);
  CHECK(third.high > 133.5 / 400);
  CHECK(third.high - third.low == Approx(0.0922).epsilon(1e-2));
}

TEST_CASE("a shared win is split and a summary keeps mean, spread and extremes", "[stats]") {
  CHECK(win_share(0b101, 0) == 0.5);
  CHECK(win_share(0b101, 1) == 0);
  CHECK(win_share(0b100, 2) == 1);
  CHECK(win_share(0, 0) == 0);
  Summary s;
  CHECK(s.mean() == 0);
  CHECK(s.stdev() == 0);
  for (double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.add(v);
  CHECK(s.count == 8);
  CHECK(s.mean() == 5);
  CHECK(s.stdev() == 2);
  CHECK(s.min == 2);
  CHECK(s.max == 9);
}

TEST_CASE("arena rotation seats each agent at each seat once in any run of as many games as seats",
          "[arena]") {
  for (int players : {2, 3, 5}) {
    for (int first : {0, 7}) {
      std::vector<std::vector<int>> times(players, std::vector<int>(players, 0));  // agent, seat
      for (int i = first; i < first + players; ++i) {
        std::vector<bool> used(players, false);
        for (int seat = 0; seat < players; ++seat) {
          int a = seated_agent(i, seat, players, true);
          CHECK(!used[a]);  // one seat each
          used[a] = true;
          ++times[a][seat];
        }
      }
      for (auto& row : times)
        for (int t : row) CHECK(t == 1);
    }
  }
  CHECK(seated_agent(0, 0, 3, true) == 0);
  CHECK(seated_agent(1, 0, 3, true) == 1);
  CHECK(seated_agent(1, 2, 3, true) == 0);
  CHECK(seated_agent(5, 2, 3, false) == 2);
}

TEST_CASE("kata arena counts a search bot's samples that agreed with what it was told", "[arena][cli]") {
  // Hogen: after the set-up (chance), calls and answers are told; every ismcts decision after
  // the first has a history to agree with, with jobs or without.
  std::string common =
      "arena rules/hogen.yaml --agents ismcts:10,random,random --games 3 --seed 3 --rotate --no-timing --json";
  auto one = run_kata(common + " --jobs 1");
  REQUIRE(one.status == 0);
  CHECK(one.out == run_kata(common + " --jobs 2").out);
  auto j = nlohmann::json::parse(one.out);
  auto& bot = j["agents"][0];
  REQUIRE(bot["agent"] == "ismcts:10");
  int64_t consistent = bot["samples"]["consistent"], fell_back = bot["samples"]["fell_back"];
  CHECK(consistent > 0);
  CHECK(consistent + fell_back <= bot["decisions"].get<int64_t>());
  for (int k = 1; k < 3; ++k) {
    CHECK(j["agents"][k]["samples"]["consistent"] == 0);
    CHECK(j["agents"][k]["samples"]["fell_back"] == 0);
  }
}

TEST_CASE("kata arena is the same for any number of jobs and adds up", "[arena][cli]") {
  std::string common =
      "arena rules/kobayakawa.yaml --agents random,random,random --games 60 --seed 4 --rotate "
      "--no-timing";
  auto one = run_kata(common + " --jobs 1 --json");
  auto two = run_kata(common + " --jobs 2 --json");
  REQUIRE(one.status == 0);
  CHECK(one.out == two.out);
  auto j = nlohmann::json::parse(one.out);
  CHECK(j["game"] == "Kobayakawa");
  CHECK(j["games"] == 60);
  CHECK(j["players"] == 3);
  CHECK(j["rotate"] == true);
  CHECK(j["errors"] == 0);
  REQUIRE(j["agents"].size() == 3);
  double wins = 0;
  int64_t decisions = 0;
  for (auto& a : j["agents"]) {
    CHECK(a["agent"] == "random");
    CHECK(a["games"] == 60);  // every agent plays every game, at some seat
    wins += a["wins"].get<double>();
    decisions += a["decisions"].get<int64_t>();
    CHECK(a["win_rate_95"][0].get<double>() <= a["win_rate"].get<double>());
    CHECK(a["win_rate_95"][1].get<double>() >= a["win_rate"].get<double>());
    CHECK(!a.contains("seconds"));  // --no-timing
    CHECK(!a.contains("decisions_per_second"));
  }
  CHECK(wins == Approx(60));  // Kobayakawa always has a winner; shared wins are split
  CHECK(static_cast<double>(decisions) == Approx(j["length"]["mean"].get<double>() * 60));
  // Enough games that both threads play some (a few dozen random games are over before the
  // second thread starts): each game's agents come from its seed, not from the thread.
  std::string many =
      "arena rules/kobayakawa.yaml -a random,random,random -g 3000 --rotate --no-timing -q";
  CHECK(run_kata(many + " -j 1").out == run_kata(many + " -j 2").out);
  auto text = run_kata(common);
  CHECK(has(text.out, "Kobayakawa: 60 games, 3 players, seed 4, seats rotated\n"));
  CHECK(has(text.out, " 1 random     60 "));
  CHECK(!has(text.out, "decisions/s"));
  auto timed = run_kata("arena rules/kobayakawa.yaml -a random,random,random -g 6 --rotate");
  CHECK(timed.status == 0);
  CHECK(has(timed.out, "decisions/s"));
  auto timed_json = nlohmann::json::parse(
      run_kata("arena rules/kobayakawa.yaml -a random,random,random -g 6 --json").out);
  CHECK(timed_json["agents"][0].contains("decisions_per_second"));
}

TEST_CASE("kata arena without rotation keeps each agent at its seat, with notes and errors",
          "[arena][cli]") {
  auto fixed = run_kata(
      "arena rules/kobayakawa.yaml -a random,random,random,random -g 20 -s 2 --no-timing --json");
  REQUIRE(fixed.status == 0);
  auto sim = nlohmann::json::parse(
      run_kata("simulate rules/kobayakawa.yaml -a random -p 4 -g 20 -s 2 --json").out);
  auto j = nlohmann::json::parse(fixed.out);
  // The same games as simulate with the same agents: agent i is seat i's.
  for (int p = 0; p < 4; ++p) CHECK(j["agents"][p]["wins"] == sim["seats"][p]["wins"]);
  // Games that do not divide evenly among the seats get a note on standard error.
  auto uneven = run_kata("arena rules/kobayakawa.yaml -a random,random,random -g 7 --rotate -q");
  CHECK(uneven.status == 0);
  CHECK(has(uneven.out,
            "kata: note: 7 games are not a multiple of 3 seats: each agent plays each seat 2 or 3 "
            "times\n"));
}

TEST_CASE("kata arena and simulate refuse bad agents with the list of bots", "[arena][cli]") {
  auto human = run_kata("arena rules/kobayakawa.yaml -a random,human,random -g 2");
  CHECK(human.status == 2);
  CHECK(has(human.out,
            "kata: error: agent 'human' cannot play in kata arena: no one is at the terminal to "
            "answer it; the bots are random, script:FILE"));
  auto unknown = run_kata("arena rules/kobayakawa.yaml -a random,randm,random -g 2");
  CHECK(unknown.status == 2);
  CHECK(has(unknown.out,
            "kata: error: unknown agent 'randm'; did you mean 'random'? the bots are random, "
            "script:FILE"));
  auto count = run_kata("arena rules/kobayakawa.yaml -a random,random -p 3 -g 2");
  CHECK(count.status == 2);
  CHECK(has(
      count.out,
      "kata: error: 2 agents (random, random) for 3 players: an arena takes one agent per seat"));
  // Without -p the agents say how many play, within the game's range.
  auto few = run_kata("arena rules/kobayakawa.yaml -a random,random -g 2");
  CHECK(few.status == 2);
  CHECK(has(few.out, "kata: error: "));
  CHECK(run_kata("arena rules/kobayakawa.yaml -g 2").status == 2);  // --agents is required
  CHECK(run_kata("arena rules/kobayakawa.yaml -a random,random,random").status ==
        2);  // so is --games
  CHECK(run_kata("arena rules/kobayakawa.yaml -a random,script:/no/such/file,random -g 2").status ==
        2);
  auto empty = run_kata("arena rules/kobayakawa.yaml -a random,,random -g 2");
  CHECK(empty.status == 2);
  CHECK(has(empty.out, "unknown agent ''"));
  auto sim_human = run_kata("simulate rules/kobayakawa.yaml -a human -g 2");
  CHECK(sim_human.status == 2);
  CHECK(has(sim_human.out, "kata: error: agent 'human' cannot play in kata simulate"));
  auto sim_count = run_kata("simulate rules/kobayakawa.yaml -a random,random -p 4 -g 2");
  CHECK(sim_count.status == 2);
  CHECK(has(
      sim_count.out,
      "kata: error: 2 agents (random, random) for 4 players: give one per seat, or one for all"));
  auto invariants = run_kata("simulate rules/kobayakawa.yaml -a random -g 2 --check-invariants");
  CHECK(invariants.status == 2);
  CHECK(has(invariants.out, "--check-invariants"));
  CHECK(run_kata("arena --help").status == 0);
  CHECK(has(run_kata("arena --help").out, "--no-timing"));
}

TEST_CASE("a game an agent cannot finish is an arena error, exit status 1", "[arena][cli]") {
  std::string script = temp("arena-script.txt", "no such decision\n");
  auto r = run_kata("arena rules/kobayakawa.yaml -a random,random,script:" + script +
                    " -g 3 --rotate --no-timing");
  CHECK(r.status == 1);
  CHECK(has(r.out, "errors: 3\n"));
  CHECK(has(r.out, "  game 1: "));
  CHECK(has(r.out, "is refused"));
}

TEST_CASE("kata simulate --agents is the same for any number of jobs and names each seat's agent",
          "[arena][cli]") {
  std::string common =
      "simulate rules/kobayakawa.yaml --agents random,random,random --games 3000 --seed 5 --json";
  auto one = run_kata(common + " --jobs 1");
  auto two = run_kata(common + " --jobs 2");
  REQUIRE(one.status == 0);
  CHECK(one.out == two.out);
  auto j = nlohmann::json::parse(
      run_kata("simulate rules/kobayakawa.yaml -a random -p 3 -g 60 -s 5 --json").out);
  for (auto& seat : j["seats"]) {
    CHECK(seat["agent"] == "random");
    Interval ci = wilson_interval(seat["wins"].get<double>(), 60);
    CHECK(seat["win_rate_95"][0].get<double>() == ci.low);
    CHECK(seat["win_rate_95"][1].get<double>() == ci.high);
  }
  // The fast path without agents plays other games, and says its seats are random.
  auto fast = nlohmann::json::parse(
      run_kata("simulate rules/kobayakawa.yaml --games 60 --seed 5 --json").out);
  CHECK(fast["seats"][0]["agent"] == "random");
  auto text = run_kata("simulate rules/kobayakawa.yaml -a random -p 3 -g 4");
  CHECK(text.status == 0);
  CHECK(has(text.out, "agents: P1 random, P2 random, P3 random\n"));
  CHECK(!has(run_kata("simulate rules/kobayakawa.yaml -p 3 -g 4").out, "agents:"));
}

TEST_CASE("kata arena's limits: games and jobs at their boundaries", "[arena][cli]") {
  std::string arena = "arena rules/kobayakawa.yaml -a random,random,random --no-timing -q ";
  CHECK(run_kata(arena + "-g 0").status == 2);
  CHECK(run_kata(arena + "-g 100000001").status == 2);
  CHECK(run_kata(arena + "-g 1").status == 0);
  CHECK(run_kata(arena + "-g 1 -j 64").status == 0);
  CHECK(run_kata(arena + "-g 1 -j 65").status == 2);
  CHECK(run_kata(arena + "-g 1 -j 0").status == 2);
  CHECK(run_kata("simulate rules/kobayakawa.yaml -a random -g 1 -j 65").status == 2);
  // As many agents as the game allows players, and no more.
  CHECK(run_kata("arena rules/kobayakawa.yaml -a random,random,random,random,random,random -g 1")
            .status == 0);
  auto seven = run_kata(
      "arena rules/kobayakawa.yaml -a random,random,random,random,random,random,random -g 1");
  CHECK(seven.status == 2);
  CHECK(has(seven.out, "kata: error: "));
  // The first five errors are listed, the others counted.
  std::string script = temp("arena-limit-script.txt", "no such decision\n");
  auto errors =
      run_kata("arena rules/kobayakawa.yaml --no-timing -q -g 7 -a random,random,script:" + script);
  CHECK(errors.status == 1);
  CHECK(has(errors.out, "errors: 7\n"));
  CHECK(has(errors.out, "  game 5: "));
  CHECK(!has(errors.out, "  game 6: "));
}
