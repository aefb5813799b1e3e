// Parsing the text language: expression and statement strings taken from the YAML layer,
// with a Locator that maps each character back to its line and column in the rule file,
// so an error in the middle of an expression points at that column of that line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.hpp"
#include "syntax/diagnostics.hpp"

namespace kata {

// Maps offsets in a text value to positions in its source file.
class Locator {
 public:
  Locator() = default;
  // For a value that stands in `file` as written from `start` on (a YAML scalar: plain,
  // quoted or block), aligns the value's characters with the file's.
  Locator(const Sources& sources, int file, size_t start, const std::string& value);
  // For text with no file behind it (typed at a prompt): offsets are columns of line 1.
  static Locator plain(int file = -1);
  // The same value with `n` characters put before it (a statement made around it), which
  // stand where its first character does.
  Locator after(size_t n) const;

  Pos at(size_t offset) const;

 private:
  // The table, not the file: the table grows as imports are read, moving its files.
  const Sources* sources_ = nullptr;
  int file_ = -1;
  std::vector<size_t> offsets_;
  size_t skip_ = 0;  // characters put before the value (after())
};

// Longest text and deepest nesting the parser accepts, so untrusted input cannot exhaust
// the stack or memory.
inline constexpr size_t max_text_length = 1 << 20;
inline constexpr int max_nesting = 64;
// Levels of one text's syntax tree: each operator of a chain (`1 + 1 + 1` is two), each
// `.member`, each prefix operator and each nested statement counts one. Every walk over
// the tree after parsing recurses at most this deep.
inline constexpr int max_depth = 200;
// After a syntax error in a block of statements, the statements after it are read for
// their own syntax errors, at most this many more times (each a parse of the text).
inline constexpr int max_more_syntax_errors = 10;
// Functions calling functions (and procedures calling procedures), one inside another.
inline constexpr int max_call_depth = 32;
// Levels of a text counted through its calls: at each call, the levels of the function or
// procedure called are added to those of the call. The checker, the compiler (which copies
// short functions into their callers) and the evaluator follow calls, so this bounds how
// deep any of them recurses, also with a sanitizer's larger stack frames.
inline constexpr int max_total_depth = 1000;
// A message (`say`) has at most this many values, and this many characters of text and
// values as written, so what it prints is bounded too.
inline constexpr size_t max_message_values = 16;
inline constexpr size_t max_message_length = 400;

// A `{field}` of a card's name template: its name, and where it stands in the template
// (from `begin`, the brace, to `end`, just after the closing one).
struct TemplateField {
  size_t begin, end;
  std::string name;
};
// The fields of a name template, in order: each `{` followed by a name and `}`.
std::vector<TemplateField> template_fields(const std::string& text);

// The seat a name such as "P3" stands for (1 to 16), or 0.
int seat_named(std::string_view name);

// Why `text` cannot name a declaration, or "" if it can: it is not an identifier (a letter
// or '_', then letters, digits and '_'); and for a name that expressions use
// (`in_expressions`), it is a reserved word, or the language gives it a meaning of its own
// (`players`, `player`, a seat `P3`...), which a declaration would hide.
std::string name_fault(std::string_view text, bool in_expressions = true);

ExprPtr parse_expression(const std::string& text, const Locator& where, Diagnostics& diags);
// Returns false (with diagnostics) when the text is not a valid program.
bool parse_program(const std::string& text, const Locator& where, Diagnostics& diags, Block& out);

}  // namespace kata
