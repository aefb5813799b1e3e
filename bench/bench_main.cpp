// The benchmark executable's entry point: Google Benchmark runs every benchmark registered
// in the other files of bench/ (with its usual --benchmark_* flags), and the console report
// ends with the ratios the project tracks: kata's playouts per second, interpreted and
// compiled, as a share of the native twin's measured in the same run: Kobayakawa's
// (native_faithful), Connect Four's and Breakthrough's (native_classics).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <initializer_list>
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
    share("native_faithful's", "Kobayakawa, 4 players", "BM_native_faithful_kobayakawa/4",
          {"BM_interpreted_kobayakawa/4", "BM_compiled_kobayakawa/4"});
    share("the native twin's", "Connect Four", "BM_native_connect4/2",
          {"BM_interpreted_connect4/2", "BM_compiled_connect4/2"});
    share("the native twin's", "Breakthrough", "BM_native_breakthrough/2",
          {"BM_interpreted_breakthrough/2", "BM_compiled_breakthrough/2"});
  }

 private:
  // kata's playouts per second as a share of a native twin's, when both ran.
  void share(const char* whose, const char* game, const char* native_name, std::initializer_list<const char*> names) {
    auto native = rates_.find(native_name);
    if (native == rates_.end() || native->second <= 0) return;
    std::printf("\nShare of %s playouts per second (%s):\n", whose, game);
    for (const char* name : names) {
      auto it = rates_.find(name);
      if (it != rates_.end()) std::printf("  %-30s %6.2f %%\n", name, 100.0 * it->second / native->second);
    }
  }

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
