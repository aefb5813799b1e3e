// Helpers shared by the tests: loading rule text from a string and formatting what the
// checker said, so each test can state the exact diagnostics it expects.
#pragma once

#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "runtime/engine.hpp"
#include "runtime/view.hpp"

namespace kata::test {

struct Loaded {
  std::shared_ptr<const Game> game;
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  // "line:col: error: message" for each diagnostic, in order.
  std::vector<std::string> messages() const;
};

Loaded load_text(const std::string& yaml);
Loaded load_file(const std::string& path);  // relative to the source tree
std::vector<std::string> rule_files();      // every rules/*.yaml

// Plays `decisions` (in notation) from a new game; returns the state.
State play(const Game& g, int players, const std::vector<std::string>& decisions, uint64_t seed = 1);

}  // namespace kata::test
