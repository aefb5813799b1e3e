// The designer's statistics of kata simulate, and kata simulate --shard with kata merge:
// the parts of a run, merged, are the whole run byte for byte; merge refuses what is not
// one run's parts with a clear error.
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "agents/balance.hpp"
#include "agents/stats.hpp"
#include "support.hpp"

using kata::test::has;
using kata::test::run_kata;
using kata::test::temp;

namespace {

// `simulate ARGS --shard i/n --json` for i = 1..n, each in a file of its own.
std::vector<std::string> shards(const std::string& args, int n, const std::string& name) {
  std::vector<std::string> files;
  for (int i = 1; i <= n; ++i) {
    auto r = run_kata(args + " --json --shard " + std::to_string(i) + "/" + std::to_string(n));
    REQUIRE(r.status == 0);
    files.push_back(temp(name + "-" + std::to_string(i) + ".json", r.out));
  }
  return files;
}

std::string joined(const std::vector<std::string>& files) {
  std::string out;
  for (auto& f : files) out += " " + f;
  return out;
}

}  // namespace

TEST_CASE("counts give exact means, spreads and quantiles", "[workbench]") {
  kata::Counts c{{1, 2}, {3, 1}, {10, 1}};  // 1 1 3 10
  CHECK(kata::total(c) == 4);
  CHECK(kata::mean(c) == 3.75);
  CHECK(kata::stdev(c) == Approx(3.6996621).epsilon(1e-7));
  CHECK(kata::quantile(c, 0) == 1);
  CHECK(kata::quantile(c, 0.25) == 1);
  CHECK(kata::quantile(c, 0.5) == 1);
  CHECK(kata::quantile(c, 0.75) == 3);
  CHECK(kata::quantile(c, 1) == 10);
  CHECK(kata::quantile({}, 0.5) == 0);
  kata::Counts more{{3, 1}, {-2, 1}};
  kata::add_counts(c, more);
  CHECK(c == kata::Counts{{-2, 1}, {1, 2}, {3, 2}, {10, 1}});
}

TEST_CASE("kata merge of the shards of a run is the whole run, byte for byte", "[workbench][cli]") {
  struct Case {
    std::string args, name;
  };
  for (const Case& c :
       {Case{"simulate rules/kobayakawa.yaml -g 50 -p 4 -s 11", "koba"},
        Case{"simulate rules/hogen.yaml -g 40 -p 3 -s 5", "hogen"},
        Case{"simulate rules/tictactoe.yaml -g 61 -s 2", "ttt"},
        Case{"simulate rules/kobayakawa.yaml -g 13 -p 3 -s 4 -a random", "agents"}}) {
    INFO(c.args);
    auto whole = run_kata(c.args + " --json");
    REQUIRE(whole.status == 0);
    auto files = shards(c.args, 3, c.name);
    // In any order.
    auto merged = run_kata("merge --json" + joined({files[2], files[0], files[1]}));
    CHECK(merged.status == 0);
    CHECK(merged.out == whole.out);
    CHECK(run_kata("merge" + joined(files)).out == run_kata(c.args).out);
  }
  // More shards than games: some play none, and still merge.
  auto whole = run_kata("simulate rules/tictactoe.yaml -g 2 -s 3 --json");
  auto files = shards("simulate rules/tictactoe.yaml -g 2 -s 3", 3, "few");
  CHECK(run_kata("merge --json" + joined(files)).out == whole.out);
  // A shard says which it is, in text and JSON.
  auto part = run_kata("simulate rules/tictactoe.yaml -g 10 --shard 2/3");
  CHECK(has(part.out, "shard 2/3 of 10 games (3 played)"));
  auto j =
      nlohmann::json::parse(run_kata("simulate rules/tictactoe.yaml -g 10 --shard 2/3 --json").out);
  CHECK(j["games"] == 3);
  CHECK(j["shard"] == nlohmann::json{{"index", 2}, {"count", 3}, {"run_games", 10}});
}

TEST_CASE("kata merge refuses what is not the shards of one run", "[workbench][cli]") {
  auto a = shards("simulate rules/tictactoe.yaml -g 20 -s 1", 2, "one");
  auto seed = shards("simulate rules/tictactoe.yaml -g 20 -s 2", 2, "seed");
  auto file = shards("simulate rules/connect4.yaml -g 20 -s 1", 2, "file");
  auto agents = shards("simulate rules/tictactoe.yaml -g 20 -s 1 -a random", 2, "agents");
  auto more = shards("simulate rules/tictactoe.yaml -g 21 -s 1", 2, "more");
  auto three = shards("simulate rules/tictactoe.yaml -g 20 -s 1", 3, "three");
  struct Case {
    std::string files, message;
  };
  for (const Case& c : {
           Case{a[0] + " " + seed[1], "are not shards of one run: their seeds differ"},
           Case{a[0] + " " + file[1], "are not shards of one run: their rule files differ"},
           Case{a[0] + " " + agents[1], "are not shards of one run: their agents differ"},
           Case{a[0] + " " + more[1], "are not shards of one run: their numbers of games differ"},
           Case{a[0] + " " + three[1], "are not shards of one run: their numbers of shards differ"},
           Case{a[0] + " " + a[0], "are the same shard (1/2)"},
           Case{a[1], "1 shard of the run is missing: 1/2"},
           Case{three[2], "2 shards of the run are missing: 1/3, 2/3"},
           Case{temp("bad.json", "{\"counts\": "), "it is not JSON: "},
           Case{temp("array.json", "[1, 2]"), "it is not the output of kata simulate --json"},
           Case{temp("short.json", "{\"counts\": {}, \"rules\": \"x\"}"),
                "it is not the output of kata simulate --json: "},
       }) {
    INFO(c.files);
    auto r = run_kata("merge " + c.files);
    CHECK(r.status == 1);
    CHECK(has(r.out, "kata: error: "));
    CHECK(has(r.out, c.message));
  }
  // A result whose counts were edited does not add up.
  auto j = nlohmann::json::parse(run_kata("simulate rules/tictactoe.yaml -g 5 --json").out);
  j["counts"]["lengths"][0][1] = 100;
  CHECK(has(run_kata("merge " + temp("edited.json", j.dump())).out,
            "its counts of games do not add up"));
  j["counts"]["lengths"][0][1] = -1;
  CHECK(run_kata("merge " + temp("negative.json", j.dump())).status == 1);
  // The command line.
  CHECK(run_kata("merge /nonexistent/shard.json").status == 2);
  CHECK(run_kata("merge").status == 2);
  for (std::string bad : {"0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2000000"}) {
    auto r = run_kata("simulate rules/tictactoe.yaml -g 5 --shard " + bad);
    CHECK(r.status == 2);
    CHECK(has(r.out, "is not I/N with 1 <= I <= N <= 1000000"));
  }
  CHECK(has(run_kata("merge --help").out, "shards"));
}

namespace {

// The shell commands of the first ```sh block after `heading` in docs/design.md.
std::string design_block(const std::string& heading) {
  std::ifstream in(KATA_SOURCE_DIR "/docs/design.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  size_t at = doc.find(heading);
  REQUIRE(at != std::string::npos);
  size_t start = doc.find("```sh\n", at);
  REQUIRE(start != std::string::npos);
  start += 6;
  return doc.substr(start, doc.find("```", start) - start);
}

// Runs a block of docs/design.md in a scratch directory with `kata` on the PATH and the
// rules beside it, the study made small: 300 games in 4 shards.
std::string run_design_block(const std::string& block, const std::string& name) {
  std::string small = block;
  for (auto [from, to] : {std::pair<std::string, std::string>{"1000000", "300"},
                          {"/100", "/4"},
                          {"seq 100", "seq 4"}})
    for (size_t at; (at = small.find(from)) != std::string::npos;)
      small.replace(at, from.size(), to);
  std::string dir = kata::test::scratch_dir("design-" + name);
  std::filesystem::create_directories(dir + "/rules");
  std::filesystem::copy_file(KATA_SOURCE_DIR "/rules/kobayakawa.yaml",
                             dir + "/rules/kobayakawa.yaml",
                             std::filesystem::copy_options::overwrite_existing);
  std::string bin = std::filesystem::path(KATA_BINARY).parent_path().string();
  std::string script =
      temp("design-" + name + ".sh",
           "set -e\ncd '" + dir + "'\nrm -rf results\nexport PATH='" + bin + "':$PATH\n" + small);
  std::string out;
  FILE* p = popen(("sh " + script + " 2>&1").c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  CHECK(pclose(p) == 0);
  return out;
}

}  // namespace

TEST_CASE("the one-host study of docs/design.md runs, and merges to the whole run",
          "[workbench][cli][docs]") {
  std::string whole = run_kata("simulate rules/kobayakawa.yaml -p 4 -g 300 -s 7").out;
  CHECK(run_design_block(design_block("Without GNU parallel"), "xargs") == whole);
  if (std::system("command -v parallel > /dev/null 2>&1") == 0)
    CHECK(run_design_block(design_block("### One host"), "parallel") == whole);
  else
    WARN("GNU parallel is not installed: its example in docs/design.md is not run");
}

TEST_CASE("the chi-square survival function matches its closed forms and known values",
          "[workbench]") {
  using kata::chi_square_sf;
  // Critical values at 5% for 1, 2 and 3 degrees of freedom.
  CHECK(chi_square_sf(3.841458820694124, 1) == Approx(0.05).epsilon(1e-12));
  CHECK(chi_square_sf(5.991464547107979, 2) == Approx(0.05).epsilon(1e-12));
  CHECK(chi_square_sf(7.814727903251178, 3) == Approx(0.05).epsilon(1e-12));
  CHECK(chi_square_sf(0, 4) == 1);
  CHECK(chi_square_sf(1, 1) == Approx(0.31731050786291404).epsilon(1e-12));
  CHECK(chi_square_sf(100, 3) == Approx(1.554159431389605e-21).epsilon(1e-10));
  CHECK(chi_square_sf(200, 150) == Approx(0.003973185970821611).epsilon(1e-10));
  // Closed forms: even df, e^(-x/2) Σ_{i<k/2} (x/2)^i / i!; odd df, erfc(sqrt(x/2)) plus
  // sqrt(2x/π) e^(-x/2) Σ_{i=1}^{(k-1)/2} x^(i-1) / (1·3·...·(2i-1)).
  for (int k = 1; k <= 12; ++k)
    for (double x : {0.001, 0.1, 0.5, 1.0, 2.0, 4.5, 7.0, 10.0, 13.0, 20.0, 35.0, 60.0}) {
      double expected = 0;
      if (k % 2 == 0) {
        double term = 1;
        for (int i = 0; i < k / 2; ++i) expected += term, term *= x / 2 / (i + 1);
        expected *= std::exp(-x / 2);
      } else {
        double sum = 0, odd = 1;
        for (int i = 1; i <= (k - 1) / 2; ++i) odd *= 2 * i - 1, sum += std::pow(x, i - 1) / odd;
        expected = std::erfc(std::sqrt(x / 2)) + std::sqrt(2 * x / M_PI) * std::exp(-x / 2) * sum;
      }
      INFO("x " << x << ", df " << k);
      CHECK(chi_square_sf(x, k) == Approx(expected).epsilon(1e-10).margin(1e-300));
    }
  // Equal shares: no evidence at all, and strong evidence.
  auto even = kata::equal_shares({250, 250, 250, 250});
  CHECK(even.valid);
  CHECK(even.statistic == 0);
  CHECK(even.p == 1);
  auto skewed = kata::equal_shares({700, 300});
  CHECK(skewed.df == 1);
  CHECK(skewed.statistic == Approx(160));
  CHECK(skewed.p < 1e-30);
  CHECK_FALSE(kata::equal_shares({10}).valid);
  CHECK_FALSE(kata::equal_shares({0, 0}).valid);
}

TEST_CASE("kata simulate reports intervals, seat order, margins, lengths, uses and leads",
          "[workbench][cli]") {
  auto r = run_kata("simulate rules/kobayakawa.yaml -g 200 -p 3 -s 3 --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["seat_order"]["df"] == 2);
  CHECK(j["seat_order"]["p_value"].get<double>() >= 0);
  CHECK(j["seat_order"]["p_value"].get<double>() <= 1);
  CHECK(j["margin"]["count"].get<int>() > 0);
  CHECK(j["margin"]["min"].get<int>() >= 0);
  auto length = j["length"];
  CHECK(length["min"].get<double>() <= length["q1"].get<double>());
  CHECK(length["q1"].get<double>() <= length["median"].get<double>());
  CHECK(length["median"].get<double>() <= length["q3"].get<double>());
  CHECK(length["q3"].get<double>() <= length["max"].get<double>());
  int64_t games = 0, decisions = 0;
  for (auto& bin : length["histogram"])
    games += bin[1].get<int64_t>(), decisions += bin[0].get<int64_t>() * bin[1].get<int64_t>();
  CHECK(games == 200);
  // Every decision chose one action, legal at it.
  int64_t chosen = 0;
  for (auto& a : j["actions"]) {
    chosen += a["chosen"].get<int64_t>();
    CHECK(a["chosen"].get<int64_t>() <= a["legal"].get<int64_t>());
  }
  CHECK(chosen == decisions);
  CHECK(j["components"].size() > 0);
  CHECK(j["lead"]["midgame_leader_games"].get<int>() > 0);
  CHECK(j["lead"]["midgame_leader_wins"].get<int>() <=
        j["lead"]["midgame_leader_games"].get<int>());
  CHECK(j["lead"]["changes"]["count"] == 200);
  auto text = run_kata("simulate rules/kobayakawa.yaml -g 200 -p 3 -s 3").out;
  for (const char* part :
       {"seat order: chi-square ", "winner's margin: mean ", "lead changes per game: mean ",
        "the leader at mid-game won ", "actions", "components"})
    CHECK(has(text, part));
  // Tic-tac-toe: every seat either wins or draws; the marks are no action's parameter and
  // are not listed, the cells are.
  auto t = nlohmann::json::parse(run_kata("simulate rules/tictactoe.yaml -g 300 --json").out);
  CHECK(t["components"].size() == 9);
  CHECK(t["warnings"].empty());
}

TEST_CASE("kata simulate lists the dead rules: actions never legal, components never chosen",
          "[workbench][cli]") {
  std::string rules = R"(game: Dead
players: 2
components:
  token:
    list: [{colour: red}, {colour: blue}, {colour: green}]
    name: "{colour}"
    in: pile
zones:
  pile: {visibility: everyone}
flow: |
  for p in players { choose p: take | never }
actions:
  take:
    params:
      t: {from: pile}
    when:
      - {if: "t.colour != green"}
    do: ""
  never:
    when:
      - {if: "false"}
    do: ""
scoring:
  score: "0"
)";
  auto r = run_kata("simulate " + temp("dead.yaml", rules) + " -g 20");
  CHECK(r.status == 0);
  CHECK(has(r.out, "warning: action 'never' was never legal in 20 games"));
  CHECK(has(r.out, "warning: component 'green' was never legal as a parameter in 20 games"));
  CHECK_FALSE(has(r.out, "component 'red'"));
}

TEST_CASE("kata simulate --no-decision-stats leaves out the uses and leads, and merges alike",
          "[workbench][cli]") {
  std::string args = "simulate rules/kobayakawa.yaml -g 30 -p 3 -s 8";
  auto full = nlohmann::json::parse(run_kata(args + " --json").out);
  auto quick = nlohmann::json::parse(run_kata(args + " --json --no-decision-stats").out);
  CHECK(quick["decision_stats"] == false);
  CHECK(quick["actions"].empty());
  CHECK(quick["components"].empty());
  CHECK(quick["lead"].is_null());
  // The same games: the same wins, scores and lengths.
  CHECK(quick["seats"] == full["seats"]);
  CHECK(quick["length"] == full["length"]);
  auto text = run_kata(args + " --no-decision-stats").out;
  CHECK_FALSE(has(text, "lead changes"));
  CHECK_FALSE(has(text, "actions"));
  auto whole = run_kata(args + " --json --no-decision-stats");
  auto files = shards(args + " --no-decision-stats", 3, "quick");
  CHECK(run_kata("merge --json" + joined(files)).out == whole.out);
  auto mixed = shards(args, 3, "mixed");
  auto r = run_kata("merge " + files[0] + " " + files[1] + " " + mixed[2]);
  CHECK(r.status == 1);
  CHECK(has(r.out, "their --no-decision-stats settings differ"));
}

namespace {

// One `$ COMMAND` of a ```console block of the docs, and the lines shown after it.
struct Example {
  std::string command;
  std::vector<std::string> output;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string doc_text(const std::string& doc) {
  std::ifstream in(KATA_SOURCE_DIR "/" + doc);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The ```console blocks of a doc, each as its commands with their output.
std::vector<std::vector<Example>> console_blocks(const std::string& doc) {
  std::vector<std::vector<Example>> blocks;
  bool in_block = false;
  for (const std::string& line : lines_of(doc_text(doc))) {
    if (line.rfind("```", 0) == 0) {
      in_block = line == "```console";
      if (in_block) blocks.emplace_back();
    } else if (in_block && line.rfind("$ ", 0) == 0) {
      blocks.back().push_back({line.substr(2), {}});
    } else if (in_block && !blocks.back().empty()) {
      blocks.back().back().output.push_back(line);
    }
  }
  return blocks;
}

// Whether `actual` is `shown`, a line "..." in `shown` standing for any lines.
bool shown_as(const std::vector<std::string>& shown, size_t s,
              const std::vector<std::string>& actual, size_t a) {
  if (s == shown.size()) return a == actual.size();
  if (shown[s] == "...") {
    for (size_t skip = a; skip <= actual.size(); ++skip)
      if (shown_as(shown, s + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && shown[s] == actual[a] && shown_as(shown, s + 1, actual, a + 1);
}

// Runs the docs' examples in one scratch directory with `kata` on the PATH and the rule
// files of rules/ beside it, as a designer would in a fresh clone: commands in their
// order, each once (the same command gives the same output, so a second showing of it is
// checked against the first run).
struct DocRunner {
  std::string dir = kata::test::scratch_dir("doc-examples");
  std::map<std::string, kata::test::Run> done;

  DocRunner() {
    std::filesystem::create_directories(dir + "/rules");
    for (auto& entry : std::filesystem::directory_iterator(KATA_SOURCE_DIR "/rules"))
      if (entry.path().extension() == ".yaml")
        std::filesystem::copy_file(entry.path(), dir + "/rules/" + entry.path().filename().string(),
                                   std::filesystem::copy_options::overwrite_existing);
  }

  const kata::test::Run& run(const std::string& command) {
    auto known = done.find(command);
    if (known != done.end()) return known->second;
    std::string bin = std::filesystem::path(KATA_BINARY).parent_path().string();
    std::string script = temp(
        "doc-example.sh", "cd '" + dir + "'\nexport PATH='" + bin + "':$PATH\n" + command + "\n");
    kata::test::Run r{0, {}};
    FILE* p = popen(("sh " + script + " 2>&1 < /dev/null").c_str(), "r");
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return done[command] = r;
  }

  // Runs a block's commands and checks that each prints what the doc shows.
  void check(const std::vector<Example>& block, bool must_succeed) {
    for (const Example& e : block) {
      INFO("$ " << e.command);
      const auto& r = run(e.command);
      INFO("it printed:\n" << r.out);
      CHECK(shown_as(e.output, 0, lines_of(r.out), 0));
      if (must_succeed) CHECK(r.status == 0);
    }
  }

  // The blocks of `doc` with a command that starts with one of `starts`.
  void check(const std::string& doc, const std::vector<std::string>& starts) {
    for (const auto& block : console_blocks(doc)) {
      bool chosen = false;
      for (const Example& e : block)
        for (const std::string& start : starts) chosen |= e.command.rfind(start, 0) == 0;
      if (chosen) check(block, false);
    }
  }
};

// Whether `actual` holds every field of `shown`, an array's shown elements as its first.
bool holds(const nlohmann::json& actual, const nlohmann::json& shown) {
  if (shown.is_object()) {
    if (!actual.is_object()) return false;
    for (auto& [key, value] : shown.items())
      if (!actual.contains(key) || !holds(actual[key], value)) return false;
    return true;
  }
  if (shown.is_array()) {
    if (!actual.is_array() || actual.size() < shown.size()) return false;
    for (size_t i = 0; i < shown.size(); ++i)
      if (!holds(actual[i], shown[i])) return false;
    return true;
  }
  return actual == shown;
}

}  // namespace

TEST_CASE("docs/design.md's walk-through prints what it shows, figure for figure",
          "[workbench][cli][docs]") {
  DocRunner docs;
  auto blocks = console_blocks("docs/design.md");
  REQUIRE(blocks.size() == 5);
  for (const auto& block : blocks) docs.check(block, true);
  // The page of step 4 is drawn as the text says: the mid-game leader's bars at 55.4% on A
  // and 39.4% on B, the game lengths' medians 70 and 50.
  std::ifstream in(docs.dir + "/big-pot.html");
  std::stringstream page;
  page << in.rdbuf();
  for (const char* part :
       {"<h1>Kobayakawa</h1>", "final_stake 2 -&gt; 4", "55.4%  [55.1%, 55.8%]",
        "39.4%  [39.1%, 39.7%]", "median 70, mean 69.52", "median 50, mean 49.96"}) {
    INFO(part);
    CHECK(has(page.str(), part));
  }
  // docs/cli.md shows the same comparison, and simulate's, shard's and compare's examples.
  docs.check("docs/cli.md", {"kata simulate rules/kobayakawa.yaml --games 1000 --players 4",
                             "kata simulate rules/kobayakawa.yaml -g 10 --shard",
                             "kata compare rules/kobayakawa.yaml big-pot.yaml",
                             "kata compare rules/kobayakawa.yaml rules/tictactoe.yaml"});
}

TEST_CASE("docs/cli.md's simulate --json example holds the figures of that run",
          "[workbench][cli][docs]") {
  std::string doc = doc_text("docs/cli.md");
  size_t at = doc.find("Below, for `-g 100 -p 3`");
  REQUIRE(at != std::string::npos);
  size_t start = doc.find("```json\n", at) + 8;
  std::string shown = doc.substr(start, doc.find("```", start) - start);
  // What the example leaves out is "...".
  shown = std::regex_replace(shown, std::regex(",\\s*\\.\\.\\."), "");
  auto actual = run_kata("simulate rules/kobayakawa.yaml -g 100 -p 3 --json");
  REQUIRE(actual.status == 0);
  auto j = nlohmann::json::parse(actual.out);
  auto example = nlohmann::json::parse(shown);
  INFO(example.dump(2));
  CHECK(example.size() >= 10);
  CHECK(holds(j, example));
  // In the order kata prints them: alphabetical.
  std::vector<std::string> keys;
  for (auto& [key, value] : example.items()) keys.push_back(key);
  size_t last = 0;
  for (const std::string& key : keys) {
    size_t here = actual.out.find("\n  \"" + key + "\":");
    CHECK(here != std::string::npos);
    CHECK(here >= last);
    last = here;
  }
}
