// Implementation of the test helpers.
#include "support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace kata::test {

std::vector<std::string> Loaded::messages() const {
  std::vector<std::string> out;
  for (const auto& d : diags.items())
    out.push_back(fmt::format("{}:{}: {}: {}", d.pos.line, d.pos.col, d.severity == Severity::error ? "error" : "warning", d.message));
  return out;
}

Loaded load_text(const std::string& yaml) {
  Loaded l;
  l.game = load_game_text("test.yaml", yaml, l.sources, l.diags);
  return l;
}

Loaded load_file(const std::string& path) {
  Loaded l;
  l.game = load_game(std::string(KATA_SOURCE_DIR) + "/" + path, l.sources, l.diags);
  return l;
}

std::vector<std::string> rule_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KATA_SOURCE_DIR) + "/rules"))
    if (e.path().extension() == ".yaml") out.push_back("rules/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

State play(const Game& g, int players, const std::vector<std::string>& decisions, uint64_t seed) {
  State s = new_game(g, players, seed, default_options(g));
  for (const auto& text : decisions) {
    std::string why;
    auto d = parse_decision(g, s, text, why);
    if (!d) throw std::runtime_error(fmt::format("'{}' refused: {}", text, why));
    apply(g, s, *d);
  }
  return s;
}

}  // namespace kata::test
