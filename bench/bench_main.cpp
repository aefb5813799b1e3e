// The benchmark executable's entry point: Google Benchmark's own main, which runs every
// benchmark registered in the other files of bench/ and parses its usual --benchmark_* flags.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
