// Lowering a checked rule file to the runtime's Game: declarations become tables indexed
// by small integers, expressions a flat node array, effects and flow a flat instruction
// array with jumps, and every local a fixed slot in the state (recursion is refused by
// the checker, so no frame ever needs a stack).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "check/checker.hpp"
#include "runtime/game.hpp"

namespace kata {

std::shared_ptr<const Game> compile_rules(RuleFile& rf, const Symbols& symbols,
                                          std::shared_ptr<const Sources> sources);

// Loads, checks and compiles a rule file. Returns null if there were errors; warnings
// and errors are in `diags`, positioned in `sources`.
std::shared_ptr<const Game> load_game(const std::string& path, std::shared_ptr<Sources>& sources,
                                      Diagnostics& diags);
// The same for rule text held in memory (`name` is used in messages). `amend`, when
// given, may add to the parsed file before it is checked (a scenario's expectations, as
// invariants); its errors go to `diags`, and it returns false to stop there. Every caller
// that loads a game (check, play, test, the library) goes through here: a load-time
// error is a diagnostic everywhere, never an exception.
std::shared_ptr<const Game> load_game_text(const std::string& name, const std::string& text,
                                           std::shared_ptr<Sources>& sources, Diagnostics& diags,
                                           const std::function<bool(RuleFile&)>& amend = {});

}  // namespace kata
