// kata compare (a game played two ways on the same seeds, with paired differences and
// their intervals) and kata check --against (what an edit changed in a rule file's
// structure), with the arithmetic under them: Student's t, paired means and shares.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <utility>

#include "agents/stats.hpp"
#include "support.hpp"

using kata::test::has;
using kata::test::run_kata;
using kata::test::temp;

namespace {

// Two seats take a token each from a pile of six (values 1 to 6); the higher total wins,
// and `bonus` is added to P1's.
const char* coin_rules = R"yaml(game: Coin
players: 2..3
options:
  bonus: {default: 0, min: 0, max: 9}
components:
  token:
    each: {v: 1..6}
    name: "t{v}"
    in: pile
zones:
  pile: {visibility: everyone}
  kept: {per_player: true, visibility: everyone}
flow: |
  for p in players { choose p: take }
actions:
  take:
    params:
      t: {from: pile}
    do: "move t to player.kept"
scoring:
  score: "sum(c.v for c in p.kept) + (if p == P1 then bonus else 0)"
)yaml";

std::string coin_file() {
  return temp("coin.yaml", coin_rules);
}

// The rows of a comparison's JSON: its statistics, actions and components.
std::vector<nlohmann::json> rows(const nlohmann::json& j) {
  std::vector<nlohmann::json> out;
  for (const char* part : {"statistics", "actions", "components"})
    for (const auto& r : j.at(part)) out.push_back(r);
  return out;
}

const nlohmann::json& statistic(const nlohmann::json& j, const std::string& name,
                                const std::string& seat = "") {
  for (const auto& r : j.at("statistics"))
    if (r["statistic"] == name && (seat.empty() || r["seat"] == seat)) return r;
  FAIL("no statistic " << name << " " << seat);
  return j;
}

// What `text` replaced by `by` makes of the coin game's rules.
std::string edited(const std::string& name, const std::string& text, const std::string& by) {
  std::string rules = coin_rules;
  auto at = rules.find(text);
  REQUIRE(at != std::string::npos);
  return temp(name, rules.replace(at, text.size(), by));
}

}  // namespace

TEST_CASE("Student's t quantiles and the incomplete beta function match known values",
          "[compare]") {
  CHECK(kata::incomplete_beta(2, 3, 0.5) == Approx(0.6875).epsilon(1e-12));
  CHECK(kata::incomplete_beta(1, 1, 0.3) == Approx(0.3).epsilon(1e-12));
  CHECK(kata::incomplete_beta(2, 3, 0) == 0);
  CHECK(kata::incomplete_beta(2, 3, 1) == 1);
  // Tables of the t distribution, two-sided 95%.
  CHECK(kata::student_t_quantile(0.05, 1) == Approx(12.706204736175).epsilon(1e-10));
  CHECK(kata::student_t_quantile(0.05, 2) == Approx(4.302652729696).epsilon(1e-10));
  CHECK(kata::student_t_quantile(0.05, 10) == Approx(2.228138851986).epsilon(1e-10));
  CHECK(kata::student_t_quantile(0.05, 30) == Approx(2.042272456301).epsilon(1e-10));
  CHECK(kata::student_t_quantile(0.05, 1e9) == Approx(kata::z95).epsilon(1e-6));
  CHECK(kata::student_t_two_sided(2.2281389, 10) == Approx(0.05).epsilon(1e-6));
  CHECK(kata::student_t_two_sided(0, 10) == 1);
}

TEST_CASE("paired differences: the t interval of the mean difference, and of a share",
          "[compare]") {
  kata::Paired p;
  p.add(1, 2), p.add(2, 4), p.add(3, 5);  // differences 1 2 2
  auto d = p.difference();
  CHECK(p.mean_a() == Approx(2));
  CHECK(p.mean_b() == Approx(11.0 / 3));
  CHECK(d.estimate == Approx(5.0 / 3));
  double half = 4.3026527 * std::sqrt(1.0 / 3) / std::sqrt(3.0);
  CHECK(d.low == Approx(5.0 / 3 - half).epsilon(1e-7));
  CHECK(d.high == Approx(5.0 / 3 + half).epsilon(1e-7));
  CHECK(d.significant());
  // The same on both sides: no difference, and an interval of nothing but 0.
  kata::Paired same;
  for (int v : {3, 1, 4, 1, 5}) same.add(v, v);
  CHECK(same.difference().tested);
  CHECK(same.difference().estimate == 0);
  CHECK(same.difference().p == 1);
  CHECK_FALSE(same.difference().significant());
  // One pair: no interval.
  kata::Paired one;
  one.add(1, 2);
  CHECK_FALSE(one.difference().tested);
  // A share of decisions: chosen 1 of 2 in each game on A, 2 of 2 on B.
  kata::PairedShare s;
  for (int i = 0; i < 10; ++i) s.add(1, 2, i % 5 ? 2 : 1, 2);
  CHECK(s.share_a() == Approx(0.5));
  CHECK(s.share_b() == Approx(0.9));
  CHECK(s.difference().estimate == Approx(0.4));
  CHECK(s.difference().significant());
  kata::PairedShare never;
  never.add(0, 0, 1, 2), never.add(0, 0, 1, 2);
  CHECK_FALSE(never.legal_a());
  CHECK_FALSE(never.difference().tested);
}

TEST_CASE("kata compare of a file with itself: no difference, and the same games",
          "[compare][cli]") {
  // The default spelled out on one side only, and in the other forms of -o.
  for (std::string args :
       {"compare rules/kobayakawa.yaml -g 60 -p 4 -s 5 --a -o centre_kamons=8",
        "compare rules/kobayakawa.yaml -g 60 -p 4 -s 5 --b --option=centre_kamons=8 "
        "-ofinal_stake=2",
        "compare rules/kobayakawa.yaml rules/kobayakawa.yaml -g 60 -p 4 -s 5 -o first_player=1"}) {
    INFO(args);
    auto r = run_kata(args + " --json");
    REQUIRE(r.status == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["pairs"] == 60);
    for (const auto& row : rows(j)) {
      INFO(row.dump());
      CHECK(row["a"] == row["b"]);
      CHECK_FALSE(row["significant"].get<bool>());
      if (!row["difference"].is_null()) CHECK(row["difference"].get<double>() == 0);
    }
    CHECK(j["simulations"]["a"]["seats"] == j["simulations"]["b"]["seats"]);
    CHECK(j["seat_order"]["a"] == j["seat_order"]["b"]);
    auto text = run_kata(args).out;
    CHECK(has(text, "\n0 of "));
    CHECK(has(text, " differences significant at the 5% level"));
  }
  // Each side is what kata simulate reports for it: game i on the same seed as there.
  auto j = nlohmann::json::parse(
      run_kata("compare rules/kobayakawa.yaml -g 40 -p 3 -s 7 --b -o centre_kamons=10 --json").out);
  auto a =
      nlohmann::json::parse(run_kata("simulate rules/kobayakawa.yaml -g 40 -p 3 -s 7 --json").out);
  auto b = nlohmann::json::parse(
      run_kata("simulate rules/kobayakawa.yaml -g 40 -p 3 -s 7 -o centre_kamons=10 --json").out);
  CHECK(j["simulations"]["a"] == a);
  CHECK(j["simulations"]["b"] == b);
  // Each share's counts, over the pairs (here every game), are each side's own.
  for (auto [list_, name_] : {std::pair{"actions", "action"}, {"components", "component"}}) {
    // Named copies: clang 14 lacks C++20's capture of a structured binding in a lambda.
    const char *list = list_, *name = name_;
    auto side_rows = [&](const nlohmann::json& sim) {
      std::map<std::string, std::pair<int64_t, int64_t>> counts;
      for (const auto& row : sim[list]) {
        auto& c = counts[row[name].get<std::string>()];
        c.first += row["chosen"].get<int64_t>(), c.second += row["legal"].get<int64_t>();
      }
      return counts;
    };
    auto on_a = side_rows(a), on_b = side_rows(b);
    REQUIRE_FALSE(j[list].empty());
    for (const auto& row : j[list]) {
      INFO(row.dump());
      std::string n = row[name];
      CHECK(row["method"] == "paired_share");
      CHECK(row["chosen_a"] == on_a[n].first);
      CHECK(row["legal_a"] == on_a[n].second);
      CHECK(row["chosen_b"] == on_b[n].first);
      CHECK(row["legal_b"] == on_b[n].second);
      CHECK(row["a"].get<double>() ==
            Approx(static_cast<double>(on_a[n].first) / static_cast<double>(on_a[n].second)));
    }
  }
  CHECK(j["a"]["options"]["centre_kamons"] == 8);
  CHECK(j["b"]["options"]["centre_kamons"] == 10);
  CHECK(j["b"]["option_arguments"] == nlohmann::json{"centre_kamons=10"});
}

TEST_CASE("kata compare finds a clear difference, in the expected direction", "[compare][cli]") {
  // A bonus for P1: P1 wins more, P2 less, P1 scores exactly 3 more.
  auto j = nlohmann::json::parse(
      run_kata("compare " + coin_file() + " -g 300 --b -o bonus=3 --json").out);
  const auto& p1 = statistic(j, "win_rate", "P1");
  CHECK(p1["significant"].get<bool>());
  CHECK(p1["difference"].get<double>() > 0.15);
  CHECK(p1["difference_95"][0].get<double>() > 0);
  CHECK(p1["method"] == "paired_t");
  const auto& p2 = statistic(j, "win_rate", "P2");
  CHECK(p2["significant"].get<bool>());
  CHECK(p2["difference_95"][1].get<double>() < 0);
  CHECK(statistic(j, "score", "P1")["difference"].get<double>() == Approx(3));
  CHECK(statistic(j, "score", "P2")["difference"].get<double>() == 0);
  CHECK_FALSE(statistic(j, "length")["significant"].get<bool>());
  // More kamons in the centre: more rounds, so longer games.
  auto k = nlohmann::json::parse(run_kata("compare rules/kobayakawa.yaml -g 100 -p 4 --a -o "
                                          "centre_kamons=8 --b -o centre_kamons=12 --json")
                                     .out);
  const auto& length = statistic(k, "length");
  CHECK(length["significant"].get<bool>());
  CHECK(length["difference_95"][0].get<double>() > 0);
  // The text says the same, marked.
  auto text = run_kata("compare " + coin_file() + " -g 300 --b -o bonus=3").out;
  CHECK(has(text, "B: " + coin_file() + " -o bonus=3 (Coin)"));
  CHECK(has(text, "options that differ: bonus 0 -> 3"));
  CHECK(std::regex_search(text, std::regex("\nP1 win rate +[0-9.]+% +[0-9.]+% +\\+[0-9.]+% "
                                           "+\\[\\+[0-9.]+%, \\+[0-9.]+%\\] +[0-9.e<-]+  \\*\n")));
  // The number of threads changes nothing.
  CHECK(run_kata("compare " + coin_file() + " -g 300 --b -o bonus=3 -j 2").out == text);
  // Agents play both sides the same.
  auto agents = run_kata("compare " + coin_file() + " -g 20 -a random --b -o bonus=3 --json");
  CHECK(agents.status == 0);
  CHECK(nlohmann::json::parse(agents.out)["agents"] == nlohmann::json{"random", "random"});
}

TEST_CASE("kata compare refuses bad input with a clear error and status 2", "[compare][cli]") {
  struct Case {
    std::string args, says;
  };
  std::string coin = coin_file();
  for (const Case& c : {
           Case{"compare rules/kobayakawa.yaml /no/such.yaml -g 5",
                "kata: error: cannot read '/no/such.yaml'\n"
                "kata: note: setting up B (/no/such.yaml)"},
           Case{"compare " + coin + " -g 5 --a -o nope=1",
                "kata: error: unknown option 'nope'; the options of Coin are bonus\n"
                "kata: note: setting up A (" +
                    coin + " -o nope=1)"},
           Case{"compare " + coin + " -g 5 --b -o bonus=99",
                "kata: note: setting up B (" + coin + " -o bonus=99)"},
           Case{"compare " + coin + " rules/kobayakawa.yaml -g 5",
                "kata: error: A (Coin) is for 2 to 3 players and B (Kobayakawa) for 3 to 6 players: choose "
                "a "
                "player count both allow with --players (3)"},
           Case{"compare rules/tictactoe.yaml rules/kobayakawa.yaml -g 5",
                "no player count is allowed by both"},
           Case{"compare " + coin + " rules/kobayakawa.yaml -g 5 -p 5", "kata: note: setting up A"},
           Case{"compare " + coin + " " + coin + " " + coin + " -g 5", "kata: error: "},
           Case{"compare " + coin + " -g 5 -a random,random,random",
                "3 agents (random, random, random) for 2 players"},
           Case{"compare " + coin + " -g 5 -a human", "no one is at the terminal"},
           Case{"compare " + coin, "--games is required"},
       }) {
    INFO(c.args);
    auto r = run_kata(c.args);
    CHECK(r.status == 2);
    CHECK(has(r.out, c.says));
  }
  // A rule file with errors is the input's fault: 1.
  auto broken = run_kata(
      "compare " + temp("broken.yaml", "game: Broken\nplayers: 2\nflow: |\n  nope\n") + " -g 5");
  CHECK(broken.status == 1);
  CHECK(has(broken.out, "broken.yaml:4:"));
  // The same player count on both sides is fine.
  CHECK(run_kata("compare " + coin + " rules/kobayakawa.yaml -g 5 -p 3").status == 0);
  auto help = run_kata("compare --help");
  CHECK(help.status == 0);
  for (const char* part :
       {"--a-option", "--b-option", "--games", "--agents", "--json", "Exit status: 0 success"})
    CHECK(has(help.out, part));
}

TEST_CASE("kata check --against lists what an edit changed, where", "[compare][cli]") {
  std::string old = coin_file();
  auto same = run_kata("check --against " + old + " " +
                       edited("same.yaml", "players: 2..3", "players: 2..3  # the same"));
  CHECK(same.status == 0);
  CHECK(has(same.out, "no structural changes from " + old + " to "));
  CHECK(has(same.out, ": ok (Coin, 2 to 3 players, 0 warnings)"));

  // An option's default, a card, an action added, a zone removed, a condition and a score.
  std::string rules = coin_rules;
  auto swap = [&](const std::string& from, const std::string& to) {
    auto at = rules.find(from);
    REQUIRE(at != std::string::npos);
    rules.replace(at, from.size(), to);
  };
  swap("bonus: {default: 0,", "bonus: {default: 2,");
  swap("each: {v: 1..6}", "each: {v: 1..7}");
  swap("  kept: {per_player: true, visibility: everyone}\n",
       "  kept: {per_player: true, visibility: everyone}\n  box: {visibility: nobody}\n");
  swap("  take:\n    params:",
       "  pass:\n    do: \"\"\n  take:\n    when:\n      - {if: \"size(pile) > 0\"}\n    params:");
  swap("choose p: take", "choose p: take | pass");
  swap("else 0)", "else 1)");
  std::string now = temp("changed.yaml", rules);
  auto r = run_kata("check --against " + old + " " + now);
  CHECK(r.status == 0);
  CHECK(has(r.out,
            "8 structural changes from " + old + " to " + now + ":\n" + now +
                ":4:20: option 'bonus' changed: default 0 -> 2\n" + now +
                ":6:3: component 'token' changed: cards 6 -> 7\n" + now +
                ":7:15: card 't7' of 'token' added: v 7\n" + now + ":13:3: zone 'box' added\n" +
                now + ":17:3: action 'pass' added\n" + now +
                ":21:14: action 'take' changed: when 1 'size(pile) > 0' added\n" + now +
                ":26:10: scoring changed: score 'sum(c.v for c in p.kept) + (if p == P1 then bonus "
                "else 0)' -> 'sum(c.v for c in p.kept) + (if p == P1 then bonus else 1)'\n"));
  CHECK(has(r.out, now + ":14:7: flow changed: text 'for p in players { choose p: take }' -> 'for "
                         "p in players { choose p: take | pass }'\n"));
  // What was removed is shown where it was, in the old file; a condition taken away, at
  // its action in the new one.
  auto back = run_kata("check --against " + now + " " + old);
  CHECK(has(back.out, old + ":16:3: action 'take' changed: when 1 'size(pile) > 0' removed\n"));
  CHECK(has(back.out, now + ":13:3: zone 'box' removed\n"));
  CHECK(has(back.out, now + ":17:3: action 'pass' removed\n"));
  CHECK(has(back.out, now + ":7:15: card 't7' of 'token' removed: v 7\n"));
  auto j = nlohmann::json::parse(run_kata("check --json --against " + old + " " + now).out);
  CHECK(j["old"] == old);
  CHECK(j["new"] == now);
  CHECK(j["changes"].size() == 8);
  CHECK(j["changes"][0] == nlohmann::json{{"change", "changed"},
                                          {"what", "option"},
                                          {"name", "bonus"},
                                          {"component", nullptr},
                                          {"details", {"default 0 -> 2"}},
                                          {"file", now},
                                          {"line", 4},
                                          {"column", 20}});
  // The new file's diagnostics, as kata check --json gives them: the new zone is unused.
  REQUIRE(j["diagnostics"].size() == 1);
  CHECK(j["diagnostics"][0]["message"] == "zone 'box' is never used");
  // Players, a variable, a parameter's domain.
  std::string vars =
      edited("vars.yaml", "players: 2..3\n", "players: 2..4\nvariables:\n  round: {initial: 1}\n");
  auto v = run_kata("check --against " + old + " " + vars);
  CHECK(has(v.out, vars + ":2:10: game changed: players 2-3 -> 2-4\n"));
  CHECK(has(v.out, vars + ":4:3: variable 'round' added\n"));
  std::string domain = edited("domain.yaml", "t: {from: pile}", "t: {from: player.kept}");
  CHECK(has(run_kata("check --against " + old + " " + domain).out,
            "action 'take' changed: parameters (t in pile) -> (t in player.kept)"));
}

TEST_CASE("kata check --against refuses what it cannot compare", "[compare][cli]") {
  std::string coin = coin_file();
  auto missing = run_kata("check --against /no/such.yaml " + coin);
  CHECK(missing.status == 2);
  CHECK(has(missing.out, "/no/such.yaml"));
  auto two = run_kata("check --against " + coin + " " + coin + " " + coin);
  CHECK(two.status == 2);
  CHECK(has(two.out, "kata check --against OLD takes one rule file, the new one"));
  auto bad_old = run_kata("check --against " + temp("bad-old.yaml", "game: [\n") + " " + coin);
  CHECK(bad_old.status == 1);
  CHECK(has(bad_old.out, "has errors; nothing was compared"));
  // A new file with errors: its changes, its errors, status 1.
  auto bad_new =
      run_kata("check --against " + coin + " " + edited("bad-new.yaml", "move t to", "move t too"));
  CHECK(bad_new.status == 1);
  CHECK(has(bad_new.out, "bad-new.yaml:19:19: error: expected 'to' and a zone"));
  CHECK(has(bad_new.out,
            "action 'take' changed: effect 'move t to player.kept' -> 'move t too player.kept'"));
}
