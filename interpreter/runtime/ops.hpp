// The one description of the program's kinds: every expression node (NodeOp) and every
// instruction (Op), with what its fields mean. The enums, their names, and the case lists
// of the back-ends' dispatch come from these tables; the interpreter (evaluator.hpp,
// xcode.cpp) and the C++ generator (native/codegen.cpp) switch over them exhaustively,
// with no `default:` and -Wswitch-enum an error there (KATA_EXHAUSTIVE_BEGIN), so a kind
// added here and missing from one back-end fails the build. tests/test_native_nodes.cpp
// checks, from the same names, that the rule files exercise every kind in both back-ends.
//
// Each table row is X(name, "what a, b and the kids hold"). Nodes are listed in four
// tables by how the interpreter dispatches them (the enum holds them in this order):
// leaves are read in Evaluator::eval without a call, the inner kinds met most often in
// Evaluator::inner, the rest out of line in Evaluator::eval_rest; lists stand only as
// the domain of an aggregate, loop or parameter (Evaluator::each).
#pragma once

#include <cstdint>

// Leaves. `p.var` and `p.zone` where p is a local, bound variable or argument, and `c.prop`
// and `c.var` (not per player) where c is one, are read without a call: b is p's (or c's)
// slot, depth or argument index (kept as `a` of kid 0, for its position too); a is the
// player variable, the zone's first instance, the property or the component variable.
#define KATA_LEAF_NODES(X)                                                                    \
  X(constant, "a: the value")                                                                 \
  X(option, "a: option index")                                                                \
  X(global, "a: global variable")                                                             \
  X(local, "a: state slot, relative to layout.locals")                                        \
  X(bound, "a: depth in the evaluation frame")                                                \
  X(arg, "a: argument of the decision being checked (0: the chooser, 1..: parameters)")       \
  X(zone, "a: zone instance (a shared zone)")                                                 \
  X(player_var_local, "a: player variable, b: p's local slot")                                \
  X(player_var_bound, "a: player variable, b: p's depth")                                     \
  X(player_var_arg, "a: player variable, b: p's argument")                                    \
  X(zone_of_local, "a: the zone's first instance, b: p's local slot")                         \
  X(zone_of_bound, "a: the zone's first instance, b: p's depth")                              \
  X(zone_of_arg, "a: the zone's first instance, b: p's argument")                             \
  X(prop_local, "a: property, b: c's local slot")                                             \
  X(prop_bound, "a: property, b: c's depth")                                                  \
  X(prop_arg, "a: property, b: c's argument")                                                 \
  X(card_var_local, "a: component variable, b: c's local slot")                               \
  X(card_var_bound, "a: component variable, b: c's depth")                                    \
  X(card_var_arg, "a: component variable, b: c's argument")

#define KATA_INNER_NODES(X)                                                                   \
  X(player_var, "a: player variable, kid 0: player")                                          \
  X(zone_of, "a: zone declaration, kid 0: player (a per-player zone)")                        \
  X(prop, "a: property, kid 0: card")                                                         \
  X(not_, "kid 0")                                                                            \
  X(add, "kids 0, 1")                                                                         \
  X(sub, "kids 0, 1")                                                                         \
  X(eq, "kids 0, 1")                                                                          \
  X(ne, "kids 0, 1")                                                                          \
  X(lt, "kids 0, 1")                                                                          \
  X(le, "kids 0, 1")                                                                          \
  X(gt, "kids 0, 1")                                                                          \
  X(ge, "kids 0, 1")                                                                          \
  X(and_, "kids 0, 1")                                                                        \
  X(or_, "kids 0, 1")                                                                         \
  X(cond, "kids: condition, then, else")                                                      \
  X(top, "kid 0: zone")

// Aggregates hold a: the depth of their variable; kids: domain, where|-1, value|-1. They
// are of the rest, and listed apart so that a dispatch hands them on in one branch.
#define KATA_AGGREGATE_NODES(X)                                                               \
  X(sum, "aggregate")                                                                         \
  X(count, "aggregate")                                                                       \
  X(min, "aggregate")                                                                         \
  X(max, "aggregate")                                                                         \
  X(any, "aggregate")                                                                         \
  X(all, "aggregate")                                                                         \
  X(best, "aggregate: the element of the highest value, -1 if none passes")                  \
  X(worst, "aggregate: the element of the lowest value, -1 if none passes")                  \
  X(find, "aggregate: the first element that passes, -1 if none")

#define KATA_REST_NODES(X)                                                                    \
  X(card_var, "a: component variable, kid 0: card, kid 1: player (if per player)")            \
  X(card_zone_of, "a: zone declaration (per component), kid 0: card, kid 1: player (if per player)") \
  X(card_owner, "kid 0: card")                                                                \
  X(neg, "kid 0")                                                                             \
  X(mul, "kids 0, 1")                                                                         \
  X(div, "kids 0, 1")                                                                         \
  X(mod, "kids 0, 1")                                                                         \
  KATA_AGGREGATE_NODES(X)                                                                     \
  X(call, "a: function, b: live frame size; kids (Program::kids): arguments")                \
  X(player_count, "")                                                                         \
  X(bottom, "kid 0: zone")                                                                    \
  X(size, "kid 0: zone")                                                                      \
  X(next_player, "kid 0: player")                                                             \
  X(left, "kid 0: player")                                                                    \
  X(right, "kid 0: player")                                                                   \
  X(alive, "kid 0: player")                                                                   \
  X(sees, "kids: player, card")                                                               \
  X(face_up, "kid 0: card")                                                                   \
  X(zone_owner, "kid 0: zone")                                                                \
  X(card_zone, "kid 0: card")                                                                 \
  X(contains, "kids: zone, card")                                                             \
  X(seat, "kid 0: player")                                                                    \
  X(holder, "kid 0: card")                                                                    \
  X(position, "kid 0: card")                                                                  \
  X(abs, "kid 0")                                                                             \
  X(linked, "kids: card, card")                                                               \
  X(repetitions, "no kid: how many remembered positions are the current one")                 \
  X(min_of, "kids 0, 1: the lower of two numbers (min(a, b, c) is a tree of them)")           \
  X(max_of, "kids 0, 1: the higher of two numbers")                                           \
  X(card_at, "a: index into Program::lookups; kids: the values of the kind's first properties") \
  /* The statements of a function computed by statements (`do:`), which write only its frame. */ \
  X(block, "kids (Program::kids): worked out in order; its value is the last one's (0 if none)") \
  X(set_bound, "a: depth in the evaluation frame; kid 0: the value it takes. Value 0")        \
  X(loop_for, "a: depth of the variable, b: capacity; kids: list, where|-1, body. Value 0")   \
  X(loop_while, "kids: condition, body. Value 0")                                             \
  X(loop_times, "kids: count, body. Value 0")

#define KATA_LIST_NODES(X)                                                                    \
  X(list_players, "the players still in the game, from seat 1")                               \
  X(list_all_players, "every seat")                                                           \
  X(list_from, "kids: player list, start player: the list in turn order from start")          \
  X(list_range, "kids: low, high")                                                            \
  X(list_values, "a: index into Program::value_lists: the values a property takes")          \
  X(list_neighbours, "kid 0: card: the cards linked to it")                                   \
  X(list_walk, "a: depth of the variable; kids: start, steps, condition|-1")

#define KATA_NODES(X) KATA_LEAF_NODES(X) KATA_INNER_NODES(X) KATA_REST_NODES(X) KATA_LIST_NODES(X)

// Instructions: X(name, "what a, b, c, d and e hold").
#define KATA_INSTRUCTIONS(X)                                                                  \
  X(assign, "a: target kind (0 global, 1 player var, 2 local, 3 component var), b: index, "   \
            "c: value node, d: player node (player var) or the card_var node (component var), " \
            "e: 0 set, 1 add, 2 subtract")                                                    \
  X(move, "a: card node, b: zone node, c: face (0 keep/zone default, 1 up, 2 down), "         \
          "d: 0 on top, 1 at the bottom, 2 at the position of node e")                        \
  X(move_all, "a: list node, b: zone node, c, d: as move")                                    \
  X(shuffle, "a: zone node")                                                                  \
  X(flip, "a: card node, c: face (0 toggle, 1 up, 2 down)")                                   \
  X(reveal, "a: card node")                                                                   \
  X(look, "a: player node, b: card node")                                                     \
  X(eliminate, "a: player node")                                                              \
  X(jump, "a: target")                                                                        \
  X(jump_if_not, "a: condition node, b: target")                                              \
  X(for_init, "a: loop, b: exit target")                                                      \
  X(for_next, "a: loop, b: exit target")                                                      \
  X(repeat_init, "a: count node, b: counter slot")                                            \
  X(repeat_next, "a: counter slot, b: exit target")                                           \
  X(choose, "a: player node, b: choice site")                                                 \
  X(call, "a: procedure, b: first argument (into Program::kids: value nodes)")                \
  X(ret, "a: return slot")                                                                    \
  X(phase, "a: phase (a procedure), b: phase index")                                          \
  X(win, "a: player or player list node, b: 1 if a list")                                    \
  X(end_game, "")                                                                             \
  X(halt, "the end of the flow: the game ends and is scored")                                 \
  X(say, "a: message (Program::messages), b: player node (`say to`) or -1")

// `case NodeOp::name:` for each row of a table: KATA_INNER_NODES(KATA_NODE_CASE) lists the
// inner kinds as the cases of one branch.
#define KATA_NODE_CASE(name, doc) case ::kata::NodeOp::name:
#define KATA_OP_CASE(name, doc) case ::kata::Op::name:

// Around a back-end's dispatch: a switch there that misses a kind is an error, even with
// a `default:` (which those switches do not have).
#define KATA_EXHAUSTIVE_BEGIN \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic error \"-Wswitch-enum\"")
#define KATA_EXHAUSTIVE_END _Pragma("GCC diagnostic pop")

namespace kata {

#define KATA_ENUM_ROW(name, doc) name,
enum class NodeOp : uint8_t { KATA_NODES(KATA_ENUM_ROW) };
enum class Op : uint8_t { KATA_INSTRUCTIONS(KATA_ENUM_ROW) };
#undef KATA_ENUM_ROW

#define KATA_NAME_ROW(name, doc) #name,
#define KATA_DOC_ROW(name, doc) doc,
inline constexpr const char* node_op_names[] = {KATA_NODES(KATA_NAME_ROW)};
inline constexpr const char* node_op_docs[] = {KATA_NODES(KATA_DOC_ROW)};
inline constexpr const char* op_names[] = {KATA_INSTRUCTIONS(KATA_NAME_ROW)};
inline constexpr const char* op_docs[] = {KATA_INSTRUCTIONS(KATA_DOC_ROW)};
#undef KATA_NAME_ROW
#undef KATA_DOC_ROW

inline constexpr int node_op_count = static_cast<int>(sizeof node_op_names / sizeof *node_op_names);
inline constexpr int op_count = static_cast<int>(sizeof op_names / sizeof *op_names);

inline const char* name_of(NodeOp op) { return node_op_names[static_cast<int>(op)]; }
inline const char* name_of(Op op) { return op_names[static_cast<int>(op)]; }

}  // namespace kata
