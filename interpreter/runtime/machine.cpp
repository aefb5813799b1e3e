// The machine that runs a compiled game: an instruction loop, over the expression
// evaluator (evaluator.hpp), that runs effects until a `choose` waits for a player or the
// game ends; and taking a decision (apply), which starts it. Locals live in the state, so a waiting game is just a value; expression
// variables (aggregates, function parameters) live in a small frame here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <memory>
#include <type_traits>

#include "runtime/evaluator.hpp"
#include "runtime/internal.hpp"

namespace kata {

using namespace detail;

namespace detail {

[[noreturn, gnu::noinline]] void no_legal_action(const Game& g, int chooser, const ChoiceSite& site) {
  std::string names;
  for (int a : site.actions) names += (names.empty() ? "" : ", ") + g.program.actions[a].name;
  throw RuntimeError(site.pos, fmt::format("{} has no legal action here (offered: {})", seat_name(chooser), names));
}

[[noreturn, gnu::noinline]] void too_many_decisions(const Game& g, const ChoiceSite& site) {
  throw RuntimeError(site.pos, fmt::format("the game went past {} decisions without ending; raise limits.decisions if this is intended", g.max_decisions));
}

[[noreturn, gnu::noinline]] void too_many_legal(const ChoiceSite& site) {
  throw RuntimeError(site.pos, fmt::format("this choice offers more than {} decisions (combinations of the actions' parameters)", max_legal_decisions));
}

[[noreturn, gnu::cold, gnu::noinline]] void too_many_steps(const Instr& in, int64_t budget) {
  throw RuntimeError(in.pos, fmt::format("the effects ran more than {} steps without a decision (an endless loop?); raise limits.steps if this is intended", budget));
}

[[noreturn, gnu::cold, gnu::noinline]] void too_large(int64_t v, const Instr& in) {
  throw RuntimeError(in.pos, fmt::format("the number {} is too large to keep", v));
}

}  // namespace detail

namespace {

// What taking a decision does before its effect runs (apply, Machine::play_randomly): it
// is counted against limits.decisions and the position is remembered for repetitions...
void count_decision(const Game& g, int32_t* s) {
  if (++s[Layout::decisions] > g.max_decisions) too_many_decisions(g, g.program.sites[s[Layout::site]]);
  if (g.layout.history_cap) remember_position(g, s);
}

// ... then the chooser and parameters (`args`, the action's `params`) are bound and the
// action's effect is next, returning to the `choose`'s next instruction.
void bind_decision(const Game& g, int32_t* s, const Action& act, const int32_t* args, size_t params) {
  int32_t* locals = s + g.layout.locals;
  locals[act.player_slot] = s[Layout::chooser];
  for (size_t k = 0; k < params; ++k) locals[act.params[k].slot] = args[k];
  locals[act.ret_slot] = s[Layout::pc];
  s[Layout::pc] = act.entry;
  s[Layout::status] = static_cast<int32_t>(Status::running);
}

class Machine : public Evaluator {
 public:
  Machine(const Game& g, State& st, Hooks* hooks)
      : Evaluator(g, st.slots.data(), st.slots.data() + g.layout.locals),
        st_(st),
        w_(st.slots.data()),
        wl_(st.slots.data() + g.layout.locals),
        hooks_(hooks),
        events_(hooks ? hooks->events : nullptr) {
    // Nobody listens: the code without what only they would hear (Program::quiet).
    if (!events_ && p_.quiet.xentry.size() == p_.nodes.size()) {
      xcode_ = p_.quiet.xcode.data();
      xentry_ = p_.quiet.xentry.data();
      xpc_ = p_.quiet.xpc.data();
    }
  }

  // A whole random game from a waiting state, without leaving the machine: at each
  // `choose`, the site's decisions are listed, one drawn as a loop of legal_decisions and
  // apply would draw it (native_pick, which a compiled playout uses too), and taken as
  // apply takes it, with the budgets of a new run. Nobody listens.
  // The machine takes each decision where its `choose` waits (run_at's s_choose, with
  // playout_ set), so that a whole game is one run of its loop.
  void play_randomly(uint64_t& rng) {
    if (w_[Layout::status] != static_cast<int32_t>(Status::waiting)) return;
    playout_ = &rng;
    take_random(rng);
    run();
  }

  // The decision drawn at the waiting `choose`, counted and bound as apply takes it, with
  // the budgets of a new run: after it, the action's effect is next (Layout::pc).
  [[gnu::noinline]] void take_random(uint64_t& rng) {
    thread_local std::vector<Decision> raw;
    Decision d;
    if (g_.site_plain[w_[Layout::site]]) {
      d.action = plain_pick(rng);
    } else if (g_.site_zone_pick[w_[Layout::site]]) {
      zone_pick(d, rng);
    } else {
      raw_legal(g_, st_, raw);
      native_pick(&g_, w_, reinterpret_cast<const int32_t*>(raw.data()), static_cast<int>(raw.size()), &rng,
                  reinterpret_cast<int32_t*>(&d));
    }
    const Action& act = p_.actions[d.action];
    take(act, d.args, act.params.size());
  }

  // A random playout's decision taken: counted and bound as apply takes it (`args`, its
  // `params` parameters), with the budgets of a new run.
  void take(const Action& act, const int32_t* args, size_t params) {
    count_decision(g_, w_);
    bind_decision(g_, w_, act, args, params);
    work_left_ = g_.max_steps;
    base_ = 0;
  }

  // One of k decisions drawn as native_pick draws it where none is a blind pick; none
  // legal stops the game.
  int32_t draw(const int32_t* from, uint32_t k, uint64_t& rng) {
    if (k == 0) no_legal_action(g_, w_[Layout::chooser], p_.sites[w_[Layout::site]]);
    return from[uniform(rng, k)];
  }

  void run() { run_at(w_[Layout::pc]); }

  // At a site whose actions have no parameters (Game::site_plain), the action drawn: the
  // actions whose conditions hold, in the site's order, as raw_legal lists them (with the
  // listing's budget), one drawn as native_pick draws it (no blind pick here).
  int32_t plain_pick(uint64_t& rng) {
    const ChoiceSite& site = p_.sites[w_[Layout::site]];
    // (2: no action has a `when`: every one is legal)
    if (g_.site_plain[w_[Layout::site]] == 2) return draw(site.actions.data(), static_cast<uint32_t>(site.actions.size()), rng);
    int32_t args[1] = {w_[Layout::chooser]};
    set_args(args);
    work_left_ = g_.max_steps;
    base_ = 0;
    int32_t legal[Game::max_plain];
    uint32_t k = 0;
    for (int32_t a : site.actions) {
      if (whens_hold(p_.actions[a])) legal[k++] = a;
    }
    set_args(nullptr);
    return draw(legal, k, rng);
  }

  // At a site of one action whose one card is drawn from a zone (Game::site_zone_pick):
  // the zone's cards, bottom first, are its decisions, as raw_legal lists them, one drawn
  // as native_pick draws it where none is a blind pick.
  void zone_pick(Decision& d, uint64_t& rng) {
    const ChoiceSite& site = p_.sites[w_[Layout::site]];
    const Action& act = p_.actions[site.actions[0]];
    int32_t args[1] = {w_[Layout::chooser]};
    set_args(args);
    int z = zone(act.params[0].domain_node);
    set_args(nullptr);
    d.action = site.actions[0];
    d.args[0] = draw(cards(z), static_cast<uint32_t>(size(z)), rng);
  }

  // Runs from pc (an address in Program::code) to a `choose`, the game's end, or (a call
  // that only tells: tell()) a return to pc -1. The statements run as register code
  // (runtime/xcode.cpp: each after the code of its operands, in one loop with the
  // expressions' instructions, runtime/xops.inc); addresses kept in the state (where a
  // choice resumes, where a call returns) are addresses in Program::code, found in the
  // register code through Program::xpc.
  [[gnu::hot]] void run_at(int pc) {
    // Threaded dispatch: each instruction's code ends in a jump of its own to the next
    // one's, to the address its XIns::go holds: the label of its code in this loop, from
    // this table of a label for each instruction (evaluator.hpp: a row without its label,
    // or a label without its row, does not build), written at load (thread_xcode). The
    // processor predicts each of those jumps from the instruction it ends, and the jump's
    // target is one load away.
#define KATA_X_STATEMENT_LABEL(name, doc) &&x_##name,
    static const void* const table[] = {KATA_X_EXPRESSION_LABELS KATA_X_STATEMENTS(KATA_X_STATEMENT_LABEL)};
#undef KATA_X_STATEMENT_LABEL
    static_assert(std::size(table) == x_op_count, "a label for each instruction of XOp");
    if (pc == labels_wanted) [[unlikely]] {
      labels_ = table;
      return;
    }
    int64_t steps = 0;
    const int64_t budget = g_.max_steps;
    // Steps are counted where execution can come back: jumps and calls. Straight-line code
    // between them is bounded by the program's length, so this still stops any endless
    // loop, without a check on every instruction.
    auto step = [&](const Instr& in) {
      if (++steps > budget) [[unlikely]] too_many_steps(in, budget);
    };
    const Instr* code = p_.code.data();
    const int32_t* xpc = xpc_;
    int64_t r[xregs];
    const XIns* in = xcode_ + xpc[pc];
#undef KATA_XGO
#define KATA_XGO() goto* in->go
    KATA_XGO();
#include "runtime/xops.inc"
  x_ret:  // an expression's end: never in a statement's code
    not_a_value(in->node);
  x_s_set:
    set(w_ + in->a, r[in->x], in->b, code[in->node]);
    KATA_XNEXT();
  x_s_set_k:
    set(w_ + in->a, in->b, in->y, code[in->node]);
    KATA_XNEXT();
  x_s_set_player_k: {
    int32_t* slot = w_ + in->a + as_player(in->c, in->e >= 0 ? wl_[in->e] : r[in->x]);
    if (in->y == 0) *slot = in->b;  // a constant fits a slot
    else set(slot, in->b, in->y, code[in->node]);
    KATA_XNEXT();
  }
  x_s_set_player:
    set(w_ + in->a + as_player(code[in->node].d, r[in->y]), r[in->x], in->b, code[in->node]);
    KATA_XNEXT();
  x_s_move: {
    const Instr& ins = code[in->node];
    int c = as_card(ins.a, r[in->x]);  // the card is checked first, as Machine::move checks it
    int z = in->e == 1 ? static_cast<int>(r[in->y]) : as_zone(ins.b, r[in->y]);  // e: a known zone
    if (in->c >= 0) move_top(c, in->c, z, in->a, in->b == 1 ? 0 : -1);  // c: the zone it tops
    else move_card(c, z, in->a, in->b == 1 ? 0 : -1);
    KATA_XNEXT();
  }
  x_s_move_all: {
    const Instr& ins = code[in->node];
    int from = in->c == 1 ? static_cast<int>(r[in->x]) : as_zone(ins.a, r[in->x]);  // c, e: known zones
    int to = in->e == 1 ? static_cast<int>(r[in->y]) : as_zone(ins.b, r[in->y]);
    if (size(from) > 0) move_zone(from, to, in->a);  // (an empty zone: no move, nothing to tell)
    KATA_XNEXT();
  }
  x_s_other:
    other(code[in->node]);
    KATA_XNEXT();
  x_s_one:
    one(code[in->node], r[in->x]);
    KATA_XNEXT();
  x_s_jump:
    step(code[in->node]);
    KATA_XJUMP(in->a);
  x_s_for_init: {
    const Instr& ins = code[in->node];
    for_init(p_.loops[ins.a], in->y);
    KATA_XNEXT();
  }
  x_s_filter_next: {
    int32_t& index = wl_[in->node];
    if (index >= wl_[in->e]) {
      wl_[in->e] = static_cast<int32_t>(r[in->d]);
      index = 0;
      KATA_XJUMP(in->a);
    }
    wl_[in->b] = wl_[in->c + index++];
    KATA_XNEXT();
  }
  x_s_filter_keep:
    wl_[in->c + r[in->d]++] = wl_[in->b];
    KATA_XJUMP(in->a);
  x_s_filter_var:
    filter_var(*in);
    KATA_XNEXT();
  x_s_for_players: {
    // (n and the table copied: the list's stores could otherwise be the members' for GCC)
    int32_t* buf = wl_ + in->a;
    const int n = n_;
    const int32_t* out = eliminated_;
    int k = 0;
    if (in->y == 1) {
      for (int p = 0; p < n; ++p) buf[p] = p;
      k = n;
    } else {
      int p = in->y == 2 ? as_player(in->b, r[in->x]) : 0;
      for (int i = 0; i < n; ++i) {
        if (!out[p]) buf[k++] = p;  // (only the list's slots are written, as gather writes them)
        if (++p == n) p = 0;        // (start + i) % n, without a division
      }
    }
    wl_[in->c] = k;
    wl_[in->e] = 0;
    KATA_XNEXT();
  }
  x_s_for_back: {
    step(code[in->node]);
    int32_t* count = wl_ + in->e;  // the loop's count, then its index
    int32_t index = count[1];
    if (index >= count[0]) KATA_XNEXT();  // past its last element: the loop's end is next
    count[1] = index + 1;
    wl_[in->b] = wl_[in->c + index];
    KATA_XJUMP(in->a);
  }
  x_s_for_next: {
    int32_t& index = wl_[in->node];
    if (index >= wl_[in->e]) KATA_XJUMP(in->a);
    wl_[in->b] = wl_[in->c + index++];
    KATA_XNEXT();
  }
  x_s_repeat_init:
    wl_[in->a] = narrow(r[in->x], code[in->node]);
    KATA_XNEXT();
  x_s_repeat_next:
    if (wl_[in->b] <= 0) KATA_XJUMP(in->a);
    --wl_[in->b];
    KATA_XNEXT();
  x_s_choose: {
    const Instr& ins = code[in->node];
    w_[Layout::chooser] = as_player(in->c, in->e >= 0 ? wl_[in->e] : r[in->x]);
    w_[Layout::site] = ins.b;
    w_[Layout::status] = static_cast<int32_t>(Status::waiting);
    w_[Layout::pc] = in->node + 1;
    if (!playout_) return;
    if (in->y && (in->y == 3 ? g_.site_zone_pick[ins.b] != 0 : g_.site_plain[ins.b] == in->y)) {
      // The actions' conditions are tested by the code that follows, with the listing's
      // budget (Machine::plain_pick).
      chooser_arg_[0] = w_[Layout::chooser];
      set_args(chooser_arg_);
      work_left_ = g_.max_steps;
      base_ = 0;
      r[0] = 0;
      KATA_XNEXT();
    }
    // A random playout: the decision taken here, and the run goes on as a new one.
    take_random(*playout_);
    steps = 0;
    KATA_XJUMP(xpc[w_[Layout::pc]]);
  }
  x_s_zone_pick: {  // as zone_pick and take_random
    set_args(nullptr);
    int z = static_cast<int>(r[in->x]);  // a named zone or a seat's (Game::site_zone_pick)
    const Action& act = p_.actions[in->a];
    int32_t card = draw(cards(z), static_cast<uint32_t>(size(z)), *playout_);
    take(act, &card, 1);
    steps = 0;
    KATA_XJUMP(xpc[act.entry]);
  }
  x_s_plain_legal:
    plain_legal_[r[0]++] = in->a;
    KATA_XNEXT();
  x_s_plain_pick: {  // as plain_pick and take_random
    set_args(nullptr);
    const Action& act = p_.actions[draw(plain_legal_, static_cast<uint32_t>(r[0]), *playout_)];
    take(act, nullptr, 0);
    steps = 0;
    KATA_XJUMP(xpc[act.entry]);
  }
  x_s_step:
    step(code[in->node]);
    KATA_XNEXT();
  x_s_param:
    wl_[in->a] = narrow(r[in->x], code[in->node]);
    KATA_XNEXT();
  x_s_enter: {
    if (in->e >= 0) wl_[in->e] = narrow(r[in->d], code[in->node]);
    if (in->y) step(code[in->node]);
    wl_[in->c] = in->node + 1;
    if (in->x && events_) record(Event::quiet, -1, -1, -1, 1, 0);
    KATA_XJUMP(in->a);
  }
  x_s_ret_inline:
    if (events_) record(in->b == 1 ? Event::done : Event::quiet, -1, -1, -1, in->b == 1 ? -1 : 0, 0);
    KATA_XNEXT();
  x_s_call_telling: {
    const Instr& ins = code[in->node];
    step(ins);
    const Procedure& proc = p_.procedures[ins.a];
    if (!telling_) {
      if (events_) tell(ins, proc);
      KATA_XNEXT();
    }
    // Within a call that only tells, calls run in place.
    KATA_XJUMP(xpc[enter_call(ins, proc, in->node + 1)]);
  }
  x_s_ret: {
    // The end of a decision's effect (1) or of a bookkeeping call (2), for the screens.
    if (events_ && in->b) [[unlikely]]
      record(in->b == 1 ? Event::done : Event::quiet, -1, -1, -1, in->b == 1 ? -1 : 0, 0);
    int to = wl_[in->a];
    if (to == in->c) KATA_XJUMP(in->e);  // the one place it returns to (xcode.cpp)
    if (to < 0) [[unlikely]] return;     // the end of a call that only tells
    KATA_XJUMP(xpc[to]);
  }
  x_s_phase: {
    step(code[in->node]);
    w_[Layout::phase] = in->b;
    if (events_) record(Event::phase, in->b, -1, -1, -1, 0);
    wl_[in->c] = in->node + 1;
    KATA_XJUMP(in->a);
  }
  x_s_win:
    win(code[in->node]);
    return;
  x_s_halt:
    finish();
    return;
  x_s_say:
    if (events_) say(code[in->node]);
    KATA_XNEXT();
  }
#undef KATA_XGO
#define KATA_XGO() goto* table[in->op]

  // s_filter_var: the loop's list filtered as s_filter_next, its test and s_filter_keep
  // would filter it (out of the loop, whose registers it would otherwise crowd).
  [[gnu::noinline]] void filter_var(const XIns& in) {
    int32_t* buf = wl_ + in.c;
    const int32_t* var = player_vars_ + in.a * mp_;
    const int n = wl_[in.e];
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      int32_t p = buf[i];
      if (var_passes(var[p], in.y, in.node)) buf[kept++] = p;
      if (i == n - 1) wl_[in.b] = p;
    }
    wl_[in.e] = kept;
    wl_[in.e + 1] = 0;
  }

  // run_at(labels_wanted) leaves its table of labels in labels_ (thread_xcode).
  static constexpr int labels_wanted = INT_MIN;
  const void* const* labels_ = nullptr;
  // Where each instruction of Program::code starts in the register code this machine runs.
  const int32_t* xpc_ = p_.xpc.data();

  // The statements the register code hands back whole (runtime/xcode.cpp): each works
  // out its operands by value(), as the machine always did.
  [[gnu::noinline]] void other(const Instr& in) {
    switch (in.op) {
      case Op::assign: return assign(in);
      case Op::move: return move(in);
      case Op::move_all: return move_all(in);
      case Op::look: {
        int p = player_value(in.a), c = card_value(in.b);
        w_[g_.layout.card_known + c] |= static_cast<int32_t>(1u << p);
        if (events_) record(Event::look, p, c, w_[g_.layout.card_zone + c], -1, 1u << p);
        return;
      }
      default: throw RuntimeError(in.pos, "an instruction the register code should have laid out");
    }
  }

  // The statements of one operand, whose value v the register code worked out before
  // them (s_one): checked here, as the operand's kind requires, then the effect.
  [[gnu::noinline]] void one(const Instr& in, int64_t v) {
    switch (in.op) {
      case Op::shuffle: return shuffle(as_zone(in.a, v), in);
      case Op::flip: return flip(as_card(in.a, v), in.c);
      case Op::reveal: {
        int c = as_card(in.a, v);
        w_[g_.layout.card_known + c] = static_cast<int32_t>((1u << n_) - 1) | Layout::public_knowledge;
        if (events_) record(Event::reveal, -1, c, w_[g_.layout.card_zone + c], -1, (1u << n_) - 1);
        return;
      }
      case Op::eliminate: {
        int p = as_player(in.a, v);
        w_[g_.layout.eliminated + p] = 1;
        if (events_) record(Event::eliminate, p, -1, -1, -1, 0);
        return;
      }
      default: throw RuntimeError(in.pos, "an instruction the register code should have laid out");
    }
  }

  [[noreturn, gnu::cold, gnu::noinline]] void bad_position(const Instr& in, int64_t k, int z, int room) {
    throw RuntimeError(in.pos, fmt::format("position {} is outside {} (1 to {})", k, g_.instance_name(z), room));
  }

 private:
  static int32_t narrow(int64_t v, const Instr& in) {
    if (!fits_slot(v)) [[unlikely]] too_large(v, in);
    return static_cast<int32_t>(v);
  }
  // An assignment's store: `mode` 0 sets the slot to v, 1 adds v, 2 subtracts it.
  static void set(int32_t* slot, int64_t v, int mode, const Instr& in) {
    if (mode == 1) v = *slot + v;
    else if (mode == 2) v = *slot - v;
    *slot = narrow(v, in);
  }

  // The larger effects are kept out of line (noinline): inlined, they made the
  // instruction loop slower.
  [[gnu::noinline]] void assign(const Instr& in) {
    int32_t* slot;
    if (in.a == 0) slot = w_ + g_.layout.globals + in.b;
    else if (in.a == 1) slot = w_ + g_.layout.player_vars + in.b * mp_ + player_value(in.d);
    else if (in.a == 3) slot = w_ + card_var_slot(p_.nodes[in.d]);
    else slot = wl_ + in.b;
    set(slot, value(in.c), in.e, in);
  }

  // A call's start (run_at, tell): its arguments bound, the address it returns to (-1: the
  // end of a call that only tells), a bookkeeping call's mark for the screens; its entry.
  int enter_call(const Instr& in, const Procedure& proc, int return_pc) {
    for (size_t i = 0; i < proc.param_slots.size(); ++i)
      wl_[proc.param_slots[i]] = narrow(value(p_.kids[in.b + i]), in);
    wl_[proc.ret_slot] = return_pc;
    if (proc.quiet && events_) record(Event::quiet, -1, -1, -1, 1, 0);
    return proc.entry;
  }

  // Out of line: most runs (playouts, search) have no listener.
  [[gnu::noinline]] void record(Event::Kind kind, int player, int card, int from, int to, uint32_t seen) {
    events_->push_back({kind, player, card, from, to, seen, {}, {}, {}});
  }

  // A message changes nothing in the game and is worked out only when someone listens. So
  // that a game goes the same way watched or not, a value that stops with a runtime error
  // is said as "?", and a `say to` a player who is none or not in the game tells nobody.
  // What the values spend of the expressions' budget is given back afterwards: a game runs
  // out of budget at the same point watched or not (compiled code does not work them out).
  [[gnu::noinline]] void say(const Instr& in) {
    const Message& m = p_.messages[in.a];
    int saved = base_;
    int64_t work = work_left_;
    struct GiveBack {
      int64_t& left;
      int64_t was;
      ~GiveBack() { left = was; }
    } give_back{work_left_, work};
    auto value = [&](int node, SaidValue& v) {
      try {
        v.value = eval(node);
      } catch (const RuntimeError&) {
        v.failed = true;
        base_ = saved;
      }
    };
    Event e{Event::say, -1, -1, in.a, -1, 0, {}, {}, {}};
    if (in.b >= 0) {
      SaidValue to;
      value(in.b, to);
      if (to.failed || to.value < 0 || to.value >= n_) return;
      e.player = static_cast<int32_t>(to.value);
    }
    e.said.resize(m.nodes.size());
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      SaidValue& v = e.said[i];
      value(m.nodes[i], v);
      if (v.failed || m.types[i] != Type::card || v.value < 0 || v.value >= g_.card_count) continue;
      int c = static_cast<int>(v.value);
      v.seen_by = seen_mask(c);
      v.hidden = hidden_card_text(g_, st_, c);
    }
    events_->push_back(std::move(e));
  }

  // A call of a procedure that only tells, when someone listens (nobody: it is skipped,
  // as a message's values are). It runs as a message is worked out: a runtime error, or
  // running past limits.steps, ends its messages there and not the game; what it spends
  // of the budgets is given back; and the slots it wrote are put back, so that the state
  // is the same whether the game was listened to or not. Calls it makes run in place.
  [[gnu::noinline]] void tell(const Instr& in, const Procedure& proc) {
    std::vector<int32_t> kept(proc.tell_slots.size());
    for (size_t i = 0; i < kept.size(); ++i) kept[i] = wl_[proc.tell_slots[i]];
    int64_t work = work_left_;
    int saved_base = base_;
    size_t told = events_->size();
    telling_ = true;
    try {
      run_at(enter_call(in, proc, -1));
    } catch (const RuntimeError&) {
      // Bookkeeping calls it had begun are ended, for the screens.
      int open = 0;
      for (size_t i = told; i < events_->size(); ++i)
        if ((*events_)[i].kind == Event::quiet) open += (*events_)[i].to == 1 ? 1 : -1;
      for (; open > 0; --open) record(Event::quiet, -1, -1, -1, 0, 0);
    }
    telling_ = false;
    work_left_ = work;
    base_ = saved_base;
    for (size_t i = 0; i < kept.size(); ++i) wl_[proc.tell_slots[i]] = kept[i];
  }

  // `move c to z [at bottom | at position k]`: the position is checked once the card has
  // left its zone, so that moving a card within its own zone counts it once.
  void move(const Instr& in) {
    int c = card_value(in.a), z = zone_value(in.b);
    if (in.d != 2) return move_card(c, z, in.c, in.d == 1 ? 0 : -1);
    int64_t k = value(in.e);
    int room = size(z) + (s_[g_.layout.card_zone + c] == z ? 0 : 1);
    if (k < 1 || k > room) bad_position(in, k, z, room);
    move_card(c, z, in.c, static_cast<int>(k) - 1);
  }

  // Moves a card into a zone at index `at` (0 the bottom; -1 on top), as the kernel
  // moves it (kernel.hpp), and tells whoever listens (move_card_told: a playout's moves,
  // unwatched, keep their registers for the kernel's).
  [[gnu::noinline]] void move_card(int c, int z, int face, int at) {
    if (events_) return move_card_told(c, z, face, at);
    kata::move_card(g_.kernel, w_, n_, c, z, face, at);
  }
  // The same for the top card of zone `from` (`move top(deck) to ...`): the kernel need not
  // look for the card's zone, nor whether it is on top.
  [[gnu::noinline]] void move_top(int c, int from, int z, int face, int at) {
    if (events_) return move_card_told(c, z, face, at);
    kata::move_card_from(g_.kernel, w_, n_, c, from, true, z, face, at);
  }

  [[gnu::noinline]] void move_card_told(int c, int z, int face, int at) {
    uint32_t before = seen_mask(c);
    int from = w_[g_.layout.card_zone + c];
    kata::move_card(g_.kernel, w_, n_, c, z, face, at);
    record(Event::move, -1, c, from, z, before | seen_mask(c));
  }

  // `move all L to z [at bottom]`, where the register code hands it over (a list that is
  // not a zone, or the bottom): the cards are listed first, then moved, as moving changes
  // the list being read.
  [[gnu::noinline]] void move_all(const Instr& in) {
    thread_local std::vector<int32_t> buf;
    buf.clear();
    each(in.a, [&](int64_t x) {
      buf.push_back(static_cast<int32_t>(x));
      return true;
    });
    int z = zone_value(in.b);
    for (int32_t c : buf) move_card(c, z, in.c, in.d == 1 ? 0 : -1);
  }

  // Every card of zone `from`, bottom first, onto the top of zone z. Unheard, onto a zone
  // that is not a set, in one pass, as compiled code moves them (the kernel's
  // move_all_on_top, the same as these moves one at a time).
  [[gnu::noinline]] void move_zone(int from, int z, int face) {
    if (!events_ && from != z && !g_.kernel.ISET[z]) return kata::move_all_on_top(g_.kernel, w_, n_, from, z, face);
    thread_local std::vector<int32_t> buf;
    buf.assign(cards(from), cards(from) + size(from));
    for (int32_t c : buf) move_card(c, z, face, -1);
  }

  // A fixed order comes from a file (a log, a scenario): it must list cards of the zone,
  // each once, and no more than the zone holds, before the zone's memory is rearranged.
  void check_forced_order(int z, const std::vector<int32_t>& top, int n, const Instr& in) const {
    const int32_t* cs = w_ + g_.layout.zone_cards + z * g_.card_count;
    auto name = [&](int32_t c) { return c >= 0 && c < g_.card_count ? g_.card_names[c] : std::string("a card"); };
    if (top.size() > static_cast<size_t>(n))
      throw ForcedOrderError(in.pos, fmt::format("the fixed order lists {} cards, but {} holds {}", top.size(),
                                                 g_.instance_name(z), n));
    std::vector<bool> listed(static_cast<size_t>(g_.card_count), false);
    for (int32_t c : top) {
      if (std::find(cs, cs + n, c) == cs + n)
        throw ForcedOrderError(in.pos, fmt::format("the fixed order names {}, which is not in {}", name(c), g_.instance_name(z)));
      if (listed[static_cast<size_t>(c)])
        throw ForcedOrderError(in.pos, fmt::format("the fixed order names {} more than once", name(c)));
      listed[static_cast<size_t>(c)] = true;
    }
  }

  [[gnu::noinline]] void shuffle(int z, const Instr& in) {
    int32_t* cs = w_ + g_.layout.zone_cards + z * g_.card_count;
    int n = w_[g_.layout.zone_size + z];
    kata::shuffle_draw(g_.kernel, w_, z);
    if (hooks_ && hooks_->forced_shuffles && !hooks_->forced_shuffles->empty()) {
      std::vector<int32_t> top = std::move(hooks_->forced_shuffles->front());
      hooks_->forced_shuffles->pop_front();
      check_forced_order(z, top, n, in);
      // The listed cards go on top, the first listed topmost; the others keep the random
      // order below them.
      for (size_t k = 0; k < top.size(); ++k) {
        int32_t* at = std::find(cs, cs + n, top[k]);
        std::copy(at + 1, cs + n, at);
        cs[n - 1] = top[k];
      }
      std::reverse(cs + n - static_cast<int>(top.size()), cs + n);
    }
    kata::shuffle_end(g_.kernel, w_, z);
    if (events_) events_->push_back({Event::shuffle, -1, -1, z, z, 0, std::vector<int32_t>(cs, cs + n), {}, {}});
  }

  void flip(int c, int face) {
    uint32_t before = events_ ? seen_mask(c) : 0;
    int32_t was = w_[g_.layout.card_face + c];
    kata::flip(g_.kernel, w_, n_, c, face);
    int32_t f = w_[g_.layout.card_face + c];
    // A card left as it was is no event: "3 cards are turned face up" named cards that
    // were face up already.
    if (events_ && f != was) record(Event::flip, -1, c, w_[g_.layout.card_zone + c], f, before | seen_mask(c));
  }

  // A loop's list, and (unless the register code tests it: unfiltered) its `where`.
  void for_init(const Loop& l, bool unfiltered) {
    int32_t* buf = wl_ + l.buffer_slot;
    int k = gather(l.list_node, unfiltered ? -1 : l.where_node, l.capacity, buf, [&](int32_t x) { wl_[l.var_slot] = x; });
    wl_[l.count_slot] = k;
    wl_[l.index_slot] = 0;
  }

  void win(const Instr& in) {
    uint32_t mask = 0;
    if (in.b) {
      each(in.a, [&](int64_t p) {
        mask |= 1u << p;
        return true;
      });
    } else if (int64_t p = value(in.a); p != -1) {
      // `win none`: the game ends and nobody wins.
      if (p < 0 || p >= n_) [[unlikely]]
        bad_player(in.a, p);
      mask = 1u << p;
    }
    w_[Layout::winners] = static_cast<int32_t>(mask);
    w_[Layout::status] = static_cast<int32_t>(Status::over);
    if (events_) record(Event::win, -1, -1, -1, -1, mask);
  }

  void finish() {
    w_[Layout::status] = static_cast<int32_t>(Status::over);
    uint32_t mask = 0;
    if (g_.score_node >= 0) {
      // Each player's keys, the score then the tie-breaks, in a row of `width` (kept by the
      // thread: a playout's end allocates nothing once warm).
      thread_local std::vector<int64_t> keys;
      const size_t width = 1 + g_.tiebreak_nodes.size();
      keys.resize(width * static_cast<size_t>(n_));
      auto row = [&](int p) { return keys.data() + width * static_cast<size_t>(p); };
      for (int p = 0; p < n_; ++p) {
        env_[0] = p;
        int64_t* k = row(p);
        k[0] = eval(g_.score_node);
        for (size_t t = 1; t < width; ++t) k[t] = eval(g_.tiebreak_nodes[t - 1]);
        if (g_.lowest_wins) k[0] = -k[0];
      }
      // An eliminated player cannot win on points, unless everyone was eliminated.
      bool anyone = false;
      for (int p = 0; p < n_; ++p) anyone |= !eliminated(p);
      int best = -1;
      for (int p = 0; p < n_; ++p)
        if ((!anyone || !eliminated(p)) &&
            (best < 0 || std::lexicographical_compare(row(best), row(best) + width, row(p), row(p) + width)))
          best = p;
      for (int p = 0; p < n_; ++p)
        if (best >= 0 && (!anyone || !eliminated(p)) && std::equal(row(p), row(p) + width, row(best))) mask |= 1u << p;
    }
    w_[Layout::winners] = static_cast<int32_t>(mask);
    if (events_) record(Event::over, -1, -1, -1, -1, mask);
  }

  const State& st_;
  int32_t* w_;
  int32_t* wl_;
  Hooks* hooks_;
  std::vector<Event>* events_;  // null when nobody listens
  bool telling_ = false;        // in a call that only tells (tell())
  uint64_t* playout_ = nullptr;  // a random playout's generator (play_randomly), or null
  // A random playout's choice among actions without parameters tested in the register code
  // (s_choose, s_plain_legal, s_plain_pick): the chooser as the conditions' argument, and
  // the legal actions so far.
  int32_t chooser_arg_[1] = {0};
  int32_t plain_legal_[Game::max_plain] = {};
};


}  // namespace

// Each instruction of the register code is given the address of its code in
// Machine::run_at's loop, which jumps through it (XIns::go).
void detail::thread_xcode(Game& g) {
  State st;
  st.slots.assign(static_cast<size_t>(std::max(g.layout.total, Layout::header)), 0);
  Machine m(g, st, nullptr);
  m.run_at(Machine::labels_wanted);
  for (XIns& x : g.program.xcode) x.go = m.labels_[x.op];
  for (XIns& x : g.program.quiet.xcode) x.go = m.labels_[x.op];
}

namespace {

// Runs the effects from the state's pc, compiled or interpreted.
void run(const Game& g, State& st, Hooks* hooks) {
  if (use_native(g, hooks)) {
    KataCtx c;
    native_context(g, st.slots.data(), c);
    g.native->run(&c, nullptr);
  } else {
    Machine(g, st, hooks).run();
  }
}


}  // namespace

State new_game(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
               Hooks* hooks) {
  State st = initial_state(g, players, seed, options);
  run(g, st, hooks);
  return st;
}

State& new_game_in(ReusedState& r, const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options) {
  initial_state_in(r, g, players, seed, options);
  run(g, r.state, nullptr);
  return r.state;
}

void run_from(const Game& g, State& s, int pc, Hooks* hooks) {
  s.slots[Layout::pc] = pc;
  run(g, s, hooks);
}

void apply(const Game& g, State& st, const Decision& given, Hooks* hooks) {
  int32_t* s = st.slots.data();
  if (st.status() != Status::waiting)
    throw RuntimeError(g.program.sites[s[Layout::site]].pos, "the game is not waiting for a decision");
  // A blind pick is drawn first, as a fused playout draws it (native_pick).
  Decision d = given;
  std::vector<Event> picks;
  if (has_blind(g, given)) {
    std::vector<Decision> raw;
    raw_legal(g, st, raw);
    d = pick_blind(g, s, given, raw.data(), static_cast<int>(raw.size()), hooks);
    if (hooks && hooks->events) record_picks(g, st, given, d, picks);
  }
  static_cast<void>(g.program.actions.at(d.action));  // a decision from outside may name no action
  count_decision(g, s);
  if (use_native(g, hooks)) {
    // Compiled code binds the chooser and parameters itself, and starts at the action.
    static_assert(sizeof(Decision) == 5 * sizeof(int32_t));
    KataCtx c;
    native_context(g, s, c);
    g.native->run(&c, reinterpret_cast<const int32_t*>(&d));
    return;
  }
  const Action& act = g.program.actions[d.action];
  bind_decision(g, s, act, d.args, act.params.size());
  if (hooks && hooks->events) {
    Event e{Event::decision, st.chooser(), -1, -1, -1, 0, {}, given, {}};
    hooks->events->push_back(e);
    for (Event& p : picks) hooks->events->push_back(std::move(p));
  }
  Machine(g, st, hooks).run();
}

void play_randomly(const Game& g, State& st, uint64_t& rng) {
  if (g.native) {
    KataCtx c;
    native_context(g, st.slots.data(), c);
    g.native->playout(&c, &rng);
    return;
  }
  Machine(g, st, nullptr).play_randomly(rng);
}

}  // namespace kata
