// Checking a rule file: every name resolved, every expression typed, recursion refused,
// unused declarations warned about. The checker annotates the AST in place (Expr::type,
// Expr::sym, Stmt::sym) and builds the symbol tables the compiler lowers from; it reports
// through Diagnostics and never throws to its caller.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "syntax/rulefile.hpp"

namespace kata {

struct Symbols {
  std::vector<std::string> symbols;  // interned bare words (clan names, option choices)
  std::map<std::string, int> symbol_index;
  std::map<std::string, int> options, globals, player_vars, card_vars, zones, properties, functions,
      procedures, phases, actions, kinds;
  std::vector<bool> property_symbolic;
  std::vector<Type> function_param_types_flat;
  std::vector<std::vector<Type>> function_params, procedure_params;
  std::vector<Type> function_types;
  std::vector<Type> option_types;
  int local_count = 0;                 // locals are numbered across the whole file
  std::vector<Type> local_types;
  std::vector<int> action_player_local;  // each action's implicit `player`
  std::vector<std::vector<int>> action_param_locals;
  std::vector<std::vector<int>> procedure_param_locals;
  int score_depth = 0;
};

// The names of the built-in functions (top, size, next, ...), for editors' completion.
std::vector<std::string> builtin_names();

// Checks `rf` (already loaded) and fills `out`. Returns false if there were errors.
bool check_rules(RuleFile& rf, Symbols& out, Diagnostics& diags);

}  // namespace kata
