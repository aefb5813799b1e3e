// What an edit of a rule file changed in its structure (kata check --against OLD NEW): the
// declarations added, removed or changed, matched by name, kind by kind, so that a reviewer
// sees an edit's shape before its effect. It compares declarations as read (RuleFile),
// text by text with runs of white space made one; what a change does to play is kata
// compare's business.
#pragma once

#include <string>
#include <vector>

#include "syntax/rulefile.hpp"

namespace kata {

enum class ChangeKind : uint8_t { added, removed, changed };

struct Change {
  ChangeKind kind = ChangeKind::changed;
  // What was changed: "game", "option", "component", "card", "link", "board", "zone",
  // "variable", "action", "function", "procedure", "phase", "invariant", "scoring",
  // "flow" or "limits".
  std::string what;
  std::string name;  // its name ("" for the game's sections: scoring, flow, ...)
  std::string of;    // a card's component
  // What changed in it, one line each: "default 4 -> 5", "when 'x > 1' added", ...
  std::vector<std::string> details;
  // Where: in the new file (the first changed part, where it has a position of its own),
  // or, for what was removed, in the old one.
  Pos pos;
};

// The changes from `before` to `after`, in the order of the sections of a rule file
// (game, options, components and their cards, links, board, zones, variables, actions, functions,
// procedures, phases, invariants, scoring, flow), each section's in the new file's order
// with what was removed last.
std::vector<Change> diff_rules(const RuleFile& before, const RuleFile& after);

const char* change_name(ChangeKind k);  // "added", "removed", "changed"

}  // namespace kata
