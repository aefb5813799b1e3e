// Connect Four and Breakthrough, each three ways in one run: the native bitboard twin
// (native_classics.cpp), and rules/connect4.yaml and rules/breakthrough.yaml compiled
// (`--compiled`) and interpreted. Each iteration plays one whole random game from a fresh
// seed; items_per_second is playouts per second, and bench_main.cpp reports kata's as a
// share of the twin's.
#include <benchmark/benchmark.h>

#include "agents/runner.hpp"
#include "native_classics.hpp"

// In bench_interpreted.cpp.
std::shared_ptr<const kata::Game> load_rules(const char* file);
std::shared_ptr<const kata::Game> compiled_rules(const char* file);
void kata_playouts(benchmark::State& state, const kata::Game& game);

namespace {

template <native_classics::Result (*Playout)(uint64_t)>
void native_playouts(benchmark::State& state) {
  uint64_t seed = 1;
  int64_t moves = 0;
  for (auto _ : state) {
    native_classics::Result r = Playout(seed++);
    moves += r.moves;
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["decisions"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

void BM_native_connect4(benchmark::State& state) {
  native_playouts<native_classics::connect4::playout>(state);
}
void BM_native_breakthrough(benchmark::State& state) {
  native_playouts<native_classics::breakthrough::playout>(state);
}

void BM_compiled_connect4(benchmark::State& state) {
  static auto game = compiled_rules("connect4.yaml");
  kata_playouts(state, *game);
}
void BM_interpreted_connect4(benchmark::State& state) {
  static auto game = load_rules("connect4.yaml");
  kata_playouts(state, *game);
}
void BM_compiled_breakthrough(benchmark::State& state) {
  static auto game = compiled_rules("breakthrough.yaml");
  kata_playouts(state, *game);
}
void BM_interpreted_breakthrough(benchmark::State& state) {
  static auto game = load_rules("breakthrough.yaml");
  kata_playouts(state, *game);
}

}  // namespace

BENCHMARK(BM_native_connect4)->Arg(2);
BENCHMARK(BM_compiled_connect4)->Arg(2);
BENCHMARK(BM_interpreted_connect4)->Arg(2);
BENCHMARK(BM_native_breakthrough)->Arg(2);
BENCHMARK(BM_compiled_breakthrough)->Arg(2);
BENCHMARK(BM_interpreted_breakthrough)->Arg(2);
