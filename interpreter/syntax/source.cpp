// Line tables for source files, so positions can be turned back into quoted lines.
#include "syntax/source.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

namespace kata {

std::string_view SourceFile::line(int n) const {
  if (n < 1 || n > static_cast<int>(line_starts.size())) return {};
  // From the line table, not by looking for the newline: quoting a long line costs nothing.
  size_t begin = line_starts[n - 1];
  size_t end = n < static_cast<int>(line_starts.size()) ? line_starts[n] - 1 : text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

Pos SourceFile::pos_at(int file_index, size_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  int line = static_cast<int>(it - line_starts.begin());
  return Pos{file_index, line, static_cast<int>(offset - line_starts[line - 1]) + 1};
}

size_t utf8_length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  auto cont = [&](size_t k) { return (b(k) & 0xC0) == 0x80; };
  unsigned c = b(i);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;  // no overlongs, no surrogates
    return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return b(i + 1) >= lo && b(i + 1) <= hi && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

std::string squashed(std::string_view text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string sha256_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = utf8_length(text, i);
    auto c = static_cast<unsigned char>(text[i]);
    if (n == 0 || (n == 1 && ((c < 0x20 && c != '\t') || c == 0x7F))) {
      static const char hex[] = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
      continue;
    }
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {  // C1: U+0080-U+009F
      out += fmt::format("\\u{:04X}", static_cast<unsigned char>(text[i + 1]));
      i += 2;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

int Sources::add(std::string name, std::string path, std::string text, Pos imported_from) {
  SourceFile f{std::move(name), std::move(path), std::move(text), imported_from, {0}};
  for (size_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  files_.push_back(std::move(f));
  return static_cast<int>(files_.size()) - 1;
}

static std::string too_large(const std::string& path, size_t limit) {
  return fmt::format("'{}' is larger than {} MiB", path, limit >> 20);
}

bool read_source(const std::string& path, std::string& text, std::string& why, size_t limit) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer before it can be refused.
  int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = fmt::format("cannot read '{}'", path);
    return false;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  if (ok && S_ISDIR(st.st_mode)) why = fmt::format("'{}' is a directory, not a file", path);
  else if (ok && !S_ISREG(st.st_mode)) why = fmt::format("'{}' is not a regular file (a device, a pipe or a socket)", path);
  else if (ok && static_cast<uint64_t>(st.st_size) > limit) why = too_large(path, limit);
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
      if (got > limit) break;
      text.resize(std::min(limit + 1, got + 4096));
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
  else if (got > limit) why = too_large(path, limit);
  return why.empty();
}

}  // namespace kata
