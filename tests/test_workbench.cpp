// The designer's statistics of kata simulate, and kata simulate --shard with kata merge:
// the parts of a run, merged, are the whole run byte for byte; merge refuses what is not
// one run's parts with a clear error.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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
