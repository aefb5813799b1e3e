// Diagnostics are values handed to a sink, never exceptions that reach the user. The
// checker collects every problem in a file; the CLI formats them as
// `file:line:col: error: message`, the source line, a caret, then notes.
#pragma once

#include <string>
#include <vector>

#include "syntax/source.hpp"

namespace kata {

enum class Severity { error, warning, note };

struct Note {
  Pos pos;
  std::string message;
};

struct Diagnostic {
  Pos pos;
  Severity severity = Severity::error;
  std::string message;
  std::vector<Note> notes;
};

class Diagnostics {
 public:
  void error(Pos pos, std::string message, std::vector<Note> notes = {});
  void warning(Pos pos, std::string message, std::vector<Note> notes = {});
  void add(Diagnostic d) { items_.push_back(std::move(d)); }

  bool has_errors() const { return errors_ > 0; }
  int error_count() const { return errors_; }
  int warning_count() const { return static_cast<int>(items_.size()) - errors_; }
  const std::vector<Diagnostic>& items() const { return items_; }
  // Orders by file, line and column, so a run reports top to bottom.
  void sort();

 private:
  std::vector<Diagnostic> items_;
  int errors_ = 0;
};

// `file:line:col: error: message`, the quoted source line and a caret, then each note the
// same way, and "imported from" notes for files brought in by `import:`.
std::string format_diagnostic(const Sources& sources, const Diagnostic& d, bool color = false);

// "did you mean 'x'?" for a misspelt name: the closest candidate within a small edit
// distance, or empty.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace kata
