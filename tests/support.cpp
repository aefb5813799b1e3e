// Implementation of the test helpers.
#include "support.hpp"

#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/detail/Configuration.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <cstdio>
#include <unistd.h>
#include <sys/wait.h>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "agents/runner.hpp"
#include "native/native.hpp"

namespace kata::test {

std::vector<std::string> Loaded::messages() const {
  std::vector<std::string> out;
  for (const auto& d : diags.items())
    out.push_back(fmt::format("{}:{}: {}: {}", d.pos.line, d.pos.col, d.severity == Severity::error ? "error" : "warning", d.message));
  return out;
}

Loaded load_text(const std::string& yaml) {
  Loaded l;
  l.game = load_game_text("test.yaml", yaml, l.sources, l.diags);
  return l;
}

Loaded load_file(const std::string& path) {
  Loaded l;
  l.game = load_game(std::string(KATA_SOURCE_DIR) + "/" + path, l.sources, l.diags);
  return l;
}

std::vector<std::string> rule_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KATA_SOURCE_DIR) + "/rules"))
    if (e.path().extension() == ".yaml") out.push_back("rules/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

State play(const Game& g, int players, const std::vector<std::string>& decisions, uint64_t seed) {
  State s = new_game(g, players, seed, default_options(g));
  for (const auto& text : decisions) {
    std::string why;
    auto d = parse_decision(g, s, text, why);
    if (!d) throw std::runtime_error(fmt::format("'{}' refused: {}", text, why));
    apply(g, s, *d);
  }
  return s;
}

void use_test_cache() { setenv("KATA_CACHE", KATA_TEST_CACHE, 1); }

std::shared_ptr<const Game> compiled(const std::shared_ptr<const Game>& g) {
  use_test_cache();
  std::string error;
  auto c = compile_native(g, error);
  INFO(error);
  REQUIRE(c);
  REQUIRE(c->native);
  return c;
}

std::shared_ptr<const Game> tree_walked(const Game& g) {
  auto copy = std::make_shared<Game>(g);
  build_xcode(*copy, true);
  return copy;
}

size_t lockstep(const Game& interpreted, const Game& native, int players, uint64_t seed,
                const std::vector<int64_t>& options) {
  State a = new_game(interpreted, players, seed, options);
  State b = new_game(native, players, seed, options);
  REQUIRE(a == b);
  State c = a;
  // And by the tree walk alone (no register code): the same legal decisions and states.
  auto tree = tree_walked(interpreted);
  State t = new_game(*tree, players, seed, options);
  REQUIRE(t == a);
  std::vector<Decision> lt;
  // And listened to (the events recorded, messages worked out, procedures that only tell
  // called): the same states.
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State heard = new_game(interpreted, players, seed, options, &hooks);
  REQUIRE(heard == a);
  // ... and the plain register code (no body laid out in place of its call), listened to:
  // the same events.
  std::vector<Event> tree_events;
  Hooks tree_hooks{&tree_events, nullptr};
  State tree_heard = new_game(*tree, players, seed, options, &tree_hooks);
  auto same_events = [&] {
    REQUIRE(events.size() == tree_events.size());
    for (size_t i = 0; i < events.size(); ++i) {
      const Event &x = events[i], &y = tree_events[i];
      REQUIRE(std::tie(x.kind, x.player, x.card, x.from, x.to, x.seen_by) ==
              std::tie(y.kind, y.player, y.card, y.from, y.to, y.seen_by));
    }
  };
  same_events();
  uint64_t rng = seed ^ 0x5bd1e995ULL;
  std::vector<Decision> la, lb;
  size_t longest = 0;
  int steps = 0;
  while (!a.over()) {
    legal_decisions(interpreted, a, la);
    legal_decisions(native, b, lb);
    REQUIRE(la == lb);
    legal_decisions(*tree, t, lt);
    REQUIRE(lt == la);
    longest = std::max(longest, la.size());
    const Decision& d = la[uniform(rng, static_cast<uint32_t>(la.size()))];
    apply(interpreted, a, d);
    apply(native, b, d);
    REQUIRE(a == b);
    apply(*tree, t, d);
    REQUIRE(t == a);
    apply(steps % 2 ? interpreted : native, c, d);
    REQUIRE(c == a);
    events.clear();
    apply(interpreted, heard, d, &hooks);
    REQUIRE(heard == a);
    tree_events.clear();
    apply(*tree, tree_heard, d, &tree_hooks);
    REQUIRE(tree_heard == a);
    same_events();
    REQUIRE(++steps < 10000);
  }
  REQUIRE(b.over());
  REQUIRE(scores(interpreted, a) == scores(native, b));
  // A whole game played by compiled code alone (kata_playout) ends as the interpreter's.
  State whole = random_playout(interpreted, players, seed, options);
  REQUIRE(whole == random_playout(native, players, seed, options));
  REQUIRE(whole == random_playout(*tree, players, seed, options));
  return longest;
}


const std::vector<std::shared_ptr<const Game>>& rule_games() {
  static const std::vector<std::shared_ptr<const Game>> all = [] {
    std::vector<std::shared_ptr<const Game>> out;
    for (const auto& f : rule_files()) {
      auto l = load_file(f);
      if (!l.game) throw std::runtime_error(f + " does not load");
      out.push_back(l.game);
    }
    return out;
  }();
  return all;
}

std::vector<int64_t> random_options(const Game& g, int players) {
  std::vector<int64_t> values = default_options(g);
  for (size_t i = 0; i < g.options.size(); ++i) {
    const OptionInfo& o = g.options[i];
    if (players < o.min_players || players > o.max_players) continue;
    if (o.is_bool) values[i] = *rc::gen::inRange(0, 2);
    else if (!o.choices.empty()) values[i] = *rc::gen::elementOf(o.choices);
  }
  RC_ASSERT(setup_error(g, players, values) == "");
  return values;
}

// This process's directory for the files its tests write, `kata-tests-PID` in the temporary
// directory, made when first asked for and removed with everything in it when the process
// exits (ctest runs each test case in a process of its own).
std::filesystem::path test_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() : path(std::filesystem::temp_directory_path() / ("kata-tests-" + std::to_string(getpid()))) {
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static Dir dir;
  return dir.path;
}

Run run_kata(const std::string& args, const std::string& input) {
  std::string cmd = std::string(KATA_BINARY) + " " + args + " 2>&1";
  if (!input.empty()) {
    // ctest runs tests in parallel processes: each input gets a name of its own.
    static int count = 0;
    std::string in = (test_dir() / ("cli-input-" + std::to_string(++count) + ".txt")).string();
    std::ofstream(in) << input;
    cmd = "cd " KATA_SOURCE_DIR " && " + cmd + " < " + in;
  } else {
    cmd = "cd " KATA_SOURCE_DIR " && " + cmd + " < /dev/null";
  }
  return run_command(cmd);
}

Run run_command(const std::string& command) {
  Run r{0, {}};
  FILE* p = popen(command.c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string temp(const std::string& name, const std::string& text) {
  std::string p = (test_dir() / name).string();
  if (!text.empty()) std::ofstream(p) << text;
  return p;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const std::string tiny_game = R"(game: Tiny
players: 2..3
components:
  card:
    each: {value: 1..6}
    in: deck
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner}
variables:
  score: {per_player: true, initial: 0}
flow: |
  shuffle deck
  for p in players { move top(deck) to p.hand }
  for p in players { choose p: keep }
actions:
  keep:
    params: {c: player.hand}
    do: player.score += c.value
scoring:
  score: p.score
)";;

std::string with(const std::string& from, const std::string& to, std::string text) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string refused(const std::string& from, const std::string& to, const std::string& text) {
  auto l = load_text(with(from, to, text));
  CHECK_FALSE(l.game);
  return Catch::Detail::stringify(l.messages());
}

std::string scratch_dir(const std::string& topic) {
  auto p = test_dir() / topic;
  std::filesystem::create_directories(p);
  return p.string();
}

std::string scratch_file(const std::string& topic, const std::string& name, const std::string& text) {
  std::string p = scratch_dir(topic) + "/" + name;
  std::ofstream(p) << text;
  return p;
}

Loaded load_path(const std::string& path) {
  Loaded l;
  l.game = load_game(path, l.sources, l.diags);
  return l;
}

std::vector<int> hidden_renaming(const Game& g, const State& s, int seat, uint64_t& rng, bool all) {
  std::vector<int> to(g.card_count);
  for (int c = 0; c < g.card_count; ++c) to[c] = c;
  std::vector<std::vector<int>> classes(g.kinds.size() * (g.max_players + 1));
  for (int c = 0; c < g.card_count; ++c)
    if (s[g.layout.card_zone + c] >= 0 && !visible(g, s, seat, c))
      classes[g.card_kind[c] * (g.max_players + 1) + g.card_owner[c] + 1].push_back(c);
  if (!all) {
    std::vector<const std::vector<int>*> two;
    for (const std::vector<int>& h : classes)
      if (h.size() > 1) two.push_back(&h);
    if (two.empty()) return to;
    const std::vector<int>& h = *two[uniform(rng, static_cast<uint32_t>(two.size()))];
    size_t i = uniform(rng, static_cast<uint32_t>(h.size())), j = uniform(rng, static_cast<uint32_t>(h.size() - 1));
    std::swap(to[h[i]], to[h[j + (j >= i)]]);
    return to;
  }
  for (const std::vector<int>& h : classes) {
    std::vector<int> image = h;
    for (size_t i = image.size(); i > 1; --i)
      std::swap(image[i - 1], image[uniform(rng, static_cast<uint32_t>(i))]);
    for (size_t i = 0; i < h.size(); ++i) to[h[i]] = image[i];
  }
  return to;
}

bool same_but_locals(const Game& g, const State& a, const State& b) {
  return std::equal(a.slots.begin(), a.slots.begin() + g.layout.locals, b.slots.begin());
}

bool renamed_in_sight(const Game& g, const State& s, int viewer, const std::vector<int>& to) {
  for (int c = 0; c < g.card_count; ++c)
    if (to[c] != c && visible(g, s, viewer, c)) return true;
  return false;
}

void random_steps(const Game& g, State& s, int steps, uint64_t& rng) {
  std::vector<Decision> legal;
  for (int i = 0; i < steps && !s.over(); ++i) {
    legal_decisions(g, s, legal);
    apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
  }
}

bool long_game(const Game& g) {
  int total = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    State s = new_game(g, g.min_players, seed, default_options(g));
    uint64_t rng = seed;
    play_randomly(g, s, rng);
    total += s.decisions();
  }
  return total > 8 * 200;
}

std::vector<std::string> legal_texts(const Game& g, const State& s) {
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  std::vector<std::string> out;
  for (const Decision& d : legal) out.push_back(decision_text(g, s, d));
  return out;
}

int per_cases(int at_100) {
  return static_cast<int>(int64_t{at_100} * rc::detail::configuration().testParams.maxSuccess / 100);
}

}  // namespace kata::test
