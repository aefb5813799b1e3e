// Line tables for source files, so positions can be turned back into quoted lines.
#include "syntax/source.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

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

bool read_source(const std::string& path, std::string& text, std::string& why) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer before it can be refused.
  int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (ok && !S_ISREG(st.st_mode)) why = fmt::format("'{}' is not a regular file", path);
  else if (ok && static_cast<uint64_t>(st.st_size) > max_source_size) why = fmt::format("'{}' is larger than 4 MiB", path);
  else if (!ok) why = fmt::format("cannot read '{}'", path);
  if (!why.empty()) {
    ::close(fd);
    return false;
  }
  // Read at most one byte past the limit: a file that grew since fstat is refused too.
  text.assign(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (got > max_source_size) break;
      text.resize(std::min(max_source_size + 1, got + 4096));
    }
    ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  if (!ok) why = fmt::format("cannot read '{}'", path);
  else if (got > max_source_size) why = fmt::format("'{}' is larger than 4 MiB", path);
  return why.empty();
}

}  // namespace kata
