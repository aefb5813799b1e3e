// The expression evaluator: one short case per node kind, over a state's slots. The
// machine (machine.cpp) runs effects with it, the listing of legal decisions (legal.cpp)
// decides conditions with it, compiled code hands it the nodes it does not translate
// (backend.cpp), and scores and views ask it (scores.cpp). Internal to runtime/: the
// rest of kata evaluates through runtime/engine.hpp.
//
// It is all here, in the header, so that each of those files inlines the evaluator's
// small cases into its own loop.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>
#include <memory>
#include <vector>

#include "runtime/engine.hpp"
#include "runtime/view.hpp"


// ---- the values of node kinds, written once ----
// Each table row gives a kind's value as an expression. The tree walk (Evaluator::eval
// and the functions it hands kinds to) and the register code (Evaluator::xrun, runtime/
// xcode.cpp) are both made from these rows, so a kind means the same in both.
//
// A bound variable is read without a check (see Evaluator::zone): GCC's warning about the
// frame being uninitialised is reported at these rows, where the reads are written.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// Leaves: X(kind, value), with k the node (or the register code's instruction, which
// carries the node's a, b and first kid).
#define KATA_LEAF_VALUES(X)                                   \
  X(constant, k.a)                                            \
  X(local, locals_[k.a])                                      \
  X(arg, args_[k.a])                                          \
  X(bound, env_[base_ + k.a])                                 \
  X(global, globals_[k.a])                                    \
  X(option, options_[k.a])                                    \
  X(zone, k.a)                                                \
  X(player_var_local, player_var(k, locals_[k.b]))            \
  X(player_var_bound, player_var(k, env_[base_ + k.b]))       \
  X(player_var_arg, player_var(k, args_[k.b]))                \
  X(zone_of_local, k.a + checked_player(k, locals_[k.b]))     \
  X(zone_of_bound, k.a + checked_player(k, env_[base_ + k.b])) \
  X(zone_of_arg, k.a + checked_player(k, args_[k.b]))         \
  X(prop_local, prop(k, locals_[k.b]))                        \
  X(prop_bound, prop(k, env_[base_ + k.b]))                   \
  X(prop_arg, prop(k, args_[k.b]))                            \
  X(card_var_local, card_var(k, locals_[k.b]))                \
  X(card_var_bound, card_var(k, env_[base_ + k.b]))           \
  X(card_var_arg, card_var(k, args_[k.b]))
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// Kinds whose kids are all worked out, first to last, before the kind's own work:
// X(kind, operands, value). The operands say what each kid must be, in order: V a number,
// P a player, C a card, Z a zone (N: no kid); A and B are the kids' checked values, n the
// node (or the register code's instruction, which carries the node's a, b and kids) and
// `node` its index. The first table's kinds are met most often (Evaluator::inner),
// the second's out of line (Evaluator::eval_rest).
#define KATA_STRICT_INNER_VALUES(X)                                   \
  X(player_var, P, player_vars_[n.a * mp_ + A])                       \
  X(zone_of, P, g_.zones[n.a].first_instance + A)                     \
  X(prop, C, card_props_[n.a * card_count_ + A])                      \
  X(not_, V, !A)                                                      \
  X(add, VV, checked<checked_add>(node, A, B))                        \
  X(sub, VV, checked<checked_sub>(node, A, B))                        \
  KATA_STRICT_COMPARE_VALUES(X)                                       \
  X(top, Z, size(A) ? cards(A)[size(A) - 1] : -1)

// The comparisons, apart: they are also tests (KATA_X_TEST).
#define KATA_STRICT_COMPARE_VALUES(X) \
  X(eq, VV, A == B)                   \
  X(ne, VV, A != B)                   \
  X(lt, VV, A < B)                    \
  X(le, VV, A <= B)                   \
  X(gt, VV, A > B)                    \
  X(ge, VV, A >= B)

#define KATA_STRICT_REST_VALUES(X)                                    \
  X(card_owner, C, g_.card_owner[A])                                  \
  X(neg, V, checked<checked_neg>(node, A))                            \
  X(mul, VV, checked<checked_mul>(node, A, B))                        \
  X(div, VV, checked<checked_div>(node, A, B))                        \
  X(mod, VV, checked<checked_mod>(node, A, B))                        \
  X(player_count, N, n_)                                              \
  X(bottom, Z, size(A) ? cards(A)[0] : -1)                            \
  X(size, Z, size(A))                                                 \
  X(next_player, P, next_player_(A))                                  \
  X(left, P, A + 1 == n_ ? 0 : A + 1)                                 \
  X(right, P, A == 0 ? n_ - 1 : A - 1)                                \
  X(alive, P, !eliminated(A))                                         \
  X(sees, PC, is_visible(A, B))                                       \
  X(face_up, C, card_face_[A])                                        \
  X(zone_owner, Z, instance_owner_[A])                                \
  X(card_zone, C, card_zone_[A])                                      \
  X(contains, ZC, card_zone_[B] == A)                                 \
  X(seat, P, A + 1)                                                   \
  X(holder, Z, g_.instance_card[A])                                   \
  X(position, C, position_(A))                                        \
  X(abs, V, checked<checked_abs>(node, A))                            \
  X(linked, CC, linked_(A, B))                                        \
  X(repetitions, N, count_repetitions(g_, s_))                        \
  X(min_of, VV, A < B ? A : B)                                        \
  X(max_of, VV, A > B ? A : B)

#define KATA_STRICT_VALUES(X) KATA_STRICT_INNER_VALUES(X) KATA_STRICT_REST_VALUES(X)

// The tree walk's case for a strict kind: its kids worked out and checked in order.
#define KATA_TREE_OPERANDS_N
#define KATA_TREE_OPERANDS_V int64_t A = eval(n.kid[0]);
#define KATA_TREE_OPERANDS_P int A = player(n.kid[0]);
#define KATA_TREE_OPERANDS_C int A = card(n.kid[0]);
#define KATA_TREE_OPERANDS_Z int A = zone(n.kid[0]);
#define KATA_TREE_OPERANDS_VV int64_t A = eval(n.kid[0]); int64_t B = eval(n.kid[1]);
#define KATA_TREE_OPERANDS_PC int A = player(n.kid[0]); int B = card(n.kid[1]);
#define KATA_TREE_OPERANDS_ZC int A = zone(n.kid[0]); int B = card(n.kid[1]);
#define KATA_TREE_OPERANDS_CC int A = card(n.kid[0]); int B = card(n.kid[1]);
#define KATA_TREE_CASE(kind, operands, value) \
  case NodeOp::kind: {                         \
    KATA_TREE_OPERANDS_##operands return value; \
  }
#define KATA_LEAF_CASE(kind, value) \
  case NodeOp::kind:                \
    return value;

// The register code's own instructions, beside one for each leaf and strict kind:
// X(name, "what d, x, y, a, b and node hold"). Aggregates keep registers d (the result so
// far), d+1 (the best value), d+2 (whether any element counted), d+3 and up (where the
// list is), and work out `where` and the value into d+6.
#define KATA_X_CONTROL(X)                                                               \
  X(ret, "the value is register 0's")                                                   \
  X(jump, "to a")                                                                       \
  X(jz, "to a if x is 0")                                                               \
  X(jnz_one, "if x is not 0: d = 1, to a")                                              \
  X(to_bool, "d = (x != 0)")                                                            \
  X(tree, "d = node's value, worked out by the tree walk")                              \
  X(chk_player, "x must be a player (node: the kid it is)")                             \
  X(chk_card, "x must be a card")                                                       \
  X(chk_zone, "x must be a zone")                                                       \
  X(agg_init, "node: the aggregate, c: its depth; the frame checked, its registers cleared") \
  X(agg_from_init, "node: the list; d+4 its start, checked")                            \
  X(agg_zone_init, "node: the zone; d+4 it, checked")                                   \
  X(agg_range_init, "node: the list; d+4, d+5 its ends, checked; d+3 = d+4")            \
  X(agg_players, "node: the aggregate, b: its variable's depth; the next element, or to a") \
  X(agg_all_players, "as agg_players")                                                  \
  X(agg_from, "as agg_players")                                                         \
  X(agg_zone, "as agg_players")                                                         \
  X(agg_range, "as agg_players")                                                        \
  X(agg_players_var, "as agg_players, passing over the players whose player variable c is 0 (the aggregate's `where`: that variable of its element; e: the `where`'s node)") \
  X(agg_all_players_var, "as agg_all_players, likewise")                                \
  X(agg_from_var, "as agg_from, likewise")                                              \
  X(agg_step, "node: the aggregate, x its kind, c its depth, e whether it has a value; the round with value y; to a, or to b once decided") \
  X(agg_count, "a round of a count (as agg_step): d + 1, to a")                           \
  X(agg_sum, "a round of a sum (as agg_step): d + register y, to a")                     \
  X(agg_end, "node: the aggregate, x its kind; d = its value")

// The machine's statements, as instructions of the same code (Machine::run_at), each after
// the code of its operands: X(name, "what x, y, a and b hold"); `node` is the statement's
// index in Program::code (its fields, its position for errors, the address a choice keeps).
#define KATA_X_STATEMENTS(X)                                                            \
  X(s_set, "state slot a = x (b: 0 set, 1 add, 2 subtract): a global or a local")       \
  X(s_set_k, "state slot a = the constant b (y: as s_set's b)")                        \
  X(s_set_player_k, "player variable a of seat x (or local slot e, if e >= 0; c: the seat's node) = the constant b (y: as s_set's b)") \
  X(s_set_player, "player variable a of seat y = x (b as s_set)")                       \
  X(s_move, "card x to the top (b: 0) or bottom (1) of zone y, a: face; e = 1: y is a known zone (xcode.cpp's known_zone), read unchecked; c >= 0: x is the top card of zone c") \
  X(s_move_all, "every card of zone x onto the top of zone y, a: face; c = 1, e = 1: x, y a known zone") \
  X(s_other, "the statement worked out as its own operands say (Machine::other)")       \
  X(s_one, "a shuffle, flip, reveal or eliminate of register x, its one operand (Machine::one)") \
  X(s_jump, "a step of the budget, to a")                                               \
  X(s_for_back, "a loop's jump back to its s_for_next and that instruction's work, in one (a step of the budget): the next element of slots c.. (count in slot e, index in slot e + 1) into slot b and to a, the body; past the last, on to the next instruction, the loop's end") \
  X(s_for_init, "the loop's list, before its first round (y = 1: its `where` is left to s_filter_next)") \
  X(s_for_players, "a loop over the players (y: 0), all players (1) or the players from seat x (2, b: that node): its list into slots a.., its count into slot c, its index slot e = 0") \
  X(s_filter_next, "a loop's `where`, before its first round: the next element of slots c.. (count in slot e, index in slot node) into slot b; past the last, slot e = register d (those kept), the index 0, to a") \
  X(s_filter_keep, "the element in slot b passed: slot c + register d = it, register d + 1, back to a") \
  X(s_filter_var, "a loop's `where` that tests player variable a of its player (y, node: var_passes's outcomes and k), in one pass: the players of slots c.. (count in slot e, index in slot e + 1) kept in order, slot b the last one tested") \
  X(s_for_next, "the loop's next element into slot b, or to a (c: its list, e: its count, node: its index)") \
  X(s_repeat_init, "counter slot a = x")                                                \
  X(s_repeat_next, "counter slot b, or to a")                                           \
  X(s_choose, "seat x (or local slot e, if e >= 0; c: the seat's node) chooses; the state waits (y: Game::site_plain, or 3 for Game::site_zone_pick: a random playout's choice made in the code that follows)") \
  X(s_plain_legal, "a random playout's choice among actions without parameters: action a's conditions hold, so it is legal") \
  X(s_plain_pick, "... and one of the legal actions is drawn, counted and bound, and its effect is next") \
  X(s_zone_pick, "a random playout's choice of a card of zone x for action a (Game::site_zone_pick): one drawn, counted and bound, and the action's effect is next") \
  X(s_step, "a step of the budget: a call's, before its arguments")                    \
  X(s_param, "parameter slot a = x")                                                    \
  X(s_enter, "procedure b, at a (its body, or the copy of it laid out in place after this instruction: xcode.cpp, inline_end), returning to the next statement (kept in slot c); its arguments bound, the last (if e >= 0) here, slot e = register d; y = 1: its step here; x = 1: a bookkeeping call") \
  X(s_ret_inline, "the end of a body laid out in place, as s_ret without its jump (b: as s_ret's)") \
  X(s_call_telling, "a call of a procedure that only tells, as Machine::call_telling") \
  X(s_ret, "to the address slot a holds; if it is c, to e, the one place it returns to (else c is the lowest int)") \
  X(s_phase, "a step; phase b, at a, returning to the next statement (kept in slot c)") \
  X(s_win, "the game ends (the statement's winners)")                                   \
  X(s_halt, "the game ends and is scored")                                              \
  X(s_say, "a message, worked out when someone listens")

namespace kata::detail {
// A test that jumps when false: a variable's value, or a comparison's, tested in the
// instruction that works it out (x_eq_jz: to e if not A == B) rather than left in a
// register for a `jz`. KATA_X_TEST(X, kind, operands, value) calls X(kind##_jz, ...) for
// a comparison's row; KATA_X_LEAF_TEST for the leaves below.
#define KATA_X_TEST(X, kind, operands, value) X(kind##_jz, operands, value)

// The leaves that are tested (a variable or parameter that is true or false); others,
// constants and zones among them, are no condition a checked file holds.
#define KATA_X_LEAF_TEST(X, kind, value) KATA_X_LEAF_TESTED_##kind(X, kind, value)
#define KATA_X_LEAF_TESTED_constant(X, kind, value)
#define KATA_X_LEAF_TESTED_option(X, kind, value)
#define KATA_X_LEAF_TESTED_zone(X, kind, value)
#define KATA_X_LEAF_TESTED_zone_of_local(X, kind, value)
#define KATA_X_LEAF_TESTED_zone_of_bound(X, kind, value)
#define KATA_X_LEAF_TESTED_zone_of_arg(X, kind, value)
#define KATA_X_LEAF_TESTED_prop_local(X, kind, value)
#define KATA_X_LEAF_TESTED_prop_bound(X, kind, value)
#define KATA_X_LEAF_TESTED_prop_arg(X, kind, value)
#define KATA_X_LEAF_TESTED_card_var_local(X, kind, value)
#define KATA_X_LEAF_TESTED_card_var_bound(X, kind, value)
#define KATA_X_LEAF_TESTED_card_var_arg(X, kind, value)
#define KATA_X_LEAF_TESTED_arg(X, kind, value)
#define KATA_X_LEAF_TESTED_bound(X, kind, value)
#define KATA_X_LEAF_TESTED_local(X, kind, value) X(kind, value)
#define KATA_X_LEAF_TESTED_global(X, kind, value) X(kind, value)
#define KATA_X_LEAF_TESTED_player_var_local(X, kind, value) X(kind, value)
#define KATA_X_LEAF_TESTED_player_var_bound(X, kind, value) X(kind, value)
#define KATA_X_LEAF_TESTED_player_var_arg(X, kind, value) X(kind, value)

// A zone operand that is a zone by how it was made (a named zone, or a seat's zone of a
// player its leaf checked: xcode.cpp's known_zone) needs no check: each kind of one zone
// operand has a twin, x_KIND_known, that reads the operand as it is (operands K).
// KATA_X_KNOWN(X, kind, operands, value) calls X(kind, K, value) for such a row.
#define KATA_X_KNOWN(X, kind, operands, value) KATA_X_KNOWN_##operands(X, kind, value)
#define KATA_X_KNOWN_Z(X, kind, value) X(kind, K, value)
#define KATA_X_KNOWN_N(X, kind, value)
#define KATA_X_KNOWN_V(X, kind, value)
#define KATA_X_KNOWN_P(X, kind, value)
#define KATA_X_KNOWN_C(X, kind, value)
#define KATA_X_KNOWN_VV(X, kind, value)
#define KATA_X_KNOWN_PC(X, kind, value)
#define KATA_X_KNOWN_ZC(X, kind, value)
#define KATA_X_KNOWN_CC(X, kind, value)

#define KATA_X_LEAF_ROW(kind, value) x_##kind,
#define KATA_X_LEAF_TEST_ROW_ONE(kind, value) x_##kind##_jz,
#define KATA_X_LEAF_TEST_ROW(kind, value) KATA_X_LEAF_TEST(KATA_X_LEAF_TEST_ROW_ONE, kind, value)
#define KATA_X_STRICT_ROW(kind, operands, value) x_##kind,
#define KATA_X_STRICT_TEST_ROW(kind, operands, value) KATA_X_TEST(KATA_X_STRICT_ROW, kind, operands, value)
#define KATA_X_CONTROL_ROW(name, doc) x_##name,
#define KATA_X_KNOWN_ROW_ONE(kind, operands, value) x_##kind##_known,
#define KATA_X_KNOWN_ROW(kind, operands, value) KATA_X_KNOWN(KATA_X_KNOWN_ROW_ONE, kind, operands, value)
enum class XOp : uint8_t {
  KATA_LEAF_VALUES(KATA_X_LEAF_ROW) KATA_STRICT_VALUES(KATA_X_STRICT_ROW) KATA_LEAF_VALUES(KATA_X_LEAF_TEST_ROW)
      KATA_STRICT_COMPARE_VALUES(KATA_X_STRICT_TEST_ROW) KATA_STRICT_VALUES(KATA_X_KNOWN_ROW)
          KATA_X_CONTROL(KATA_X_CONTROL_ROW) KATA_X_STATEMENTS(KATA_X_CONTROL_ROW)
};
#undef KATA_X_KNOWN_ROW_ONE
#undef KATA_X_KNOWN_ROW
#undef KATA_X_LEAF_ROW
#undef KATA_X_STRICT_ROW
#undef KATA_X_CONTROL_ROW
#define KATA_X_LEAF_NAME(kind, value) #kind,
#define KATA_X_LEAF_TEST_NAME_ONE(kind, value) #kind "_jz",
#define KATA_X_LEAF_TEST_NAME(kind, value) KATA_X_LEAF_TEST(KATA_X_LEAF_TEST_NAME_ONE, kind, value)
#define KATA_X_STRICT_NAME(kind, operands, value) #kind,
#define KATA_X_STRICT_TEST_NAME(kind, operands, value) KATA_X_TEST(KATA_X_STRICT_NAME, kind, operands, value)
#define KATA_X_CONTROL_NAME(name, doc) #name,
#define KATA_X_KNOWN_NAME_ONE(kind, operands, value) #kind "_known",
#define KATA_X_KNOWN_NAME(kind, operands, value) KATA_X_KNOWN(KATA_X_KNOWN_NAME_ONE, kind, operands, value)
inline constexpr const char* x_op_names[] = {
    KATA_LEAF_VALUES(KATA_X_LEAF_NAME) KATA_STRICT_VALUES(KATA_X_STRICT_NAME) KATA_LEAF_VALUES(KATA_X_LEAF_TEST_NAME)
        KATA_STRICT_COMPARE_VALUES(KATA_X_STRICT_TEST_NAME) KATA_STRICT_VALUES(KATA_X_KNOWN_NAME)
            KATA_X_CONTROL(KATA_X_CONTROL_NAME) KATA_X_STATEMENTS(KATA_X_CONTROL_NAME)};
#undef KATA_X_KNOWN_NAME_ONE
#undef KATA_X_KNOWN_NAME
#undef KATA_X_LEAF_NAME
#undef KATA_X_LEAF_TEST_NAME
#undef KATA_X_LEAF_TEST_NAME_ONE
#undef KATA_X_STRICT_NAME
#undef KATA_X_STRICT_TEST_NAME
#undef KATA_X_CONTROL_NAME
inline constexpr int x_op_count = static_cast<int>(sizeof x_op_names / sizeof *x_op_names);
// Registers of one run of register code; deeper expressions are left to the tree walk.
inline constexpr int xregs = 64;

// A `where` that tests a player variable v of the element, v compared with the constant k
// (v itself: v != 0): `outcomes` has bit 0 set if it passes when v < k, bit 1 when v == k,
// bit 2 when v > k (xcode.cpp's var_where).
inline bool var_passes(int64_t v, int outcomes, int64_t k) {
  return outcomes & (v < k ? 1 : v == k ? 2 : 4);
}
}  // namespace kata::detail

// What a loop that runs register code is made of (Evaluator::xrun, Machine::run_at): its
// table of labels, one for each instruction in XOp's order, and the jumps from one
// instruction's code to the next; the code of the expressions' instructions is
// runtime/xops.inc.
#define KATA_X_LEAF_LABEL(kind, value) &&x_##kind,
#define KATA_X_STRICT_LABEL(kind, operands, value) &&x_##kind,
#define KATA_X_CONTROL_LABEL(name, doc) &&x_##name,
#define KATA_X_NOT_HERE(name, doc) &&x_not_here,
#define KATA_X_LEAF_TEST_LABEL_ONE(kind, value) &&x_##kind##_jz,
#define KATA_X_LEAF_TEST_LABEL(kind, value) KATA_X_LEAF_TEST(KATA_X_LEAF_TEST_LABEL_ONE, kind, value)
#define KATA_X_STRICT_TEST_LABEL(kind, operands, value) KATA_X_TEST(KATA_X_STRICT_LABEL, kind, operands, value)
#define KATA_X_KNOWN_LABEL_ONE(kind, operands, value) &&x_##kind##_known,
#define KATA_X_KNOWN_LABEL(kind, operands, value) KATA_X_KNOWN(KATA_X_KNOWN_LABEL_ONE, kind, operands, value)
#define KATA_X_EXPRESSION_LABELS                                                                      \
  KATA_LEAF_VALUES(KATA_X_LEAF_LABEL) KATA_STRICT_VALUES(KATA_X_STRICT_LABEL)                           \
      KATA_LEAF_VALUES(KATA_X_LEAF_TEST_LABEL) KATA_STRICT_COMPARE_VALUES(KATA_X_STRICT_TEST_LABEL)     \
          KATA_STRICT_VALUES(KATA_X_KNOWN_LABEL) KATA_X_CONTROL(KATA_X_CONTROL_LABEL)
#define KATA_XGO() goto* table[in->op]
#define KATA_XNEXT() \
  do {               \
    ++in;            \
    KATA_XGO();      \
  } while (0)
#define KATA_XJUMP(to)     \
  do {                     \
    in = xcode_ + (to);    \
    KATA_XGO();            \
  } while (0)
#define KATA_X_OPERANDS_N
#define KATA_X_OPERANDS_V int64_t A = r[in->x];
#define KATA_X_OPERANDS_P int A = as_player(in->c, r[in->x]);
#define KATA_X_OPERANDS_C int A = as_card(in->c, r[in->x]);
#define KATA_X_OPERANDS_Z int A = as_zone(in->c, r[in->x]);
#define KATA_X_OPERANDS_K int A = static_cast<int>(r[in->x]);
#define KATA_X_OPERANDS_VV int64_t A = r[in->x], B = r[in->y];
#define KATA_X_OPERANDS_PC int A = as_player(in->c, r[in->x]), B = as_card(in->e, r[in->y]);
#define KATA_X_OPERANDS_ZC int A = as_zone(in->c, r[in->x]), B = as_card(in->e, r[in->y]);
#define KATA_X_OPERANDS_CC int A = as_card(in->c, r[in->x]), B = as_card(in->e, r[in->y]);
#define KATA_X_LEAF_CODE(kind, value) \
  x_##kind : {                        \
    const XIns& k = *in;              \
    r[in->d] = value;                 \
    KATA_XNEXT();                     \
  }
#define KATA_X_LEAF_TEST_CODE_ONE(kind, value) \
  x_##kind##_jz : {                            \
    const XIns& k = *in;                       \
    if (!(value)) KATA_XJUMP(in->e);           \
    KATA_XNEXT();                              \
  }
#define KATA_X_LEAF_TEST_CODE(kind, value) KATA_X_LEAF_TEST(KATA_X_LEAF_TEST_CODE_ONE, kind, value)
#define KATA_X_STRICT_TEST_ONE(kind, operands, value) \
  x_##kind : {                                        \
    [[maybe_unused]] const int node = in->node;       \
    int64_t A = r[in->x], B = r[in->y];               \
    if (!(value)) KATA_XJUMP(in->e);                  \
    KATA_XNEXT();                                     \
  }
#define KATA_X_STRICT_TEST_CODE(kind, operands, value) KATA_X_TEST(KATA_X_STRICT_TEST_ONE, kind, operands, value)
#define KATA_X_STRICT_CODE(kind, operands, value) \
  x_##kind : {                                    \
    [[maybe_unused]] const int node = in->node;   \
    [[maybe_unused]] const XIns& n = *in;         \
    KATA_X_OPERANDS_##operands r[in->d] = value;  \
    KATA_XNEXT();                                 \
  }
#define KATA_X_KNOWN_CODE_ONE(kind, operands, value) \
  x_##kind##_known : {                               \
    KATA_X_OPERANDS_##operands r[in->d] = value;     \
    KATA_XNEXT();                                    \
  }
#define KATA_X_KNOWN_CODE(kind, operands, value) KATA_X_KNOWN(KATA_X_KNOWN_CODE_ONE, kind, operands, value)

namespace kata::detail {
// Each file of runtime/ gets its own copy, with internal linkage, as when the evaluator
// lived inside machine.cpp: GCC then inlines its cases into that file's loops as it
// sees fit there; shared inline copies with external linkage cost the interpreter a few
// percent of its playouts (docs/performance.md).
namespace {

constexpr int frame_size = Program::frame_size;
constexpr int max_list = 4096;

// The work lists of a walk, kept by the thread so that a walk allocates nothing once warm
// (a board game's moves may list walks for every decision of every playout). One set per
// depth: the condition of a walk, or what is done with each card it reaches, may walk
// again.
struct WalkLists {
  std::vector<std::pair<int32_t, int32_t>> now, next;
  std::vector<int32_t> ends;
  // The round in which each link (each card, at the last step) was last taken: a way is
  // kept once as it is met, so the lists never hold more than the links.
  std::vector<uint32_t> link_round, card_round;
  uint32_t round = 0;
};

class WalkScope {
 public:
  WalkScope() {
    if (depth_ == pool_.size()) pool_.push_back(std::make_unique<WalkLists>());
    lists = pool_[depth_++].get();
  }
  ~WalkScope() { --depth_; }
  WalkScope(const WalkScope&) = delete;
  WalkScope& operator=(const WalkScope&) = delete;
  WalkLists* lists;

 private:
  static inline thread_local std::vector<std::unique_ptr<WalkLists>> pool_;
  static inline thread_local size_t depth_ = 0;
};

class Evaluator {
 public:
  Evaluator(const Game& g, const int32_t* s, const int32_t* locals)
      : g_(g), p_(g.program), nodes_(g.program.nodes.data()), xcode_(g.program.xcode.data()),
        xentry_(g.program.xentry.size() == g.program.nodes.size() ? g.program.xentry.data() : nullptr),
        s_(s), locals_(locals), n_(s[Layout::players]), mp_(g.max_players), work_left_(g.max_steps),
        globals_(s + g.layout.globals), options_(s + g.layout.options), player_vars_(s + g.layout.player_vars),
        zone_size_(s + g.layout.zone_size), zone_cards_(s + g.layout.zone_cards),
        eliminated_(s + g.layout.eliminated), card_zone_(s + g.layout.card_zone), card_face_(s + g.layout.card_face),
        card_props_(g.card_props.data()), instance_owner_(g.instance_owner.data()),
        instances_(static_cast<int>(g.instance_zone.size())), card_count_(g.card_count) {}

  [[noreturn]] void fail(int node, const std::string& message) const {
    throw RuntimeError(p_.node_pos[node], message);
  }
  // The messages are built out of line, so the evaluator's hot path stays small.
  [[noreturn, gnu::cold, gnu::noinline]] void bad_player(int node, int64_t p) const {
    fail(node, p < 0 ? "no player here (the value is none)" : fmt::format("there is no player {}", p + 1));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_zone(int node, int64_t z) const {
    if (z < 0 || z >= static_cast<int64_t>(g_.instance_zone.size())) fail(node, "no zone here");
    fail(node, fmt::format("there is no player {} in this game", g_.instance_owner[z] + 1));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_card(int node) const {
    fail(node, "no card here (the value is none: an empty zone?)");
  }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_division(int node) const { fail(node, "division by zero"); }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_kind(int node, int kind) const {
    fail(node, fmt::format("this card is not a '{}'", g_.kinds[kind].name));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void not_a_value(int node) const { fail(node, "a list cannot stand here"); }
  // Numbers are worked out in 64 bits; a result beyond them stops the game (C++ would
  // wrap it, or trap on the one division that overflows).
  [[noreturn, gnu::cold, gnu::noinline]] void overflow(int node) const {
    fail(node, "the result is too large to work out (beyond 64-bit numbers)");
  }
  // What the kernel's checked arithmetic found wrong (1 too large, 2 division by zero).
  [[noreturn, gnu::cold, gnu::noinline]] void arithmetic(int node, int fault) const {
    if (fault == 2) bad_division(node);
    overflow(node);
  }

  // Each round of an aggregate, each function call and each test of a walk's condition
  // is one step of the expressions' budget: limits.steps for the evaluator's life (one run
  // of effects up to a decision, one listing of the legal decisions, one score...).
  // Nested aggregates and functions calling functions grow exponentially with the text's
  // length; this stops them.
  void spend(int node) {
    if (--work_left_ < 0) [[unlikely]] too_much_work(node);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void too_much_work(int node) const {
    fail(node, fmt::format("the expressions took more than {} steps (rounds of aggregates and loops, and function calls) without a decision; raise limits.steps if this is intended", g_.max_steps));
  }
  // What is left of the budget: compiled code keeps its own count and hands it over with
  // the nodes it leaves to the interpreter (native_eval), so both spend alike.
  int64_t work_left() const { return work_left_; }
  void set_work_left(int64_t left) { work_left_ = left; }

  static int kid(const Node& n, int i) { return n.kid[i]; }
  static int kid(const XIns& in, int i) { return i == 0 ? in.c : in.e; }

  // The chooser and parameters of the decision whose legality is being decided.
  void set_args(const int32_t* args) { args_ = args; }

  // Whether every condition (`when`) of an action holds, the first that fails ending the
  // test: for an action without parameters, with the chooser as the argument (raw_legal,
  // Machine::plain_pick).
  bool whens_hold(const Action& act) {
    for (int w : act.when_nodes)
      if (!value(w)) return false;
    return true;
  }

  // A node's value that must be a player, a card, a zone: checked, the error at the node.
  int as_player(int node, int64_t p) {
    if (p < 0 || p >= n_) [[unlikely]] bad_player(node, p);
    return static_cast<int>(p);
  }
  int as_card(int node, int64_t c) {
    if (c < 0 || c >= card_count_) [[unlikely]] bad_card(node);
    return static_cast<int>(c);
  }
  int as_zone(int node, int64_t z) {
    if (z < 0 || z >= instances_ || instance_owner_[z] >= n_) [[unlikely]]
      bad_zone(node, z);
    return static_cast<int>(z);
  }
  int player(int node) { return as_player(node, eval(node)); }
  int card(int node) { return as_card(node, eval(node)); }

  // The value of an expression the machine or the listing of decisions works out (a
  // root): by its register code if it has one, else by the tree walk.
  int64_t value(int node) {
    if (xentry_) {
      int e = xentry_[node];
      if (e >= 0) return xrun(e);
    }
    return eval(node);
  }
  int player_value(int node) { return as_player(node, value(node)); }
  int card_value(int node) { return as_card(node, value(node)); }
  int zone_value(int node) {
    if (xentry_) {
      int e = xentry_[node];
      if (e >= 0) return as_zone(node, xrun(e));
    }
    return zone(node);
  }
  // A card that must be of a given kind: what a component variable or zone is read through.
  int card_of_kind(int node, int kind) {
    int c = card(node);
    if (g_.card_kind[c] != kind) [[unlikely]] bad_kind(node, kind);
    return c;
  }
  // The slot of a component variable (`b.west`, `b.bonus(p)`), from its card_var node.
  int card_var_slot(const Node& n) {
    const VarInfo& v = g_.card_vars[n.a];
    int c = card_of_kind(n.kid[0], v.kind);
    int p = v.per_player ? player(n.kid[1]) : 0;
    return g_.layout.card_vars + v.base + g_.component_index(v.kind, v.per_player, c, p);
  }
  // The instance of a component zone (`b.stack`, `b.side(p)`), from its card_zone_of node.
  int card_zone_instance(const Node& n) {
    const ZoneInfo& z = g_.zones[n.a];
    int c = card_of_kind(n.kid[0], z.kind);
    int p = z.per_player ? player(n.kid[1]) : 0;
    return z.first_instance + g_.component_index(z.kind, z.per_player, c, p);
  }

  // A bound variable is always written by its aggregate or call before it is read (the
  // checker scopes them), so the frame is not cleared on construction; GCC cannot see that
  // (clang has no such warning), wherever it inlines zone() or eval().
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  [[gnu::hot]] [[gnu::always_inline]] int zone(int node) {
    // A named zone, or a player's zone with the player checked, needs no further check.
    const Node& k = nodes_[node];
    switch (k.op) {
      case NodeOp::zone: return k.a;
      case NodeOp::zone_of_local: return k.a + checked_player(k, locals_[k.b]);
      case NodeOp::zone_of_bound: return k.a + checked_player(k, env_[base_ + k.b]);
      case NodeOp::zone_of_arg: return k.a + checked_player(k, args_[k.b]);
      default: return computed_zone(node);
    }
  }
  // Any other zone expression, out of line: the named zones and players' zones above are
  // most of them, and zone() stays small enough to be inlined where it is asked.
  [[gnu::noinline]] int computed_zone(int node) { return as_zone(node, eval(node)); }

  // The dispatch over node kinds, from here to the end of each(): exhaustive (ops.hpp).
  KATA_EXHAUSTIVE_BEGIN
  // A node's value. Leaves (constants, variables, arguments, and members of a player held
  // in a variable) are read here without a call; about two thirds of all nodes evaluated
  // are leaves. (A bound variable is read without a check here and in zone(): see there.)
  // The functions a playout spends its time in are marked hot (here, Machine::run,
  // raw_legal): GCC puts them together in .text.hot, as they lay when they were one file;
  // spread over the layers' libraries they cost the interpreter 6% (docs/performance.md).
  [[gnu::hot]] int64_t eval(int node) {
    const Node& k = nodes_[node];
    switch (k.op) {
      KATA_LEAF_VALUES(KATA_LEAF_CASE)
      KATA_INNER_NODES(KATA_NODE_CASE)
      KATA_REST_NODES(KATA_NODE_CASE)
      KATA_LIST_NODES(KATA_NODE_CASE) return inner(node, k);
    }
    not_a_value(node);  // no kind is left: a node out of the table
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // The checked arithmetic of KATA_STRICT_VALUES: the kernel's operation, or the game's
  // error at the node for the fault it reports (kernel.hpp: 1 too large, 2 division by 0).
  template <auto Op>
  int64_t checked(int node, int64_t a, int64_t b) {
    int64_t r;
    if (int f = Op(a, b, &r)) [[unlikely]] arithmetic(node, f);
    return r;
  }
  template <auto Op>
  int64_t checked(int node, int64_t a) {
    int64_t r;
    if (int f = Op(a, &r)) [[unlikely]] arithmetic(node, f);
    return r;
  }
  // The longer values of KATA_STRICT_VALUES.
  int next_player_(int p) const {
    for (int i = 1, q = p; i <= n_; ++i) {
      if (++q == n_) q = 0;  // (p + i) % n_, without a division
      if (!eliminated(q)) return q;
    }
    return p;
  }
  int64_t position_(int c) const {
    int z = card_zone_[c];
    if (z < 0) return 0;
    return std::find(cards(z), cards(z) + size(z), c) - cards(z) + 1;
  }
  bool linked_(int a, int b) const {
    return std::binary_search(g_.link_to.begin() + g_.link_start[a], g_.link_to.begin() + g_.link_start[a + 1], b);
  }

  // The player a specialised member node's kid holds, checked.
  template <typename K>
  int checked_player(const K& n, int64_t p) {
    if (p < 0 || p >= n_) [[unlikely]] bad_player(kid(n, 0), p);
    return static_cast<int>(p);
  }
  template <typename K>
  int64_t player_var(const K& n, int64_t p) {
    return player_vars_[n.a * mp_ + checked_player(n, p)];
  }
  // A property of the card a specialised member node's kid holds, checked.
  template <typename K>
  int64_t prop(const K& n, int64_t c) {
    if (c < 0 || c >= card_count_) [[unlikely]] bad_card(kid(n, 0));
    return card_props_[n.a * card_count_ + c];
  }
  // A component variable (not per player) of the card such a node's kid holds, checked as
  // card_of_kind checks it.
  template <typename K>
  int64_t card_var(const K& n, int64_t c) {
    const VarInfo& v = g_.card_vars[n.a];
    if (c < 0 || c >= g_.card_count) [[unlikely]] bad_card(kid(n, 0));
    if (g_.card_kind[c] != v.kind) [[unlikely]] bad_kind(kid(n, 0), v.kind);
    return s_[g_.layout.card_vars + v.base + (c - g_.kinds[v.kind].first_card)];
  }

  int size(int z) const { return zone_size_[z]; }
  const int32_t* cards(int z) const { return zone_cards_ + z * card_count_; }
  bool eliminated(int p) const { return eliminated_[p] != 0; }

  // The inner node kinds met most often are evaluated here; the others in `eval_rest`, out
  // of line, so that this function needs few registers and its calls stay cheap.
  [[gnu::hot]] [[gnu::noinline]] int64_t inner(int node, const Node& n) {
    switch (n.op) {
      KATA_STRICT_INNER_VALUES(KATA_TREE_CASE)
      case NodeOp::and_: return eval(kid(n, 0)) && eval(kid(n, 1));
      case NodeOp::or_: return eval(kid(n, 0)) || eval(kid(n, 1));
      case NodeOp::cond: return eval(kid(n, 0)) ? eval(kid(n, 1)) : eval(kid(n, 2));
      KATA_REST_NODES(KATA_NODE_CASE)
      KATA_LIST_NODES(KATA_NODE_CASE) return eval_rest(node, n);
      KATA_LEAF_NODES(KATA_NODE_CASE) return eval(node);  // not met: eval reads leaves itself
    }
    not_a_value(node);  // no kind is left: a node out of the table
  }

  [[gnu::noinline]] int64_t eval_rest(int node, const Node& n) {
    switch (n.op) {
      KATA_STRICT_REST_VALUES(KATA_TREE_CASE)
      case NodeOp::card_var: return s_[card_var_slot(n)];
      case NodeOp::card_zone_of: return card_zone_instance(n);
      KATA_AGGREGATE_NODES(KATA_NODE_CASE) return aggregate(node, n);
      case NodeOp::call: return call(node, n);
      case NodeOp::card_at: {
        const CardLookup& t = p_.lookups[n.a];
        int64_t v[3] = {0, 0, 0};
        for (int d = 0; d < t.dims; ++d) v[d] = eval(kid(n, d));
        return t.find(v);
      }
      case NodeOp::block: {
        int64_t v = 0;
        for (int i = 0; i < n.kid_count; ++i) v = eval(p_.kids[n.first_kid + i]);
        return v;
      }
      case NodeOp::set_bound: {
        int slot = base_ + n.a;
        if (slot >= frame_size) [[unlikely]] fail(node, "expressions nested too deeply");
        env_[slot] = eval(kid(n, 0));
        return 0;
      }
      case NodeOp::loop_for: return loop_for(node, n);
      case NodeOp::loop_while:
        while (eval(kid(n, 0))) {
          spend(node);
          eval(kid(n, 1));
        }
        return 0;
      case NodeOp::loop_times: {
        int64_t k = eval(kid(n, 0));
        for (int64_t i = 0; i < k; ++i) {
          spend(node);
          eval(kid(n, 1));
        }
        return 0;
      }
      KATA_LIST_NODES(KATA_NODE_CASE) not_a_value(node);
      KATA_LEAF_NODES(KATA_NODE_CASE)
      KATA_INNER_NODES(KATA_NODE_CASE) return eval(node);  // not met: eval and inner read them
    }
    not_a_value(node);  // no kind is left: a node out of the table
  }

  // The elements a `for` goes over, the statement's (Machine::for_init) or a computed
  // function's: the list, at most `cap` of them, then those that pass `where` (-1: none),
  // `bind` making each the loop's variable while it is tested; all before the first round.
  template <typename T, typename Bind>
  int gather(int list, int where, int cap, T* buf, Bind&& bind) {
    int k = 0;
    each(list, [&](int64_t x) {
      if (k >= cap) [[unlikely]] fail(list, fmt::format("a loop over more than {} elements", cap));
      buf[k++] = static_cast<T>(x);
      return true;
    });
    if (where < 0) return k;
    int kept = 0;
    for (int i = 0; i < k; ++i) {
      bind(buf[i]);
      if (value(where)) buf[kept++] = buf[i];
    }
    return kept;
  }

  // `for x in LIST where C { ... }` in a computed function, as the machine runs the
  // statement (Machine::for_init): the list, at most `capacity` elements, then those that
  // pass `where`, both before the first round; then the body for each, a step a round.
  [[gnu::noinline]] int64_t loop_for(int node, const Node& n) {
    int slot = base_ + n.a;
    if (slot >= frame_size) [[unlikely]] fail(node, "expressions nested too deeply");
    int cap = n.b;
    int64_t small[64];
    std::vector<int64_t> large;
    int64_t* buf = small;
    if (cap > 64) large.resize(cap), buf = large.data();
    int k = gather(kid(n, 0), kid(n, 1), cap, buf, [&](int64_t x) { env_[slot] = x; });
    for (int i = 0; i < k; ++i) {
      spend(node);
      env_[slot] = buf[i];
      eval(kid(n, 2));
    }
    return 0;
  }

  // Calls f(element) for each element of a list node, in list order; f returns false to stop.
  template <typename F>
  void each(int node, F&& f) {
    const Node& n = p_.nodes[node];
    switch (n.op) {
      case NodeOp::list_players:
        for (int p = 0; p < n_; ++p)
          if (!eliminated(p) && !f(p)) return;
        return;
      case NodeOp::list_all_players:
        for (int p = 0; p < n_; ++p)
          if (!f(p)) return;
        return;
      case NodeOp::list_from: {
        int start = player(kid(n, 1));
        if (p_.nodes[kid(n, 0)].op == NodeOp::list_players) {  // the common case, directly
          for (int i = 0; i < n_; ++i) {
            int p = start + i < n_ ? start + i : start + i - n_;  // no division
            if (!eliminated(p) && !f(p)) return;
          }
          return;
        }
        int32_t buf[16];
        int k = collect_players(kid(n, 0), buf);
        std::stable_partition(buf, buf + k, [&](int32_t x) { return x >= start; });
        for (int i = 0; i < k; ++i)
          if (!f(buf[i])) return;
        return;
      }
      case NodeOp::list_values:
        for (int64_t v : p_.value_lists[n.a])
          if (!f(v)) return;
        return;
      case NodeOp::list_neighbours: {
        int c = card(kid(n, 0));
        for (int i = g_.link_start[c]; i < g_.link_start[c + 1]; ++i)
          if (!f(g_.link_to[i])) return;
        return;
      }
      case NodeOp::list_walk: {
        WalkScope scope;
        walk(node, n, *scope.lists);
        for (int32_t c : scope.lists->ends)
          if (!f(c)) return;
        return;
      }
      case NodeOp::list_range: {
        int64_t lo = eval(kid(n, 0)), hi = eval(kid(n, 1));
        if (hi - lo >= max_list) [[unlikely]] fail(node, "a range of more than 4096 numbers");
        for (int64_t i = lo; i <= hi; ++i)
          if (!f(i)) return;
        return;
      }
      KATA_LEAF_NODES(KATA_NODE_CASE)
      KATA_INNER_NODES(KATA_NODE_CASE)
      KATA_REST_NODES(KATA_NODE_CASE) {  // a zone: its cards, bottom first
        int z = zone(node);
        const int32_t* c = cards(z);
        for (int i = 0, k = size(z); i < k; ++i)
          if (!f(c[i])) return;
      }
    }
  }

  KATA_EXHAUSTIVE_END

  // `walk(start, steps, q where cond)`: the cards reached in exactly `steps` steps along
  // links, never straight back to the card just left, every card passed on the way (not
  // the start, not the end) satisfying cond. Walks are followed as (card, card left)
  // pairs, so the work grows with the links, not with the number of paths. The ends come
  // in card order, in `w.ends`.
  void walk(int node, const Node& n, WalkLists& w) {
    int start = card(n.kid[0]);
    int64_t steps = eval(n.kid[1]);
    if (steps < 0 || steps > 64) [[unlikely]] fail(node, fmt::format("a walk of {} steps (0 to 64)", steps));
    int slot = base_ + n.a;
    if (slot >= frame_size) fail(node, "expressions nested too deeply");
    auto& now = w.now;
    auto& next = w.next;
    auto& ends = w.ends;
    w.link_round.resize(g_.link_to.size());
    w.card_round.resize(g_.card_count);
    now.assign(1, {start, -1});
    for (int64_t step = 1; step <= steps; ++step) {
      next.clear();
      if (++w.round == 0) {  // after 2^32 rounds: start the marks again
        std::fill(w.link_round.begin(), w.link_round.end(), 0);
        std::fill(w.card_round.begin(), w.card_round.end(), 0);
        w.round = 1;
      }
      for (size_t j = 0; j < now.size();) {
        auto [at, from] = now[j];
        // At the last step only the card reached matters, and no condition is tested: each
        // card is left once (`now` is in card order), back along no way if it was reached
        // by two (each way forbids only its own).
        size_t ways = 1;
        if (step == steps)
          while (j + ways < now.size() && now[j + ways].first == at) ++ways;
        int32_t back = ways > 1 ? -2 : from;
        j += ways;
        for (int i = g_.link_start[at]; i < g_.link_start[at + 1]; ++i) {
          int32_t to = g_.link_to[i];
          if (to == back) continue;
          if (step < steps && n.kid[2] >= 0) {
            spend(node);
            env_[slot] = to;
            if (!eval(n.kid[2])) continue;
          }
          // The same (card, card left) reached twice walks on the same way: keep it once.
          uint32_t& mark = step == steps ? w.card_round[to] : w.link_round[i];
          if (mark == w.round) continue;
          mark = w.round;
          next.push_back({to, step == steps ? -1 : at});
        }
      }
      std::sort(next.begin(), next.end());
      next.erase(std::unique(next.begin(), next.end()), next.end());
      now.swap(next);
    }
    ends.clear();
    for (auto [at, from] : now) ends.push_back(at);
    if (steps == 0) ends.assign(1, start);
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  }

  // The players of a list node, in order (a function, not a template, so that `each` does
  // not instantiate itself without end).
  int collect_players(int node, int32_t* buf) {
    struct Collect {
      int32_t* buf;
      int* k;
      bool operator()(int64_t x) const {
        if (*k < 16) buf[(*k)++] = static_cast<int32_t>(x);
        return true;
      }
    };
    int k = 0;
    each(node, Collect{buf, &k});
    return k;
  }

  // One round of an aggregate, for element x that passed its `where`: false once the value
  // is decided. acc[0] holds the result so far, acc[1] the best value, acc[2] whether an
  // element counted; `value` works out the value (has_value: the aggregate has one).
  template <typename Value>
  bool agg_round(int node, NodeOp op, int64_t* acc, int64_t x, bool has_value, Value&& value) {
    switch (op) {
      case NodeOp::sum:
        if (checked_add(acc[0], value(), &acc[0])) [[unlikely]] overflow(node);
        return true;
      case NodeOp::count: ++acc[0]; return true;
      case NodeOp::any:
        if (!has_value || value()) return acc[0] = 1, false;
        return true;
      case NodeOp::all:
        if (has_value && !value()) return acc[2] = 1, false;
        return true;
      case NodeOp::find: return acc[0] = x, acc[2] = 1, false;
      default: {
        int64_t v = value();
        bool better = op == NodeOp::max || op == NodeOp::best ? v > acc[1] : v < acc[1];
        if (!acc[2] || better) {
          acc[1] = v;
          acc[0] = op == NodeOp::best || op == NodeOp::worst ? x : v;
          acc[2] = 1;
        }
        return true;
      }
    }
  }
  static int64_t agg_result(NodeOp op, const int64_t* acc) {
    if (op == NodeOp::all) return !acc[2];
    if ((op == NodeOp::best || op == NodeOp::worst || op == NodeOp::find) && !acc[2]) return -1;
    return acc[0];
  }
  // Whether an aggregate of this kind works out its value kid (when it has one).
  static bool agg_uses_value(NodeOp op) { return op != NodeOp::count && op != NodeOp::find; }

  int64_t aggregate(int node, const Node& n) {
    int domain = kid(n, 0), where = kid(n, 1), value = kid(n, 2);
    int slot = base_ + n.a;
    if (slot >= frame_size) fail(node, "expressions nested too deeply");
    int64_t acc[3] = {0, 0, 0};
    each(domain, [&](int64_t x) {
      spend(node);
      env_[slot] = x;
      if (where >= 0 && !eval(where)) return true;
      return agg_round(node, n.op, acc, x, value >= 0, [&] { return eval(value); });
    });
    return agg_result(n.op, acc);
  }

  // Runs register code from `entry` to its `ret` (runtime/xcode.cpp lays it out): each
  // leaf and strict kind as KATA_LEAF_VALUES and KATA_STRICT_VALUES say, `and`, `or`,
  // `if` and the aggregates over players, a zone's cards and ranges as jumps, the rest
  // handed to the tree walk. Threaded: each instruction jumps to the next one's code.
  [[gnu::hot]] int64_t xrun(int entry) {
    int64_t r[xregs];
    const XIns* in = xcode_ + entry;
    // The statements' instructions are never met in an expression's code.
    static const void* const table[] = {KATA_X_EXPRESSION_LABELS KATA_X_STATEMENTS(KATA_X_NOT_HERE)};
    static_assert(std::size(table) == x_op_count, "a label for each instruction of XOp");
    KATA_XGO();
#include "runtime/xops.inc"
  x_ret:
    return r[0];
  x_not_here:
    not_a_value(in->node);
  }

  int64_t call(int node, const Node& n) {
    const Function& f = p_.functions[n.a];
    int new_base = base_ + n.b;
    if (new_base + f.params + 1 >= frame_size) fail(node, "functions nested too deeply");
    spend(node);
    // All arguments are evaluated before any is bound: an argument's own aggregates use the
    // frame from new_base on, where the earlier arguments would otherwise already stand.
    int64_t small[8];
    std::vector<int64_t> large;
    int64_t* args = small;
    if (n.kid_count > 8) large.resize(n.kid_count), args = large.data();
    for (int i = 0; i < n.kid_count; ++i) args[i] = eval(p_.kids[n.first_kid + i]);
    std::copy(args, args + n.kid_count, env_ + new_base);
    int saved = base_;
    base_ = new_base;
    int64_t r = eval(f.body);
    base_ = saved;
    return r;
  }

  // Takes the frame of compiled code that hands a node back (runtime/backend.hpp).
  void set_frame(const int64_t* env, int base) {
    std::copy(env, env + frame_size, env_);
    base_ = base;
  }

  // Evaluates with the first frame variable bound to `x` (a score's `p`).
  int64_t eval_with(int64_t x, int node) {
    env_[0] = x;
    return eval(node);
  }

  // Evaluates with the frame's first names bound to `values` (a load-time value's row or
  // cards); at most frame_size of them.
  int64_t eval_bound(const std::vector<int64_t>& values, int node) {
    std::copy(values.begin(), values.end(), env_);
    return eval(node);
  }

  bool is_visible(int viewer, int c) const { return kata::is_visible(g_.kernel, s_, viewer, c); }

  // Layout::public_knowledge if every seat sees card c now in a way all are shown (face
  // up, the top card of a `top` zone) or has known it so since the last shuffle, else 0.
  int32_t seen_publicly(int c) const { return kata::seen_publicly(g_.kernel, s_, c); }

  // The seats that see card c: is_visible for every seat at once.
  uint32_t seen_mask(int c) const { return kata::seen_mask(g_.kernel, s_, n_, c); }

 protected:
  const Game& g_;
  const Program& p_;
  const Node* nodes_;
  const XIns* xcode_;
  const int32_t* xentry_;  // null: no register code
  const int32_t* s_;
  const int32_t* locals_;
  int n_, mp_;
  const int32_t* args_ = nullptr;
  int64_t env_[frame_size];
  int base_ = 0;
  int64_t work_left_;  // see spend()
  // The sections of the state and the tables read most, found once (each read of
  // `g_.layout.x` is one more load on the way to the value).
  const int32_t *globals_, *options_, *player_vars_, *zone_size_, *zone_cards_, *eliminated_, *card_zone_,
      *card_face_;
  const int64_t* card_props_;
  const int32_t* instance_owner_;
  int instances_, card_count_;
};

}  // namespace
}  // namespace kata::detail
