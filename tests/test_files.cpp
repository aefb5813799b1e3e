// Files kata reads that someone else may have written (issue 11, "Hostile input"): logs
// replayed from elsewhere, the rule files they and scenarios name, and the compiled-mode
// cache. Each case is an attack or a mistake that once crashed, hung, misled or ran
// foreign code, and now gets a clear, positioned error.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <deque>
#include <fstream>
#include <optional>
#include <sstream>

#include "native/native.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::has;
using kata::test::run_kata;
using kata::test::temp;
namespace fs = std::filesystem;

namespace {


std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const char* small_game = R"(game: Small
players: 2
components:
  card:
    each: {value: 1..4}
    in: deck
zones:
  deck: {visibility: nobody}
  pile: {visibility: everyone}
flow: |
  shuffle deck
  while size(deck) > 0 { for p in players { if size(deck) > 0 { choose p: take } } }
actions:
  take:
    do: move top(deck) to pile
)";


std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (auto& l : lines) out += l + "\n";
  return out;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A finished 4-player game's log, marked as having its shuffles forced.
std::vector<std::string> forced_log() {
  std::string log = temp("files-game.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 4 -q --log " + log).status == 0);
  return lines_of(replace_once(read_text(log), "\"forced\":false", "\"forced\":true"));
}

size_t first_shuffle(const std::vector<std::string>& lines) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (has(lines[i], "\"type\":\"shuffle\"")) return i;
  FAIL("no shuffle in the log");
  return 0;
}

// The order's names in a shuffle line (`"order":["6","14",...]`).
std::string order_of(const std::string& line) {
  auto from = line.find("\"order\":[") + 9;
  return line.substr(from, line.find(']', from) - from);
}

}  // namespace

TEST_CASE("a forced shuffle order must be the zone's cards, each once", "[files][replay]") {
  auto lines = forced_log();
  size_t at = first_shuffle(lines);
  std::string order = order_of(lines[at]);
  std::string line = std::to_string(at + 1);
  auto replay_with = [&](const std::string& new_order) {
    auto changed = lines;
    changed[at] = replace_once(changed[at], order, new_order);
    return run_kata("replay -q " + temp("files-forced.jsonl", joined(changed)));
  };
  // Longer than the zone (and every card twice): this once wrote past the zone.
  auto twice = replay_with(order + "," + order);
  CHECK(twice.status == 1);
  CHECK(has(twice.out, "files-forced.jsonl:" + line + ": the shuffle's order cannot be used: the fixed order lists 30 cards, but deck holds 15"));
  std::string ones;
  for (int i = 0; i < 5000; ++i) ones += ",\"1\"";
  auto many = replay_with(order + ones);
  CHECK(many.status == 1);
  CHECK(has(many.out, ":" + line + ": the shuffle's order cannot be used: the fixed order lists 5015 cards, but deck holds 15"));
  // The same card twice, no longer than the zone.
  std::string first = order.substr(0, order.find(','));
  std::string second = order.substr(order.find(',') + 1);
  second = second.substr(0, second.find(','));
  auto duplicate = replay_with(replace_once(order, "," + second + ",", "," + first + ","));
  CHECK(duplicate.status == 1);
  CHECK(has(duplicate.out, ":" + line + ": the shuffle's order cannot be used: the fixed order names " +
                               first.substr(1, first.size() - 2) + " more than once"));
  // Shown to a seat, no card is named.
  auto changed = lines;
  changed[at] = replace_once(changed[at], order, order + "," + order);
  auto seat = run_kata("replay -q --as P2 " + temp("files-forced-seat.jsonl", joined(changed)));
  CHECK(seat.status == 1);
  CHECK(has(seat.out, ":" + line + ": the shuffle's order is not the zone's cards, each once"));
}

TEST_CASE("a forced order naming a card that is not in the zone is refused before it is used", "[files][replay]") {
  auto l = kata::test::load_text(R"(game: Order
players: 2
components:
  card:
    each: {value: 1..5}
    in: deck
zones:
  deck: {visibility: nobody}
  pile: {visibility: everyone}
flow: |
  move top(deck) to pile
  shuffle deck
)");
  REQUIRE(l.game);
  const Game& g = *l.game;
  auto attempt = [&](std::vector<int32_t> order) -> std::string {
    std::deque<std::vector<int32_t>> forced = {order};
    Hooks hooks{nullptr, &forced};
    try {
      new_game(g, 2, 1, default_options(g), &hooks);
    } catch (const ForcedOrderError& e) {
      return e.what();
    }
    return "";
  };
  int32_t moved = -1;  // the card that went to the pile
  {
    State s = new_game(g, 2, 1, default_options(g));
    moved = s[g.layout.zone_cards + g.zone_instance(1, 0) * g.card_count];
  }
  std::vector<int32_t> rest;
  for (int32_t c = 0; c < g.card_count; ++c)
    if (c != moved) rest.push_back(c);
  CHECK(attempt(rest) == "");
  CHECK(attempt({moved}) == "the fixed order names " + g.card_names[moved] + ", which is not in deck");
  CHECK(attempt({rest[0], rest[0]}) == "the fixed order names " + g.card_names[rest[0]] + " more than once");
  auto longer = rest;
  longer.push_back(rest[1]);
  CHECK(attempt(longer) == "the fixed order lists 5 cards, but deck holds 4");
}

TEST_CASE("a forced log is consistent, not verified against its seed", "[files][replay]") {
  std::string log = temp("files-forced-ok.jsonl", joined(forced_log()));
  auto r = run_kata("replay -q " + log);
  CHECK(r.status == 0);
  CHECK(has(r.out, "replay consistent: "));
  CHECK(has(r.out, "the result matches the log; shuffles and picks forced by the log, not checked against seed 4\n"));
  CHECK_FALSE(has(r.out, "verified"));
}

TEST_CASE("numbers in a log are range-checked, never cut short", "[files][replay]") {
  std::string text = joined(forced_log());
  text = replace_once(text, "\"forced\":true", "\"forced\":false");
  for (std::string value : {"4294967301", "999999999999999", "99999999999999999999999", " 8", "+8", "8 "}) {
    auto r = run_kata("replay -q " + temp("files-option.jsonl", replace_once(text, "\"centre_kamons\":\"8\"",
                                                                             "\"centre_kamons\":\"" + value + "\"")));
    INFO(value);
    CHECK(r.status == 1);
    CHECK(has(r.out, "files-option.jsonl:1: option 'centre_kamons' "));
  }
  // An option whose declared range goes beyond what a state's slot holds.
  auto l = kata::test::load_text(std::string(small_game).replace(0, 11, "game: Wide\noptions:\n  n: {default: 1, min: 0, max: 5}\n"));
  REQUIRE(l.game);
  Game wide = *l.game;
  wide.options.at(0).max = INT64_MAX;
  auto values = default_options(wide);
  std::string why;
  CHECK_FALSE(set_option(wide, values, "n", "4294967301", why));
  CHECK(why == "option 'n' must be between 0 and 2147483647");
  CHECK(values.at(0) == 1);
  CHECK(set_option(wide, values, "n", "2147483647", why));
  CHECK(values.at(0) == 2147483647);
  // A decision's number.
  auto moved = replace_once(text, "\"n\":2,", "\"n\":4294967298,");
  auto r = run_kata("replay -q " + temp("files-n.jsonl", moved));
  CHECK(r.status == 1);
  CHECK(has(r.out, "\"n\" must be a whole number"));
}

TEST_CASE("a log line nested too deeply is refused before it is parsed", "[files][replay]") {
  auto lines = forced_log();
  lines = lines_of(replace_once(joined(lines), "\"forced\":true", "\"forced\":false"));
  // The first phase line (the header and the game's first messages come before it).
  size_t at = 1;
  while (at < lines.size() && !has(lines[at], "\"type\":\"phase\"")) ++at;
  REQUIRE(at < lines.size());
  std::string where = "files-deep.jsonl:" + std::to_string(at + 1) + ": ";
  auto nested = [&](int depth) {  // the line's object is one level
    auto changed = lines;
    changed[at] = "{\"phase\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + ",\"type\":\"phase\"}";
    return run_kata("replay -q " + temp("files-deep.jsonl", joined(changed)));
  };
  auto deep = nested(100000);
  CHECK(deep.status == 1);
  CHECK(has(deep.out, where + "not a log line (JSON nested deeper than 32 levels)"));
  auto limit = nested(32);
  CHECK(limit.status == 1);
  CHECK(has(limit.out, where + "the game diverges: the log says {\"phase\":[[[["));
  CHECK(has(nested(33).out, where + "not a log line (JSON nested deeper than 32 levels)"));
  // Brackets inside a string are text.
  auto changed = lines;
  changed[at] = "{\"phase\":\"" + std::string(1000, '[') + "\",\"type\":\"phase\"}";
  CHECK(has(run_kata("replay -q " + temp("files-deep.jsonl", joined(changed))).out, where + "the game diverges"));
}

TEST_CASE("decisions moved about in a log are caught by their numbers", "[files][replay]") {
  auto lines = forced_log();
  lines = lines_of(replace_once(joined(lines), "\"forced\":true", "\"forced\":false"));
  // Two decision lines in a row, by the same player: swapped, each still legal where it
  // stands in some games; the numbers give them away.
  for (size_t i = 1; i + 1 < lines.size(); ++i)
    if (has(lines[i], "\"type\":\"decision\"") && has(lines[i + 1], "\"type\":\"decision\"")) {
      auto changed = lines;
      std::swap(changed[i], changed[i + 1]);
      auto r = run_kata("replay -q " + temp("files-swapped.jsonl", joined(changed)));
      CHECK(r.status == 1);
      CHECK(has(r.out, "files-swapped.jsonl:" + std::to_string(i + 1) + ": "));
      break;
    }
  auto renumbered = replace_once(joined(lines), "\"n\":3,", "\"n\":4,");
  auto r = run_kata("replay -q " + temp("files-renumbered.jsonl", renumbered));
  CHECK(r.status == 1);
  CHECK(has(r.out, ": this is decision 3 of the game, but the log numbers it 4"));
}

TEST_CASE("a rule file named by a log or a scenario is read only if it is a regular file of at most 4 MiB",
          "[files][replay]") {
  auto lines = forced_log();
  std::string text = replace_once(joined(lines), "\"forced\":true", "\"forced\":false");
  auto header_rules = [&](const std::string& path) {
    auto at = text.find("\"rules\":\"");
    auto end = text.find('"', at + 9);
    std::string changed = text;
    changed.replace(at, end + 1 - at, "\"rules\":\"" + path + "\"");
    return run_kata("replay -q " + temp("files-rules.jsonl", changed));
  };
  auto zero = header_rules("/dev/zero");
  CHECK(zero.status == 1);
  CHECK(has(zero.out, "files-rules.jsonl:1: the rule file named by the log: '/dev/zero' is not a regular file (a device, a pipe or a socket)"));
  auto dir = header_rules("/tmp");
  CHECK(dir.status == 1);
  CHECK(has(dir.out, "files-rules.jsonl:1: the rule file named by the log: '/tmp' is a directory, not a file"));
  std::string big = temp("files-big.yaml");
  std::ofstream(big) << std::string((4 << 20) + 1, '#');
  auto large = header_rules(big);
  CHECK(large.status == 1);
  CHECK(has(large.out, "the rule file named by the log: '" + big + "' is larger than 4 MiB"));
  std::string other = temp("files-other.yaml", small_game);
  auto not_it = header_rules(other);
  CHECK(has(not_it.out, "'" + other + "' is not the rule file this log was made with"));

  auto scenario = run_kata("test " + temp("files-scenario.yaml", "players: 2\nrules: /dev/zero\nsteps: []\n"));
  CHECK(scenario.status == 1);
  CHECK(has(scenario.out, "2:8: error: the scenario's rule file: '/dev/zero' is not a regular file (a device, a pipe or a socket)"));
  auto scenario_dir = run_kata("test " + temp("files-scenario.yaml", "players: 2\nrules: /tmp\nsteps: []\n"));
  CHECK(has(scenario_dir.out, "2:8: error: the scenario's rule file: '/tmp' is a directory, not a file"));
}

// ---------------------------------------------------------------------------------------
// The compiled-mode cache.

namespace {


// The environment compiled mode reads, set for one test and put back afterwards.
struct Env {
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  void set(const char* name, const std::optional<std::string>& value) {
    const char* old = std::getenv(name);
    saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
    if (value) setenv(name, value->c_str(), 1);
    else unsetenv(name);
  }
  ~Env() {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it)
      if (it->second) setenv(it->first.c_str(), it->second->c_str(), 1);
      else unsetenv(it->first.c_str());
  }
};

fs::path fresh(const std::string& name) {
  fs::path dir = fs::path(KATA_TEST_CACHE) / "files" / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

std::string script(const fs::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  fs::permissions(path, fs::perms::owner_all);
  return path.string();
}

std::shared_ptr<const Game> small() {
  static auto l = kata::test::load_text(small_game);
  REQUIRE(l.game);
  return l.game;
}

std::string compile_error() {
  std::string error;
  auto g = compile_native(small(), error);
  CHECK_FALSE(g);
  return error;
}

}  // namespace

TEST_CASE("compiled mode: no cache directory without KATA_CACHE, XDG_CACHE_HOME or HOME", "[files][native]") {
  Env env;
  env.set("KATA_CACHE", std::nullopt);
  env.set("XDG_CACHE_HOME", std::nullopt);
  env.set("HOME", std::nullopt);
  CHECK(compile_error() ==
        "compiled mode needs a cache directory of your own: set KATA_CACHE, or XDG_CACHE_HOME or HOME to an absolute path");
  env.set("XDG_CACHE_HOME", "relative/cache");  // ignored, as the XDG specification says
  CHECK(has(compile_error(), "compiled mode needs a cache directory"));
}

TEST_CASE("compiled mode: an empty KATA_CACHE counts as unset", "[files][native]") {
  fs::path dir = fresh("empty");
  Env env;
  env.set("KATA_CACHE", "");
  env.set("XDG_CACHE_HOME", dir.string());
  env.set("KATA_CXX", "/bin/false");
  CHECK(has(compile_error(), "the C++ compiler '/bin/false' failed"));
  CHECK(fs::is_directory(dir / "kata"));  // $XDG_CACHE_HOME/kata, as without KATA_CACHE
  env.set("XDG_CACHE_HOME", std::nullopt);
  env.set("HOME", std::nullopt);
  CHECK(compile_error() ==
        "compiled mode needs a cache directory of your own: set KATA_CACHE, or XDG_CACHE_HOME or "
        "HOME to an absolute path");
}

TEST_CASE("compiled mode: a KATA_CACHE starting with '-' never reaches the compiler as an option", "[files][native]") {
  fs::path dir = fresh("dash");
  fs::create_directories(dir);
  fs::path args = dir / "args.txt";
  Env env;
  env.set("KATA_CXX", script(dir / "cxx", "for a in \"$@\"; do echo \"$a\"; done > " + args.string() + "; exit 1"));
  env.set("KATA_CACHE", "-dash-cache");
  fs::path cwd = fs::current_path();
  fs::current_path(dir);
  std::string error = compile_error();
  fs::current_path(cwd);
  for (auto& a : lines_of(read_text(args.string()))) {
    INFO(a);
    CHECK(a.rfind("-dash", 0) != 0);
  }
  CHECK(has(read_text(args.string()), (dir / "-dash-cache").string()));
}

TEST_CASE("compiled mode: a cache below a directory others may write is refused", "[files][native]") {
  fs::path open_dir = fresh("open");
  fs::create_directories(open_dir);
  fs::permissions(open_dir, fs::perms::all);  // 0777, not sticky
  Env env;
  env.set("KATA_CACHE", (open_dir / "cache").string());
  env.set("KATA_CXX", "/bin/false");
  CHECK(compile_error() == open_dir.string() + " may be written by others (it holds the cache directory " +
                                  (open_dir / "cache").string() +
                                  "); kata will not load code from it (set KATA_CACHE to a directory of your own)");
  // Sticky, like /tmp: others cannot replace what is ours.
  fs::permissions(open_dir, fs::perms::all | fs::perms::sticky_bit);
  CHECK(has(compile_error(), "the C++ compiler '/bin/false' failed"));
  fs::permissions(open_dir / "cache", fs::perms::owner_all | fs::perms::group_write);
  CHECK(has(compile_error(), "/cache may be written by others; kata will not load code from it"));
  fs::permissions(open_dir, fs::perms::owner_all);
}

TEST_CASE("compiled mode: a library is checked before it is loaded, through one descriptor", "[files][native]") {
  fs::path dir = fresh("library");
  Env env;
  env.set("KATA_CACHE", dir.string());
  env.set("KATA_CXX", std::nullopt);
  env.set("KATA_CXXFLAGS", std::nullopt);
  std::string error;
  auto g = compile_native(small(), error);
  INFO(error);
  REQUIRE(g);
  fs::path library = dynamic_cast<const NativeCode&>(*g->native).library;
  g.reset();
  // Another shared object put in its place: its constructor must never run.
  fs::path ran = dir.parent_path() / "constructor-ran";
  fs::remove(ran);
  fs::path evil = dir.parent_path() / "evil.cpp";
  std::ofstream(evil) << "#include <cstdio>\n__attribute__((constructor)) static void planted() { std::fopen(\"" << ran.string()
                      << "\", \"w\"); }\nextern \"C\" void kata_run() {}\nextern \"C\" int kata_legal() { return 0; }\n"
                         "extern \"C\" void kata_playout() {}\nextern \"C\" void kata_init() {}\n";
  fs::path evil_so = dir.parent_path() / "evil.so";
  REQUIRE(std::system(("c++ -shared -fPIC -o " + evil_so.string() + " " + evil.string()).c_str()) == 0);
  fs::copy_file(evil_so, library, fs::copy_options::overwrite_existing);
  auto again = compile_native(small(), error);
  CHECK(again);  // compiled again
  CHECK_FALSE(fs::exists(ran));
  again.reset();
  // A symbolic link is never followed: it is replaced by the library compiled again, and
  // what it pointed to is neither loaded nor written.
  std::string evil_bytes = read_text(evil_so.string());
  fs::remove(library);
  fs::create_symlink(evil_so, library);
  again = compile_native(small(), error);
  INFO(error);
  CHECK(again);
  again.reset();
  CHECK_FALSE(fs::exists(ran));
  CHECK_FALSE(fs::is_symlink(library));
  CHECK(fs::is_regular_file(library));
  CHECK(read_text(evil_so.string()) == evil_bytes);
  // A library others may write is refused.
  fs::permissions(library, fs::perms::owner_all | fs::perms::others_write);
  CHECK(has(compile_error(), library.string() + " may be written by others"));
}

TEST_CASE("compiled mode: a library cut short anywhere is compiled again, never mapped", "[files][native]") {
  // The marker may survive a cut while a segment the loader maps does not: dlopen would map
  // past the end of the file and kata die of SIGBUS. kata runs in a child process here, so
  // that such a death fails the test.
  fs::path dir = fresh("cut");
  fs::create_directories(dir);
  fs::path refuse = dir / "refuse";
  // One compiler throughout (the library's name depends on it), refusing while `refuse` is there.
  std::string cxx = script(dir / "cxx", "[ -e '" + refuse.string() + "' ] && exit 1\nexec c++ \"$@\"");
  Env env;
  env.set("KATA_CACHE", (dir / "cache").string());
  env.set("KATA_CXX", cxx);
  env.set("KATA_CXXFLAGS", std::nullopt);
  const std::string perft = "perft rules/tictactoe.yaml -d 2 --compiled";
  auto first = run_kata(perft);
  INFO(first.out);
  REQUIRE(first.status == 0);
  fs::path library;
  for (const auto& f : fs::directory_iterator(dir / "cache"))
    if (f.path().extension() == ".so") library = f.path();
  REQUIRE(!library.empty());
  std::string whole;
  {
    std::ifstream in(library, std::ios::binary);
    whole.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(refuse) << "";
  for (int percent = 5; percent <= 95; percent += 5) {
    std::ofstream(library, std::ios::binary).write(whole.data(), static_cast<std::streamsize>(whole.size() * percent / 100));
    fs::permissions(library, fs::perms::owner_read | fs::perms::owner_write);
    auto r = run_kata(perft);
    INFO(percent << "%: " << r.out);
    CHECK(r.status == 2);  // the damage seen, the compiler (refusing) run again
    CHECK(has(r.out, "the C++ compiler '" + cxx + "' failed"));
  }
  fs::remove(refuse);
  std::ofstream(library, std::ios::binary).write(whole.data(), static_cast<std::streamsize>(whole.size() * 3 / 4));
  auto again = run_kata(perft);
  INFO(again.out);
  CHECK(again.status == 0);
  CHECK(again.out == first.out);
}

TEST_CASE("compiled mode: what a killed compilation left is removed", "[files][native]") {
  fs::path dir = fresh("stale");
  fs::create_directories(dir / "tmp-2147483646-0");
  std::ofstream(dir / "tmp-2147483646-0" / "x.cpp") << "left over";
  fs::create_directories(dir / "tmp-1-0");  // init is alive: not ours to judge
  Env env;
  env.set("KATA_CACHE", dir.string());
  env.set("KATA_CXX", "/bin/false");
  compile_error();
  CHECK_FALSE(fs::exists(dir / "tmp-2147483646-0"));
  CHECK(fs::exists(dir / "tmp-1-0"));
}

TEST_CASE("compiled mode: a compiler that never finishes is stopped after KATA_CXX_TIMEOUT", "[files][native]") {
  fs::path dir = fresh("timeout");
  fs::create_directories(dir);
  Env env;
  env.set("KATA_CACHE", (dir / "cache").string());
  std::string cxx = script(dir / "cxx", "sleep 1000");
  env.set("KATA_CXX", cxx);
  env.set("KATA_CXX_TIMEOUT", "1");
  CHECK(compile_error() == "the C++ compiler '" + cxx +
                                  "' did not finish within 1 second and was stopped (KATA_CXX_TIMEOUT sets the limit)");
  for (std::string bad : {"0", "-1", "x", "86401", "10s"}) {
    env.set("KATA_CXX_TIMEOUT", bad);
    CHECK(compile_error() == "KATA_CXX_TIMEOUT is '" + bad + "', but must be a number of seconds from 1 to 86400");
  }
}

namespace {

// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet), waiting up to 5 s.
bool ended(pid_t pid) {
  for (int i = 0; i < 250; ++i) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
    usleep(20000);
  }
  return false;
}

// Starts compiling in a child process, whose compiler (a script) starts a `sleep` and waits;
// once the sleep runs, the child gets SIGTERM. With `handled`, the child catches SIGTERM as
// `kata play` does, and exits 0 if the compilation failed saying so and the handler ran.
// The child's status, and the sleep's pid.
std::pair<int, pid_t> terminate_compilation(const fs::path& dir, bool handled) {
  fs::create_directories(dir);
  fs::path pid_file = dir / "sleep.pid";
  Env env;
  env.set("KATA_CACHE", (dir / "cache").string());
  env.set("KATA_CXX", script(dir / "cxx", "sleep 1000 &\necho $! > " + pid_file.string() + ".part\nmv " +
                                              pid_file.string() + ".part " + pid_file.string() + "\nwait"));
  env.set("KATA_CXX_TIMEOUT", "60");
  small();  // loaded before the fork
  pid_t child = fork();
  if (child == 0) {
    static volatile std::sig_atomic_t caught = 0;
    if (handled) {
      struct sigaction sa {};
      sa.sa_handler = [](int sig) { caught = sig; };
      sigaction(SIGTERM, &sa, nullptr);
    }
    std::string error;
    auto g = compile_native(small(), error);
    bool told = !g && error.find("was stopped: kata was asked to stop (signal 15)") != std::string::npos;
    _exit(handled && told && caught == SIGTERM ? 0 : 7);
  }
  REQUIRE(child > 0);
  pid_t sleeper = 0;
  for (int i = 0; i < 500 && !sleeper; ++i) {
    std::ifstream in(pid_file);
    if (!(in >> sleeper)) usleep(20000);
  }
  kill(child, SIGTERM);
  int status = 0;
  waitpid(child, &status, 0);
  return {status, sleeper};
}

}  // namespace

// The compiler runs in a process group of its own (so that a timeout kills all it
// started); a signal to kata must not leave it running, nor its work in the cache.
TEST_CASE("compiled mode: a signal to kata stops the compiler and removes its work", "[files][native]") {
  for (bool handled : {false, true}) {
    INFO((handled ? "kata handles SIGTERM" : "SIGTERM's default action"));
    fs::path dir = fresh(handled ? "signal-handled" : "signal");
    auto [status, sleeper] = terminate_compilation(dir, handled);
    REQUIRE(sleeper > 0);
    if (handled) {
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    } else {
      CHECK(WIFSIGNALED(status));
      CHECK(WTERMSIG(status) == SIGTERM);
    }
    CHECK(ended(sleeper));
    if (!ended(sleeper)) kill(sleeper, SIGKILL);
    for (const auto& entry : fs::directory_iterator(dir / "cache")) CHECK(entry.path().filename().string().rfind("tmp-", 0) != 0);
  }
}

TEST_CASE("compiled mode: a compiler that writes nothing, and a sanitizer, are told as such", "[files][native]") {
  fs::path dir = fresh("misleading");
  Env env;
  env.set("KATA_CACHE", dir.string());
  env.set("KATA_CXX", "/bin/true");
  CHECK(compile_error() == "the C++ compiler '/bin/true' exited with success but wrote no library (is KATA_CXX a C++ compiler?)");
  env.set("KATA_CXX", std::nullopt);
  env.set("KATA_CXXFLAGS", "-g -fsanitize=address");
  if (built_with_sanitizer()) {
    // The sanitizer's runtime is in the program already: the flag is let through.
    std::string error;
    compile_native(small(), error);
    CHECK(error.find("a sanitizer cannot be added") == std::string::npos);
  } else {
    CHECK(compile_error() ==
          "KATA_CXXFLAGS has '-fsanitize=address', but a sanitizer cannot be added to a library kata loads: build kata "
          "itself with it (CMAKE_CXX_FLAGS) and run the game with KATA_CXXFLAGS='-fsanitize=address' then");
  }
}

TEST_CASE("a scenario's players and seed are whole numbers in range, refused where they are written", "[files][scenario]") {
  std::string rules = std::string(KATA_SOURCE_DIR) + "/rules/kendo.yaml";
  auto with = [&](const std::string& lines) {
    return run_kata("test " + temp("files-numbers.yaml", "rules: " + rules + "\n" + lines + "steps: []\n"));
  };
  CHECK(has(with("players: 99999999999\n").out, "2:10: error: 'players' must be a whole number from 1 to 16"));
  CHECK(has(with("players: [1]\n").out, "2:10: error: 'players' must be a whole number from 1 to 16"));
  CHECK(has(with("players: 2\nseed: -1\n").out, "3:7: error: 'seed' must be a whole number from 0 to 18446744073709551615"));
  CHECK(has(with("players: 2\nseed: 18446744073709551616\n").out, "3:7: error: 'seed' must be a whole number from 0 to 18446744073709551615"));
  CHECK(has(with("players: 2\nseed: 1.5\n").out, "3:7: error: 'seed' must be a whole number"));
  CHECK(with("players: 2\nseed: 18446744073709551615\n").status == 0);
}
