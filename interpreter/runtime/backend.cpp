// The interpreter's side of a compiled back-end (backend.hpp): what compiled code calls
// back for (its failures as the interpreter's own errors, the nodes it leaves to the
// evaluator, a random playout's blind picks), and the context it runs in.
#include <fmt/format.h>

#include "runtime/backend.hpp"
#include "runtime/evaluator.hpp"
#include "runtime/internal.hpp"

namespace kata {

using namespace detail;

namespace {

// ---- what compiled code (native/) calls back for, and how it is called ----

// Throws the interpreter's own error for a failure in compiled code.
[[noreturn]] void native_fail(const void* host, const int32_t* s, int kind, int where, int64_t a, int64_t b) {
  const Game& g = *static_cast<const Game*>(host);
  Evaluator ev(g, s, s + g.layout.locals);
  const std::vector<Instr>& code = g.program.code;
  switch (kind) {
    case kata_bad_player: ev.bad_player(where, a);
    case kata_bad_card: ev.bad_card(where);
    case kata_bad_zone: ev.bad_zone(where, a);
    case kata_bad_division: ev.bad_division(where);
    case kata_bad_kind: ev.bad_kind(where, static_cast<int>(a));
    case kata_nested: ev.fail(where, "expressions nested too deeply");
    case kata_nested_functions: ev.fail(where, "functions nested too deeply");
    case kata_long_range: ev.fail(where, "a range of more than 4096 numbers");
    case kata_long_loop: ev.fail(where, fmt::format("a loop over more than {} elements", a));
    case kata_steps: too_many_steps(code[where], g.max_steps);
    case kata_too_large: too_large(a, code[where]);
    case kata_bad_position:
      throw RuntimeError(code[where].pos, fmt::format("position {} is outside {} (1 to {})", a,
                                                      g.instance_name(static_cast<int>(b >> 32)), static_cast<int>(b & 0xffffffff)));
    case kata_overflow: ev.overflow(where);
    case kata_no_legal: no_legal_action(g, s[Layout::chooser], g.program.sites[where]);
    case kata_too_many_decisions: too_many_decisions(g, g.program.sites[where]);
    case kata_too_many_legal: too_many_legal(g.program.sites[where]);
    case kata_work: ev.too_much_work(where);
    default: ev.not_a_value(where);
  }
}

int64_t native_eval(const void* host, const int32_t* s, const int32_t* args, const int64_t* env, int base, int node,
                    int64_t* work) {
  const Game& g = *static_cast<const Game*>(host);
  Evaluator ev(g, s, s + g.layout.locals);
  ev.set_args(args);
  ev.set_frame(env, base);
  ev.set_work_left(*work);
  int64_t v = ev.eval(node);
  *work = ev.work_left();
  return v;
}

int native_list(const void* host, const int32_t* s, const int32_t* args, const int64_t* env, int base, int node,
                int32_t* out, int cap, int64_t* work) {
  const Game& g = *static_cast<const Game*>(host);
  Evaluator ev(g, s, s + g.layout.locals);
  ev.set_args(args);
  ev.set_frame(env, base);
  ev.set_work_left(*work);
  int k = 0;
  ev.each(node, [&](int64_t x) {
    if (k >= cap) ev.fail(node, fmt::format("a list of more than {} elements", cap));
    out[k++] = static_cast<int32_t>(x);
    return true;
  });
  *work = ev.work_left();
  return k;
}

void native_remember(const void* host, int32_t* s) { remember_position(*static_cast<const Game*>(host), s); }

}  // namespace

namespace detail {

void native_context(const Game& g, int32_t* s, KataCtx& c) {
  c.s = s;
  c.host = &g;
  c.n = s[Layout::players];
  c.work = g.max_steps;  // compiled code starts each run and listing with it anew, too
}

// Compiled code runs where nothing listens to events and no shuffle is fixed.
bool use_native(const Game& g, const Hooks* hooks) {
  return g.native && (!hooks || (!hooks->events && !hooks->forced_shuffles));
}


}  // namespace detail

const KataHost* native_host() {
  static const KataHost host{native_fail, native_eval, native_list, native_pick, native_remember};
  return &host;
}

}  // namespace kata
