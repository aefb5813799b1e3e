// Fuzz target: the bytes are the text of an expression, then of a block of statements
// (effects and flow), parsed alone, with no rule file around them; diagnostics are
// printed as `kata check` prints them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "support.hpp"
#include "syntax/parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  kata::Sources sources;
  int file = sources.add("input", "input", text);
  kata::Locator where(sources, file, 0, text);
  {
    kata::Diagnostics diags;
    kata::ExprPtr e = kata::parse_expression(text, where, diags);
    kata::fuzz::print_diagnostics(sources, diags);
    (void)e;
  }
  {
    kata::Diagnostics diags;
    kata::Block block;
    kata::parse_program(text, where, diags, block);
    kata::fuzz::print_diagnostics(sources, diags);
  }
  return 0;
}
