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

void Diagnostics::add(Diagnostic d) {
  if (d.severity == Severity::error) ++errors_;
  else if (d.severity == Severity::warning) ++warnings_;
  if (items_.size() < max_kept_diagnostics) items_.push_back(std::move(d));
}

void Diagnostics::error(Pos pos, std::string message, std::vector<Note> notes) {
  if (items_.size() < max_kept_diagnostics) make_printable(message, notes);
  add({pos, Severity::error, std::move(message), std::move(notes)});
}

void Diagnostics::warning(Pos pos, std::string message, std::vector<Note> notes) {
  if (items_.size() < max_kept_diagnostics) make_printable(message, notes);
  add({pos, Severity::warning, std::move(message), std::move(notes)});
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

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The part of a line that is quoted: all of it when it fits in quote_width, else
// quote_width bytes around the caret, never cutting a UTF-8 character in two.
std::pair<size_t, size_t> window(std::string_view line, size_t caret) {
  if (line.size() <= quote_width) return {0, line.size()};
  size_t begin = caret > quote_width / 2 ? caret - quote_width / 2 : 0;
  size_t end = std::min(line.size(), begin + quote_width);
  begin = end - quote_width;
  while (begin > 0 && begin < line.size() && continuation(line[begin])) --begin;
  while (end < line.size() && continuation(line[end])) --end;
  return {begin, end};
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
                     clip_message(message));
  std::string_view line = f.line(pos.line);
  if (line.empty() && pos.line > static_cast<int>(f.line_starts.size())) return;
  // The window is taken from the line as written and only what it holds is made
  // printable: a diagnostic costs the same on a 4 MiB line as on a short one.
  size_t caret = std::min(static_cast<size_t>(std::max(pos.col, 1) - 1), line.size());
  auto [begin, end] = window(line, caret);
  const char* before = begin > 0 ? "..." : "";
  out += fmt::format("{:>5} | {}{}{}\n", pos.line, before, printable(line.substr(begin, end - begin)),
                     end < line.size() ? "..." : "");
  std::string pad = before;
  for (char c : printable(line.substr(begin, caret - begin))) pad += c == '\t' ? '\t' : ' ';
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

std::string format_diagnostics(const Sources& sources, const Diagnostics& diags, bool color, int max_errors) {
  std::string out;
  int errors = 0, warnings = 0;
  for (const Diagnostic& d : diags.items()) {
    int& shown = d.severity == Severity::error ? errors : warnings;
    if (max_errors > 0 && shown >= max_errors) continue;
    ++shown;
    out += format_diagnostic(sources, d, color);
  }
  int more_errors = diags.error_count() - errors, more_warnings = diags.warning_count() - warnings;
  auto plural = [](int n, const char* what) { return fmt::format("{} more {}{}", n, what, n == 1 ? "" : "s"); };
  if (more_errors > 0 && more_warnings > 0)
    out += fmt::format("kata: note: and {} and {}\n", plural(more_errors, "error"), plural(more_warnings, "warning"));
  else if (more_errors > 0 || more_warnings > 0)
    out += fmt::format("kata: note: and {}\n", more_errors > 0 ? plural(more_errors, "error") : plural(more_warnings, "warning"));
  return out;
}

std::string clip_message(const std::string& message) {
  if (message.size() <= max_message) return message;
  size_t head = max_message * 2 / 3, tail = max_message - head;
  while (head > 0 && continuation(message[head])) --head;
  size_t from = message.size() - tail;
  while (from < message.size() && continuation(message[from])) ++from;
  return message.substr(0, head) + " ... " + message.substr(from);
}

namespace {

constexpr size_t max_suggested_length = 64;

// Optimal string alignment distance (edits, with a swap of two neighbours counting as one,
// the commonest typo), or `bound` + 1 as soon as it is sure to exceed `bound`. Both strings
// are at most max_suggested_length long.
size_t edit_distance(const std::string& a, const std::string& b, size_t bound) {
  size_t rows[3][max_suggested_length + 1];
  size_t *two = rows[0], *one = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= b.size(); ++j) one[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    size_t least = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t d = std::min({one[j] + 1, cur[j - 1] + 1, one[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d = std::min(d, two[j - 2] + 1);
      cur[j] = d;
      least = std::min(least, d);
    }
    // A later row's values come from this row's (plus 0 or 1) or, by a swap, from the row
    // before plus 1, itself at least this row's least minus 1: none can come back under.
    if (least > bound) return bound + 1;
    std::swap(two, one);
    std::swap(one, cur);
  }
  return std::min(one[b.size()], bound + 1);
}

}  // namespace

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  if (name.size() > max_suggested_length) return {};
  std::string best;
  size_t best_d = std::max<size_t>(1, name.size() / 3) + 1;
  for (const auto& c : candidates) {
    if (c.size() > max_suggested_length) continue;
    // The lengths alone differ by at least as many edits.
    size_t gap = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (gap >= best_d) continue;
    size_t d = edit_distance(name, c, best_d - 1);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

nlohmann::json diagnostics_json(const Sources& sources, const Diagnostics& diags, const std::string& file, int max_errors) {
  nlohmann::json out = nlohmann::json::array();
  int errors = 0, warnings = 0;
  for (const auto& d : diags.items()) {
    int& shown = d.severity == Severity::error ? errors : warnings;
    if (max_errors > 0 && shown >= max_errors) continue;
    ++shown;
    const SourceFile* f = d.pos.valid() ? &sources.at(d.pos.file) : nullptr;
    out.push_back({{"file", printable(f ? f->name : file)}, {"line", d.pos.line}, {"column", d.pos.col},
                   {"severity", d.severity == Severity::error ? "error" : "warning"},
                   {"message", clip_message(d.message)}});
  }
  return out;
}

std::string json_text(const nlohmann::json& j) { return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace kata
