// Rule files written to break kata: each gives a clear, positioned error within a
// documented limit (docs/language.md §7), never a crash, an abort or gigabytes of memory.
// The inputs are generated here, each just past its limit (and the limit itself accepted).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/runner.hpp"
#include "native/native.hpp"
#include "support.hpp"
#include "syntax/diagnostics.hpp"
#include "syntax/source.hpp"

using namespace kata;
using kata::test::load_text;
using kata::test::run_kata;
using kata::test::has;
using kata::test::temp;

namespace {

// A small valid game; `score` and the rest are replaced by each test.
std::string game(const std::string& score, const std::string& extra = "") {
  return R"(game: Tiny
players: 2
components:
  card:
    each: {value: 1..6}
    in: deck
zones:
  deck: {visibility: nobody}
variables:
  x: {per_player: true, initial: 0}
flow: |
  for p in players { choose p: pass }
actions:
  pass: {do: ""}
scoring:
  score: )" + score + "\n" + extra;
}

std::string repeat(const std::string& s, int n, const std::string& sep = "") {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i ? sep : "") + s;
  return out;
}

bool has_error(const test::Loaded& l, const std::string& part) {
  for (const auto& m : l.messages())
    if (m.find(part) != std::string::npos) return true;
  return false;
}

std::string first(const test::Loaded& l) { return l.messages().empty() ? "" : l.messages()[0]; }



}  // namespace

TEST_CASE("an expression is at most 200 levels deep, counting each operator of a chain", "[hostile]") {
  CHECK(load_text(game(repeat("1", 200, " + "))).messages().empty());
  CHECK(first(load_text(game(repeat("1", 201, " + ")))) ==
        "16:10: error: nested too deeply (at most 200 levels, counting each operator of a chain)");
  // Thousands of terms, of each kind of chain, stop at once.
  for (const std::string& e : {repeat("1", 5000, "+"), repeat("1", 5000, "*"), "size(deck) > " + repeat("1", 5000, "-"),
                               "if " + repeat("true", 5000, " and ") + " then 1 else 0",
                               "if " + repeat("true", 5000, " or ") + " then 1 else 0",
                               "p." + repeat("x", 5000, ".")})
    CHECK(has_error(load_text(game(e)), "nested too deeply"));
  // Prefix operators and `else if` chains are limited while parsing.
  for (const std::string& e : {repeat("-", 100000) + "1", "if " + repeat("not ", 100000) + "true then 1 else 0",
                               repeat("if true then 1 else ", 20000) + "1", repeat("(", 100000) + "1"})
    CHECK(!load_text(game(e)).messages().empty());
}

TEST_CASE("statements count towards the depth too", "[hostile]") {
  std::string flow = "flow: |\n  " + repeat("if true { x = 1 } else ", 20000) + "{ x = 2 }\n";
  auto l = load_text("game: T\nplayers: 2\nvariables: {x: 0}\n" + flow);
  CHECK(!l.messages().empty());
  // The limit holds for each body, however many there are.
  std::string many = "flow: |\n" + repeat("  if true { x = 1 }\n", 2000);
  CHECK(!has_error(load_text("game: T\nplayers: 2\nvariables: {x: 0}\n" + many), "nested"));
}

TEST_CASE("functions call functions at most 32 deep", "[hostile]") {
  auto chain = [](int n) {
    std::string fs = "functions:\n";
    for (int i = 1; i < n; ++i) fs += "  f" + std::to_string(i) + ": f" + std::to_string(i + 1) + "()\n";
    fs += "  f" + std::to_string(n) + ": 1\n";
    return fs;
  };
  CHECK(load_text(game("f1()", chain(32))).messages().empty());
  CHECK(has_error(load_text(game("f1()", chain(33))), "more than 32 deep"));
  CHECK(has_error(load_text(game("f1()", chain(20000))), "more than 32 deep"));
  // A chain checked from its middle first is still counted whole.
  auto l = load_text(game("f2() + f1()", chain(33)));
  CHECK(first(l).find("error: function 'f1' calls functions that call functions more than 32 deep") != std::string::npos);
}

TEST_CASE("long chains of procedures and phases are checked without recursion", "[hostile]") {
  std::string ps = "procedures:\n";
  for (int i = 1; i < 20000; ++i) ps += "  p" + std::to_string(i) + ": p" + std::to_string(i + 1) + "()\n";
  ps += "  p20000: x = 1\n";
  auto l = load_text("game: T\nplayers: 2\nvariables: {x: 0}\nflow: p1()\n" + ps);
  CHECK(has_error(l, "procedures call procedures more than 32 deep"));
  std::string phases = "phases:\n";
  for (int i = 1; i < 20000; ++i) phases += "  h" + std::to_string(i) + ": phase h" + std::to_string(i + 1) + "\n";
  phases += "  h20000: phase h1\n";
  l = load_text("game: T\nplayers: 2\nflow: phase h1\n" + phases);
  CHECK(has_error(l, "enters itself; recursion is not allowed"));
}

TEST_CASE("long words are read by scanners, not std::regex", "[hostile]") {
  std::string word(100000, 'a');
  auto l = load_text(game("1", "options:\n  o: " + word + "\n"));
  CHECK(l.messages().empty());
  std::string tmpl = repeat("{value}", 20000) + repeat("{", 20000);
  l = load_text(game("1").replace(game("1").find("    in: deck"), 12, "    in: deck\n    name: \"" + tmpl + "\""));
  CHECK(l.messages().empty());
  // (A long key is written as YAML's explicit `? KEY` and `: VALUE`.)
  l = load_text(game("f(1)", "functions:\n  ? \"f(" + std::string(100000, 'p') + ")\"\n  : 1\n"));
  CHECK(l.messages().empty());
  l = load_text(game("1", "options:\n  o: \"" + std::string(100000, '1') + "\"\n"));
  CHECK(has_error(l, "number too large"));
  l = load_text(game("1", "options:\n  o: {default: 1, values: \"1 .. " + std::string(100000, '9') + "\"}\n"));
  CHECK(has_error(l, "number too large"));
}

TEST_CASE("numbers in a rule file are 32 bits, or an error", "[hostile]") {
  CHECK(load_text(game("o", "options:\n  o: 2147483647\n")).messages().empty());
  CHECK(load_text(game("o", "options:\n  o: -2147483648\n")).messages().empty());
  CHECK(first(load_text(game("o", "options:\n  o: 2147483648\n"))) ==
        "18:6: error: number too large (at most 2147483647, at least -2147483648)");
  CHECK(has_error(load_text(game("o", "options:\n  o: 4294967301\n")), "18:6: error: number too large"));
  CHECK(has_error(load_text(game("o", "options:\n  o: {default: 1, max: 999999999999999}\n")), "number too large"));
  CHECK(has_error(load_text(game("o", "options:\n  o: -2147483649\n")), "number too large"));
  // A YAML range holds at most 4096 values.
  CHECK(load_text(game("o", "options:\n  o: {default: 1, values: 1..4096}\n")).messages().empty());
  CHECK(has_error(load_text(game("o", "options:\n  o: {default: 1, values: 1..4097}\n")), "at most 4096 values"));
}

TEST_CASE("a rule file is UTF-8 text without control characters", "[hostile]") {
  CHECK(first(load_text("game: T\ndoc: ab\xff\n")) == "2:8: error: not UTF-8 text (byte 0xFF): a rule file is UTF-8");
  CHECK(first(load_text("game: T\ndoc: \xc0\xaf\n")) == "2:6: error: not UTF-8 text (byte 0xC0): a rule file is UTF-8");
  CHECK(first(load_text("game: T\ndoc: a\x1b[31m\n")) == "2:7: error: control character U+001B in a rule file");
  CHECK(first(load_text("game: T\ndoc: \"a\\e[31m\"\n")) ==
        "2:6: error: control character U+001B in a rule file (written with an escape)");
  CHECK(load_text("game: T\ndoc: \"caf\xc3\xa9 \\u00e9\"\nplayers: 2\nflow: \"\"\n").messages().empty());
}

TEST_CASE("printable() escapes what is not UTF-8 and control characters", "[hostile]") {
  CHECK(printable("a\x1b[31mb\xff\tc\n") == "a\\x1B[31mb\\xFF\tc\\x0A");
  CHECK(printable("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(printable("\xed\xa0\x80") == "\\xED\\xA0\\x80");  // a surrogate
  Diagnostics d;
  d.error(Pos{}, "unknown key 'a\x1b]0;x\x07'");
  CHECK(d.items()[0].message == "unknown key 'a\\x1B]0;x\\x07'");
}

TEST_CASE("check --json quotes odd bytes as valid JSON", "[hostile]") {
  std::string f = temp("bytes.yaml", "game: T\nplayers: 2\nzonez\xff: 1\n");
  auto r = run_kata("check --json " + f);
  CHECK(r.status == 1);
  CHECK(r.out.find("\"line\": 3") != std::string::npos);
  CHECK(r.out.find("not UTF-8 text (byte 0xFF)") != std::string::npos);
  CHECK(r.out.find("terminate") == std::string::npos);
  std::remove(f.c_str());
}

TEST_CASE("a choice offers at most 2^20 decisions", "[hostile]") {
  auto action = [](const std::string& params) {
    return R"(game: T
players: 2
variables: {n: 2048}
flow: |
  choose P1: pick
actions:
  pick:
    params: )" + params + "\n    do: n = a\n";
  };
  CHECK(load_text(action("{a: 1..1024, b: 1..1024}")).messages().empty());
  CHECK(first(load_text(action("{a: 1..1024, b: 1..1025}"))) ==
        "7:3: error: action 'pick' offers more than 1048576 decisions at once (its parameters' lists multiplied)");
  CHECK(has_error(load_text(action("{a: 1..2048, b: 1..2048, c: 1..513}")), "offers more than 1048576 decisions"));
  CHECK(has_error(load_text(action("{a: 1..4096, b: 1..4096, c: 1..4096, d: 1..4096}")), "offers more than"));
  // Lists known only while playing are counted as they are listed.
  auto l = load_text(action("{a: 1..n, b: 1..n}"));
  REQUIRE(l.messages().empty());
  State s = new_game(*l.game, 2, 1, {});
  std::vector<Decision> legal;
  try {
    legal_decisions(*l.game, s, legal);
    FAIL("listed " << legal.size() << " decisions");
  } catch (const RuntimeError& e) {
    CHECK(std::string(e.what()) == "this choice offers more than 1048576 decisions (combinations of the actions' parameters)");
    CHECK(e.pos.line == 5);
  }
}

TEST_CASE("compiled code counts legal decisions up to the limit", "[hostile]") {
  // Lists known only while playing: counted as they are listed.
  auto l = load_text(R"(game: T
players: 2
variables: {n: 2048}
flow: |
  choose P1: pick
actions:
  pick:
    params: {a: 1..n, b: 1..n}
    do: n = a
)");
  REQUIRE(l.game);
  CHECK(native_source(*l.game).find("fail(c, kata_too_many_legal, s[SITE])") != std::string::npos);
  auto native = kata::test::compiled(l.game);
  State s = new_game(*native, 2, 1, {});
  std::vector<Decision> legal;
  try {
    legal_decisions(*native, s, legal);
    FAIL("listed " << legal.size() << " decisions");
  } catch (const RuntimeError& e) {
    CHECK(std::string(e.what()) == "this choice offers more than 1048576 decisions (combinations of the actions' parameters)");
    CHECK(e.pos.line == 5);
  }
  // A choice that cannot offer that many decisions (its lists' lengths multiplied) is not.
  auto few = load_text(game("1"));
  REQUIRE(few.game);
  CHECK(native_source(*few.game).find("fail(c, kata_too_many_legal") == std::string::npos);
}

TEST_CASE("the size of a game is computed before it is allocated", "[hostile]") {
  // Zones times cards: a zone for each card of each player, each as long as all the cards.
  auto l = load_text(R"(game: T
players: 2..16
components:
  card: {each: {v: 1..1024}}
zones:
  pile: {per: card, per_player: true}
flow: ""
)");
  CHECK(first(l) == "1:7: error: the game is too large: its zones times its cards (at most 4194304)");
  // Card properties times cards.
  std::string kinds = "components:\n";
  for (int k = 0; k < 64; ++k) {
    kinds += "  k" + std::to_string(k) + ":\n    each: {n" + std::to_string(k) + ": 1..1024";
    for (int p = 0; p < 70; ++p) kinds += ", p" + std::to_string(k) + "_" + std::to_string(p) + ": [1]";
    kinds += "}\n";
  }
  l = load_text("game: T\nplayers: 2\nflow: \"\"\n" + kinds);
  CHECK(has_error(l, "the game is too large: the card properties times the cards (at most 4194304)"));
  // Cards.
  kinds = "components:\n";
  for (int k = 0; k < 65; ++k) kinds += "  k" + std::to_string(k) + ": {each: {n: 1..1024}}\n";
  l = load_text("game: T\nplayers: 2\nflow: \"\"\n" + kinds);
  CHECK(has_error(l, "the game is too large: more cards than that (at most 65536)"));
}

TEST_CASE("YAML nested too deeply, a file or a value too long: positioned errors", "[hostile]") {
  CHECK(first(load_text("game: T\ndoc: " + repeat("[", 150) + repeat("]", 150) + "\n")) ==
        "2:" + std::to_string(6 + 99) + ": error: nested too deeply (at most 100 levels of mappings and lists)");
  CHECK(has_error(load_text("game: T\ndoc: " + repeat("[", 5000) + repeat("]", 5000) + "\n"),
                  "nested too deeply (at most 100 levels"));
  std::string doc(3 << 20, 'a');
  CHECK(first(load_text("game: T\ndoc: " + doc + "\n")) == "2:6: error: a text value longer than 1 MiB");
  std::string f = temp("big.yaml", "game: T\ndoc: " + std::string(5 << 20, 'a') + "\n");
  auto r = run_kata("check --json " + f);
  CHECK(r.status == 1);
  CHECK(r.out.find("\"line\": 1") != std::string::npos);
  CHECK(r.out.find("\"column\": 1") != std::string::npos);
  CHECK(r.out.find("is larger than 4 MiB") != std::string::npos);
  std::remove(f.c_str());
}

TEST_CASE("simulate adds up games in batches, the same whatever the jobs", "[hostile]") {
  auto l = load_text(game("p.x"));
  REQUIRE(l.game);
  SimulationStats one = simulate(*l.game, 5000, 2, 7, {}, 1, false);
  SimulationStats two = simulate(*l.game, 5000, 2, 7, {}, 2, false);
  CHECK(one.games == 5000);
  CHECK(one.wins == two.wins);
  CHECK(one.length_mean == two.length_mean);
  CHECK(one.errors == 0);
}

TEST_CASE("simulate adds up games in order, whichever thread ends them first", "[hostile]") {
  // About a game in six stops with an error, after a random number of decisions: games of
  // very different lengths end out of order on several threads, and the first errors kept
  // (the first five by game number, with their messages) and every sum must not notice.
  // 9,000 games pass through the window of 4,096 outcomes twice.
  auto l = load_text(R"(game: Uneven
players: 2
variables:
  n: {initial: 0}
flow: |
  repeat until n >= 40 {
    for p in players { choose p: step }
  }
actions:
  step:
    params:
      by: {from: "0..5"}
    do: |
      n += by
      if by == 0 and n > 20 { n = n / (by - by) }
scoring:
  score: n
)");
  REQUIRE(l.game);
  SimulationStats one = simulate(*l.game, 9000, 2, 11, {}, 1, false);
  REQUIRE(one.errors > 100);
  REQUIRE(one.first_errors.size() == SimulationStats::errors_kept);
  for (int jobs : {2, 3, 8}) {
    CAPTURE(jobs);
    SimulationStats many = simulate(*l.game, 9000, 2, 11, {}, jobs, false);
    CHECK(many.errors == one.errors);
    CHECK(many.first_errors == one.first_errors);
    CHECK(many.wins == one.wins);
    CHECK(many.length_mean == one.length_mean);
    CHECK(many.lengths == one.lengths);
  }
}

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// A file of `size` zero bytes that takes no room on disk.
std::string sparse(const std::string& name, uintmax_t size) {
  std::string p = temp(name);
  std::ofstream(p, std::ios::binary).close();
  std::filesystem::resize_file(p, size);
  return p;
}

std::string replace_first(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("each diagnostic quotes a long line at the cost of a short one", "[hostile]") {
  // All the diagnostics kept (10000), on one line of 4 MiB: were each to copy or scan its
  // line before cutting it around the caret, 40 GB, hours; as it is, a moment.
  Sources sources;
  int f = sources.add("long.yaml", "long.yaml", std::string(max_source_size, 'x'));
  Diagnostics diags;
  for (int i = 0; i < static_cast<int>(max_kept_diagnostics); ++i) diags.error(Pos{f, 1, 1 + i * 400}, "unknown key");
  std::string out = format_diagnostics(sources, diags, false, 0);
  CHECK(out.size() < max_kept_diagnostics * 400);
  CHECK(out.find("long.yaml:1:400001: error: unknown key\n    1 | ..." + std::string(120, 'x') + "...\n") !=
        std::string::npos);
}

TEST_CASE("simulate, arena and compare run at most 64 jobs", "[hostile][cli]") {
  CHECK(run_kata("simulate rules/tictactoe.yaml -g 2 -j 64").status == 0);
  auto r = run_kata("simulate rules/tictactoe.yaml -g 2 -j 65");
  CHECK(r.status == 2);
  CHECK(r.out.find("--jobs") != std::string::npos);
  CHECK(run_kata("arena rules/tictactoe.yaml -a random,random -g 2 -j 64").status == 0);
  CHECK(run_kata("arena rules/tictactoe.yaml -a random,random -g 2 -j 65").status == 2);
  CHECK(run_kata("compare rules/tictactoe.yaml -g 2 -j 64").status == 0);
  CHECK(run_kata("compare rules/tictactoe.yaml -g 2 -j 65").status == 2);
}

TEST_CASE("threads that cannot be started are an error, not an abort", "[hostile]") {
  auto l = load_text(game("p.x"));
  REQUIRE(l.game);
  // In a child whose address space has room for a few more thread stacks (8 MiB each), not
  // for 63: simulate must say so, having joined the threads it started.
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    mallopt(M_ARENA_MAX, 1);  // threads allocate from the one arena: only their stacks grow
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    rlimit room{static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + (40 << 20), RLIM_INFINITY};
    if (pages == 0 || setrlimit(RLIMIT_AS, &room) != 0) _exit(3);
    try {
      simulate(*l.game, 200, 2, 7, {}, 64, false);
    } catch (const ThreadsError& e) {
      std::string m = e.what();
      _exit(m.rfind("cannot start the threads of --jobs 64: ", 0) == 0 && m.find("of 63 started") != std::string::npos ? 0 : 4);
    } catch (...) {
      _exit(5);
    }
    _exit(6);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

namespace {

// `count` functions, each `terms` terms long and calling the next (rec.yaml of the audit),
// called by the flow and by an action's condition.
// Functions f0, f1, ... each calling the next as the first term of a sum of terms[i] more
// `+a` (the last adds to 1). Counted through the calls (max_total_depth), the flow's
// `v = f0(0) % 1000` is 3 levels down to the call of f0, and each function adds its terms
// and one: the deepest level is 3 + the sum of (terms[i] + 1).
std::string chain_of_functions(const std::vector<int>& terms) {
  std::string text = "game: Chain\nplayers: 2\nvariables:\n  v: 0\nfunctions:\n";
  int count = static_cast<int>(terms.size());
  for (int f = 0; f < count; ++f) {
    // (fmt, not `"f" + std::string`: GCC 12 at -O3 warns of an overlap there, -Wrestrict)
    text += fmt::format("  f{}(a): {}", f, f + 1 < count ? fmt::format("f{}(a)", f + 1) : std::string("1"));
    text += repeat("+a", terms[f]) + "\n";
  }
  return text + "flow: |\n  v = f0(0) % 1000\n  phase p\nphases:\n  p: |\n    choose P1: go\nactions:\n  go:\n"
                "    when: f0(v) > 0\n    do: \"\"\nscoring: {score: v}\n";
}

// `count` functions of `terms` terms each, all called in one sum.
std::string many_functions(int count, int terms) {
  std::string text = "game: Many\nplayers: 2\nvariables:\n  v: 0\nfunctions:\n", calls;
  for (int f = 0; f < count; ++f) {
    text += "  f" + std::to_string(f) + "(a): 1" + repeat("+a", terms) + "\n";
    calls += (f ? "+f" : "f") + std::to_string(f) + "(0)";
  }
  return text + "flow: |\n  v = (" + calls + ") % 1000\n  phase p\nphases:\n  p: |\n    choose P1: go\nactions:\n  go:\n"
                "    when: f0(v) > 0\n    do: \"\"\nscoring: {score: v}\n";
}

}  // namespace

TEST_CASE("kata merge reads regular files of at most 16 MiB, and says why it cannot", "[hostile]") {
  std::string dir = test::scratch_dir("merge-files");
  auto directory = run_kata("merge " + dir);
  CHECK(directory.status == 2);
  CHECK(has(directory.out, "kata: error: '" + dir + "' is a directory, not a file"));
  auto mem = run_kata("merge /proc/self/mem");
  CHECK(mem.status == 2);
  CHECK(has(mem.out, "kata: error: cannot read '/proc/self/mem'"));
  CHECK(!has(mem.out, "terminate"));
  std::string fifo = dir + "/fifo.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  auto pipe = run_kata("merge " + fifo);
  CHECK(pipe.status == 2);
  CHECK(has(pipe.out, "is not a regular file"));
  // Just at the limit the file is read (and is not JSON); one byte more, it is not read.
  std::string at_limit = sparse("merge-16mib.json", 16 << 20), past = sparse("merge-past.json", (16 << 20) + 1);
  auto read = run_kata("merge " + at_limit);
  CHECK(read.status == 1);
  CHECK(has(read.out, "it is not JSON"));
  auto big = run_kata("merge " + past);
  CHECK(big.status == 2);
  CHECK(has(big.out, "kata: error: '" + past + "' is larger than 16 MiB"));
  std::remove(at_limit.c_str());
  std::remove(past.c_str());
  std::filesystem::remove_all(dir);
}

TEST_CASE("kata merge checks a shard's counts before it sizes anything by them", "[hostile]") {
  auto shard = run_kata("simulate rules/kobayakawa.yaml -g 4 -p 3 --shard 1/2 --json");
  REQUIRE(shard.status == 0);
  const std::string count_2 = "\"count\": 2,\n    \"index\": 1";  // the shard's, not a histogram's
  REQUIRE(has(shard.out, count_2));
  std::string f = temp("merge-shard.json");
  // At the limit: a million shards, all but one missing, are said to be missing.
  write_all(f, replace_first(shard.out, count_2, "\"count\": 1000000,\n    \"index\": 1"));
  auto most = run_kata("merge " + f);
  CHECK(most.status == 1);
  CHECK(!has(most.out, "its shard is not"));
  CHECK((has(most.out, "999999 shards of the run are missing") || has(most.out, "its counts of games do not add up")));
  for (const char* count : {"1000001", "2147483647"}) {
    write_all(f, replace_first(shard.out, count_2, std::string("\"count\": ") + count + ",\n    \"index\": 1"));
    auto r = run_kata("merge " + f);
    INFO(count);
    CHECK(r.status == 1);
    CHECK(has(r.out, "its shard is not I/N with 1 <= I <= N <= 1000000"));
  }
  write_all(f, replace_first(shard.out, "\"run_games\": 4", "\"run_games\": 2147483647"));
  CHECK(has(run_kata("merge " + f).out, "its number of games is not from 0 to 100000000"));
  write_all(f, replace_first(shard.out, "\"midgame_leader_games\": ", "\"midgame_leader_games\": 9999999999999"));
  CHECK(has(run_kata("merge " + f).out, "a count larger than 2^43"));
  std::remove(f.c_str());
}

TEST_CASE("C1 control characters are refused in rule files and escaped when printed", "[hostile]") {
  CHECK(first(load_text("game: T\ndoc: a\xc2\x9b" "31m\n")) == "2:7: error: control character U+009B in a rule file");
  CHECK(first(load_text("game: T\ndoc: \"a\\x9b\"\n")) ==
        "2:6: error: control character U+009B in a rule file (written with an escape)");
  CHECK(first(load_text("game: T\ndoc: \xc2\x80\n")) == "2:6: error: control character U+0080 in a rule file");
  // U+00A0, the first character past C1, is text.
  CHECK(load_text("game: T\ndoc: \"a\xc2\xa0" "b\"\nplayers: 2\nflow: \"\"\n").messages().empty());
  CHECK(printable("a\xc2\x9b" "b\xc2\x9f\xc2\xa0") == "a\\u009Bb\\u009F\xc2\xa0");
}

TEST_CASE("a log is valid UTF-8 when the rule file's path is not", "[hostile]") {
  std::string dir = test::scratch_dir("utf8-path");
  std::string rules = dir + "/tiny\xff.yaml", log = dir + "/game.jsonl";
  write_all(rules, game("p.x"));
  auto r = run_kata("play '" + rules + "' -a random -q -s 1 --log " + log);
  CHECK(r.status == 0);
  CHECK(!has(r.out, "terminate"));
  std::string text = read_all(log);
  CHECK(has(text, "tiny\xef\xbf\xbd.yaml"));  // U+FFFD
  CHECK(!has(text, "\xff"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("replay's messages show a log's control characters escaped", "[hostile]") {
  std::string dir = test::scratch_dir("replay-escapes");
  std::string rules = dir + "/tiny.yaml", log = dir + "/game.jsonl";
  write_all(rules, game("p.x"));
  REQUIRE(run_kata("play " + rules + " -a random -q -s 1 --log " + log).status == 0);
  std::string text = read_all(log);
  write_all(log, replace_first(text, "\"action\":\"pass\"", "\"action\":\"pass\\u001b[2J\\u009b1m\""));
  auto r = run_kata("replay -q " + log);
  CHECK(r.status == 1);
  CHECK(has(r.out, "pass\\x1B[2J\\u009B1m"));
  CHECK(!has(r.out, "\x1b"));
  CHECK(!has(r.out, "\xc2\x9b"));
  // A stopped game's reason, from the log's `error` line where a decision was awaited, is
  // printed as the verdict.
  auto end = text.rfind("{\"action\":\"pass\"");
  REQUIRE(end != std::string::npos);
  write_all(log, text.substr(0, end) + "{\"message\":\"P1 quit\\u001b]0;x\\u0007\",\"type\":\"error\"}\n");
  auto stopped = run_kata("replay -q " + log);
  CHECK(has(stopped.out, "P1 quit\\x1B]0;x\\x07"));
  CHECK(!has(stopped.out, "\x1b"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("kata test looks at a file's size before it reads it as YAML", "[hostile]") {
  std::string f = temp("big-rules.yaml", "game: T\ndoc: " + std::string((4 << 20) + 1, 'a') + "\n");
  auto r = run_kata("test " + f);
  CHECK(r.status != 0);
  CHECK(has(r.out, "is larger than 4 MiB"));
  CHECK(!has(r.out, "is a rule file, not a scenario"));
  std::remove(f.c_str());
}

TEST_CASE("a log is at most 16 MiB, each line at most 1 MiB, checked as it is read", "[hostile]") {
  std::string dir = test::scratch_dir("log-limits");
  std::string rules = dir + "/tiny.yaml", log = dir + "/game.jsonl";
  write_all(rules, game("p.x"));
  REQUIRE(run_kata("play " + rules + " -a random -q -s 1 --log " + log).status == 0);
  std::string text = read_all(log);
  auto newline = text.find('\n');
  REQUIRE(newline != std::string::npos);
  std::string header = text.substr(0, newline + 1), rest = text.substr(newline + 1);
  // A line just at 1 MiB is read (and is not a log line); one byte more is refused unread.
  write_all(log, header + std::string(1 << 20, 'x') + "\n" + rest);
  auto at_limit = run_kata("replay -q " + log);
  CHECK(at_limit.status == 1);
  CHECK(has(at_limit.out, log + ":2: not a log line"));
  write_all(log, header + std::string((1 << 20) + 1, 'x') + "\n" + rest);
  auto past = run_kata("replay -q " + log);
  CHECK(past.status == 1);
  CHECK(has(past.out, log + ":2: a line longer than 1 MiB"));
  // The whole log: 16 MiB at most, whatever its lines.
  std::string big = sparse("log-past.jsonl", (16 << 20) + 1);
  auto large = run_kata("replay -q " + big);
  CHECK(large.status == 1);
  CHECK(has(large.out, "the log is larger than 16 MiB"));
  auto resume = run_kata("play --resume " + big);
  CHECK(resume.status != 0);
  CHECK(has(resume.out, "the log is larger than 16 MiB"));
  std::string fifo = dir + "/fifo.jsonl";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  auto pipe = run_kata("replay -q " + fifo);
  CHECK(pipe.status == 2);
  CHECK(has(pipe.out, "kata: error: cannot read '" + fifo + "'"));
  std::remove(big.c_str());
  std::filesystem::remove_all(dir);
}

TEST_CASE("a script is read as a source: a regular file of at most 4 MiB", "[hostile]") {
  std::string rules = temp("script-game.yaml", game("p.x"));
  std::string big = sparse("script-big.txt", (4 << 20) + 1);
  auto r = run_kata("play " + rules + " -a script:" + big + ",random -q -s 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "script '" + big + "' is larger than 4 MiB"));
  auto dir = run_kata("play " + rules + " -a script:/tmp,random -q -s 1");
  CHECK(dir.status == 2);
  CHECK(has(dir.out, "script '/tmp' is a directory, not a file"));
  std::remove(big.c_str());
  std::remove(rules.c_str());
}

TEST_CASE("a long function is called, not copied at each call", "[hostile][native]") {
  // 5 functions of 198 terms: their bodies once (about 2000 nodes), not copied again, 995
  // terms deep, at each of the two calls (4000 more).
  auto l = load_text(chain_of_functions({198, 198, 198, 198, 198}));
  REQUIRE(l.game);
  CHECK(l.game->program.nodes.size() < 2500);
  // A short one is still inlined: no call node is left.
  auto small = load_text(chain_of_functions({10, 10}));
  REQUIRE(small.game);
  int calls = 0;
  for (const Node& n : small.game->program.nodes) calls += n.op == NodeOp::call;
  CHECK(calls == 1);  // f0's call of f1, in f0's own body
}

TEST_CASE("a text is at most 1000 levels deep counted through the functions it calls", "[hostile]") {
  // 3 + 167 * 5 + 162 = 1000 levels: it loads, and plays (the evaluator follows the calls
  // as deep; under the sanitizers too).
  std::string at = temp("deep-1000.yaml", chain_of_functions({166, 166, 166, 166, 166, 161}));
  auto ok = run_kata("simulate " + at + " -g 2");
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "2 games"));
  // One level more: an error where the limit is passed, in the last function's body.
  auto over = load_text(chain_of_functions({166, 166, 166, 166, 166, 162}));
  CHECK_FALSE(over.game);
  REQUIRE(over.messages().size() == 1);
  CHECK(over.messages()[0] ==
        "11:10: error: nested more than 1000 levels deep here, counting the levels of the functions and procedures "
        "called on the way");
  // 32 functions of 190 terms (6000 levels, which overflowed the checker's stack under
  // AddressSanitizer): one error where the chain from the flow passes the limit (in f5),
  // not one per level or per call; the functions past it are checked on their own after,
  // and the chain from f6 passes it again in f11, and so on.
  auto deep = load_text(chain_of_functions(std::vector<int>(32, 190)));
  CHECK_FALSE(deep.game);
  auto messages = deep.messages();
  CHECK(messages.size() == 5);
  CHECK(messages[0].rfind("11:10: error: nested more than 1000 levels deep here", 0) == 0);
  // A function checked at a shallow call and called again where its levels pass the limit.
  std::string text = chain_of_functions({198, 198, 198, 198, 198});
  text.replace(text.find("when: f0(v) > 0"), 15, "when: f0(v) > 0 and " + repeat("-(", 10) + "f0(v)" + repeat(")", 10) + " > 0");
  auto again = load_text(text);
  CHECK_FALSE(again.game);
  REQUIRE(again.messages().size() == 1);
  CHECK(has(again.messages()[0], "error: nested more than 1000 levels deep here"));
  // Procedures calling procedures count their statements' levels the same way.
  std::string procs = "game: P\nplayers: 2\nvariables:\n  v: 0\nprocedures:\n";
  for (int p = 0; p < 30; ++p) {
    procs += "  p" + std::to_string(p) + ": |\n";
    std::string indent = "    ";
    for (int k = 0; k < 40; ++k, indent += " ") procs += indent + "if true {\n";
    procs += indent + (p + 1 < 30 ? fmt::format("p{}()", p + 1) : std::string("v = 1")) + "\n";
    for (int k = 0; k < 40; ++k) indent.pop_back(), procs += indent + "}\n";
  }
  procs += "flow: |\n  p0()\n  phase q\nphases:\n  q: |\n    choose P1: go\nactions:\n  go:\n    do: \"\"\nscoring: {score: 0}\n";
  auto nested = load_text(procs);
  CHECK_FALSE(nested.game);
  REQUIRE(nested.messages().size() == 1);
  CHECK(has(nested.messages()[0], "error: nested more than 1000 levels deep here"));
}

TEST_CASE("compiled mode writes at most 512 KiB of C++", "[hostile][native]") {
  // At the limit exactly, accepted; one byte less, refused.
  auto l = load_text(game("p.x"));
  REQUIRE(l.game);
  std::string whole = native_source(*l.game), error;
  Pos where;
  CHECK(native_source(*l.game, error, where, whole.size()) == whole);
  CHECK(error.empty());
  CHECK(native_source(*l.game, error, where, whole.size() - 1).empty());
  CHECK(error.rfind("the C++ that compiled mode writes for this rule file passes ", 0) == 0);
  CHECK(test::has(error, " (its limit): its tables and instructions; run it without --compiled"));
  CHECK_FALSE(where.valid());
  // 32 functions of 190 terms each: over 900 KiB of C++, minutes to compile: refused at an
  // expression, before the compiler runs, with its position.
  std::string big = temp("long-functions.yaml", many_functions(32, 190));
  test::use_test_cache();
  auto r = run_kata("simulate " + big + " -g 1 --compiled");
  CHECK(r.status == 2);
  CHECK(r.out.rfind(big + ":", 0) == 0);
  CHECK(r.out.find(": error: the C++ that compiled mode writes for this rule file passes 512 KiB (its limit) here; ") !=
        std::string::npos);
  std::remove(big.c_str());
}
