// Fuzz target: the bytes are a scenario file, run as `kata test` does. The scenario is
// written two directories below a scratch directory that holds (as symbolic links) every
// rule file of the repository's rules/, so `rules: ../../NAME.yaml`, as the scenarios in
// rules/tests/ name their game, finds it.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "scenario/scenario.hpp"
#include "support.hpp"

namespace {

const std::string& scenario_path() {
  static const std::string path = [] {
    namespace fs = std::filesystem;
    fs::path dir = kata::fuzz::scratch_dir();
    for (const auto& e : fs::directory_iterator(fs::path(kata::fuzz::source_dir()) / "rules"))
      if (e.path().extension() == ".yaml") fs::create_symlink(e.path(), dir / e.path().filename());
    fs::create_directories(dir / "tests" / "game");
    return (dir / "tests" / "game" / "input.yaml").string();
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scenario_path();
  kata::fuzz::write_file(path, data, size);
  // A perft: step may visit 200 positions here, not kata test's ten million: the seeds'
  // chess counts (up to 100,000 positions) take over the 10 s an input may under the
  // sanitizers, and so did 2,000 (listing a chess position takes about 5 ms there).
  kata::ScenarioOptions options;
  options.max_perft_positions = 200;
  kata::ScenarioResult r = kata::run_scenario(path, options);
  if (r.sources) kata::fuzz::print_diagnostics(*r.sources, r.diags);
  return 0;
}
