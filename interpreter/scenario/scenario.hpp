// Scenario tests: a short YAML file that names a rule file, the player count and options,
// the chance outcomes it fixes, then steps — decisions to play, decisions that must be
// refused, and expectations written in the rules language — checked in order. Designers
// use them to pin rules down; docs/scenarios.md is the format.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "syntax/diagnostics.hpp"

namespace kata {

struct ScenarioResult {
  std::string name;     // the scenario's title
  bool passed = false;
  int steps = 0;        // steps run
  std::shared_ptr<Sources> sources;
  Diagnostics diags;    // why it failed (expected against actual), positioned in the file
};

// What a scenario may spend. A `perft:` step stops at the first depth whose count passes
// the number written, so the numbers bound its work; this bounds it whatever they are.
struct ScenarioOptions {
  uint64_t max_perft_positions = 1'000'000;  // decisions one perft: step may apply
};

ScenarioResult run_scenario(const std::string& path, const ScenarioOptions& options = {});
// The same for a scenario's text held in memory (an editor's), as if read from `path`.
ScenarioResult run_scenario_text(const std::string& path, const std::string& text,
                                 const ScenarioOptions& options = {});
// Whether `text` is a rule file, not a scenario: a `game:` key at the start of a line.
bool is_rule_text(const std::string& text);

// Scenario files named on the command line: files as they are, directories searched
// (not recursively) for *.yaml, in name order. A rule file (it has `game:`) stands for the
// scenarios in tests/<its name without .yaml>/ beside it; `error` says so if there are none.
std::vector<std::string> scenario_files(const std::vector<std::string>& args, std::string& error);

}  // namespace kata
