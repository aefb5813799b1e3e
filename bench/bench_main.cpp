// The benchmark executable's entry point: Google Benchmark runs every benchmark registered
// in the other files of bench/ (with its usual --benchmark_* flags), and the console report
// ends with the ratios the project tracks: Kobayakawa's playouts per second, interpreted
// and compiled, as a share of the native twin's (native_faithful) measured in the same run.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>

namespace {

// The console report, keeping each benchmark's playouts per second (the median, when runs
// are repeated).
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // As the library's own console report: colours on a terminal, counters as name=value.
  RatioReporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Color : OO_None) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    // A benchmark's runs come together, its repetitions before their aggregates: the
    // median, when there is one, is the last word.
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      auto rate = r.counters.find("items_per_second");
      if (rate != r.counters.end()) rates_[r.run_name.str()] = rate->second.value;
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    auto native = rates_.find("BM_native_faithful_kobayakawa/4");
    if (native == rates_.end() || native->second <= 0) return;
    std::printf("\nShare of native_faithful's playouts per second (Kobayakawa, 4 players):\n");
    for (const char* name : {"BM_interpreted_kobayakawa/4", "BM_compiled_kobayakawa/4"}) {
      auto it = rates_.find(name);
      if (it != rates_.end()) std::printf("  %-30s %5.1f %%\n", name, 100.0 * it->second / native->second);
    }
  }

 private:
  std::map<std::string, double> rates_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
