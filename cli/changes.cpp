// kata check --against OLD NEW: NEW checked as kata check checks it, and the structural
// changes from OLD to NEW (check/diff) listed, each at its position, in text or JSON.
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "check/diff.hpp"
#include "commands.hpp"
#include "compile/compiler.hpp"

namespace kata::cli {

namespace {


// "FILE:LINE:COL" of a change, in whichever file's sources it points into.
std::string where(const Sources& old_sources, const Sources& new_sources, const Change& c) {
  const Sources& s = c.kind == ChangeKind::removed ? old_sources : new_sources;
  if (!c.pos.valid() || c.pos.file >= s.size()) return "";
  return fmt::format("{}:{}:{}", printable(s.at(c.pos.file).name), c.pos.line, c.pos.col);
}

std::string change_text(const Change& c) {
  std::string name = c.name.empty() ? c.what : fmt::format("{} '{}'", c.what, printable(c.name));
  if (!c.of.empty()) name += fmt::format(" of '{}'", printable(c.of));
  std::string details;
  for (const std::string& d : c.details) details += (details.empty() ? ": " : "; ") + d;
  return fmt::format("{} {}{}", name, change_name(c.kind), details);
}

nlohmann::json change_json(const Sources& old_sources, const Sources& new_sources,
                           const Change& c) {
  const Sources& s = c.kind == ChangeKind::removed ? old_sources : new_sources;
  bool placed = c.pos.valid() && c.pos.file < s.size();
  return {{"change", change_name(c.kind)},
          {"what", c.what},
          {"name", c.name.empty() ? nlohmann::json() : nlohmann::json(printable(c.name))},
          {"component", c.of.empty() ? nlohmann::json() : nlohmann::json(printable(c.of))},
          {"details", c.details},
          {"file", placed ? nlohmann::json(printable(s.at(c.pos.file).name)) : nlohmann::json()},
          {"line", placed ? nlohmann::json(c.pos.line) : nlohmann::json()},
          {"column", placed ? nlohmann::json(c.pos.col) : nlohmann::json()}};
}

bool readable_file(const std::string& path) {
  std::string text, why;
  if (read_source(path, text, why)) return true;
  std::cerr << "kata: error: " << why << '\n';
  return false;
}

}  // namespace

int check_against(const CheckArgs& a) {
  if (a.files.size() != 1) {
    std::cerr << "kata: error: kata check --against OLD takes one rule file, the new one (see kata "
                 "check --help)\n";
    return usage_error;
  }
  const std::string& file = a.files[0];
  if (!readable_file(a.against) || !readable_file(file)) return usage_error;
  bool color = isatty(STDERR_FILENO) && !std::getenv("NO_COLOR");
  // The old file needs only to be read; its errors stop the comparison.
  Sources old_sources;
  Diagnostics old_diags;
  auto before = load_rule_file(a.against, old_sources, old_diags);
  // The new one is checked whole, as kata check does, and read again for its declarations.
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  auto g = load_game(file, sources, diags);
  Sources new_sources;
  Diagnostics new_diags;
  auto after = load_rule_file(file, new_sources, new_diags);
  if (old_diags.has_errors()) {
    std::cerr << format_diagnostics(old_sources, old_diags, color, a.max_errors);
    std::cerr << fmt::format("kata: error: the old file {} has errors; nothing was compared\n",
                             printable(a.against));
    return input_error;
  }
  std::vector<Change> changes = diff_rules(*before, *after);
  if (a.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const Change& c : changes) list.push_back(change_json(old_sources, new_sources, c));
    nlohmann::json out = {{"old", printable(a.against)},
                          {"new", printable(file)},
                          {"changes", list},
                          {"diagnostics", diagnostics_json(*sources, diags, file, a.max_errors)}};
    std::cout << json_text(out) << '\n';
    return diags.has_errors() ? input_error : ok;
  }
  std::cerr << format_diagnostics(*sources, diags, color, a.max_errors);
  if (changes.empty())
    std::cout << fmt::format("no structural changes from {} to {}\n", printable(a.against),
                             printable(file));
  else
    std::cout << fmt::format("{} structural change{} from {} to {}:\n", changes.size(),
                             changes.size() == 1 ? "" : "s", printable(a.against), printable(file));
  for (const Change& c : changes) {
    std::string at = where(old_sources, new_sources, c);
    std::cout << (at.empty() ? "" : at + ": ") << change_text(c) << '\n';
  }
  if (diags.has_errors()) {
    std::cerr << fmt::format("{}: {} error{}, {} warning{}\n", printable(file), diags.error_count(),
                             diags.error_count() == 1 ? "" : "s", diags.warning_count(),
                             diags.warning_count() == 1 ? "" : "s");
    return input_error;
  }
  std::cout << fmt::format("{}: ok ({}, {}, {} warning{})\n", printable(file), g->name,
                           players_text(g->min_players, g->max_players), diags.warning_count(),
                           diags.warning_count() == 1 ? "" : "s");
  return ok;
}

}  // namespace kata::cli
