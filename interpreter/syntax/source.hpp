// Source files and positions. Every AST node, diagnostic and runtime error carries a Pos
// into one of the files held by a Sources table; nothing else in kata owns source text.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kata {

// A position in a source file: 1-based line and column; file indexes Sources.
struct Pos {
  int file = -1;
  int line = 0;
  int col = 0;
  bool valid() const { return file >= 0; }
};

struct SourceFile {
  std::string name;  // as the user named it (for messages)
  std::string path;  // resolved path on disk
  std::string text;
  Pos imported_from;  // where an `import:` brought this file in, if it did
  std::vector<size_t> line_starts;

  std::string_view line(int n) const;  // 1-based, without the newline
  Pos pos_at(int file_index, size_t offset) const;
};

// The length of the UTF-8 sequence that starts at text[i], or 0 if none does (a stray
// byte, an overlong form, a surrogate).
size_t utf8_length(std::string_view text, size_t i);

// `text` as it may be printed to a terminal or put in JSON: each byte that is not UTF-8
// and each control character but tab (C0, DEL, and C1 U+0080-U+009F: ESC and CSI, which
// start terminal sequences, among them) written as \xHH (a C1 character as \u0080 to
// \u009F). Every name, message and quoted line kata prints goes through it.
std::string printable(std::string_view text);

// The SHA-256 of a text in lowercase hexadecimal: a log's checksum of its rule file, the
// name of a compiled game in the cache.
std::string sha256_hex(std::string_view data);

// Lower case, without blanks: how a name a person typed is compared with a name.
std::string squashed(std::string_view text);

// Owns every source file read during one load; shared by the compiled game so runtime
// errors can quote the rule file.
class Sources {
 public:
  int add(std::string name, std::string path, std::string text, Pos imported_from = {});
  const SourceFile& at(int index) const { return files_.at(index); }
  int size() const { return static_cast<int>(files_.size()); }

 private:
  std::vector<SourceFile> files_;
};

// The largest source file kata reads (a rule file, an import, a scenario's rules).
inline constexpr size_t max_source_size = 4 << 20;

// Reads the source file at `path` whole: it must be a regular file (not a directory, a
// device such as /dev/zero or a pipe) of at most `limit` bytes (max_source_size unless
// said; a whole number of MiB). Both are checked on the opened file before anything is
// read, and no more than the limit is read, so no path can make kata read without end.
// On failure `why` says what is wrong: "'PATH' is not a regular file", "'PATH' is larger
// than 4 MiB" or "cannot read 'PATH'" (an I/O error too, as /proc/self/mem gives).
bool read_source(const std::string& path, std::string& text, std::string& why, size_t limit = max_source_size);

}  // namespace kata
