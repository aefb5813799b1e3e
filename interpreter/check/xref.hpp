// The cross-reference of a checked rule file: its declarations (options, components,
// zones, variables, actions, functions, procedures, phases) with where each is declared,
// and every use of one in its expressions and statements, as the checker resolved it. It
// serves `kata lsp`'s hover, go to definition and references.
#pragma once

#include <string>
#include <vector>

#include "syntax/rulefile.hpp"

namespace kata {

struct XDeclaration {
  std::string what;  // "option", "component", "zone", "variable", "action", "function", "procedure", "phase"
  std::string name;
  Pos pos;           // where it is declared (its key)
  std::string doc;   // its `doc:`
  std::string detail;  // what else says what it is: a function's parameters and value, an option's default ...
};

struct XUse {
  Pos pos;  // the first character of the name
  int length = 0;  // of the name, in bytes
  int declaration = -1;  // index into XRef::declarations
};

struct XRef {
  std::vector<XDeclaration> declarations;
  std::vector<XUse> uses;  // in the order of the walk
  // The declaration whose use or whose key covers `pos` (same file, line, and a column
  // within the name), or -1.
  int at(const Pos& pos) const;
};

// `rf` must have been checked (check_rules): uses are what the checker resolved.
XRef cross_reference(const RuleFile& rf);

}  // namespace kata
