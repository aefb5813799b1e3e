// Diagnostics are values handed to a sink, never exceptions that reach the user. The
// checker collects every problem in a file; the CLI formats them as
// `file:line:col: error: message`, the source line, a caret, then notes.
#pragma once

#include <nlohmann/json.hpp>

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

// Suggestions are worked out for the first max_suggestions errors of a run only, so that a
// file of many thousand misspelt names is not checked against every name for each.
inline constexpr int max_suggestions = 100;

// At most this many diagnostics are kept, the first reported; later ones are only
// counted (error_count, warning_count), so a file of a million errors does not hold a
// million messages. Printing shows far fewer anyway (default_max_errors).
inline constexpr size_t max_kept_diagnostics = 10000;

class Diagnostics {
 public:
  void error(Pos pos, std::string message, std::vector<Note> notes = {});
  void warning(Pos pos, std::string message, std::vector<Note> notes = {});
  void add(Diagnostic d);

  bool has_errors() const { return errors_ > 0; }
  // Whether an error reported now may still say "did you mean": see max_suggestions.
  bool wants_suggestions() const { return errors_ < max_suggestions; }
  int error_count() const { return errors_; }
  int warning_count() const { return warnings_; }
  const std::vector<Diagnostic>& items() const { return items_; }
  // Orders by file, line and column, so a run reports top to bottom.
  void sort();

 private:
  std::vector<Diagnostic> items_;
  int errors_ = 0, warnings_ = 0;
};

// What a diagnostic prints is bounded, whatever the input: a quoted source line shows at
// most quote_width columns around the caret ("..." marking what is cut), a message at
// most max_message characters (cut in the middle), and a run prints at most max_errors
// errors and as many warnings (default_max_errors unless the user asks otherwise).
inline constexpr size_t quote_width = 120;
inline constexpr size_t max_message = 400;
inline constexpr int default_max_errors = 50;

// `file:line:col: error: message`, the quoted source line and a caret, then each note the
// same way, and "imported from" notes for files brought in by `import:`.
std::string format_diagnostic(const Sources& sources, const Diagnostic& d, bool color = false);

// Every diagnostic in order as format_diagnostic prints it, but at most max_errors errors
// and max_errors warnings (0: all), then "kata: note: and N more errors" for the rest.
std::string format_diagnostics(const Sources& sources, const Diagnostics& diags, bool color = false,
                               int max_errors = default_max_errors);

// A message as printed: one longer than max_message keeps its start and its end, with
// " ... " between.
std::string clip_message(const std::string& message);

// The diagnostics as `kata check --json` prints them: an array of {file, line, column,
// severity, message}, at most max_errors errors and max_errors warnings (0: all); `file`
// names an unpositioned diagnostic's file. Names and messages are printable().
nlohmann::json diagnostics_json(const Sources& sources, const Diagnostics& diags, const std::string& file,
                                int max_errors = default_max_errors);

// JSON as kata prints it: indented by 2, any bytes that are not UTF-8 replaced (never an
// exception).
std::string json_text(const nlohmann::json& j);

// "did you mean 'x'?" for a misspelt name: the closest candidate within a small edit
// distance, or empty. Names longer than 64 characters get no suggestion; each candidate
// costs at most 64 x 64 steps, and far fewer when its length alone rules it out.
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);


}  // namespace kata
