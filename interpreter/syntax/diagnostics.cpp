// Formatting of diagnostics, in the one phrasing kata uses everywhere.
#include "syntax/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace kata {

// A message may quote what a file wrote: it is kept printable (source.hpp), on a terminal
// and in JSON alike.
static void make_printable(std::string& message, std::vector<Note>& notes) {
  message = printable(message);
  for (Note& n : notes) n.message = printable(n.message);
}

void Diagnostics::error(Pos pos, std::string message, std::vector<Note> notes) {
  make_printable(message, notes);
  items_.push_back({pos, Severity::error, std::move(message), std::move(notes)});
  ++errors_;
}

void Diagnostics::warning(Pos pos, std::string message, std::vector<Note> notes) {
  make_printable(message, notes);
  items_.push_back({pos, Severity::warning, std::move(message), std::move(notes)});
}

void Diagnostics::sort() {
  std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.pos.file, a.pos.line, a.pos.col) < std::tie(b.pos.file, b.pos.line, b.pos.col);
  });
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

void quote(std::string& out, const Sources& sources, Pos pos, Severity sev,
           const std::string& message, bool color) {
  if (!pos.valid()) {
    out += sev == Severity::note ? fmt::format("      = note: {}\n", message)
                                 : fmt::format("kata: {}: {}\n", severity_name(sev), message);
    return;
  }
  const SourceFile& f = sources.at(pos.file);
  const char* on = "";
  const char* off = "";
  if (color) {
    on = sev == Severity::error ? "\033[1;31m" : sev == Severity::warning ? "\033[1;35m" : "\033[1;36m";
    off = "\033[0m";
  }
  out += fmt::format("{}:{}:{}: {}{}:{} {}\n", printable(f.name), pos.line, pos.col, on, severity_name(sev), off,
                     message);
  std::string line = printable(f.line(pos.line));
  if (line.empty() && pos.line > static_cast<int>(f.line_starts.size())) return;
  out += fmt::format("{:>5} | {}\n", pos.line, line);
  std::string pad;
  for (int i = 1; i < pos.col && i - 1 < static_cast<int>(line.size()); ++i)
    pad += line[i - 1] == '\t' ? '\t' : ' ';
  out += fmt::format("      | {}^\n", pad);
}

}  // namespace

std::string format_diagnostic(const Sources& sources, const Diagnostic& d, bool color) {
  std::string out;
  quote(out, sources, d.pos, d.severity, d.message, color);
  for (const Note& n : d.notes) quote(out, sources, n.pos, Severity::note, n.message, color);
  for (Pos p = d.pos; p.valid() && sources.at(p.file).imported_from.valid();) {
    p = sources.at(p.file).imported_from;
    quote(out, sources, p, Severity::note, "in the file imported from here", color);
  }
  return out;
}

// Optimal string alignment distance: edits, with a swap of two neighbours counting as
// one, the commonest typo.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  if (name.size() > 64) return {};
  std::string best;
  size_t best_d = std::max<size_t>(1, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c.size() > 64) continue;
    size_t d = edit_distance(name, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

}  // namespace kata
