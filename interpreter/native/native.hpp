// Compiled mode: a Game's program translated to C++ (codegen.cpp), compiled by the
// system's C++ compiler into a shared object, cached, and loaded. The runtime then runs
// effects and lists legal decisions through it, wherever no event is being recorded
// (simulations, random playouts, bots' searches); states stay the interpreter's, slot for
// slot, so the two can take turns on one game. See docs/performance.md.
#pragma once

#include <memory>
#include <string>

#include "runtime/backend.hpp"
#include "runtime/game.hpp"

namespace kata {

// The loaded code of one game: a shared object. Unloaded when the last Game holding it goes.
struct NativeCode : CompiledCode {
  void* handle = nullptr;
  std::string library;  // the shared object's path
  // The descriptor it was loaded through (/proc/self/fd/N), open while it is loaded: the
  // dynamic loader knows a library by that name, and the number must not be reused meanwhile.
  int fd = -1;
  ~NativeCode() override;
};

// The C++ source of a game's program (deterministic: the same Game gives the same text).
std::string native_source(const Game& g);

// How many parts native_source's text is in (at most 31): compilers run at once, each given
// a set of parts (KATA_PART defined with a bit for each, part k's bit 1 << k), and their
// objects are linked; the file compiles whole too, without KATA_PART.
int native_parts(const std::string& source);
// The optimisation level it asks to be compiled at (`#define KATA_LEVEL`): 1 for a program
// written in chunks, else 3.
int native_level(const std::string& source);

// The most C++ compiled mode writes for one game (the largest file of rules/ takes under
// a third of it): past it, compiling would take minutes.
inline constexpr size_t max_native_source = 512 << 10;

// native_source, or empty with `error` set when the source would pass `limit` bytes;
// `where` is then the expression where it did (no position if it was the game's tables
// or instructions). Stops there: refusing costs little.
std::string native_source(const Game& g, std::string& error, Pos& where, size_t limit = max_native_source);

// A copy of `g` that runs compiled, or null with `error` set (no compiler, a failed or
// timed-out compilation, a directory that cannot be written or may not be trusted). The
// shared object is cached under $KATA_CACHE (default $XDG_CACHE_HOME/kata or
// $HOME/.cache/kata, and no other), named by the SHA-256 of its source and compiler; the
// compiler is $KATA_CXX, or the one kata was built with, stopped after $KATA_CXX_TIMEOUT
// seconds (default 600).
// If the source would be too large, `where` (when given) is the expression at fault.
std::shared_ptr<const Game> compile_native(const std::shared_ptr<const Game>& g, std::string& error,
                                           Pos* where = nullptr);

// Whether kata itself was built with a sanitizer: then KATA_CXXFLAGS may add one (a
// library built with a sanitizer kata lacks is refused).
bool built_with_sanitizer();

}  // namespace kata
