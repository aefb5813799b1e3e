// Compiled mode (interpreter/native/) must be the interpreter, only faster: on every rule
// file in rules/, at every player count, the same legal decisions and the same state after
// every decision, slot for slot; the same errors, with the same positions; and a missing
// compiler is a clear error, not a crash.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "agents/runner.hpp"
#include "native/native.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::compiled;
using kata::test::use_test_cache;

namespace {

// What a run ended with: the state, or the error and where it was raised.
struct Outcome {
  State state;
  std::string error;
  Pos pos;
};

// A cache directory of a test's own, emptied first; the tests' cache again afterwards, also
// when a REQUIRE stops the test.
struct OwnCache {
  std::filesystem::path dir;
  explicit OwnCache(const char* name) : dir(std::filesystem::path(KATA_TEST_CACHE) / name) {
    std::filesystem::remove_all(dir);
    setenv("KATA_CACHE", dir.c_str(), 1);
  }
  ~OwnCache() { use_test_cache(); }
};

Outcome run_until_error(const Game& g, int players, uint64_t seed) {
  Outcome o;
  try {
    o.state = random_playout(g, players, seed, default_options(g));
  } catch (const RuntimeError& e) {
    o.error = e.what();
    o.pos = e.pos;
  }
  return o;
}

}  // namespace

TEST_CASE("compiled code plays every rule file exactly as the interpreter does", "[native]") {
  for (const auto& file : kata::test::rule_files()) {
    auto l = kata::test::load_file(file);
    REQUIRE(l.game);
    auto native = compiled(l.game);
    for (int players = l.game->min_players; players <= std::min(l.game->max_players, 6); ++players) {
      auto options = default_options(*l.game);
      if (!setup_error(*l.game, players, options).empty()) continue;
      for (uint64_t seed = 1; seed <= 25; ++seed) {
        INFO(file << ", " << players << " players, seed " << seed);
        kata::test::lockstep(*l.game, *native, players, seed, options);
      }
    }
  }
}

TEST_CASE("a simulation gives the same statistics compiled", "[native]") {
  auto l = kata::test::load_file("rules/kenjin.yaml");
  REQUIRE(l.game);
  auto native = compiled(l.game);
  auto options = default_options(*l.game);
  SimulationStats a = simulate(*l.game, 200, 3, 7, options, 1, false, {});
  SimulationStats b = simulate(*native, 200, 3, 7, options, 2, false, {});
  CHECK(a.wins == b.wins);
  CHECK(a.score_mean == b.score_mean);
  CHECK(a.length_mean == b.length_mean);
  CHECK(b.errors == 0);
}

TEST_CASE("compiled code reports runtime errors as the interpreter does", "[native]") {
  // Each game fails in its effects; the message and position must be the interpreter's.
  const char* head = R"(kata: 1
game: Failing
players: 2
components:
  card:
    each: {value: 1..3}
    name: "{value}"
    in: deck
zones:
  deck: {order: stack, visibility: nobody}
  hand: {per_player: true, order: stack, visibility: owner}
variables:
  x: {initial: 0}
actions:
  go:
    do: x += 1
  stuck:
    when: x > 5
    do: x += 1
limits:
  decisions: 5
)";
  // Each flow, and what its error says ("" for none).
  const std::vector<std::pair<std::string, std::string>> flows = {
      {"flow: |\n  x = 1 / (x - x)\n", "division by zero"},
      // beyond 64 bits: stopped, not wrapped, and the one overflowing division not a trap
      {"flow: |\n  x = if 2147483647 * 2147483647 * 2147483647 > 0 then 1 else 0\n", "too large to work out"},
      {"flow: |\n  x = if (0 - 65536 * 32768) * (65536 * 32768) * 2 / (0 - 1) > 0 then 1 else 0\n",
       "too large to work out"},
      {"flow: |\n  x = if sum(v * 2147483647 * 2147483647 for v in 1..3) > 0 then 1 else 0\n", "too large to work out"},
      {"flow: |\n  repeat until x < 0 { x += 1 }\n", "steps without a decision"},
      {"flow: |\n  repeat until x > 1 { x = 2000000000 + 2000000000 }\n", "too large to keep"},
      {"flow: |\n  move top(deck) to deck at position 7\n", "position 7 is outside deck (1 to 3)"},
      {"flow: |\n  move top(P1.hand) to deck\n", "no card here"},
      {"flow: |\n  choose next(P1): go\n  x = sum(v for v in 1..9000)\n", "a range of more than 4096 numbers"},
      {"flow: |\n  choose P1: stuck\n", "P1 has no legal action here (offered: stuck)"},
      {"flow: |\n  repeat until x < 0 { choose P2: go }\n", "went past 5 decisions"},
      {"flow: |\n  choose P1: go\n  x = 0\n", ""},
  };
  for (const auto& [flow, expected] : flows) {
    INFO(flow);
    auto l = kata::test::load_text(std::string(head) + flow);
    REQUIRE(l.game);
    auto native = compiled(l.game);
    Outcome a = run_until_error(*l.game, 2, 3), b = run_until_error(*native, 2, 3);
    CHECK(a.error.find(expected) != std::string::npos);
    CHECK(a.error.empty() == expected.empty());
    CHECK(a.error == b.error);
    CHECK(a.pos.line == b.pos.line);
    CHECK(a.pos.col == b.pos.col);
    if (a.error.empty()) CHECK(a.state == b.state);
  }
}

TEST_CASE("the generated source holds no text of the rule file", "[native]") {
  // Names are never written into the source: only numbers. A name made to break out of a
  // C++ string or comment has nowhere to go.
  auto l = kata::test::load_text(R"(kata: 1
game: Injected
players: 2
zones:
  evil_zone_name_xyz: {order: stack, visibility: everyone}
variables:
  evil_variable_name_xyz: {initial: 3}
functions:
  evil_function_name_xyz: "evil_variable_name_xyz * 2"
flow: |
  evil_variable_name_xyz = evil_function_name_xyz()
actions:
  go:
    do: evil_variable_name_xyz += 1
)");
  REQUIRE(l.game);
  std::string source = native_source(*l.game);
  CHECK(source.find("evil") == std::string::npos);
  CHECK(source.find("Injected") == std::string::npos);
}

TEST_CASE("a compiler that cannot run is a clear error", "[native]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  OwnCache cache("no-compiler");
  setenv("KATA_CXX", "/nonexistent/c++", 1);
  std::string error;
  auto g = compile_native(l.game, error);
  unsetenv("KATA_CXX");
  CHECK_FALSE(g);
  CHECK(error.find("cannot run the C++ compiler '/nonexistent/c++'") != std::string::npos);
}

TEST_CASE("a cached library that does not load is compiled again", "[native]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  OwnCache cache("broken");
  std::string error;
  REQUIRE(compile_native(l.game, error));
  int broken = 0;
  for (const auto& f : std::filesystem::directory_iterator(cache.dir))
    if (f.path().extension() == ".so") {
      std::filesystem::resize_file(f.path(), 100);  // cut short, as by a full disk
      ++broken;
    }
  REQUIRE(broken == 1);
  auto again = compile_native(l.game, error);
  INFO(error);
  REQUIRE(again);
  CHECK(random_playout(*again, 4, 1, default_options(*again)) == random_playout(*l.game, 4, 1, default_options(*l.game)));
}

TEST_CASE("a program written in chunks is compiled at -O1, its parts shared among the cores, others at -O3", "[native]") {
  auto kenjin = kata::test::load_file("rules/kenjin.yaml");
  auto koba = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(kenjin.game);
  REQUIRE(koba.game);
  std::string big = native_source(*kenjin.game), small = native_source(*koba.game);
  int parts = native_parts(big);
  CHECK(parts >= 2);
  CHECK(native_level(big) == 1);
  CHECK(native_level(small) == 3);
  CHECK(native_parts("no parts here") == 1);
  CHECK(native_level("#define KATA_LEVEL 1") == 3);  // only as a line of its own
  CHECK(native_parts("x\n#define KATA_PARTS 99999999999999999999\n") >= 1);

  // The compilers kata runs, seen through a compiler that writes down its arguments.
  OwnCache cache("parts");
  std::filesystem::path log = cache.dir / "calls.txt", wrapper = cache.dir / "cxx";
  std::filesystem::create_directories(cache.dir);
  std::ofstream(wrapper) << "#!/bin/sh\necho \"$*\" >> '" << log.string() << "'\nexec c++ \"$@\"\n";
  std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
  setenv("KATA_CXX", wrapper.c_str(), 1);
  std::string error;
  auto g = compile_native(kenjin.game, error);
  unsetenv("KATA_CXX");
  INFO(error);
  REQUIRE(g);
  CHECK(random_playout(*g, 2, 3, default_options(*g)) == random_playout(*kenjin.game, 2, 3, default_options(*kenjin.game)));
  std::vector<std::string> calls;
  {
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) calls.push_back(line);
  }
  int compilers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, parts);
  REQUIRE(calls.size() == static_cast<size_t>(compilers) + 1);  // then the link
  unsigned all = 0;
  for (int k = 0; k < compilers; ++k) {
    CHECK(calls[k].find(" -O1 ") != std::string::npos);
    size_t at = calls[k].find("-DKATA_PART=");
    REQUIRE(at != std::string::npos);
    unsigned mask = static_cast<unsigned>(std::stoul(calls[k].substr(at + 12)));
    CHECK(mask != 0);
    CHECK((all & mask) == 0);  // each part compiled once
    all |= mask;
  }
  CHECK(all == (1u << parts) - 1);

  // A program not in chunks: -O3.
  auto c4 = kata::test::load_file("rules/connect4.yaml");
  REQUIRE(c4.game);
  std::filesystem::remove(log);
  setenv("KATA_CXX", wrapper.c_str(), 1);
  auto g4 = compile_native(c4.game, error);
  unsetenv("KATA_CXX");
  REQUIRE(g4);
  std::ifstream in(log);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line.find(" -O3 ") != std::string::npos);
  CHECK(line.find("KATA_PART") == std::string::npos);  // one part
}
