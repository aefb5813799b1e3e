// Fuzz target: the bytes are a rule file, loaded, checked and compiled as `kata check`
// does, and its diagnostics printed as text and as JSON. Imports resolve in the
// repository's stdlib/ only (the file stands in a directory that does not exist).
#include <cstddef>
#include <cstdint>
#include <string>

#include "compile/compiler.hpp"
#include "support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kata::fuzz::scratch_dir();  // fixes KATA_STDLIB
  std::string text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  auto game = kata::load_game_text("/nonexistent/kata-fuzz/input.yaml", text, sources, diags);
  if (sources) kata::fuzz::print_diagnostics(*sources, diags);
  (void)game;
  return 0;
}
