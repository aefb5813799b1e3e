// Scratch files and printing for the fuzz targets (see support.hpp).
#include "support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace kata::fuzz {

std::string source_dir() { return KATA_SOURCE_DIR; }

const std::string& scratch_dir() {
  // Never destroyed: the function that removes the directory at exit reads it, and may
  // run after the destructors of statics made later than itself.
  static const std::string& dir = *new std::string([] {
    // Imports of `stdlib/...` are found in the repository's stdlib/, whatever the caller's
    // environment says, so that an input means the same thing on every machine.
    setenv("KATA_STDLIB", (source_dir() + "/stdlib").c_str(), 1);
    std::string pattern = (std::filesystem::temp_directory_path() / "kata-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("kata fuzz: mkdtemp");
      std::abort();
    }
    return pattern;
  }());
  static const bool removed_at_exit = std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(scratch_dir(), ec);
  }) == 0;
  (void)removed_at_exit;
  return dir;
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) {
    std::fprintf(stderr, "kata fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
}

// As `kata check` prints them, in text and with --json (the same functions).
size_t print_diagnostics(const Sources& sources, const Diagnostics& diags) {
  std::string text = format_diagnostics(sources, diags, false, 0);
  return text.size() + json_text(diagnostics_json(sources, diags, "?", 0)).size();
}

}  // namespace kata::fuzz
