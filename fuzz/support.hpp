// What the fuzz targets share: a private scratch directory for the inputs that kata_core
// reads by path (logs, scenarios), and the CLI's way of turning diagnostics into text, so
// a target exercises the same printing a user would see. Nothing here is libFuzzer's:
// the same targets run under the plain driver (driver.cpp) for the regression tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "syntax/diagnostics.hpp"

namespace kata::fuzz {

// The repository's rules/ and stdlib/ (fixed when the targets are built).
std::string source_dir();

// A directory of this process's own, made on first use and removed at exit.
const std::string& scratch_dir();

// Writes `size` bytes to `path` (replacing it); aborts if it cannot, since a target that
// silently runs nothing would pass every input.
void write_file(const std::string& path, const uint8_t* data, size_t size);

// Every diagnostic as `kata check` prints it, and as `kata check --json` prints it.
// Returns the length of the text, so the work cannot be optimised away.
size_t print_diagnostics(const Sources& sources, const Diagnostics& diags);

}  // namespace kata::fuzz
