// Wrapping lines of screen text. The hanging indent is read from the line itself, so
// that every writer of screens (views, events, menus, the reference) is wrapped alike
// without knowing the width.
#include "runtime/wrap.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace kata {

namespace {

// Characters, not bytes: a UTF-8 continuation byte adds nothing.
size_t columns(const std::string& s, size_t from = 0, size_t to = std::string::npos) {
  size_t n = 0;
  for (size_t i = from; i < s.size() && i < to; ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return n;
}

// Where a continued line starts: after a menu entry's number ("  12) "), after the first
// gap of two or more blanks that follows the line's first text (a listed zone's name), or
// two columns in from the line's indent. Never past half the width.
size_t hanging_indent(const std::string& line, size_t width) {
  size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return 0;
  size_t hang = lead + 2;
  size_t i = lead;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i > lead && i + 1 < line.size() && line[i] == ')' && line[i + 1] == ' ') {
    hang = line.find_first_not_of(' ', i + 1);
  } else if (size_t gap = line.find("  ", lead); gap != std::string::npos) {
    size_t next = line.find_first_not_of(' ', gap);
    if (next != std::string::npos) hang = columns(line, 0, next);
  }
  if (hang == std::string::npos || hang > width / 2) hang = std::min(lead + 2, width / 2);
  return hang;
}

// wide_or_narrow's block: its lines parted by `next_line`, then `narrow_form` and the
// narrow form's lines, all on one line of the screen.
constexpr char next_line = '\x1d', narrow_form = '\x1e';

// Each line of a block's form, parted where `next_line` stands.
std::vector<std::string> form_lines(const std::string& form) {
  std::vector<std::string> out(1);
  for (char c : form) {
    if (c == next_line) out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

}  // namespace

std::string wide_or_narrow(const std::string& wide, const std::string& narrow) {
  std::string out = wide + narrow_form + narrow;
  std::replace(out.begin(), out.end(), '\n', next_line);
  return out;
}

std::string plain(std::string text) {
  // A block of two forms: the wide one.
  for (size_t at = text.find(narrow_form); at != std::string::npos; at = text.find(narrow_form, at))
    text.erase(at, std::min(text.find('\n', at), text.size()) - at);
  std::replace(text.begin(), text.end(), next_line, '\n');
  std::replace(text.begin(), text.end(), unbroken_space, ' ');
  return text;
}

std::string unbroken(std::string text) {
  std::replace(text.begin(), text.end(), ' ', unbroken_space);
  return text;
}

void print_screen(std::ostream& out, const std::string& text) {
  if (dynamic_cast<WrappingStream*>(&out)) out << text;
  else out << plain(text);
}

std::string wrap_line(const std::string& line, size_t width) {
  if (size_t at = line.find(narrow_form); at != std::string::npos) {
    std::vector<std::string> wide = form_lines(line.substr(0, at)), narrow = form_lines(line.substr(at + 1));
    bool fits = width == 0 || std::all_of(wide.begin(), wide.end(), [&](const std::string& l) { return columns(l) <= width; });
    const std::vector<std::string>& shown = fits ? wide : narrow;
    std::string out;
    for (size_t k = 0; k < shown.size(); ++k) {
      if (k) out += '\n';
      out += wrap_line(shown[k], fits ? 0 : width);
    }
    return out;
  }
  if (width == 0 || columns(line) <= width) return plain(line);
  std::string indent(hanging_indent(line, width), ' ');
  std::string out;
  // The line's own indent and its first word start the first line whatever their width.
  size_t start = line.find_first_not_of(' ');
  if (start == std::string::npos) return plain(line);
  size_t end = line.find(' ', start);
  std::string current = line.substr(0, end);
  size_t used = columns(current);  // columns in `current`
  size_t i = end;
  while (i < line.size()) {
    size_t word = line.find_first_not_of(' ', i);
    if (word == std::string::npos) break;
    size_t stop = line.find(' ', word);
    if (stop == std::string::npos) stop = line.size();
    size_t gap = columns(line, i, word), size = columns(line, word, stop);
    if (used + gap + size > width) {
      out += current + '\n';
      // A unit that fits the width but not beside the hanging indent goes two columns in
      // from the line's own indent, or at the line's start.
      size_t in = indent.size();
      if (size <= width && in + size > width) in = start + 2 + size <= width ? start + 2 : 0;
      current = indent.substr(0, in) + line.substr(word, stop - word);
      used = in + size;
    } else {
      current += line.substr(i, stop - i);
      used += gap + size;
    }
    i = stop;
  }
  return plain(out + current);
}

std::string wrap_text(const std::string& text, size_t width) {
  if (width == 0) return plain(text);
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    size_t nl = text.find('\n', from);
    if (nl == std::string::npos) return out + wrap_line(text.substr(from), width);
    out += wrap_line(text.substr(from, nl - from), width) + '\n';
    from = nl + 1;
  }
  return out;
}

WrappingStream::WrappingStream(std::ostream& out, size_t width) : std::ostream(&buffer_), buffer_(out, width) {}

WrappingStream::~WrappingStream() { flush(); }

WrappingStream::Buffer::int_type WrappingStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  char ch = traits_type::to_char_type(c);
  xsputn(&ch, 1);
  return c;
}

std::streamsize WrappingStream::Buffer::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize k = 0; k < n; ++k) {
    if (s[k] != '\n') {
      line_ += s[k];
      continue;
    }
    out_ << wrap_line(line_, width_) << '\n';
    line_.clear();
  }
  return n;
}

int WrappingStream::Buffer::sync() {
  out_ << plain(line_);
  line_.clear();
  out_.flush();
  return out_ ? 0 : -1;
}

}  // namespace kata
