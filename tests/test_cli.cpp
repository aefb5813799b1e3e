// The `kata` command as a user meets it: exit statuses, the shape of its messages, and the
// round trip play -> log -> replay, run on the built binary.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace {

struct Run {
  int status;
  std::string out;  // stdout and stderr together
};

Run run_kata(const std::string& args, const std::string& input = "") {
  std::string cmd = std::string(KATA_BINARY) + " " + args + " 2>&1";
  if (!input.empty()) {
    // ctest runs tests in parallel processes: each input gets a name of its own.
    static int count = 0;
    std::string in = (std::filesystem::temp_directory_path() /
                      ("kata-cli-input-" + std::to_string(getpid()) + "-" + std::to_string(++count) + ".txt")).string();
    std::ofstream(in) << input;
    cmd = "cd " KATA_SOURCE_DIR " && " + cmd + " < " + in;
  } else {
    cmd = "cd " KATA_SOURCE_DIR " && " + cmd + " < /dev/null";
  }
  Run r{0, {}};
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string temp(const std::string& name, const std::string& text = "") {
  std::string p = (std::filesystem::temp_directory_path() / (std::to_string(getpid()) + "-" + name)).string();
  if (!text.empty()) std::ofstream(p) << text;
  return p;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("kata check: 0 when valid, 1 on errors, 2 on bad usage", "[cli]") {
  auto ok = run_kata("check rules/kobayakawa.yaml");
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "rules/kobayakawa.yaml: ok (Kobayakawa, 3-6 players, 0 warnings)"));

  std::string bad = temp("kata-bad.yaml", "game: Bad\nplayers: 2\nzones:\n  hand: {per_player: true}\nflow: |\n  for p in players { shuffle p.hnad }\n");
  auto err = run_kata("check " + bad);
  CHECK(err.status == 1);
  CHECK(has(err.out, "kata-bad.yaml:6:32: error: unknown player variable or zone 'hnad'; did you mean 'hand'?\n"
                     "    6 |   for p in players { shuffle p.hnad }\n"
                     "      |                                ^\n"));
  CHECK(run_kata("check /no/such/file.yaml").status == 2);
  CHECK(run_kata("check").status == 2);
  CHECK(run_kata("frobnicate").status == 2);
  CHECK(run_kata("check --json " + bad).out.find("\"message\": \"unknown player variable or zone 'hnad'; did you mean 'hand'?\"") != std::string::npos);
}

TEST_CASE("kata --help and each command's --help", "[cli]") {
  for (std::string c : {"", "check ", "play ", "simulate ", "replay ", "test "}) {
    auto r = run_kata(c + "--help");
    CHECK(r.status == 0);
    CHECK(has(r.out, "Exit status: 0 success"));
  }
}

TEST_CASE("kata play with bots to the end; with a bad option or agent", "[cli]") {
  auto r = run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 3 -q");
  CHECK(r.status == 0);
  CHECK(has(r.out, "Result after "));
  CHECK(run_kata("play rules/kobayakawa.yaml --players 9 --agents random").status == 2);
  auto o = run_kata("play rules/kobayakawa.yaml --agents random -o centre_kamon=3");
  CHECK(o.status == 2);
  CHECK(has(o.out, "unknown option 'centre_kamon'; did you mean 'centre_kamons'?"));
  CHECK(run_kata("play rules/kobayakawa.yaml --agents robot").status == 2);
}

TEST_CASE("a human is refused an illegal action and told why", "[cli]") {
  // P1 is human; the first input is not legal in the draw phase.
  auto r = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear", "fight\nquit\n");
  CHECK(has(r.out, "Refused: 'fight' is not possible now; P1 may: flip, draw"));
  CHECK(has(r.out, "1) flip"));
  CHECK(r.status == 1);  // the human quit
}

TEST_CASE("a human sees their own card and not the others'", "[cli]") {
  auto r = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear --seed 5", "quit\n");
  auto all = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear --seed 5", "quit\n");
  CHECK(has(r.out, "P1.hand        "));
  CHECK(has(r.out, "P2.hand        +1 hidden"));
  CHECK(has(r.out, "P3.hand        +1 hidden"));
  CHECK_FALSE(has(r.out, "P1.hand        +1 hidden"));
  CHECK(has(r.out, "deck           11 cards face down"));
  CHECK(r.out == all.out);  // the same seed shows the same screens
}

TEST_CASE("play -> log -> replay reproduces the game; a tampered log is caught", "[cli]") {
  std::string log = temp("kata-game.jsonl");
  auto p = run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 11 -q --log " + log);
  REQUIRE(p.status == 0);
  auto r = run_kata("replay -q " + log);
  CHECK(r.status == 0);
  CHECK(has(r.out, "replay verified: "));
  auto as = run_kata("replay " + log + " --as P2");
  CHECK(as.status == 0);
  CHECK(has(as.out, "as P2 sees it"));

  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"action\":\"fight\"");
  if (at == std::string::npos) at = text.find("\"action\":\"pass\"");
  REQUIRE(at != std::string::npos);
  std::string tampered = text;
  tampered.replace(at, 16, text.compare(at, 16, "\"action\":\"fight\"") == 0 ? "\"action\":\"pass\" " : "\"action\":\"fight\"");
  std::string bad = temp("kata-tampered.jsonl", tampered);
  auto t = run_kata("replay -q " + bad);
  CHECK(t.status == 1);
  CHECK(has(t.out, "kata: replay failed: "));
  CHECK(run_kata("replay -q " + temp("kata-junk.jsonl", "not json\n")).status == 1);
  CHECK(run_kata("replay -q " + log + " --as P9").status == 2);
}

TEST_CASE("kata simulate is the same for any number of jobs", "[cli]") {
  auto one = run_kata("simulate rules/kobayakawa.yaml --games 300 --players 5 --seed 9 --jobs 1 --json");
  auto two = run_kata("simulate rules/kobayakawa.yaml --games 300 --players 5 --seed 9 --jobs 2 --json");
  CHECK(one.status == 0);
  CHECK(one.out == two.out);
  CHECK(has(one.out, "\"errors\": 0"));
  CHECK(run_kata("simulate rules/kobayakawa.yaml --games 0").status == 2);
}

TEST_CASE("kata test reports a failing scenario with expected against actual", "[cli]") {
  std::string s = temp("kata-failing.yaml",
                       "scenario: a wrong expectation\nrules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 3\n"
                       "steps:\n  - expect: P1.kamons == 5\n");
  auto r = run_kata("test " + s);
  CHECK(r.status == 1);
  CHECK(has(r.out, "kata-failing.yaml:5:13: error: expected P1.kamons == 5"));
  CHECK(has(r.out, "actual: the left side is 4, the right side is 5"));
  CHECK(has(r.out, "0 passed, 1 failed"));
}

TEST_CASE("a log shown to a player reveals only what that player may know", "[cli]") {
  std::string log = temp("kata-hidden.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 3 --agents random --seed 21 -q --log " + log).status == 0);
  auto as = run_kata("replay " + log + " --as P2");
  REQUIRE(as.status == 0);
  std::istringstream lines(as.out);
  int own = 0, others = 0;
  for (std::string line; std::getline(lines, line);) {
    bool dealt = line.find(" moves from deck to ") != std::string::npos;
    if (dealt && line.find("to P2.hand") != std::string::npos) {
      CHECK(line.rfind("a card", 0) != 0);  // P2 sees their own cards
      ++own;
    } else if (dealt && line.find(".hand") != std::string::npos) {
      CHECK(line.rfind("a card moves", 0) == 0);  // and not the others'
      ++others;
    }
  }
  CHECK(own >= 7);
  CHECK(others >= 14);
  // The full log, for the record, names every card.
  auto all = run_kata("replay " + log);
  CHECK(all.out.find("a card moves") == std::string::npos);
}

TEST_CASE("a log made with another rule file is refused, not replayed", "[cli]") {
  std::string log = temp("kata-sha.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 3 --agents random -q --log " + log).status == 0);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"sha256\":\"") + 10;
  text[at] = text[at] == '0' ? '1' : '0';
  auto r = run_kata("replay -q --as P2 " + temp("kata-sha-bad.jsonl", text));
  CHECK(r.status == 1);
  CHECK(has(r.out, "is not the rule file this log was made with (SHA-256 differs)"));
}

TEST_CASE("options may come before the rule file", "[cli]") {
  auto r = run_kata("simulate -o centre_kamons=3 -g 5 rules/kobayakawa.yaml -p 3");
  CHECK(r.status == 0);
  auto p = run_kata("play -a random -o first_player=2 rules/kobayakawa.yaml -p 3 -q");
  CHECK(p.status == 0);
}

TEST_CASE("a script plays a seat; an illegal line stops it with its line number", "[cli]") {
  std::string ok;
  for (int i = 0; i < 7; ++i) ok += "flip   # never draws\npass\n";
  auto r = run_kata("play rules/kobayakawa.yaml -p 3 -a script:" + temp("kata-script.txt", ok) + ",random,random -q");
  CHECK(r.status == 0);
  auto bad = run_kata("play rules/kobayakawa.yaml -p 3 -a script:" + temp("kata-bad-script.txt", "flip\nflip\n") + ",random,random -q");
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "kata-bad-script.txt:2: P1's 'flip' is refused: 'flip' is not possible now; P1 may: fight, pass"));
}

TEST_CASE("a failed expectation shows players, cards and truth as such", "[cli]") {
  std::string s = temp("kata-typed.yaml",
                       "scenario: typed values\nrules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 3\n"
                       "steps:\n  - expect: first == P2\n");
  auto r = run_kata("test " + s);
  CHECK(r.status == 1);
  CHECK(has(r.out, "actual: the left side is P1, the right side is P2"));
}

TEST_CASE("an option for some player counts only is refused with the others", "[cli]") {
  auto r = run_kata("simulate rules/kenjin.yaml --players 3 --option teams=true --games 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: option teams=true is for 4 players, not 3"));
  r = run_kata("play rules/kenjin.yaml --players 2 --option placement=draft --agents random --quiet");
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: option placement=draft is for 3 to 4 players, not 2"));
  // Its default value is for every count; the others are for the counts it names.
  CHECK(run_kata("simulate rules/kenjin.yaml --players 4 --option teams=true --option placement=draft --games 2").status == 0);
  std::string scenario = temp("teams-3.yaml", "rules: " KATA_SOURCE_DIR "/rules/kenjin.yaml\nplayers: 3\noptions: {teams: true}\nsteps:\n  - over: false\n");
  r = run_kata("test " + scenario);
  CHECK(r.status == 1);
  CHECK(has(r.out, "2:10: error: option teams=true is for 4 players, not 3"));
}
