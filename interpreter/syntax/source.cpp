// Line tables for source files, so positions can be turned back into quoted lines.
#include "syntax/source.hpp"

#include <algorithm>

namespace kata {

std::string_view SourceFile::line(int n) const {
  if (n < 1 || n > static_cast<int>(line_starts.size())) return {};
  size_t begin = line_starts[n - 1];
  size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

Pos SourceFile::pos_at(int file_index, size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  int line = static_cast<int>(it - line_starts.begin());
  return Pos{file_index, line, static_cast<int>(offset - line_starts[line - 1]) + 1};
}

int Sources::add(std::string name, std::string path, std::string text, Pos imported_from) {
  SourceFile f{std::move(name), std::move(path), std::move(text), imported_from, {0}};
  for (size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<int>(files_.size()) - 1;
}

}  // namespace kata
