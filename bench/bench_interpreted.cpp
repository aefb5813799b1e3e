// Random playouts of rules/kobayakawa.yaml run by the interpreter, reported beside the
// native implementation's (bench_native.cpp) so the ratio can be read off one run:
// items_per_second is playouts per second in both.
#include <benchmark/benchmark.h>

#include "agents/runner.hpp"
#include "compile/compiler.hpp"
#include "native/native.hpp"

// Shared with bench_classics.cpp: a rule file of rules/, loaded, or compiled to machine
// code (kata simulate --compiled), and random playouts of it at state.range(0) players.
std::shared_ptr<const kata::Game> load_rules(const char* file);
std::shared_ptr<const kata::Game> compiled_rules(const char* file);
void kata_playouts(benchmark::State& state, const kata::Game& game);

namespace {

std::shared_ptr<const kata::Game> load(const char* file) {
  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  auto g = kata::load_game(std::string(KATA_SOURCE_DIR) + "/rules/" + file, sources, diags);
  if (!g) throw std::runtime_error(std::string("cannot load rules/") + file);
  return g;
}

// The same rule file compiled to machine code (kata simulate --compiled).
std::shared_ptr<const kata::Game> compiled(const char* file) {
  std::string error;
  auto g = kata::compile_native(load(file), error);
  if (!g) throw std::runtime_error(std::string("cannot compile rules/") + file + ": " + error);
  return g;
}

// Random playouts of one rule file at state.range(0) players.
void playouts(benchmark::State& state, const kata::Game& game) {
  int players = static_cast<int>(state.range(0));
  auto options = kata::default_options(game);
  uint64_t seed = 1;
  int64_t decisions = 0;
  kata::ReusedState reused;  // as simulate plays: one state, game after game
  for (auto _ : state) {
    kata::State& s = kata::random_playout(reused, game, players, seed++, options);
    decisions += s.decisions();
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["decisions"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
}

void BM_interpreted_kobayakawa(benchmark::State& state) {
  static auto game = load("kobayakawa.yaml");
  playouts(state, *game);
}

// The same, with every expression worked out by the tree walk (build_xcode's tree_walk):
// what the register code's expressions buy, in one run.
void BM_tree_walked_kobayakawa(benchmark::State& state) {
  static auto game = [] {
    auto copy = std::make_shared<kata::Game>(*load("kobayakawa.yaml"));
    kata::build_xcode(*copy, true);
    return std::shared_ptr<const kata::Game>(copy);
  }();
  playouts(state, *game);
}

// Kenjin has no native twin: its figure is reported on its own, at 2 and 4 players.
void BM_interpreted_kenjin(benchmark::State& state) {
  static auto game = load("kenjin.yaml");
  playouts(state, *game);
}

}  // namespace

std::shared_ptr<const kata::Game> load_rules(const char* file) { return load(file); }
std::shared_ptr<const kata::Game> compiled_rules(const char* file) { return compiled(file); }
void kata_playouts(benchmark::State& state, const kata::Game& game) { playouts(state, game); }

void BM_compiled_kobayakawa(benchmark::State& state) {
  static auto game = compiled("kobayakawa.yaml");
  playouts(state, *game);
}

void BM_compiled_kenjin(benchmark::State& state) {
  static auto game = compiled("kenjin.yaml");
  playouts(state, *game);
}

BENCHMARK(BM_interpreted_kobayakawa)->Arg(4);
BENCHMARK(BM_tree_walked_kobayakawa)->Arg(4);
BENCHMARK(BM_compiled_kobayakawa)->Arg(4);
BENCHMARK(BM_compiled_kenjin)->Arg(2)->Arg(4);
BENCHMARK(BM_interpreted_kenjin)->Arg(2)->Arg(4);
