// Google Benchmark registrations for the native Kobayakawa playout, the yardstick the
// interpreter's benchmarks are compared with. Each iteration plays one whole random game from a
// fresh seed; items_processed counts playouts, so the report reads as playouts per second, and
// the "decisions" counter gives random choices per second. main() lives in bench_main.cpp.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "native_kobayakawa.hpp"

namespace {

void BM_native_kobayakawa(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  uint64_t seed = 1;
  int64_t decisions = 0;
  for (auto _ : state) {
    const native_kobayakawa::Result result = native_kobayakawa::playout(players, seed++);
    decisions += result.decisions;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["decisions"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_native_kobayakawa)->Arg(4);
