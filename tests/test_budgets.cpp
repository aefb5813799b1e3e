// Nothing hangs or amplifies: each file is imported once and a cycle is an error at once;
// what a run prints is bounded (errors shown, quoted columns, message length); "did you
// mean" is worked out for the first errors only; load-time values and expressions at run
// time have step budgets; a source path that is not a small regular file is refused
// before it is read. Each test counts what stopped the work, never the time it took.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

std::string dir() {
  static std::string d = kata::test::scratch_dir("budgets");
  return d;
}

std::string write(const std::string& name, const std::string& text) {
  return kata::test::scratch_file("budgets", name, text);
}

kata::test::Loaded load(const std::string& path) { return kata::test::load_path(path); }

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

// ---- imports ----

TEST_CASE("a file importing itself is a cycle, reported at once at each import", "[budgets][imports]") {
  std::string self = write("self.yaml", "game: G\nplayers: 1\nimport: [self.yaml, self.yaml, self.yaml]\nflow: ''\n");
  auto l = load(self);
  CHECK(l.messages() == std::vector<std::string>{
                            "3:10: error: circular import: " + self + " -> self.yaml",
                            "3:21: error: circular import: " + self + " -> self.yaml",
                            "3:32: error: circular import: " + self + " -> self.yaml"});
  CHECK(l.sources->size() == 1);  // nothing read again
}

TEST_CASE("a cycle through other files names the chain, at the import that closes it", "[budgets][imports]") {
  write("ring_a.yaml", "import: [ring_b.yaml]\n");
  write("ring_b.yaml", "variables:\n  n: 0\nimport: [ring_a.yaml]\n");
  auto l = load(write("ring.yaml", "game: G\nplayers: 1\nimport: [ring_a.yaml]\nflow: ''\n"));
  REQUIRE(l.diags.items().size() == 1);
  std::string text = format_diagnostic(*l.sources, l.diags.items()[0]);
  CHECK(text.rfind("ring_b.yaml:3:10: error: circular import: ring_a.yaml -> ring_b.yaml -> ring_a.yaml\n", 0) == 0);
}

TEST_CASE("each file is read once, however many times it is imported", "[budgets][imports]") {
  // 16 levels, each importing the next three times: 2 x 3^15 reads if each import read its file.
  write("fan15.yaml", "variables:\n  deepest: 16\n");
  for (int i = 14; i >= 0; --i) {
    std::string next = "fan" + std::to_string(i + 1) + ".yaml";
    write("fan" + std::to_string(i) + ".yaml",
          "import: [" + next + ", " + next + ", " + next + "]\nvariables:\n  v" + std::to_string(i) + ": 1\n");
  }
  auto l = load(write("fan.yaml", "game: G\nplayers: 1\nimport: [fan0.yaml, fan0.yaml]\nflow: deepest += v0\n"));
  CHECK(l.messages().empty());
  REQUIRE(l.game);
  CHECK(l.sources->size() == 17);  // fan.yaml and fan0 ... fan15, once each
}

TEST_CASE("a file imported again with a rename is an error: it is read once", "[budgets][imports]") {
  write("twice.yaml", "variables:\n  n: 0\n");
  auto l = load(write("twice_main.yaml", "game: G\nplayers: 1\nimport:\n  - twice.yaml\n  - {file: twice.yaml, rename: {n: m}}\nflow: ''\n"));
  CHECK(l.messages() == std::vector<std::string>{
                            "5:12: error: 'twice.yaml' is imported already; a file is read once, so rename it where it is first imported"});
}

TEST_CASE("imports nest at most 16 levels", "[budgets][imports]") {
  // deep0 imports deep1 ... : the root and 16 levels load; a 17th level is refused.
  auto chain = [&](const std::string& stem, int levels) {
    write(stem + std::to_string(levels) + ".yaml", "variables:\n  bottom: 1\n");
    for (int i = levels - 1; i >= 1; --i)
      write(stem + std::to_string(i) + ".yaml", "import: [" + stem + std::to_string(i + 1) + ".yaml]\n");
    return load(write(stem + ".yaml", "game: G\nplayers: 1\nimport: [" + stem + "1.yaml]\nflow: ''\n"));
  };
  auto ok = chain("deep", 16);
  CHECK(ok.messages().empty());
  auto deep = chain("deeper", 17);
  CHECK(deep.messages() == std::vector<std::string>{"1:10: error: imports nested more than 16 levels deep"});
  REQUIRE(deep.diags.items().size() == 1);
  CHECK(deep.sources->at(deep.diags.items()[0].pos.file).name == "deeper16.yaml");
}

// ---- reading source files ----

TEST_CASE("a source path that is not a small regular file is refused before reading", "[budgets]") {
  std::string text, why;
  CHECK_FALSE(read_source("/dev/zero", text, why));
  CHECK(why == "'/dev/zero' is not a regular file (a device, a pipe or a socket)");
  CHECK(text.empty());
  CHECK_FALSE(read_source(dir(), text, why));
  CHECK(why == "'" + dir() + "' is a directory, not a file");
  why.clear();
  CHECK_FALSE(read_source(dir() + "/nothere.yaml", text, why));
  CHECK(why == "cannot read '" + dir() + "/nothere.yaml'");
  std::string fifo = dir() + "/pipe.yaml";
  std::filesystem::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  why.clear();
  CHECK_FALSE(read_source(fifo, text, why));  // without a writer: refused, not waited for
  CHECK(why == "'" + fifo + "' is not a regular file (a device, a pipe or a socket)");
  // The size limit, at its boundary.
  std::string at_limit = write("limit.yaml", std::string(max_source_size, '#'));
  why.clear();
  CHECK(read_source(at_limit, text, why));
  CHECK(text.size() == max_source_size);
  std::string over = write("over.yaml", std::string(max_source_size + 1, '#'));
  CHECK_FALSE(read_source(over, text, why));
  CHECK(why == "'" + over + "' is larger than 4 MiB");
  // An import and a rule file go through it.
  auto l = load(write("imports_zero.yaml", "game: G\nplayers: 1\nimport: [/dev/zero]\nflow: ''\n"));
  CHECK(l.messages() == std::vector<std::string>{"3:10: error: '/dev/zero' is not a regular file (a device, a pipe or a socket)"});
  Diagnostics d;
  std::shared_ptr<Sources> sources;
  CHECK_FALSE(load_game("/dev/zero", sources, d));
  REQUIRE(d.items().size() == 1);
  CHECK(d.items()[0].message == "'/dev/zero' is not a regular file (a device, a pipe or a socket)");
}

// ---- what is printed ----

namespace {

// One line holding `n` unknown keys: n errors on one long line.
std::string many_errors(int n) {
  std::string line = "variables: {v: {initial: 1";
  for (int i = 0; i < n; ++i) line += ", bogus" + std::to_string(i) + ": 1";
  return "game: G\nplayers: 1\nflow: ''\n" + line + "}}\n";
}

}  // namespace

TEST_CASE("a run prints at most 50 errors, then how many more there are", "[budgets][diagnostics]") {
  auto l = load_text(many_errors(200));
  REQUIRE(l.diags.error_count() == 200);
  std::string text = format_diagnostics(*l.sources, l.diags);
  CHECK(count_of(text, ": error: ") == 50);
  CHECK(text.substr(text.size() - 32) == "kata: note: and 150 more errors\n");
  std::string all = format_diagnostics(*l.sources, l.diags, false, 0);
  CHECK(count_of(all, ": error: ") == 200);
  CHECK(all.find("more error") == std::string::npos);
  CHECK(count_of(format_diagnostics(*l.sources, l.diags, false, 1), ": error: ") == 1);
  CHECK(format_diagnostics(*l.sources, l.diags, false, 199).find("and 1 more error\n") != std::string::npos);
}

TEST_CASE("the first 10000 diagnostics are kept, the rest only counted", "[budgets][diagnostics]") {
  auto l = load_text(many_errors(12000));
  CHECK(l.diags.error_count() == 12000);
  CHECK(l.diags.items().size() == max_kept_diagnostics);
  // Shown all: the kept ones, then how many more there were.
  std::string all = format_diagnostics(*l.sources, l.diags, false, 0);
  CHECK(count_of(all, ": error: ") == 10000);
  CHECK(all.substr(all.size() - 33) == "kata: note: and 2000 more errors\n");
}

TEST_CASE("a long source line is quoted 120 columns around the caret", "[budgets][diagnostics]") {
  std::string pad(300, ' ');
  std::string line = "variables: {v: {initial: 1," + pad + "bogus: 1," + pad + "other: 2}}";
  auto l = load_text("game: G\nplayers: 1\nflow: ''\n" + line + "\n");
  REQUIRE(l.diags.items().size() == 2);
  // The caret 60 columns into the 120 shown.
  size_t at = line.find("bogus");
  std::string text = format_diagnostic(*l.sources, l.diags.items()[0]);
  std::string header = fmt::format("test.yaml:4:{}: error: unknown key 'bogus' in a variable", at + 1);
  CHECK(text.rfind(header, 0) == 0);
  CHECK(text.substr(text.find('\n') + 1) == "    4 | ..." + line.substr(at - 60, 120) + "...\n"
                                            "      | ..." + std::string(60, ' ') + "^\n");
  // Near the start: no "..." before; near the end: none after.
  auto s = load_text("game: G\nplayers: 1\nflow: ''\nvariables: {v: {initial: 1, bogus: 1," + pad + "x: 2}}\n");
  std::string start = format_diagnostic(*s.sources, s.diags.items()[0]);
  std::string sline = "variables: {v: {initial: 1, bogus: 1," + pad + "x: 2}}";
  CHECK(start.find("    4 | " + sline.substr(0, 120) + "...\n      | " + std::string(28, ' ') + "^\n") != std::string::npos);
  std::string end = format_diagnostic(*s.sources, s.diags.items()[1]);
  CHECK(end.find("    4 | ..." + sline.substr(sline.size() - 120) + "\n") != std::string::npos);
}

TEST_CASE("a quoted line is never cut inside a UTF-8 character", "[budgets][diagnostics]") {
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += "\xC3\xA9";  // é, two bytes
  auto l = load_text("game: G\nplayers: 1\nflow: ''\n\nvariables: {v: {initial: 1, x" + wide + ": 2}}\n");
  REQUIRE_FALSE(l.diags.items().empty());
  std::string text = format_diagnostic(*l.sources, l.diags.items().back());
  size_t bar = text.find("    5 | ");
  REQUIRE(bar != std::string::npos);
  std::string quoted = text.substr(bar + 8, text.find('\n', bar) - bar - 8);
  // No dangling continuation byte after the leading "..." or before the trailing one.
  std::string body = quoted.substr(quoted.rfind("...", 0) == 0 ? 3 : 0);
  if (body.size() >= 3 && body.compare(body.size() - 3, 3, "...") == 0) body.resize(body.size() - 3);
  CHECK((static_cast<unsigned char>(body.front()) & 0xC0) != 0x80);
  CHECK((static_cast<unsigned char>(body.back()) & 0xE0) != 0xC0);  // not a lead byte cut off
}

TEST_CASE("a long message is cut in the middle", "[budgets][diagnostics]") {
  std::string m = std::string(300, 'a') + std::string(300, 'z');
  std::string c = clip_message(m);
  CHECK(c == std::string(266, 'a') + " ... " + std::string(134, 'z'));
  CHECK(clip_message(std::string(400, 'b')) == std::string(400, 'b'));
}

TEST_CASE("kata check --max-errors, in text and JSON", "[budgets][diagnostics][cli]") {
  std::string file = write("many.yaml", many_errors(60));
  auto run = [&](const std::string& args) { return kata::test::run_kata(args + file); };
  auto r = run("check ");
  CHECK(r.status == 1);
  CHECK(count_of(r.out, ": error: ") == 50);
  CHECK(r.out.find("kata: note: and 10 more errors\n" + file + ": 60 errors, 0 warnings\n") != std::string::npos);
  CHECK(count_of(run("check --max-errors 0 ").out, ": error: ") == 60);
  CHECK(count_of(run("check --max-errors 3 ").out, ": error: ") == 3);
  CHECK(count_of(run("check --json ").out, "\"severity\": \"error\"") == 50);
  CHECK(count_of(run("check --json --max-errors 0 ").out, "\"severity\": \"error\"") == 60);
  auto bad = run("check --max-errors -1 ");
  CHECK(bad.out.find("--max-errors") != std::string::npos);
  CHECK(bad.status == 2);
}

// ---- did you mean ----

TEST_CASE("did you mean: for the first 100 errors only", "[budgets][diagnostics]") {
  // 300 functions and 300 misspelt calls of them: each call could be matched.
  std::string text = "game: G\nplayers: 1\nvariables:\n  t: 0\nfunctions:\n";
  for (int i = 0; i < 300; ++i) text += "  fun" + std::to_string(1000 + i) + ": 1\n";
  text += "flow: |\n";
  for (int i = 0; i < 300; ++i) text += "  t = fnu" + std::to_string(1000 + i) + "()\n";
  auto l = load_text(text);
  l.diags.sort();
  auto m = l.messages();
  REQUIRE(m.size() >= 300);
  CHECK(m[0].find("unknown function 'fnu1000'; did you mean 'fun1000'?") != std::string::npos);
  CHECK(m[99].find("unknown function 'fnu1099'; did you mean 'fun1099'?") != std::string::npos);
  CHECK(m[100].find("unknown function 'fnu1100'") != std::string::npos);
  CHECK(m[100].find("did you mean") == std::string::npos);
}

TEST_CASE("did you mean: the closest name within a third of the length", "[budgets][diagnostics]") {
  CHECK(closest_name("hnad", {"hand", "deck"}) == "hand");   // a swap is one edit
  CHECK(closest_name("dek", {"hand", "deck"}) == "deck");
  CHECK(closest_name("zzzz", {"hand", "deck"}).empty());
  CHECK(closest_name("abcdefghi", {"abcdefghijkl", "abcdefgh"}) == "abcdefgh");
  CHECK(closest_name("abcdefghi", {"abcdefghijkl"}) == "abcdefghijkl");  // 3 edits: a third
  CHECK(closest_name("abcdefghi", {"abcdefghijklm"}).empty());          // 4: more
  CHECK(closest_name(std::string(65, 'a'), {std::string(65, 'a')}).empty());
  std::string long_name(64, 'q');
  CHECK(closest_name(long_name.substr(1) + "r", {long_name}) == long_name);
}

// ---- load-time values ----

TEST_CASE("load-time values have a budget of 10000000 steps", "[budgets]") {
  auto l = load_text(
      "game: G\nplayers: 1\nflow: ''\n"
      "components:\n  point:\n    each: {v: 1..4}\n"
      "    where: sum(sum(sum(1 for z in 1..4096) for y in 1..4096) for x in 1..4096) > 0\n");
  REQUIRE(l.messages().size() == 1);
  CHECK(l.messages()[0].rfind("7:", 0) == 0);
  CHECK(l.messages()[0].find("error: working out load-time values (where:, links:, board:) takes more than 10000000 steps") != std::string::npos);
  // links between 1024 points, each pair's condition a sum over 4096 numbers.
  auto links = load_text(
      "game: G\nplayers: 1\nflow: ''\n"
      "components:\n  point: {each: {v: 1..1024}}\n"
      "links:\n  point: sum(1 for x in 1..4096) == 0\n");
  REQUIRE(links.messages().size() == 1);
  CHECK(links.messages()[0] == "7:10: error: working out load-time values (where:, links:, board:) takes more than 10000000 steps");
}

// ---- expressions at run time ----

TEST_CASE("aggregates at run time count against limits.steps", "[budgets][runtime]") {
  auto with_steps = [](int steps) {
    return load_text("game: G\nplayers: 1\nvariables:\n  t: 0\nflow: |\n  t = sum(x + t for x in 1..10)\n"
                     "limits: {steps: " + std::to_string(steps) + "}\n");
  };
  auto ok = with_steps(10);  // ten rounds: within the budget
  REQUIRE(ok.game);
  State s = new_game(*ok.game, 1, 1, default_options(*ok.game));
  CHECK(s[ok.game->layout.globals] == 55);
  auto over = with_steps(9);
  REQUIRE(over.game);
  try {
    new_game(*over.game, 1, 1, default_options(*over.game));
    FAIL("no error");
  } catch (const RuntimeError& e) {
    CHECK(e.pos.line == 6);
    CHECK(e.pos.col == 7);
    CHECK(std::string(e.what()) == "the expressions took more than 9 steps (rounds of aggregates and loops, and function calls) without a decision; raise limits.steps if this is intended");
  }
}

TEST_CASE("nested aggregates and chains of functions stop at the budget", "[budgets][runtime]") {
  // 4096^3 rounds, and 2^31 calls (functions may call functions 32 deep): each would run
  // for hours.
  auto nested = load_text("game: G\nplayers: 1\nvariables:\n  t: 0\nflow: |\n"
                          "  t = sum(sum(sum(1 for z in 1..4096) for y in 1..4096) for x in 1..4096)\n");
  REQUIRE(nested.game);
  CHECK_THROWS_WITH(new_game(*nested.game, 1, 1, default_options(*nested.game)),
                    Catch::Contains("the expressions took more than 1000000 steps"));
  std::string chain = "game: G\nplayers: 1\nvariables:\n  t: 0\nfunctions:\n  f0(x): x\n";
  for (int i = 1; i <= 30; ++i)
    chain += "  f" + std::to_string(i) + "(x): f" + std::to_string(i - 1) + "(x) + f" + std::to_string(i - 1) + "(x)\n";
  chain += "flow: t = f30(1) - f30(1)\n";
  auto calls = load_text(chain);
  REQUIRE(calls.game);
  CHECK_THROWS_WITH(new_game(*calls.game, 1, 1, default_options(*calls.game)),
                    Catch::Contains("the expressions took more than 1000000 steps"));
}

TEST_CASE("a condition listing the legal decisions has the same budget", "[budgets][runtime]") {
  auto l = load_text("game: G\nplayers: 1\nflow: 'choose P1: go'\n"
                     "actions:\n  go: {when: 'sum(sum(1 for y in 1..4096) for x in 1..4096) > 0', do: ''}\n");
  REQUIRE(l.game);
  State s = new_game(*l.game, 1, 1, default_options(*l.game));
  std::vector<Decision> legal;
  CHECK_THROWS_WITH(legal_decisions(*l.game, s, legal), Catch::Contains("the expressions took more than 1000000 steps"));
}
