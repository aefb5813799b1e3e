// Google Benchmark registration for the faithful native Kobayakawa playout: the plain C++ game
// that makes the interpreter's random choices seed for seed, so it is the fair yardstick for
// the interpreted playouts. Each iteration plays one whole random game from a fresh seed;
// items_processed counts playouts, and the "decisions" counter gives random choices per second.
// main() lives in bench_main.cpp.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "native_faithful.hpp"

namespace {

void BM_native_faithful_kobayakawa(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  uint64_t seed = 1;
  int64_t decisions = 0;
  for (auto _ : state) {
    const native_faithful::Result result = native_faithful::playout(players, seed++);
    decisions += result.decisions;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["decisions"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_native_faithful_kobayakawa)->Arg(4);
