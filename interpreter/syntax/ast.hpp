// The abstract syntax of the text inside a rule file: expressions and statements, each
// node with its source position. The parser builds it; the checker annotates it in place
// (types and resolved names); the compiler lowers it to the runtime's program.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "syntax/source.hpp"

namespace kata {

// The types the checker gives expressions. Players, cards and zones are small integers at
// run time; lists are what aggregates and loops range over.
enum class Type : uint8_t { error, integer, boolean, player, card, zone, player_list, card_list, int_list };

const char* type_name(Type t);

// What a name resolved to (filled in by the checker).
enum class SymKind : uint8_t {
  unresolved,
  option,         // index: option
  global,         // index: global variable
  player_var,     // index: per-player variable (member access on a player)
  local,          // index: state slot of a let, loop variable or action parameter
  bound,          // index: depth of an aggregate or function parameter (evaluation-time)
  zone,           // index: zone declaration (shared zone, or member access on a player)
  property,       // index: card property (member access on a card)
  card_var,       // index: variable of each component of a kind (member access on a card)
  card_zone,      // index: zone declaration of each component of a kind (member access on a card)
  constant,       // value: a symbol constant (for example a clan name) or seat literal
  builtin,        // index: builtin function or value
  function,       // index: user function
  procedure,      // index: user procedure
  kind,           // index: component kind, called with property values: `cell(3, 2)`
};

struct Resolved {
  SymKind kind = SymKind::unresolved;
  int index = -1;
  int64_t value = 0;
};

enum class ExprKind : uint8_t {
  integer, boolean, none, name, member, call, unary, binary, conditional, aggregate, range, from,
  walk,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  ExprKind kind;
  Pos pos;
  int64_t value = 0;  // integer and boolean literals
  std::string op;     // operator, or the aggregate's function: sum count min max any all best worst
  std::string name;   // a name, a member, a call's function, an aggregate's variable
  std::vector<ExprPtr> args;
  // Aggregate: args = {domain, where (may be null), value (may be null)}.
  // Conditional: args = {condition, then, else}. Member: args = {object} or, for what each
  // component has for each player (`b.side(p)`), {object, player}.
  // From: args = {list, starting player}. Walk: args = {start, steps, condition (may be
  // null)}, name = the variable the condition is about.

  Type type = Type::error;
  Resolved sym;
};

enum class StmtKind : uint8_t {
  let, assign, call, if_, for_, repeat_times, repeat_until, while_, move, move_all, shuffle, flip,
  reveal, look, eliminate, choose, phase, win, end_game, say, return_,
};

enum class Face : uint8_t { keep, up, down };

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;

struct Stmt {
  StmtKind kind;
  Pos pos;
  std::string name;   // let/for variable, assign operator ("=", "+=", "-="), phase name; "to" for `say to`
  // move: {card, zone} or {card, zone, position}; say: its values, then whom it is to (`say to`)
  std::vector<ExprPtr> exprs;
  std::vector<std::string> text;  // say: the text around its values (one more than values)
  // choose: action names, and how many values each is given (`jump(c)`: 1), which follow
  // the chooser in `exprs`, action by action
  std::vector<std::string> names;
  std::vector<int> arg_counts;
  std::vector<Pos> name_pos;
  std::vector<StmtPtr> body;
  std::vector<StmtPtr> orelse;
  Face face = Face::keep;
  bool bottom = false;

  Resolved sym;  // let/for: the local slot; phase: the phase
  std::vector<int> action_ids;  // choose: resolved actions
};

using Block = std::vector<StmtPtr>;

}  // namespace kata
