// The register code (Program::xcode): the machine's statements, each after the code of its
// operands, and the expressions the machine and the listing of decisions work out by
// value, laid out once, at load, as a list of instructions that Machine::run_at and
// Evaluator::xrun run in one loop, where the tree walk (Evaluator::eval) calls itself for
// every node. What each kind means is written once, in evaluator.hpp's tables; this file
// only orders the work: kids before their node, each into the register above the last,
// `and`, `or`, `if` and aggregates as jumps (docs/performance.md, "Register code").
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "runtime/evaluator.hpp"
#include "runtime/internal.hpp"

namespace kata {
namespace {

using detail::XOp;
using detail::xregs;

// What a strict kind's kids must be (KATA_STRICT_VALUES' operands), by kind.
struct Strict {
  XOp op;
  const char* operands;  // "": no kid; one letter a kid: V, P, C or Z
};

#define KATA_STRICT_INFO(kind, operands, value) {NodeOp::kind, {XOp::x_##kind, #operands}},
#define KATA_LEAF_INFO(kind, value) {NodeOp::kind, XOp::x_##kind},
#define KATA_TEST_INFO_ONE(kind, value) {NodeOp::kind, XOp::x_##kind##_jz},
#define KATA_LEAF_TEST_INFO(kind, value) KATA_X_LEAF_TEST(KATA_TEST_INFO_ONE, kind, value)
#define KATA_COMPARE_TEST_INFO(kind, operands, value) KATA_TEST_INFO_ONE(kind, value)
#define KATA_KNOWN_INFO_ONE(kind, operands, value) {NodeOp::kind, XOp::x_##kind##_known},
#define KATA_KNOWN_INFO(kind, operands, value) KATA_X_KNOWN(KATA_KNOWN_INFO_ONE, kind, operands, value)

class Builder {
 public:
  Builder(Program& p, const std::vector<int32_t>& owners, bool tree_walk, bool quiet)
      : p_(p), owners_(owners), tree_walk_(tree_walk), quiet_(quiet) {
    strict_.assign(node_op_count, {XOp::x_ret, nullptr});
    leaf_.assign(node_op_count, -1);
    const std::pair<NodeOp, Strict> strict[] = {KATA_STRICT_VALUES(KATA_STRICT_INFO)};
    for (auto& [kind, info] : strict)
      strict_[static_cast<int>(kind)] = {info.op, std::string_view(info.operands) == "N" ? "" : info.operands};
    const std::pair<NodeOp, XOp> leaves[] = {KATA_LEAF_VALUES(KATA_LEAF_INFO)};
    for (auto& [kind, op] : leaves) leaf_[static_cast<int>(kind)] = static_cast<int>(op);
    // The tests (evaluator.hpp, KATA_X_LEAF_TEST and KATA_X_TEST): a true-or-false
    // variable's, and a comparison's.
    test_.assign(node_op_count, -1);
    const std::pair<NodeOp, XOp> tests[] = {KATA_LEAF_VALUES(KATA_LEAF_TEST_INFO)
                                                KATA_STRICT_COMPARE_VALUES(KATA_COMPARE_TEST_INFO)};
    for (auto& [kind, op] : tests) test_[static_cast<int>(kind)] = static_cast<int>(op);
    // The twins that read a zone known to be one without a check (KATA_X_KNOWN).
    known_.assign(node_op_count, -1);
    const std::pair<NodeOp, XOp> known[] = {KATA_STRICT_VALUES(KATA_KNOWN_INFO)};
    for (auto& [kind, op] : known) known_[static_cast<int>(kind)] = static_cast<int>(op);
  }

  // The code that jumps when `cond` is false (the jump's target set later, with
  // target()): one instruction for a leaf or a comparison of two numbers, else the
  // condition into register d and `jz`. Returns the jumping instruction.
  int test(int cond, int d) {
    const Node& n = p_.nodes[cond];
    int op = test_[static_cast<int>(n.op)];
    if (tree_walk_ || op < 0 || d + 8 > xregs) {
      operand(cond, d);
      return emit(XOp::x_jz, d, d, 0, 0, 0, cond);
    }
    if (leaf_[static_cast<int>(n.op)] < 0) {  // two numbers
      code(n.kid[0], d);
      code(n.kid[1], d + 1);
    }
    int at = here();
    emit_node(static_cast<XOp>(op), d, d, d + 1, cond);
    return at;
  }
  void target(int at, int to) {
    if (p_.xcode[at].op == static_cast<uint8_t>(XOp::x_jz)) p_.xcode[at].a = to;
    else p_.xcode[at].e = to;
  }

  // Lays out the code of a root, once; leaves and lists are left to the tree walk (a leaf
  // is read as fast there; a list is never a value).
  void root(int node) {
    if (tree_walk_ || node < 0 || node >= static_cast<int>(p_.nodes.size()) || p_.xentry[node] >= 0) return;
    NodeOp op = p_.nodes[node].op;
    if (leaf_[static_cast<int>(op)] >= 0 || is_list(op)) return;
    // A rule file's roots are disjoint trees but for shared kids; past this size the rest
    // are left to the tree walk (a bound on load time and memory, never met in practice).
    if (p_.xcode.size() > 16 * p_.nodes.size() + 4096) return;
    int entry = here();
    code(node, 0);
    emit(XOp::x_ret, 0, 0, 0, 0, 0, node);
    p_.xentry[node] = entry;
  }

  // Lays out the statements, in order, each after the code of its operands (into
  // registers 0 and up); a statement's jumps go to where their targets' code starts. The
  // operands of the statements the machine works out itself (Machine::other, `win`, a
  // call of a procedure that only tells), which it asks by value(), are laid out after
  // them as roots.
  void statements(const Game& g) {
    p_.xpc.assign(p_.code.size(), -1);
    for (size_t i = 0; i < p_.code.size(); ++i) {
      p_.xpc[i] = here();
      statement(g, static_cast<int>(i));
    }
    for (auto [at, where] : jumps_) p_.xcode[at].a = p_.xpc[where];
    for (auto [at, where] : tests_) target(at, p_.xpc[where]);
    if (!tree_walk_) one_place_returns();
    // A loop's jump back to its s_for_next does that instruction's work itself, with the
    // loop's slots in its own fields, where the loop ends right after it and its index slot
    // follows its count's (as the compiler allocates them).
    for (int k = 0; k < here(); ++k) {
      XIns& x = p_.xcode[k];
      if (x.op != static_cast<uint8_t>(XOp::x_s_jump) || x.a < 0 || x.a >= here()) continue;
      const XIns& f = p_.xcode[x.a];
      if (f.op != static_cast<uint8_t>(XOp::x_s_for_next) || f.a != k + 1 || f.node != f.e + 1) continue;
      x.op = static_cast<uint8_t>(XOp::x_s_for_back);
      x.a += 1;
      x.b = f.b;
      x.c = f.c;
      x.e = f.e;
    }
    for (int node : roots_) root(node);
  }

 private:
  // One statement's code, its jumps' targets left in jumps_ and tests_.
  void statement(const Game& g, int pc) {
    const Layout& l = g.layout;
    auto jump_to = [&](int at, int target) { jumps_.push_back({at, target}); };
    auto& tests = tests_;
    auto& roots = roots_;
    auto other = [&](int pc, std::initializer_list<int> operands) {
      emit(XOp::x_s_other, 0, 0, 0, 0, 0, pc);
      roots.insert(roots.end(), operands);
    };
    {
      const Instr& in = p_.code[pc];
      KATA_EXHAUSTIVE_BEGIN
      switch (in.op) {
        case Op::assign:
          if (in.a == 0 || in.a == 2) {
            int slot = (in.a == 0 ? l.globals : l.locals) + in.b;
            if (is_constant(in.c)) {
              emit(XOp::x_s_set_k, 0, 0, in.e, slot, p_.nodes[in.c].a, pc);
              break;
            }
            operand(in.c, 0);
            emit(XOp::x_s_set, 0, 0, 0, slot, in.e, pc);
          } else if (in.a == 1) {
            // The seat first, checked before the value is worked out, as Machine::assign.
            // (Each operand's code uses the registers from its own up: the value's comes last.)
            int slot = l.player_vars + in.b * g.max_players;
            if (is_constant(in.c)) {
              int seat = seat_operand(in.d);
              int at = emit(XOp::x_s_set_player_k, 0, 0, in.e, slot, p_.nodes[in.c].a, pc);
              p_.xcode[at].c = in.d;
              p_.xcode[at].e = seat;
              break;
            }
            operand(in.d, 0);
            if (!cannot_fail(in.c)) emit(XOp::x_chk_player, 0, 0, 0, 0, 0, in.d);
            operand(in.c, 1);
            emit(XOp::x_s_set_player, 0, 1, 0, slot, in.e, pc);
          } else {
            other(pc, {in.c});  // a component's variable (its card and seat by the tree walk)
          }
          break;
        case Op::move:
          if (in.d == 2) {
            other(pc, {in.a, in.b, in.e});
          } else {
            operand(in.a, 0);
            if (!cannot_fail(in.b)) emit(XOp::x_chk_card, 0, 0, 0, 0, 0, in.a);
            operand(in.b, 1);
            int at = emit(XOp::x_s_move, 0, 0, 1, in.c, in.d, pc);
            p_.xcode[at].e = !tree_walk_ && known_zone(in.b);  // the zone read unchecked
            // The top card of a named zone: the kernel is told where it is (move_card_from).
            const Node& card = p_.nodes[in.a];
            if (!tree_walk_ && card.op == NodeOp::top && p_.nodes[card.kid[0]].op == NodeOp::zone)
              p_.xcode[at].c = p_.nodes[card.kid[0]].a;
          }
          break;
        case Op::move_all:
          // A zone's cards onto the top of a zone: both zones checked, the first before the
          // second is worked out (Machine::move_zone); other lists, or the bottom, by other().
          if (in.d != 0 || is_list(p_.nodes[in.a].op)) {
            other(pc, {in.b});
          } else {
            operand(in.a, 0);
            if (!cannot_fail(in.b)) emit(XOp::x_chk_zone, 0, 0, 0, 0, 0, in.a);
            operand(in.b, 1);
            int at = emit(XOp::x_s_move_all, 0, 0, 1, in.c, 0, pc);
            p_.xcode[at].c = !tree_walk_ && known_zone(in.a);  // each zone read unchecked
            p_.xcode[at].e = !tree_walk_ && known_zone(in.b);
          }
          break;
        case Op::shuffle:
        case Op::flip:
        case Op::reveal:
        case Op::eliminate:
          operand(in.a, 0);
          emit(XOp::x_s_one, 0, 0, 0, 0, 0, pc);
          break;
        case Op::look: other(pc, {in.a, in.b}); break;
        case Op::jump: jump_to(emit(XOp::x_s_jump, 0, 0, 0, 0, 0, pc), in.a); break;
        case Op::jump_if_not: tests.push_back({test(in.a, 0), in.b}); break;
        case Op::for_init: {
          // A loop over the players without `where`, its list made in place (as each() goes
          // over them, the first seat checked), where Machine::for_init gathers any list.
          const Loop& loop = p_.loops[in.a];
          const Node& list = p_.nodes[loop.list_node];
          int kind = list.op == NodeOp::list_players       ? 0
                     : list.op == NodeOp::list_all_players ? 1
                     : list.op == NodeOp::list_from && p_.nodes[list.kid[0]].op == NodeOp::list_players ? 2
                                                                                                        : -1;
          if (kind < 0 || loop.capacity < g.max_players) {
            emit(XOp::x_s_for_init, 0, 0, loop.where_node >= 0, 0, 0, pc);
          } else {
            if (kind == 2) operand(list.kid[1], 0);
            int at = emit(XOp::x_s_for_players, 0, 0, kind, loop.buffer_slot, kind == 2 ? list.kid[1] : -1, pc);
            p_.xcode[at].c = loop.count_slot;
            p_.xcode[at].e = loop.index_slot;
          }
          if (loop.where_node < 0) break;
          // A `where` that tests a player variable of the loop's player, in one pass.
          if (VarWhere v; kind >= 0 && loop.capacity >= g.max_players && loop.index_slot == loop.count_slot + 1 &&
                          var_where(loop.where_node, NodeOp::player_var_local, loop.var_slot, v)) {
            int at = emit(XOp::x_s_filter_var, 0, 0, static_cast<uint8_t>(v.outcomes), v.var, loop.var_slot, v.k);
            p_.xcode[at].c = loop.buffer_slot;
            p_.xcode[at].e = loop.count_slot;
            break;
          }
          // The `where`, for each element before the first round, the loop's variable bound
          // to it, those that pass kept in order in the list's first slots (as gather keeps
          // them): the count kept in register 0, the test's code from register 1 up.
          emit(XOp::x_constant, 0, 0, 0, 0, 0, pc);  // register 0 = 0
          int next = emit(XOp::x_s_filter_next, 0, 0, 0, 0, loop.var_slot, loop.index_slot);
          p_.xcode[next].c = loop.buffer_slot;
          p_.xcode[next].e = loop.count_slot;
          target(test(loop.where_node, 1), next);
          int keep = emit(XOp::x_s_filter_keep, 0, 0, 0, next, loop.var_slot, pc);
          p_.xcode[keep].c = loop.buffer_slot;
          p_.xcode[next].a = here();
          break;
        }
        case Op::for_next: {
          // The loop's slots in the instruction (it raises no error: `node` holds one).
          const Loop& loop = p_.loops[in.a];
          int at = emit(XOp::x_s_for_next, 0, 0, 0, 0, loop.var_slot, loop.index_slot);
          p_.xcode[at].c = loop.buffer_slot;
          p_.xcode[at].e = loop.count_slot;
          jump_to(at, in.b);
          break;
        }
        case Op::repeat_init:
          operand(in.a, 0);
          emit(XOp::x_s_repeat_init, 0, 0, 0, in.b, 0, pc);
          break;
        case Op::repeat_next: jump_to(emit(XOp::x_s_repeat_next, 0, 0, 0, 0, in.a, pc), in.b); break;
        case Op::choose: {
          int seat = seat_operand(in.a);
          int at = emit(XOp::x_s_choose, 0, 0, 0, 0, 0, pc);
          p_.xcode[at].c = in.a;
          p_.xcode[at].e = seat;
          // A choice among actions without parameters: a random playout tests their
          // conditions here, in the site's order, as Machine::plain_pick does (the chooser
          // their argument, each action's first failing condition ending its test), the legal
          // ones counted in register 0; none of this runs otherwise.
          if (in.b >= 0 && in.b < static_cast<int>(g.site_plain.size()) && g.site_plain[in.b] != 0) {
            p_.xcode[at].y = g.site_plain[in.b];  // 2: no action has a condition
            for (int a : p_.sites[in.b].actions) {
              std::vector<int> fails;
              for (int w : p_.actions[a].when_nodes) fails.push_back(test(w, 1));
              emit(XOp::x_s_plain_legal, 0, 0, 0, a, 0, pc);
              for (int f : fails) target(f, here());
            }
            emit(XOp::x_s_plain_pick, 0, 0, 0, 0, 0, pc);
          } else if (in.b >= 0 && in.b < static_cast<int>(g.site_zone_pick.size()) && g.site_zone_pick[in.b]) {
            // A card drawn from a zone (Machine::zone_pick): the zone, with the chooser as
            // its argument, into register 1.
            p_.xcode[at].y = 3;
            int act = p_.sites[in.b].actions[0];
            code(p_.actions[act].params[0].domain_node, 1);
            emit(XOp::x_s_zone_pick, 0, 1, 0, act, 0, pc);
          }
          break;
        }
        case Op::call: {
          const Procedure& proc = p_.procedures[in.a];
          if (proc.tells_only) {
            emit(XOp::x_s_call_telling, 0, 0, 0, 0, 0, pc);
            for (size_t k = 0; k < proc.param_slots.size(); ++k) roots.push_back(p_.kids[in.b + k]);
            break;
          }
          // The step before the arguments, each bound as it is worked out (enter_call).
          bool args = !proc.param_slots.empty();
          if (args) emit(XOp::x_s_step, 0, 0, 0, 0, 0, pc);
          // The last argument is bound by s_enter itself.
          size_t params = proc.param_slots.size();
          for (size_t k = 0; k < params; ++k) {
            operand(p_.kids[in.b + k], 0);
            if (k + 1 < params) emit(XOp::x_s_param, 0, 0, 0, proc.param_slots[k], 0, pc);
          }
          int enter = emit(XOp::x_s_enter, 0, proc.quiet && !quiet_, args ? 0 : 1, 0, in.a, pc);
          p_.xcode[enter].c = proc.ret_slot;
          p_.xcode[enter].e = args ? proc.param_slots[params - 1] : -1;
          // A body laid out in place follows its s_enter, which jumps to it.
          if (int end = inline_end(proc); end >= 0) {
            p_.xcode[enter].a = here();
            inline_body(g, proc, end);
          } else {
            jump_to(enter, proc.entry);
          }
          break;
        }
        case Op::ret: {
          int at = emit(XOp::x_s_ret, 0, 0, 0, in.a, quiet_ ? 0 : in.b, pc);
          p_.xcode[at].c = std::numeric_limits<int32_t>::min();  // (one_place_returns)
          break;
        }
        case Op::phase: {
          int at = emit(XOp::x_s_phase, 0, 0, 0, 0, in.b, pc);
          p_.xcode[at].c = p_.procedures[in.a].ret_slot;
          jump_to(at, p_.procedures[in.a].entry);
          break;
        }
        case Op::win:
          emit(XOp::x_s_win, 0, 0, 0, 0, 0, pc);
          if (in.b == 0) roots.push_back(in.a);
          break;
        case Op::end_game:
        case Op::halt: emit(XOp::x_s_halt, 0, 0, 0, 0, 0, pc); break;
        case Op::say:
          if (!quiet_) emit(XOp::x_s_say, 0, 0, 0, 0, 0, pc);
          break;
      }
      KATA_EXHAUSTIVE_END
    }
  }

  // A return with one place to go: the procedure called, the phase entered, the action
  // offered at one place only (a call that only tells may also be entered by Machine::tell,
  // to return nowhere). Its s_ret holds that place (c, and e its instruction here) and
  // jumps there when its slot says so, which it always does but in a state made by hand:
  // the jump's target does not wait for the slot's load, then the table's.
  void one_place_returns() {
    constexpr int none = std::numeric_limits<int32_t>::min(), many = none + 1;
    std::unordered_map<int32_t, int32_t> place;  // return slot: pc, or many
    auto returns = [&](int32_t slot, int32_t to) {
      auto [it, added] = place.emplace(slot, to);
      if (!added && it->second != to) it->second = many;
    };
    bool all_sites = true;
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      const Instr& in = p_.code[pc];
      int to = static_cast<int>(pc) + 1;
      if (in.op == Op::call) {
        const Procedure& proc = p_.procedures[in.a];
        returns(proc.ret_slot, to);
        if (proc.tells_only) returns(proc.ret_slot, -1);
      } else if (in.op == Op::phase) {
        returns(p_.procedures[in.a].ret_slot, to);
      } else if (in.op == Op::choose) {
        if (in.b < 0 || in.b >= static_cast<int>(p_.sites.size())) all_sites = false;
        else
          for (int a : p_.sites[in.b].actions) returns(p_.actions[a].ret_slot, to);
      }
    }
    if (!all_sites)
      for (const Action& a : p_.actions) returns(a.ret_slot, many);
    for (XIns& x : p_.xcode) {
      if (x.op != static_cast<uint8_t>(XOp::x_s_ret)) continue;
      auto it = place.find(x.a);
      x.c = none;
      if (it == place.end() || it->second == many || it->second < 0) continue;
      x.c = it->second;
      x.e = p_.xpc[it->second];
    }
  }

  // Where the body of a procedure a call may lay out in place ends (its `ret`), or -1: a
  // short body that calls nothing, enters no phase, and jumps only within itself. Laid out
  // in place, its return jumps nowhere: a shared return's jump, to wherever the call was,
  // was a jump the processor could not predict. The body is also laid out where it is,
  // for a `choose` within it to resume at (the return slot is written all the same).
  int inline_end(const Procedure& proc) const {
    constexpr int longest = 48;
    if (tree_walk_ || proc.tells_only || proc.entry < 0) return -1;
    int n = static_cast<int>(p_.code.size());
    for (int k = proc.entry; k < n && k <= proc.entry + longest; ++k) {
      const Instr& in = p_.code[k];
      switch (in.op) {
        case Op::ret: {
          if (in.a != proc.ret_slot) return -1;
          // every jump of the body lands within it
          for (int j = proc.entry; j < k; ++j) {
            const Instr& b = p_.code[j];
            int to = b.op == Op::jump ? b.a
                     : b.op == Op::jump_if_not || b.op == Op::for_next || b.op == Op::repeat_next ? b.b
                                                                                                    : proc.entry;
            if (to < proc.entry || to > k) return -1;
          }
          return k;
        }
        case Op::call:
        case Op::phase: return -1;
        default: break;
      }
    }
    return -1;
  }

  // The body of procedure `proc`, from its entry to `end` (its `ret`), laid out in place
  // after the call's s_enter: its jumps land in this copy, its return is
  // s_ret_inline (for the screens' marks), or nothing.
  void inline_body(const Game& g, const Procedure& proc, int end) {
    auto jumps = std::move(jumps_), tests = std::move(tests_);
    jumps_.clear();
    tests_.clear();
    std::vector<int> at(static_cast<size_t>(end - proc.entry + 1));
    for (int k = proc.entry; k < end; ++k) {
      at[k - proc.entry] = here();
      statement(g, k);
    }
    at[end - proc.entry] = here();
    const Instr& ret = p_.code[end];
    if (ret.b != 0 && !quiet_) emit(XOp::x_s_ret_inline, 0, 0, 0, 0, ret.b, end);
    for (auto [j, where] : jumps_) p_.xcode[j].a = at[where - proc.entry];
    for (auto [t, where] : tests_) target(t, at[where - proc.entry]);
    jumps_ = std::move(jumps);
    tests_ = std::move(tests);
  }

  // A statement's operand into register d: its code, a leaf's one instruction, or (tree_walk)
  // the tree walk's.
  void operand(int node, int d) {
    if (tree_walk_) return tree(node, d);
    code(node, d);
  }
  bool cannot_fail(int node) const { return cannot_fail(p_.nodes[node].op); }
  // A statement's seat: a local variable's slot, which the statement reads itself, or -1
  // with the seat's code laid out into register 0.
  int seat_operand(int node) {
    if (!tree_walk_ && p_.nodes[node].op == NodeOp::local) return p_.nodes[node].a;
    operand(node, 0);
    return -1;
  }
  // A zone operand that is a zone by how it is made, so that as_zone would never fail it: a
  // named zone that no seat owns, or a seat's zone of the player its leaf checks.
  bool known_zone(int node) const {
    const Node& n = p_.nodes[node];
    switch (n.op) {
      case NodeOp::zone: return n.a >= 0 && n.a < static_cast<int>(owners_.size()) && owners_[n.a] < 0;
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return true;
      default: return false;
    }
  }
  // A constant a statement carries itself (not under tree_walk, whose operands are all
  // the tree walk's).
  bool is_constant(int node) const { return !tree_walk_ && p_.nodes[node].op == NodeOp::constant; }

  static bool is_list(NodeOp op) {
    switch (op) {
#define KATA_LIST_CASE(name, doc) case NodeOp::name:
      KATA_LIST_NODES(KATA_LIST_CASE) return true;
#undef KATA_LIST_CASE
      default: return false;
    }
  }
  // Kids that cannot fail: a check of the kid before them may wait until both are known.
  static bool cannot_fail(NodeOp op) {
    return op == NodeOp::constant || op == NodeOp::option || op == NodeOp::global || op == NodeOp::local ||
           op == NodeOp::bound || op == NodeOp::arg || op == NodeOp::zone;
  }

  int here() const { return static_cast<int>(p_.xcode.size()); }
  int emit(XOp op, int d, int x, int y, int a, int b, int node) {
    p_.xcode.push_back({static_cast<uint8_t>(op), static_cast<uint8_t>(d), static_cast<uint8_t>(x),
                        static_cast<uint8_t>(y), a, b, -1, -1, node});
    return here() - 1;
  }
  void tree(int node, int d) { emit(XOp::x_tree, d, 0, 0, 0, 0, node); }
  // A leaf's or a strict kind's instruction: it carries the node's fields.
  void emit_node(XOp op, int d, int x, int y, int node) {
    const Node& n = p_.nodes[node];
    int at = emit(op, d, x, y, n.a, n.b, node);
    p_.xcode[at].c = n.kid[0];
    p_.xcode[at].e = n.kid[1];
  }

  // The code that leaves node's value in register d, using registers d and up.
  void code(int node, int d) {
    const Node& n = p_.nodes[node];
    int kind = static_cast<int>(n.op);
    if (d + 8 > xregs) return tree(node, d);
    if (leaf_[kind] >= 0) {
      emit_node(static_cast<XOp>(leaf_[kind]), d, 0, 0, node);
      return;
    }
    if (const char* operands = strict_[kind].operands) {
      int kids = static_cast<int>(std::string_view(operands).size());
      if (kids >= 1) code(n.kid[0], d);
      if (kids == 2) {
        // The tree walk checks the first kid before working out the second: so here, when
        // the second may fail.
        if (operands[0] != 'V' && !cannot_fail(p_.nodes[n.kid[1]].op)) {
          XOp check = operands[0] == 'P' ? XOp::x_chk_player : operands[0] == 'C' ? XOp::x_chk_card : XOp::x_chk_zone;
          emit(check, 0, d, 0, 0, 0, n.kid[0]);
        }
        code(n.kid[1], d + 1);
      }
      XOp op = strict_[kind].op;
      if (known_[kind] >= 0 && known_zone(n.kid[0])) op = static_cast<XOp>(known_[kind]);
      emit_node(op, d, d, d + 1, node);
      return;
    }
    switch (n.op) {
      case NodeOp::and_: {
        code(n.kid[0], d);
        int skip = emit(XOp::x_jz, d, d, 0, 0, 0, node);  // 0 stays in d
        code(n.kid[1], d);
        emit(XOp::x_to_bool, d, d, 0, 0, 0, node);
        p_.xcode[skip].a = here();
        return;
      }
      case NodeOp::or_: {
        code(n.kid[0], d);
        int skip = emit(XOp::x_jnz_one, d, d, 0, 0, 0, node);
        code(n.kid[1], d);
        emit(XOp::x_to_bool, d, d, 0, 0, 0, node);
        p_.xcode[skip].a = here();
        return;
      }
      case NodeOp::cond: {
        int to_else = test(n.kid[0], d);
        code(n.kid[1], d);
        int to_end = emit(XOp::x_jump, d, 0, 0, 0, 0, node);
        target(to_else, here());
        code(n.kid[2], d);
        p_.xcode[to_end].a = here();
        return;
      }
#define KATA_AGGREGATE_CASE(name, doc) case NodeOp::name:
      KATA_AGGREGATE_NODES(KATA_AGGREGATE_CASE)
#undef KATA_AGGREGATE_CASE
      if (aggregate(node, n, d)) return;
      return tree(node, d);
      default: return tree(node, d);
    }
  }

  // A `where` that tests a player variable of the element (a `leaf` node, player_var_bound
  // or player_var_local, of the element's depth or slot): the variable itself, or compared
  // with a constant (var_passes: the outcomes that pass, below, at and above k).
  struct VarWhere {
    static constexpr int below = 1, at = 2, above = 4;
    int var = 0, outcomes = 0, k = 0;
    // The variable tested as true or false (`p.x`, or `p.x != 0`).
    bool truth() const { return outcomes == (below | above) && k == 0; }
  };
  bool var_where(int where, NodeOp leaf, int element, VarWhere& v) const {
    if (tree_walk_) return false;
    auto is_var = [&](int node) {
      const Node& n = p_.nodes[node];
      return n.op == leaf && n.b == element;
    };
    constexpr int below = VarWhere::below, at = VarWhere::at, above = VarWhere::above;
    const Node& w = p_.nodes[where];
    if (is_var(where)) {
      v = {w.a, below | above, 0};
      return true;
    }
    int outcomes = w.op == NodeOp::eq ? at : w.op == NodeOp::ne ? below | above : w.op == NodeOp::lt ? below
                   : w.op == NodeOp::le ? below | at : w.op == NodeOp::gt ? above : w.op == NodeOp::ge ? above | at : 0;
    if (outcomes == 0 || !is_var(w.kid[0]) || p_.nodes[w.kid[1]].op != NodeOp::constant) return false;
    v = {p_.nodes[w.kid[0]].a, outcomes, p_.nodes[w.kid[1]].a};
    return true;
  }

  // An aggregate over the players (all, or in turn from one), a zone's cards or a range of
  // numbers, as Evaluator::aggregate and each() go over them; false for other lists.
  bool aggregate(int node, const Node& n, int d) {
    int domain = n.kid[0], where = n.kid[1], value = n.kid[2];
    const Node& list = p_.nodes[domain];
    XOp next;
    switch (list.op) {
      case NodeOp::list_players: next = XOp::x_agg_players; break;
      case NodeOp::list_all_players: next = XOp::x_agg_all_players; break;
      case NodeOp::list_from:
        if (p_.nodes[list.kid[0]].op != NodeOp::list_players) return false;
        next = XOp::x_agg_from;
        break;
      case NodeOp::list_range: next = XOp::x_agg_range; break;
      case NodeOp::list_values:
      case NodeOp::list_neighbours:
      case NodeOp::list_walk: return false;
      default: next = XOp::x_agg_zone; break;  // a zone: its cards, bottom first
    }
    int init = emit(XOp::x_agg_init, d, 0, 0, 0, 0, node);
    p_.xcode[init].c = n.a;
    if (next == XOp::x_agg_from) {
      code(list.kid[1], d + 4);
      emit(XOp::x_agg_from_init, d, 0, 0, 0, 0, domain);
    } else if (next == XOp::x_agg_range) {
      code(list.kid[0], d + 4);
      code(list.kid[1], d + 5);
      emit(XOp::x_agg_range_init, d, 0, 0, 0, 0, domain);
    } else if (next == XOp::x_agg_zone) {
      code(domain, d + 4);
      emit(XOp::x_agg_zone_init, d, 0, 0, 0, 0, domain);
    }
    // A `where` that tests a player variable of the element as true or false is the
    // element's own test.
    VarWhere v;
    bool var_test = (next == XOp::x_agg_players || next == XOp::x_agg_all_players || next == XOp::x_agg_from) &&
                    where >= 0 && var_where(where, NodeOp::player_var_bound, n.a, v) && v.truth();
    if (var_test)
      next = next == XOp::x_agg_players       ? XOp::x_agg_players_var
             : next == XOp::x_agg_all_players ? XOp::x_agg_all_players_var
                                              : XOp::x_agg_from_var;
    int loop = emit(next, d, 0, 0, 0, n.a, node);
    if (var_test) {
      p_.xcode[loop].c = v.var;
      p_.xcode[loop].e = where;
    } else if (where >= 0) {
      target(test(where, d + 6), loop);
    }
    bool uses_value = value >= 0 && detail::Evaluator::agg_uses_value(n.op);
    if (uses_value) code(value, d + 6);
    // A count's and a sum's rounds, which never decide the value early, as instructions of
    // their own (agg_round's cases for them).
    XOp round = n.op == NodeOp::count ? XOp::x_agg_count : n.op == NodeOp::sum && uses_value ? XOp::x_agg_sum : XOp::x_agg_step;
    int step = emit(round, d, static_cast<int>(n.op), uses_value ? d + 6 : d, loop, 0, node);
    p_.xcode[step].c = n.a;
    p_.xcode[step].e = value >= 0;
    p_.xcode[loop].a = p_.xcode[step].b = here();
    emit(XOp::x_agg_end, d, static_cast<int>(n.op), 0, 0, 0, node);
    return true;
  }

  Program& p_;
  const std::vector<int32_t>& owners_;  // Game::instance_owner
  bool tree_walk_;
  bool quiet_;  // for Program::quiet: no messages, no marks for the screens
  std::vector<Strict> strict_;  // by NodeOp; operands null: not strict
  std::vector<int> leaf_;       // by NodeOp: its XOp, or -1
  std::vector<int> test_;       // by NodeOp: its test's XOp, or -1
  std::vector<int> known_;      // by NodeOp: its twin for a known zone (KATA_X_KNOWN), or -1
  // (instruction of the register code, target in code): a jump's and a test's
  std::vector<std::pair<int, int>> jumps_, tests_;
  std::vector<int> roots_;  // the operands Machine::other and others ask by value()
};

#undef KATA_STRICT_INFO
#undef KATA_LEAF_INFO
#undef KATA_TEST_INFO_ONE
#undef KATA_LEAF_TEST_INFO
#undef KATA_COMPARE_TEST_INFO
#undef KATA_KNOWN_INFO_ONE
#undef KATA_KNOWN_INFO

}  // namespace

void build_xcode(Game& g, bool tree_walk) {
  Program& p = g.program;
  for (bool quiet : {true, false}) {
    p.xcode.clear();
    p.xentry.assign(p.nodes.size(), -1);
    Builder b(p, g.instance_owner, tree_walk, quiet);
    b.statements(g);
    // The roots the listing of decisions and the machine's loops work out by value.
    for (const Loop& l : p.loops) b.root(l.where_node);
    for (const Action& a : p.actions)
      for (int w : a.when_nodes) b.root(w);
    if (quiet) p.quiet = {std::move(p.xcode), std::move(p.xpc), std::move(p.xentry)};
  }
  detail::thread_xcode(g);
}

std::vector<std::string> register_op_names() {
  return std::vector<std::string>(detail::x_op_names, detail::x_op_names + detail::x_op_count);
}

std::vector<std::string> register_ops_in(const Game& g) {
  std::vector<bool> seen(detail::x_op_count);
  for (const XIns& in : g.program.xcode) seen[in.op] = true;
  std::vector<std::string> names;
  for (int i = 0; i < detail::x_op_count; ++i)
    if (seen[i]) names.push_back(detail::x_op_names[i]);
  return names;
}

}  // namespace kata
