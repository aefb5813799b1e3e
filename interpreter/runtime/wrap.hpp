// Text for a terminal, wrapped to its width: the screens of `kata play` and `kata replay`
// and the reference of `kata rules`. Lines longer than the width are broken between words,
// never inside one (a word longer than the line is left whole), and go on under a hanging
// indent that keeps the line's shape: under the entries of a listed zone ("  P1.hand
// Guard ..."), under a menu entry's text ("  12) ..."), else two columns in from the line's
// own indent. Whoever prints decides the width; 0 wraps nothing (output that scripts read:
// JSON, logs, a pipe). Widths count characters (UTF-8 code points), not bytes.
//
// Some runs of text are one unit that no line break may split: a card's name and the
// properties shown beside it ("P1 Guard", "North (vp 4)"), a line of a board's drawing.
// Their writers join the words of a unit with `unbroken_space`; wrapping breaks only at
// plain spaces, puts a unit longer than the line on a line of its own, and prints each
// unbroken space as a space (at width 0 too).
#pragma once

#include <ostream>
#include <streambuf>
#include <string>

namespace kata {

// A space inside a unit (ASCII's unit separator): never a place to break a line.
constexpr char unbroken_space = '\x1f';
// `text` with each unbroken space a plain one, for text not printed through wrapping.
std::string plain(std::string text);
// `text` with each space an unbroken one: the whole text is one unit.
std::string unbroken(std::string text);
// A block of lines in two forms, as one line of a screen: wrapping prints the wide form
// where each of its lines fits the width (and at width 0, and plain() always), else the
// narrow form, each of its lines wrapped. A table a narrow terminal would break apart
// offers the same content as lines that wrap (the score table at the end). Neither form
// ends with a '\n'; neither holds the separators below.
std::string wide_or_narrow(const std::string& wide, const std::string& narrow);
// Writes text that may hold unbroken spaces: through a WrappingStream as it is (it keeps
// the units whole), to any other stream plain.
void print_screen(std::ostream& out, const std::string& text);

// One line (no '\n') wrapped to `width`: lines joined by '\n', without a final one.
std::string wrap_line(const std::string& line, size_t width);
// Each line of `text` wrapped.
std::string wrap_text(const std::string& text, size_t width);

// An output stream that wraps what is written through it, line by line, into `out`. A
// line not yet ended is held until its '\n'; a flush writes it as it is (a prompt).
class WrappingStream : public std::ostream {
 public:
  WrappingStream(std::ostream& out, size_t width);
  ~WrappingStream() override;

 private:
  class Buffer : public std::streambuf {
   public:
    Buffer(std::ostream& out, size_t width) : out_(out), width_(width) {}

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

   private:
    std::ostream& out_;
    size_t width_;
    std::string line_;
  };
  Buffer buffer_;
};

}  // namespace kata
