// The compiled program of a Game written out as C++: one function runs the instructions
// (each instruction a label, each jump a goto), one lists the legal decisions, and every
// expression is a C++ expression. The translation follows the interpreter (runtime/evaluator.hpp, machine.cpp) case for case, in
// the same order of evaluation and with the same checks, so a compiled game runs exactly
// as the interpreter runs it; what it does not translate (rare nodes, like `walk`) it
// hands back to the interpreter through KataCtx::eval and KataCtx::list.
//
// Nothing of the rule file's text reaches the source: only numbers (indices, constants and
// the game's tables), so an untrusted rule file cannot inject code.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "native/native.hpp"
#include "runtime/engine.hpp"

namespace kata {

namespace {

// The helpers every generated file starts with, after its tables. They are the
// interpreter's (runtime/), over the same state layout.
constexpr const char* prelude = R"(
// Only the four entry points are exported: calls among them stay direct, not through
// the procedure linkage table.
#define KATA_EXPORT __attribute__((visibility("default")))
static KataHost H;
extern "C" KATA_EXPORT void kata_init(const KataHost* h) { H = *h; }
[[noreturn, gnu::cold, gnu::noinline]] static void fail(KataCtx& c, int kind, int where, int64_t a = 0, int64_t b = 0) {
  H.fail(c.host, c.s, kind, where, a, b);
  __builtin_unreachable();
}
static inline int chkP(KataCtx& c, int n, int64_t p, int node) {
  if (__builtin_expect(p < 0 || p >= n, 0)) fail(c, kata_bad_player, node, p);
  return (int)p;
}
static inline int chkC(KataCtx& c, int64_t x, int node) {
  if (__builtin_expect(x < 0 || x >= CC, 0)) fail(c, kata_bad_card, node);
  return (int)x;
}
static inline int chkK(KataCtx& c, int x, int kind, int node) {
  if (__builtin_expect(KIND[x] != kind, 0)) fail(c, kata_bad_kind, node, kind);
  return x;
}
static inline int chkZ(KataCtx& c, int n, int64_t z, int node) {
  if (__builtin_expect(z < 0 || z >= NI || IOWNER[z] >= n, 0)) fail(c, kata_bad_zone, node, z);
  return (int)z;
}
// One step of the expressions' budget (Evaluator::spend): each round of an aggregate and
// each call of a function, counted from BUDGET anew for each run and each listing.
static inline void spend(KataCtx& c, int node) {
  if (__builtin_expect(--c.work < 0, 0)) fail(c, kata_work, node);
}
static inline int32_t narrow(KataCtx& c, int64_t v, int instr) {
  if (__builtin_expect(v < INT32_MIN || v > INT32_MAX, 0)) fail(c, kata_too_large, instr, v);
  return (int32_t)v;
}
static inline uint64_t next_random(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static inline uint32_t uniform(uint64_t& x, uint32_t n) {
  uint64_t m = (uint64_t)(uint32_t)next_random(x) * n;
  uint32_t low = (uint32_t)m;
  if (low < n) {
    uint32_t t = (0u - n) % n;
    while (low < t) {
      m = (uint64_t)(uint32_t)next_random(x) * n;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}
static inline bool is_visible(KataCtx& c, int viewer, int card) {
  const int32_t* s = c.s;
  if (viewer < 0) return true;
  int z = s[CZ + card];
  if (z < 0) return false;
  if (s[FACE + card]) return true;
  if (s[KNOWN + card] & (1u << viewer)) return true;
  switch (VIS[z]) {
    case 1: return IOWNER[z] == viewer;
    case 3: return s[ZC + z * CC + s[ZS + z] - 1] == card;
    default: return false;
  }
}
// The seats that see a card (Evaluator::seen_mask), with two tables for one switch: the
// owner's bit where the owner sees the zone, and which zones show their top card.
[[gnu::always_inline]] static inline uint32_t seen_mask(const int32_t* s, int n, int card) {
  uint32_t all = (1u << n) - 1;
  int z = s[CZ + card];
  if (z < 0) return 0;
  if (s[FACE + card]) return all;
  if (ISTOP[z] && s[ZC + z * CC + s[ZS + z] - 1] == card) return all;
  return ((uint32_t)s[KNOWN + card] | OWNBIT[z]) & all;
}
// Evaluator::seen_publicly: PUBLIC if every seat sees the card in a way all are shown.
[[gnu::always_inline]] static inline int32_t seen_publicly(const int32_t* s, int card) {
  int z = s[CZ + card];
  bool seen = (s[KNOWN + card] & PUBLIC) || (z >= 0 && (s[FACE + card] || (ISTOP[z] && s[ZC + z * CC + s[ZS + z] - 1] == card)));
  return seen ? PUBLIC : 0;
}
[[gnu::always_inline]] static inline void move_card(int32_t* s, int n, int card, int z, int face, int at) {
  uint32_t before = seen_mask(s, n, card);
  int32_t was_public = seen_publicly(s, card);
  int from = s[CZ + card];
  if (from >= 0) {
    int32_t* fs = s + ZC + from * CC;
    int32_t& fn = s[ZS + from];
    if (fs[fn - 1] != card) {
      int i = 0;
      while (fs[i] != card) ++i;
      for (; i + 1 < fn; ++i) fs[i] = fs[i + 1];
    }
    --fn;
  }
  int32_t* cs = s + ZC + z * CC;
  int size = s[ZS + z];
  if (at < 0 || at > size) at = size;
  if (ISET[z]) {
    at = 0;
    while (at < size && cs[at] < card) ++at;
  }
  int vis = VIS[z];
  if (size > 0 && at == size && vis == 3) s[KNOWN + cs[size - 1]] |= (int32_t)seen_mask(s, n, cs[size - 1]) | PUBLIC;
  for (int i = size; i > at; --i) cs[i] = cs[i - 1];
  cs[at] = card;
  s[ZS + z] = size + 1;
  s[CZ + card] = z;
  s[FACE + card] = face == 1 ? 1 : face == 2 ? 0 : vis == 0;
  s[KNOWN + card] |= (int32_t)before | was_public;
}
static inline void flip(int32_t* s, int n, int card, int face) {
  int32_t& f = s[FACE + card];
  uint32_t before = seen_mask(s, n, card);
  int32_t was_public = seen_publicly(s, card);
  f = face == 0 ? !f : face == 1;
  s[KNOWN + card] |= (int32_t)(f ? (1u << n) - 1 : before) | (f ? PUBLIC : was_public);
}
static inline void shuffle(int32_t* s, int z) {
  int32_t* cs = s + ZC + z * CC;
  int n = s[ZS + z];
  uint64_t rng = ((uint64_t)(uint32_t)s[RNG_HI] << 32) | (uint32_t)s[RNG_LO];
  // Everyone forgets the cards: each is cleared where it lands.
  for (int i = n - 1; i > 0; --i) {
    int j = (int)uniform(rng, (uint32_t)(i + 1));
    int32_t t = cs[j];
    cs[j] = cs[i];
    cs[i] = t;
    s[KNOWN + t] = 0;
  }
  if (n > 0) s[KNOWN + cs[0]] = 0;
  s[RNG_HI] = (int32_t)(rng >> 32);
  s[RNG_LO] = (int32_t)rng;
  // A set keeps card order (Machine::shuffle): insertion sort, sets being small.
  if (ISET[z])
    for (int i = 1; i < n; ++i) {
      int32_t t = cs[i];
      int j = i;
      for (; j > 0 && cs[j - 1] > t; --j) cs[j] = cs[j - 1];
      cs[j] = t;
    }
}
)";

// Thrown when the source passes its limit: at expression node `node`, or -1 (elsewhere).
struct TooLarge {
  int node;
};

class Generator {
 public:
  Generator(const Game& g, size_t limit) : g_(g), p_(g.program), l_(g.layout), limit_(limit) {}

  // The whole source, or TooLarge thrown as soon as it passes the limit.
  std::string source() {
    out_ = "// Generated by kata from a compiled rule file; see interpreter/native/codegen.cpp.\n";
    out_ += "#include <cstdint>\n#include <climits>\n#include <vector>\n";
    out_ += KATA_NATIVE_ABI_TEXT;
    out_ += "\n";
    tables();
    out_ += prelude;
    find_safe_locals();
    for (size_t f = 0; f < p_.functions.size(); ++f)
      out_ += fmt::format("static inline int64_t F{}(KataCtx& c, int base);\n", f);
    for (size_t f = 0; f < p_.functions.size(); ++f) {
      base_ = "base";
      out_ += fmt::format("static inline int64_t F{}(KataCtx& c, int base) {{\n  int32_t* s = c.s; const int n = c.n; (void)s; (void)n; (void)base;\n  return {};\n}}\n",
                          f, p_.functions[f].body >= 0 ? e(p_.functions[f].body) : "0");
    }
    base_ = "0";
    run();
    legal();
    playout();
    if (out_.size() > limit_) throw TooLarge{-1};
    return out_;
  }

 private:
  // ---- the game's tables, as constants ----
  template <typename T>
  void table(const char* type, const char* name, const std::vector<T>& v) {
    out_ += fmt::format("static constexpr {} {}[] = {{", type, name);
    if (v.empty()) out_ += "0";
    for (size_t i = 0; i < v.size(); ++i) out_ += fmt::format("{}{}", i ? "," : "", static_cast<int64_t>(v[i]));
    out_ += "};\n";
  }

  void tables() {
    out_ += fmt::format(
        "static constexpr int CC = {}, MP = {}, NI = {}, PC = {}, CHOOSER = {}, SITE = {}, STATUS = {}, PHASE = {},"
        " WINNERS = {}, RNG_HI = {}, RNG_LO = {}, OPT = {}, GLOB = {}, PV = {}, CV = {}, ELIM = {}, ZS = {}, ZC = {},"
        " CZ = {}, FACE = {}, KNOWN = {}, LOC = {}, PUBLIC = {};\n",
        g_.card_count, g_.max_players, g_.instance_zone.size(), Layout::pc, Layout::chooser, Layout::site,
        Layout::status, Layout::phase, Layout::winners, Layout::rng_hi, Layout::rng_lo, l_.options, l_.globals,
        l_.player_vars, l_.card_vars, l_.eliminated, l_.zone_size, l_.zone_cards, l_.card_zone, l_.card_face,
        l_.card_known, l_.locals, Layout::public_knowledge);
    out_ += fmt::format("static constexpr int64_t BUDGET = {};\n", g_.max_steps);
    table("int64_t", "PROPS", g_.card_props);
    table("int32_t", "KIND", g_.card_kind);
    table("int32_t", "OWNER", g_.card_owner);
    table("int32_t", "IOWNER", g_.instance_owner);
    table("int32_t", "ICARD", g_.instance_card);
    std::vector<int> vis;
    for (Visibility v : g_.instance_visibility) vis.push_back(static_cast<int>(v));
    table("uint8_t", "VIS", vis);
    std::vector<uint32_t> ownbit;
    std::vector<int> istop;
    for (size_t z = 0; z < g_.instance_visibility.size(); ++z) {
      int owner = g_.instance_owner[z];
      ownbit.push_back(g_.instance_visibility[z] == Visibility::owner && owner >= 0 ? 1u << owner : 0u);
      istop.push_back(g_.instance_visibility[z] == Visibility::top);
    }
    table("uint32_t", "OWNBIT", ownbit);
    table("uint8_t", "ISTOP", istop);
    table("uint8_t", "ISET", g_.instance_set);
    table("int32_t", "LS", g_.link_start);
    table("int32_t", "LT", g_.link_to);
    for (size_t i = 0; i < p_.value_lists.size(); ++i)
      table("int64_t", fmt::format("VL{}", i).c_str(), p_.value_lists[i]);
    for (size_t i = 0; i < p_.lookups.size(); ++i)
      if (p_.lookups[i].dense) table("int32_t", fmt::format("LK{}", i).c_str(), p_.lookups[i].table);
    static_assert(static_cast<int>(Visibility::everyone) == 0 && static_cast<int>(Visibility::owner) == 1 &&
                  static_cast<int>(Visibility::top) == 3);
  }

  std::string tmp() { return fmt::format("t{}", next_++); }
  const Node& node(int i) const { return p_.nodes[i]; }

  // A variable a specialised member node reads: a local, a bound variable or an argument.
  std::string var(NodeOp op, int b) {
    switch (op) {
      case NodeOp::player_var_local:
      case NodeOp::zone_of_local:
      case NodeOp::prop_local:
      case NodeOp::card_var_local: return fmt::format("(int64_t)s[{}]", l_.locals + b);
      case NodeOp::player_var_bound:
      case NodeOp::zone_of_bound:
      case NodeOp::prop_bound:
      case NodeOp::card_var_bound: return fmt::format("c.env[{} + {}]", base_, b);
      default: return fmt::format("(int64_t)c.args[{}]", b);
    }
  }

  std::string P(int n) {
    if (safe_player(n)) return fmt::format("(int){}", e(n));
    return fmt::format("chkP(c, n, {}, {})", e(n), n);
  }
  // The player a specialised member node reads (var), checked unless it cannot be wrong.
  std::string PV(NodeOp op, int b, int kid) {
    if (safe_var(op, b)) return fmt::format("(int){}", var(op, b));
    return fmt::format("chkP(c, n, {}, {})", var(op, b), kid);
  }

  // Values that are always a seat of the game, so need no check: a variable of an aggregate
  // or a loop over players (`players`, `all_players`, `... from p`) that nothing else
  // writes, the chooser, and a parameter chosen among players.
  static bool player_list(const Node& k) {
    return k.op == NodeOp::list_players || k.op == NodeOp::list_all_players || k.op == NodeOp::list_from;
  }
  bool safe_var(NodeOp op, int b) const {
    switch (op) {
      case NodeOp::player_var_local:
      case NodeOp::zone_of_local: return safe_locals_.count(b) > 0;
      case NodeOp::player_var_bound:
      case NodeOp::zone_of_bound: return safe_depths_.count(b) > 0;
      case NodeOp::player_var_arg:
      case NodeOp::zone_of_arg: return safe_args_.count(b) > 0;
      default: return false;
    }
  }
  bool safe_player(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::local: return safe_locals_.count(k.a) > 0;
      case NodeOp::bound: return safe_depths_.count(k.a) > 0;
      case NodeOp::arg: return safe_args_.count(k.a) > 0;
      default: return false;
    }
  }
  // The loop variables over players that only their loop writes.
  void find_safe_locals() {
    std::set<int> written;
    for (const Instr& in : p_.code) {
      if (in.op == Op::assign && in.a == 2) written.insert(in.b);
      if (in.op == Op::repeat_init) written.insert(in.b);
    }
    for (const Procedure& proc : p_.procedures) written.insert(proc.param_slots.begin(), proc.param_slots.end());
    for (const Action& a : p_.actions) {
      written.insert(a.player_slot);
      for (const Param& prm : a.params) written.insert(prm.slot);
    }
    std::map<int, int> loops;  // var slot -> how many loops use it
    for (const Loop& l : p_.loops) loops[l.var_slot]++;
    for (const Loop& l : p_.loops)
      if (player_list(node(l.list_node)) && !written.count(l.var_slot) && loops[l.var_slot] == 1) safe_locals_.insert(l.var_slot);
  }
  std::string C(int n) { return fmt::format("chkC(c, {}, {})", e(n), n); }
  // A card that must be of a kind (card_of_kind).
  std::string CK(int n, int kind) { return fmt::format("chkK(c, {}, {}, {})", C(n), kind, n); }
  // A zone instance, checked as Evaluator::zone checks it.
  std::string Z(int n) {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::zone: return std::to_string(k.a);
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return fmt::format("({} + {})", k.a, PV(k.op, k.b, k.kid[0]));
      default: return fmt::format("chkZ(c, n, {}, {})", e(n), n);
    }
  }
  // Two operands evaluated left to right, then added, subtracted or multiplied, stopping
  // where 64 bits cannot hold the result (as the interpreter does).
  std::string checked(int n, const char* op) {
    std::string a = tmp(), b = tmp(), r = tmp();
    return fmt::format("({{ int64_t {0} = {1}; int64_t {2} = {3}, {4}; if (__builtin_{5}_overflow({0}, {2}, &{4})) fail(c, kata_overflow, {6}); {4}; }})",
                       a, e(node(n).kid[0]), b, e(node(n).kid[1]), r, op, n);
  }
  // Two operands evaluated left to right, then combined.
  std::string binary(int n, const char* op) {
    std::string a = tmp(), b = tmp();
    return fmt::format("({{ int64_t {} = {}; int64_t {} = {}; (int64_t)({} {} {}); }})", a, e(node(n).kid[0]), b,
                       e(node(n).kid[1]), a, op, b);
  }
  // The first of two values if it is `op` the second, else the second (min_of, max_of).
  std::string binary_pick(int n, const char* op) {
    std::string a = tmp(), b = tmp();
    return fmt::format("({{ int64_t {0} = {1}; int64_t {2} = {3}; {0} {4} {2} ? {0} : {2}; }})", a, e(node(n).kid[0]), b,
                       e(node(n).kid[1]), op);
  }
  // The slot of a component variable, from a card_var node (Evaluator::card_var_slot).
  std::string card_var_slot(int n) {
    const Node& k = node(n);
    const VarInfo& v = g_.card_vars[k.a];
    const KindInfo& kind = g_.kinds[v.kind];
    std::string cv = tmp();
    if (!v.per_player)
      return fmt::format("({{ int {} = {}; {} + ({} - {}); }})", cv, CK(k.kid[0], v.kind), l_.card_vars + v.base, cv,
                         kind.first_card);
    std::string pv = tmp();
    return fmt::format("({{ int {} = {}; int {} = {}; {} + ({} - {}) * {} + {}; }})", cv, CK(k.kid[0], v.kind), pv,
                       P(k.kid[1]), l_.card_vars + v.base, cv, kind.first_card, g_.max_players, pv);
  }
  // `cell(3, 2)` from a dense table (CardLookup::find); a sparse one is left to the host.
  std::string card_at(int n) {
    const Node& k = node(n);
    const CardLookup& t = p_.lookups[k.a];
    if (!t.dense) return host_eval(n);
    std::string s = "({", test = "false", index = "0";
    for (int d = 0; d < t.dims; ++d) {
      std::string v = tmp();
      s += fmt::format(" int64_t {} = {};", v, e(k.kid[d]));
      test += fmt::format(" || {0} < {1}LL || {0} > {2}LL", v, t.lo[d], t.hi[d]);
      index = fmt::format("({}) * {} + ({} - {}LL)", index, t.hi[d] - t.lo[d] + 1, v, t.lo[d]);
    }
    if (t.table.empty()) return s + " (int64_t)-1; })";
    return s + fmt::format(" ({}) ? (int64_t)-1 : (int64_t)LK{}[{}]; }})", test, k.a, index);
  }
  std::string host_eval(int n) { return fmt::format("H.eval(c.host, c.s, c.args, c.env, {}, {}, &c.work)", base_, n); }

  // ---- expressions ----
  // The C++ of an expression node. What each node writes itself (its text less its
  // operands') is counted as it is written, and past the limit the generator stops there:
  // a rule file whose C++ would be huge is refused at the expression that makes it so,
  // having cost no more than the limit to write (times the expression's depth, as each
  // node copies its operands' text).
  std::string e(int n) {
    size_t outer = operands_;
    operands_ = 0;
    std::string text = expression(n);
    written_ += text.size() - std::min(text.size(), operands_);
    operands_ = outer + text.size();
    if (written_ > limit_) throw TooLarge{n};
    return text;
  }

  std::string expression(int n) {
    const Node& k = node(n);
    const int a = k.a, k0 = k.kid[0], k1 = k.kid[1], k2 = k.kid[2];
    switch (k.op) {
      case NodeOp::constant: return fmt::format("(int64_t){}", a);
      case NodeOp::option: return fmt::format("(int64_t)s[{}]", l_.options + a);
      case NodeOp::global: return fmt::format("(int64_t)s[{}]", l_.globals + a);
      case NodeOp::local: return fmt::format("(int64_t)s[{}]", l_.locals + a);
      case NodeOp::bound: return fmt::format("c.env[{} + {}]", base_, a);
      case NodeOp::arg: return fmt::format("(int64_t)c.args[{}]", a);
      case NodeOp::zone: return fmt::format("(int64_t){}", a);
      case NodeOp::player_var_local:
      case NodeOp::player_var_bound:
      case NodeOp::player_var_arg:
        return fmt::format("(int64_t)s[{} + {}]", l_.player_vars + a * g_.max_players, PV(k.op, k.b, k0));
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return fmt::format("(int64_t)({} + {})", a, PV(k.op, k.b, k0));
      case NodeOp::prop_local:
      case NodeOp::prop_bound:
      case NodeOp::prop_arg: return fmt::format("PROPS[{} + chkC(c, {}, {})]", a * g_.card_count, var(k.op, k.b), k0);
      case NodeOp::card_var_local:
      case NodeOp::card_var_bound:
      case NodeOp::card_var_arg: {
        const VarInfo& v = g_.card_vars[a];
        return fmt::format("(int64_t)s[{} + (chkK(c, chkC(c, {}, {}), {}, {}) - {})]", l_.card_vars + v.base,
                           var(k.op, k.b), k0, v.kind, k0, g_.kinds[v.kind].first_card);
      }
      case NodeOp::player_var: return fmt::format("(int64_t)s[{} + {}]", l_.player_vars + a * g_.max_players, P(k0));
      case NodeOp::zone_of: return fmt::format("(int64_t)({} + {})", g_.zones[a].first_instance, P(k0));
      case NodeOp::prop: return fmt::format("PROPS[{} + {}]", a * g_.card_count, C(k0));
      case NodeOp::card_var: return fmt::format("(int64_t)s[{}]", card_var_slot(n));
      case NodeOp::card_zone_of: {
        const ZoneInfo& z = g_.zones[a];
        std::string cv = tmp();
        if (!z.per_player)
          return fmt::format("({{ int {} = {}; (int64_t)({} + ({} - {})); }})", cv, CK(k0, z.kind), z.first_instance,
                             cv, g_.kinds[z.kind].first_card);
        std::string pv = tmp();
        return fmt::format("({{ int {} = {}; int {} = {}; (int64_t)({} + ({} - {}) * {} + {}); }})", cv, CK(k0, z.kind),
                           pv, P(k1), z.first_instance, cv, g_.kinds[z.kind].first_card, g_.max_players, pv);
      }
      case NodeOp::card_owner: return fmt::format("(int64_t)OWNER[{}]", C(k0));
      case NodeOp::neg: {
        std::string v = tmp();
        return fmt::format("({{ int64_t {0} = {1}; if ({0} == INT64_MIN) fail(c, kata_overflow, {2}); -{0}; }})", v, e(k0), n);
      }
      case NodeOp::not_: return fmt::format("(int64_t)!({})", e(k0));
      case NodeOp::add: return checked(n, "add");
      case NodeOp::sub: return checked(n, "sub");
      case NodeOp::mul: return checked(n, "mul");
      case NodeOp::eq: return binary(n, "==");
      case NodeOp::ne: return binary(n, "!=");
      case NodeOp::lt: return binary(n, "<");
      case NodeOp::le: return binary(n, "<=");
      case NodeOp::gt: return binary(n, ">");
      case NodeOp::ge: return binary(n, ">=");
      case NodeOp::div:
      case NodeOp::mod: {
        std::string x = tmp(), y = tmp();
        return fmt::format(
            "({{ int64_t {0} = {1}; int64_t {2} = {3}; if ({2} == 0) fail(c, kata_bad_division, {4}); if ({0} == INT64_MIN && {2} == -1) fail(c, kata_overflow, {4}); {0} {5} {2}; }})",
            x, e(k0), y, e(k1), n, k.op == NodeOp::div ? "/" : "%");
      }
      case NodeOp::and_: return fmt::format("(int64_t)(({}) && ({}))", e(k0), e(k1));
      case NodeOp::or_: return fmt::format("(int64_t)(({}) || ({}))", e(k0), e(k1));
      case NodeOp::cond: return fmt::format("(({}) ? ({}) : ({}))", e(k0), e(k1), e(k2));
      case NodeOp::sum:
      case NodeOp::count:
      case NodeOp::min:
      case NodeOp::max:
      case NodeOp::any:
      case NodeOp::all:
      case NodeOp::best:
      case NodeOp::worst:
      case NodeOp::find: return aggregate(n);
      case NodeOp::call: return call(n);
      case NodeOp::player_count: return "(int64_t)n";
      case NodeOp::top:
      case NodeOp::bottom: {
        std::string z = tmp(), m = tmp();
        return fmt::format("({{ int {} = {}; int {} = s[{} + {}]; {} ? (int64_t)s[{} + {} * {} + {}] : (int64_t)-1; }})", z,
                           Z(k0), m, l_.zone_size, z, m, l_.zone_cards, z, g_.card_count,
                           k.op == NodeOp::top ? m + " - 1" : std::string("0"));
      }
      case NodeOp::size: return fmt::format("(int64_t)s[{} + {}]", l_.zone_size, Z(k0));
      case NodeOp::next_player: {
        std::string pv = tmp(), r = tmp();
        return fmt::format(
            "({{ int {0} = {1}; int {2} = {0}; for (int i = 1, q = {0}; i <= n; ++i) {{ if (++q == n) q = 0; if (!s[{3} + q]) {{ {2} = q; break; }} }} (int64_t){2}; }})",
            pv, P(k0), r, l_.eliminated);
      }
      case NodeOp::left: {
        std::string q = tmp();
        return fmt::format("({{ int {0} = {1} + 1; (int64_t)({0} == n ? 0 : {0}); }})", q, P(k0));
      }
      case NodeOp::right: {
        std::string q = tmp();
        return fmt::format("({{ int {0} = {1}; (int64_t)({0} == 0 ? n - 1 : {0} - 1); }})", q, P(k0));
      }
      case NodeOp::alive: return fmt::format("(int64_t)(s[{} + {}] == 0)", l_.eliminated, P(k0));
      case NodeOp::sees: {
        std::string pv = tmp();
        return fmt::format("({{ int {} = {}; (int64_t)is_visible(c, {}, {}); }})", pv, P(k0), pv, C(k1));
      }
      case NodeOp::face_up: return fmt::format("(int64_t)s[{} + {}]", l_.card_face, C(k0));
      case NodeOp::zone_owner: return fmt::format("(int64_t)IOWNER[{}]", Z(k0));
      case NodeOp::card_zone: return fmt::format("(int64_t)s[{} + {}]", l_.card_zone, C(k0));
      case NodeOp::contains: {
        std::string z = tmp();
        return fmt::format("({{ int {} = {}; (int64_t)(s[{} + {}] == {}); }})", z, Z(k0), l_.card_zone, C(k1), z);
      }
      case NodeOp::seat: return fmt::format("(int64_t)({} + 1)", P(k0));
      case NodeOp::holder: return fmt::format("(int64_t)ICARD[{}]", Z(k0));
      case NodeOp::abs: {
        std::string v = tmp();
        return fmt::format("({{ int64_t {0} = {1}; if ({0} == INT64_MIN) fail(c, kata_overflow, {2}); {0} < 0 ? -{0} : {0}; }})", v,
                           e(k0), n);
      }
      case NodeOp::min_of: return binary_pick(n, "<");
      case NodeOp::max_of: return binary_pick(n, ">");
      case NodeOp::card_at: return card_at(n);
      default: return host_eval(n);  // linked, position, and what cannot be a value
    }
  }

  // A loop over a list node's elements, in list order: `body` runs with `x` bound (an
  // int64_t); in the body, `continue` goes on to the next element.
  std::string each(int n, const std::string& x, const std::string& body) {
    const Node& k = node(n);
    std::string i = tmp();
    switch (k.op) {
      case NodeOp::list_players:
        return fmt::format("for (int {0} = 0; {0} < n; ++{0}) {{ if (s[{1} + {0}]) continue; int64_t {2} = {0}; {3} }}", i,
                           l_.eliminated, x, body);
      case NodeOp::list_all_players:
        return fmt::format("for (int {0} = 0; {0} < n; ++{0}) {{ int64_t {1} = {0}; {2} }}", i, x, body);
      case NodeOp::list_from: {
        if (node(k.kid[0]).op != NodeOp::list_players) break;
        std::string st = tmp(), pv = tmp();
        return fmt::format(
            "{{ int {0} = {1}; for (int {2} = 0; {2} < n; ++{2}) {{ int {3} = {0} + {2}; if ({3} >= n) {3} -= n; if (s[{4} + {3}]) continue; int64_t {5} = {3}; {6} }} }}",
            st, P(k.kid[1]), i, pv, l_.eliminated, x, body);
      }
      case NodeOp::list_values:
        if (p_.value_lists[k.a].empty()) return "{}";
        return fmt::format("for (int64_t {0} : VL{1}) {{ int64_t {2} = {0}; {3} }}", i, k.a, x, body);
      case NodeOp::list_neighbours: {
        if (g_.link_start.empty()) break;
        std::string cv = tmp();
        return fmt::format("{{ int {0} = {1}; for (int {2} = LS[{0}]; {2} < LS[{0} + 1]; ++{2}) {{ int64_t {3} = LT[{2}]; {4} }} }}",
                           cv, C(k.kid[0]), i, x, body);
      }
      case NodeOp::list_range: {
        std::string lo = tmp(), hi = tmp();
        return fmt::format(
            "{{ int64_t {0} = {1}, {2} = {3}; if ({2} - {0} >= 4096) fail(c, kata_long_range, {4}); for (int64_t {5} = {0}; {5} <= {2}; ++{5}) {{ int64_t {6} = {5}; {7} }} }}",
            lo, e(k.kid[0]), hi, e(k.kid[1]), n, i, x, body);
      }
      case NodeOp::list_walk: break;
      default: {
        // A zone: its cards, bottom first.
        std::string z = tmp(), m = tmp();
        return fmt::format(
            "{{ int {0} = {1}; const int32_t* {2}c = s + {3} + {0} * {4}; int {2} = s[{5} + {0}]; for (int {6} = 0; {6} < {2}; ++{6}) {{ int64_t {7} = {2}c[{6}]; {8} }} }}",
            z, Z(n), m, l_.zone_cards, g_.card_count, l_.zone_size, i, x, body);
      }
    }
    // Left to the interpreter: walks, and turn order over a list other than `players`.
    std::string buf = tmp(), m = tmp();
    return fmt::format(
        "{{ int32_t {0}[CC + 16]; int {1} = H.list(c.host, c.s, c.args, c.env, {2}, {3}, {0}, CC + 16, &c.work); for (int {4} = 0; {4} < {1}; ++{4}) {{ int64_t {5} = {0}[{4}]; {6} }} }}",
        buf, m, base_, n, i, x, body);
  }

  std::string aggregate(int n) {
    const Node& k = node(n);
    int domain = k.kid[0], where = k.kid[1], value = k.kid[2];
    std::string slot = tmp(), acc = tmp(), found = tmp(), key = tmp(), x = tmp();
    std::string body = fmt::format("spend(c, {}); c.env[{}] = {};", n, slot, x);
    // Over players, the variable is a seat: reads of it need no check.
    bool was_safe = safe_depths_.count(k.a) > 0;
    if (player_list(node(domain))) safe_depths_.insert(k.a);
    else safe_depths_.erase(k.a);
    if (where >= 0) body += fmt::format(" if (!({})) continue;", e(where));
    switch (k.op) {
      case NodeOp::sum:
        body += fmt::format(" if (__builtin_add_overflow({0}, (int64_t)({1}), &{0})) fail(c, kata_overflow, {2});", acc, e(value), n);
        break;
      case NodeOp::count: body += fmt::format(" ++{};", acc); break;
      case NodeOp::any:
        body += value < 0 ? std::string(" return (int64_t)1;") : fmt::format(" if ({}) return (int64_t)1;", e(value));
        break;
      case NodeOp::all:
        if (value >= 0) body += fmt::format(" if (!({})) return (int64_t)0;", e(value));
        break;
      case NodeOp::find: body += fmt::format(" return {};", x); break;
      default: {
        bool high = k.op == NodeOp::max || k.op == NodeOp::best;
        bool which = k.op == NodeOp::best || k.op == NodeOp::worst;
        std::string v = tmp();
        body += fmt::format(" int64_t {0} = {1}; if (!{2} || {0} {3} {4}) {{ {4} = {0}; {5} = {6}; {2} = true; }}", v,
                            e(value), found, high ? ">" : "<", key, acc, which ? x : v);
      }
    }
    if (was_safe) safe_depths_.insert(k.a);
    else safe_depths_.erase(k.a);
    std::string tail = k.op == NodeOp::all                                                                ? "return (int64_t)1;"
                       : k.op == NodeOp::best || k.op == NodeOp::worst || k.op == NodeOp::find           ? fmt::format("return {} ? {} : (int64_t)-1;", found, acc)
                       : k.op == NodeOp::any                                                              ? "return (int64_t)0;"
                                                                                                         : fmt::format("return {};", acc);
    return fmt::format(
        "[&]() -> int64_t {{ int {0} = {1} + {2}; if ({0} >= 256) fail(c, kata_nested, {3}); int64_t {4} = 0; bool {5} = false; int64_t {6} = 0; (void){5}; (void){6}; {7} {8} }}()",
        slot, base_, k.a, n, acc, found, key, each(domain, x, body), tail);
  }

  std::string call(int n) {
    const Node& k = node(n);
    const Function& f = p_.functions[k.a];
    std::string nb = tmp();
    std::string s = fmt::format("({{ int {0} = {1} + {2}; if ({0} + {3} + 1 >= 256) fail(c, kata_nested_functions, {4}); spend(c, {4});",
                                nb, base_, k.b, f.params, n);
    std::vector<std::string> args;
    for (int i = 0; i < k.kid_count; ++i) {
      args.push_back(tmp());
      s += fmt::format(" int64_t {} = {};", args.back(), e(p_.kids[k.first_kid + i]));
    }
    for (int i = 0; i < k.kid_count; ++i) s += fmt::format(" c.env[{} + {}] = {};", nb, i, args[i]);
    s += fmt::format(" F{}(c, {}); }})", k.a, nb);
    return s;
  }

  // Whether a node's value always fits in an int32 slot, so storing it needs no check: a
  // constant or a slot of the state read as it is, a truth value, a card or a zone.
  bool fits_int32(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::constant: case NodeOp::option: case NodeOp::global: case NodeOp::local: case NodeOp::arg:
      case NodeOp::player_var: case NodeOp::player_var_local: case NodeOp::player_var_bound: case NodeOp::player_var_arg:
      case NodeOp::card_var: case NodeOp::card_var_local: case NodeOp::card_var_bound: case NodeOp::card_var_arg:
      case NodeOp::zone: case NodeOp::zone_of: case NodeOp::zone_of_local: case NodeOp::zone_of_bound: case NodeOp::zone_of_arg:
      case NodeOp::not_: case NodeOp::eq: case NodeOp::ne: case NodeOp::lt: case NodeOp::le: case NodeOp::gt: case NodeOp::ge:
      case NodeOp::and_: case NodeOp::or_: case NodeOp::any: case NodeOp::all: case NodeOp::count:
      case NodeOp::player_count: case NodeOp::top: case NodeOp::bottom: case NodeOp::size: case NodeOp::next_player:
      case NodeOp::left: case NodeOp::right: case NodeOp::alive: case NodeOp::sees: case NodeOp::face_up:
      case NodeOp::zone_owner: case NodeOp::card_zone: case NodeOp::contains: case NodeOp::seat: case NodeOp::holder:
      case NodeOp::card_owner: case NodeOp::card_zone_of: return true;
      case NodeOp::cond: return fits_int32(k.kid[1]) && fits_int32(k.kid[2]);
      case NodeOp::min_of: case NodeOp::max_of: return fits_int32(k.kid[0]) && fits_int32(k.kid[1]);
      default: return false;
    }
  }
  // `v` narrowed to a slot, checked unless node `n` always fits.
  std::string narrowed(int n, const std::string& v, int pc) {
    if (fits_int32(n)) return fmt::format("(int32_t)({})", v);
    return fmt::format("narrow(c, {}, {})", v, pc);
  }

  // Whether `each` reads a list node as a zone's cards.
  bool is_zone_list(int n) const {
    switch (node(n).op) {
      case NodeOp::list_players:
      case NodeOp::list_all_players:
      case NodeOp::list_from:
      case NodeOp::list_values:
      case NodeOp::list_neighbours:
      case NodeOp::list_range:
      case NodeOp::list_walk: return false;
      default: return true;
    }
  }

  // ---- instructions ----
  std::string step(int pc) { return fmt::format("if (++steps > BUDGET) fail(c, kata_steps, {});", pc); }
  static int face(const Instr& in) { return in.c; }

  void run() {
    // Where a run can start or come back to: the flow, the actions, and the instruction
    // after each choose, call and phase.
    entries_ = {p_.flow_entry};
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      Op op = p_.code[pc].op;
      if (op == Op::choose || op == Op::call || op == Op::phase) entries_.insert(static_cast<int>(pc) + 1);
    }
    // The return addresses each return slot can hold: after each call or phase of its
    // procedure, and after each choose that offers its action.
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      const Instr& in = p_.code[pc];
      if (in.op == Op::call || in.op == Op::phase) returns_[p_.procedures[in.a].ret_slot].insert(static_cast<int>(pc) + 1);
      if (in.op == Op::choose)
        for (int a : p_.sites[in.b].actions) returns_[p_.actions[a].ret_slot].insert(static_cast<int>(pc) + 1);
    }
    out_ += machine(false);
  }

  // Whether a decision of the site may be a blind pick (may_pick_blind), which the host
  // makes (KataHost::pick).
  bool offers_blind(const ChoiceSite& site) const {
    for (int a : site.actions)
      for (const Param& p : p_.actions[a].params)
        if (may_pick_blind(g_, p)) return true;
    return false;
  }

  // The draw at a site that may offer blind picks. The host (native_pick) first asks
  // whether any decision listed is one (any_blind); when none is, it draws among them
  // uniformly. Most of the time the cards are seen for reasons quick to test (face up,
  // known to the chooser, in no zone), as blind_zone_of tests first: then the draw is made
  // here, as the host would make it, and the host is asked only otherwise.
  std::string blind_or_uniform(const ChoiceSite& site) const {
    std::string tests;
    for (int a : site.actions) {
      std::string seen;
      const std::vector<Param>& params = p_.actions[a].params;
      for (size_t k = 0; k < params.size(); ++k)
        if (may_pick_blind(g_, params[k])) seen += fmt::format(" if (!seen(o[{}])) return true;", k + 1);
      if (!seen.empty()) tests += fmt::format(" if (o[0] == {}) {{{} continue; }}", a, seen);
    }
    return fmt::format(
        R"({{ const int ch = s[CHOOSER];
  auto seen = [&](int32_t k) {{ return k < 0 || k >= CC || s[{} + k] < 0 || s[{} + k] != 0 || ((s[{} + k] >> ch) & 1) != 0; }};
  bool may_be_blind = [&]() {{ for (int i = 0; i < count; ++i) {{ const int32_t* o = list + 5 * i;{} }} return false; }}();
  if (may_be_blind) {{ H.pick(c.host, s, list, count, rngp, picked); d = picked; }} else d = list + 5 * uniform(*rngp, (uint32_t)count); }})",
        l_.card_zone, l_.card_face, l_.card_known, tests);
  }

  // The instruction loop. As kata_run, it runs from the state's pc (or from a decision's
  // action) to the next choose. Fused (kata_playout, after kata_legal), it plays a random
  // game to its end: each choose lists the legal decisions, draws one with the rng, binds
  // it and goes on, as random_playout's loop of legal_decisions and apply would.
  std::string machine(bool fused) {
    fused_ = fused;
    std::string body;
    if (!fused) {
      body += "extern \"C\" KATA_EXPORT void kata_run(KataCtx* cp, const int32_t* d) {\n  KataCtx& c = *cp;\n  int32_t* s = c.s;\n  const int n = c.n;\n  int64_t steps = 0;\n  c.work = BUDGET;\n  int pc = s[PC];\n  if (d) goto bind;\n  goto dispatch;\n";
    } else {
      body += R"(extern "C" KATA_EXPORT void kata_playout(KataCtx* cp, uint64_t* rngp) {
  KataCtx& c = *cp;
  int32_t* s = c.s;
  const int n = c.n;
  int64_t steps = 0;
  int pc = s[PC];
  int32_t small[5 * 64];
  int32_t picked[5];
  (void)picked;
  std::vector<int32_t> large;
  const int32_t* d = nullptr;
  int32_t* list = small;
  int count = 0;
  if (s[STATUS] != 1) return;
  switch (s[SITE]) {
)";
      for (size_t site = 0; site < p_.sites.size(); ++site) body += fmt::format("    case {0}: goto decide{0};\n", site);
      body += "    default: __builtin_trap();\n  }\n";
      // Each site's decisions listed where its choose stands (kata_legal's code for it).
      for (size_t site = 0; site < p_.sites.size(); ++site) {
        body += fmt::format(R"(decide{0}: {{
  int32_t* out = small;
  int cap = 64, cnt;
  for (;;) {{
    cnt = 0;
    c.args[0] = s[CHOOSER];
    c.work = BUDGET;
    {4}
{1}    if (cnt <= cap) break;
    large.resize(5 * (std::size_t)cnt);
    out = large.data();
    cap = cnt;
  }}
  list = out;
  count = cnt;
}}
  if (count == 0) fail(c, kata_no_legal, s[SITE]);
  {5}
  if (++s[{2}] > {3}) fail(c, kata_too_many_decisions, s[SITE]);
  steps = 0;  // counted afresh after each decision, as each apply counts them
  c.work = BUDGET;
)",
                            site, site_listing(site), Layout::decisions, g_.max_decisions, when_start(),
                            offers_blind(p_.sites[site]) ? blind_or_uniform(p_.sites[site])
                                                         : "d = list + 5 * uniform(*rngp, (uint32_t)count);");
        // The site's few actions tested in turn: better predicted than one indirect jump.
        const std::vector<int32_t>& acts = p_.sites[site].actions;
        for (size_t i = 0; i + 1 < acts.size(); ++i) body += fmt::format("  if (d[0] == {0}) goto B{0};\n", acts[i]);
        body += acts.empty() ? "  __builtin_trap();\n" : fmt::format("  goto B{};\n", acts.back());
      }
    }
    // A decision: its chooser and parameters into the action's locals (apply() in machine.cpp).
    if (!fused) {
      body += "bind:\n  switch (d[0]) {\n";
      for (size_t a = 0; a < p_.actions.size(); ++a) body += fmt::format("    case {0}: goto B{0};\n", a);
      body += "    default: __builtin_trap();\n  }\n";
    }
    for (size_t a = 0; a < p_.actions.size(); ++a) {
      const Action& act = p_.actions[a];
      body += fmt::format("B{}: s[{}] = s[CHOOSER];", a, l_.locals + act.player_slot);
      for (size_t k = 0; k < act.params.size(); ++k) body += fmt::format(" s[{}] = d[{}];", l_.locals + act.params[k].slot, k + 1);
      body += fmt::format(" s[{}] = s[PC]; s[PC] = {}; s[STATUS] = 0; goto I{};\n", l_.locals + act.ret_slot, act.entry, act.entry);
    }
    body += "dispatch:\n  switch (pc) {\n";
    for (int pc : entries_)
      if (pc < static_cast<int>(p_.code.size())) body += fmt::format("    case {0}: goto I{0};\n", pc);
    body += "    default: __builtin_trap();\n  }\n";
    for (size_t pc = 0; pc < p_.code.size(); ++pc) body += fmt::format("I{}: {}\n", pc, instr(static_cast<int>(pc)));
    body += "finish:\n" + finish() + "\n}\n";
    return body;
  }

  std::string instr(int pc) {
    const Instr& in = p_.code[pc];
    int L = l_.locals;
    switch (in.op) {
      case Op::assign: {
        std::string slot;
        if (in.a == 0) slot = fmt::format("s + {}", l_.globals + in.b);
        else if (in.a == 1) slot = fmt::format("s + {} + {}", l_.player_vars + in.b * g_.max_players, P(in.d));
        else if (in.a == 3) slot = fmt::format("s + {}", card_var_slot(in.d));
        else slot = fmt::format("s + {}", L + in.b);
        std::string v = fmt::format("{}", e(in.c));
        const char* op = in.e == 1 ? "*slot + " : in.e == 2 ? "*slot - " : "";
        if (in.e == 0 && fits_int32(in.c)) return fmt::format("{{ int32_t* slot = {}; *slot = (int32_t)({}); }}", slot, v);
        return fmt::format("{{ int32_t* slot = {}; int64_t v = {}({}); *slot = narrow(c, v, {}); }}", slot, op, v, pc);
      }
      case Op::move: {
        if (in.d != 2)
          return fmt::format("{{ int card = {}; int z = {}; move_card(s, n, card, z, {}, {}); }}", C(in.a), Z(in.b), face(in),
                             in.d == 1 ? 0 : -1);
        return fmt::format(
            "{{ int card = {}; int z = {}; int64_t k = {}; int room = s[{} + z] + (s[{} + card] == z ? 0 : 1); if (k < 1 || k > room) fail(c, kata_bad_position, {}, k, ((int64_t)z << 32) | room); move_card(s, n, card, z, {}, (int)k - 1); }}",
            C(in.a), Z(in.b), e(in.e), l_.zone_size, l_.card_zone, pc, face(in));
      }
      case Op::move_all: {
        std::string x = tmp();
        if (is_zone_list(in.a))  // at most every card: a buffer on the stack
          return fmt::format(
              "{{ int32_t buf[CC]; int k = 0; {} int z = {}; for (int i = 0; i < k; ++i) move_card(s, n, buf[i], z, {}, {}); }}",
              each(in.a, x, fmt::format("buf[k++] = (int32_t){};", x)), Z(in.b), face(in), in.d == 1 ? 0 : -1);
        return fmt::format(
            "{{ std::vector<int32_t> buf; {} int z = {}; for (int32_t card : buf) move_card(s, n, card, z, {}, {}); }}",
            each(in.a, x, fmt::format("buf.push_back((int32_t){});", x)), Z(in.b), face(in), in.d == 1 ? 0 : -1);
      }
      case Op::shuffle: return fmt::format("shuffle(s, {});", Z(in.a));
      case Op::flip: return fmt::format("flip(s, n, {}, {});", C(in.a), in.c);
      case Op::reveal: return fmt::format("s[{} + {}] = (int32_t)((1u << n) - 1) | PUBLIC;", l_.card_known, C(in.a));
      case Op::look:
        return fmt::format("{{ int p = {}; int card = {}; s[{} + card] |= (int32_t)(1u << p); }}", P(in.a), C(in.b),
                           l_.card_known);
      case Op::eliminate: return fmt::format("s[{} + {}] = 1;", l_.eliminated, P(in.a));
      case Op::jump: return fmt::format("{} goto I{};", step(pc), in.a);
      case Op::jump_if_not: return fmt::format("if (!({})) goto I{};", e(in.a), in.b);
      case Op::for_init: {
        const Loop& l = p_.loops[in.a];
        std::string x = tmp();
        std::string s = fmt::format("{{ int k = 0; int32_t* buf = s + {}; {}", L + l.buffer_slot,
                                    each(l.list_node, x,
                                         // A list of players never holds more than the seats.
                                         player_list(node(l.list_node)) && l.capacity >= g_.max_players
                                             ? fmt::format("buf[k++] = (int32_t){};", x)
                                             : fmt::format("if (k >= {}) fail(c, kata_long_loop, {}, {}); buf[k++] = (int32_t){};",
                                                           l.capacity, l.list_node, l.capacity, x)));
        if (l.where_node >= 0)
          s += fmt::format(" int kept = 0; for (int i = 0; i < k; ++i) {{ s[{}] = buf[i]; if ({}) buf[kept++] = buf[i]; }} k = kept;",
                           L + l.var_slot, e(l.where_node));
        s += fmt::format(" s[{}] = k; s[{}] = 0; }}", L + l.count_slot, L + l.index_slot);
        return s;
      }
      case Op::for_next: {
        const Loop& l = p_.loops[in.a];
        return fmt::format("{{ int32_t& ix = s[{}]; if (ix >= s[{}]) goto I{}; s[{}] = s[{} + ix++]; }}", L + l.index_slot,
                           L + l.count_slot, in.b, L + l.var_slot, L + l.buffer_slot);
      }
      case Op::repeat_init: return fmt::format("s[{}] = {};", L + in.b, narrowed(in.a, e(in.a), pc));
      case Op::repeat_next: return fmt::format("if (s[{0}] <= 0) goto I{1}; --s[{0}];", L + in.a, in.b);
      case Op::choose:
        return fmt::format("s[CHOOSER] = {}; s[SITE] = {}; s[STATUS] = 1; s[PC] = {}; {}", P(in.a), in.b, pc + 1,
                           fused_ ? fmt::format("goto decide{};", in.b) : "return;");
      case Op::call: {
        const Procedure& proc = p_.procedures[in.a];
        std::string s = step(pc);
        for (size_t i = 0; i < proc.param_slots.size(); ++i)
          s += fmt::format(" s[{}] = {};", L + proc.param_slots[i], narrowed(p_.kids[in.b + i], e(p_.kids[in.b + i]), pc));
        s += fmt::format(" s[{}] = {}; goto I{};", L + proc.ret_slot, pc + 1, proc.entry);
        return s;
      }
      case Op::ret: {
        // Where this return can go, tested in turn: direct jumps, which the processor
        // predicts far better than the dispatch's one indirect jump.
        std::string r = fmt::format("{{ int r = s[{}];", L + in.a);
        auto t = returns_.find(in.a);
        if (t != returns_.end() && t->second.size() <= 4)
          for (int target : t->second) r += fmt::format(" if (r == {0}) goto I{0};", target);
        return r + " pc = r; goto dispatch; }";
      }
      case Op::phase: {
        const Procedure& proc = p_.procedures[in.a];
        return fmt::format("{} s[PHASE] = {}; s[{}] = {}; goto I{};", step(pc), in.b, L + proc.ret_slot, pc + 1, proc.entry);
      }
      case Op::win: {
        std::string x = tmp();
        std::string mask = in.b ? fmt::format("uint32_t mask = 0; {}",
                                              each(in.a, x, fmt::format("mask |= 1u << {};", x)))
                                : fmt::format(
                                      "int64_t {0} = {1}; uint32_t mask = {0} == -1 ? 0u : 1u << "
                                      "chkP(c, n, {0}, {2});",
                                      x, e(in.a), in.a);
        return fmt::format("{{ {} s[WINNERS] = (int32_t)mask; s[STATUS] = 2; return; }}", mask);
      }
      case Op::end_game:
      case Op::halt: return "goto finish;";
      // Compiled code runs only where no event is recorded: a message is said to nobody,
      // and its values, which change nothing, are not worked out (Machine::say).
      case Op::say: return ";";
    }
    return "__builtin_trap();";
  }

  // The end of the flow: each player's score and tie-breaks, the best of them among the
  // players still in (everyone, if nobody is), and their holders win (Machine::finish).
  std::string finish() {
    if (g_.score_node < 0) return "  s[STATUS] = 2; s[WINNERS] = 0; return;";
    size_t keys = 1 + g_.tiebreak_nodes.size();
    std::string f = fmt::format("  s[STATUS] = 2;\n  int64_t key[MP][{}];\n  for (int p = 0; p < n; ++p) {{\n    c.env[0] = p;\n", keys);
    f += fmt::format("    key[p][0] = {};\n", e(g_.score_node));
    for (size_t t = 0; t < g_.tiebreak_nodes.size(); ++t) f += fmt::format("    key[p][{}] = {};\n", t + 1, e(g_.tiebreak_nodes[t]));
    if (g_.lowest_wins) f += "    key[p][0] = -key[p][0];\n";
    f += "  }\n";
    f += fmt::format(R"(  bool anyone = false;
  for (int p = 0; p < n; ++p) anyone |= !s[{0} + p];
  auto cmp = [&](int a, int b) {{
    for (int k = 0; k < {1}; ++k)
      if (key[a][k] != key[b][k]) return key[a][k] < key[b][k] ? -1 : 1;
    return 0;
  }};
  int best = -1;
  for (int p = 0; p < n; ++p)
    if ((!anyone || !s[{0} + p]) && (best < 0 || cmp(p, best) > 0)) best = p;
  uint32_t mask = 0;
  for (int p = 0; p < n; ++p)
    if ((!anyone || !s[{0} + p]) && cmp(p, best) == 0) mask |= 1u << p;
  s[WINNERS] = (int32_t)mask;
  return;)",
                     l_.eliminated, keys);
    return f;
  }

  // ---- legal decisions ----
  // The decisions of one action from parameter k on (enumerate() in runtime/legal.cpp).
  std::string level(const Action& act, int a, size_t k) {
    // The chooser, and the parameters chosen so far among players, are seats. (Code
    // written later for an earlier level never reads the later arguments.)
    safe_args_ = {0};
    for (size_t j = 0; j < k; ++j)
      if (player_list(node(act.params[j].domain_node))) safe_args_.insert(static_cast<int>(j) + 1);
    std::string s = "[&]() {";
    for (size_t i = 0; i < act.when_nodes.size(); ++i)
      if (act.when_level[i] == static_cast<int32_t>(k)) s += " " + when(act, i);
    if (k == act.params.size()) {
      s += fmt::format(" if (cnt < cap) {{ int32_t* o = out + 5 * cnt; o[0] = {}; o[1] = d[0]; o[2] = d[1]; o[3] = d[2]; o[4] = d[3]; }}"
                       " if (cnt == {}) fail(c, kata_too_many_legal, s[SITE]); ++cnt;", a, max_legal_decisions);
    } else {
      std::string x = tmp();
      s += " " + each(act.params[k].domain_node, x,
                      fmt::format("c.args[{}] = d[{}] = (int32_t){}; {};", k + 1, k, x, level(act, a, k + 1)));
    }
    return s + " }()";
  }

  // A `when` tested while decisions are listed: `return` if it fails. One that reads only its
  // last parameter is worked out once for each value of it in a listing (cached() in
  // runtime/legal.cpp), so that it spends the expressions' budget as the interpreter does; WV
  // holds its values (2: not worked out yet).
  std::string when(const Action& act, size_t i) {
    std::string test = e(act.when_nodes[i]);
    if (act.when_cache[i] < 0) return fmt::format("if (!({})) return;", test);
    int32_t level = act.when_level[i];
    int count = act.params[level - 1].type == Type::card ? g_.card_count : g_.max_players;
    return fmt::format(
        "{{ int32_t x = c.args[{0}]; if (x < 0 || x >= {1}) {{ if (!({2})) return; }} else {{ uint8_t& w = WV[{3} + x]; if (w == 2) w = ({2}) != 0; if (!w) return; }} }}",
        level, count, test, act.when_cache[i]);
  }
  // The start of a listing: room for the values of the `when`s kept, none worked out. (On
  // the stack, or the heap if large; not in thread_local storage, whose destructors would
  // keep the library from being unloaded.)
  std::string when_start() const {
    int32_t size = p_.when_cache_size;
    if (size == 0) return "";
    if (size <= 16384) return fmt::format("uint8_t WV[{0}]; __builtin_memset(WV, 2, {0});", size);
    return fmt::format("std::vector<uint8_t> WVV({}, 2); uint8_t* WV = WVV.data();", size);
  }

  // The decisions of one choice site, into `out` (room for `cap`), counted in `cnt` (which
  // may pass `cap`: the caller then asks again with more room).
  std::string site_listing(size_t site) {
    std::string body;
    for (int a : p_.sites[site].actions) {
      const Action& act = p_.actions[a];
      body += "      { int32_t d[4] = {0, 0, 0, 0}; (void)d; " + level(act, a, 0) + "; }\n";
    }
    safe_args_.clear();
    return body;
  }

  void legal() {
    std::string body =
        "extern \"C\" KATA_EXPORT int kata_legal(KataCtx* cp, int32_t* out, int cap) {\n  KataCtx& c = *cp;\n  int32_t* s = c.s;\n  const int n = c.n;\n  int cnt = 0;\n  c.args[0] = s[CHOOSER];\n  c.work = BUDGET;\n  " +
        when_start() + "\n  switch (s[SITE]) {\n";
    for (size_t site = 0; site < p_.sites.size(); ++site)
      body += fmt::format("    case {}: {{\n{}      break;\n    }}\n", site, site_listing(site));
    body += "  }\n  return cnt;\n}\n";
    out_ += body;
  }

  // A whole game from here, each decision drawn uniformly among the legal ones with `rng`
  // (the loop of random_playout in agents/runner.cpp, and its checks, without leaving
  // compiled code between decisions).
  void playout() { out_ += machine(true); }

  const Game& g_;
  const Program& p_;
  const Layout& l_;
  std::string out_;
  std::map<int, std::set<int>> returns_;  // return slot -> the instructions it may return to
  std::set<int> entries_;  // where a run can start or come back to
  bool fused_ = false;     // writing kata_playout
  std::set<int> safe_locals_, safe_depths_, safe_args_;  // see safe_player
  std::string base_ = "0";
  int next_ = 0;
  size_t limit_;          // the most the source may hold
  size_t written_ = 0;    // by expressions so far, each node's own text counted once
  size_t operands_ = 0;   // the text of the operands of the node being written
};

}  // namespace

std::string native_source(const Game& g) { return Generator(g, SIZE_MAX).source(); }

std::string native_source(const Game& g, std::string& error, Pos& where, size_t limit) {
  try {
    return Generator(g, limit).source();
  } catch (const TooLarge& t) {
    where = t.node >= 0 ? g.program.node_pos[t.node] : Pos{};
    std::string size = limit % 1024 == 0 ? fmt::format("{} KiB", limit >> 10) : fmt::format("{} bytes", limit);
    error = t.node >= 0 ? fmt::format("the C++ that compiled mode writes for this rule file passes {} (its limit) here; "
                                      "run it without --compiled, or write this expression (or the functions it calls) shorter",
                                      size)
                        : fmt::format("the C++ that compiled mode writes for this rule file passes {} (its limit): its "
                                      "tables and instructions; run it without --compiled",
                                      size);
    return {};
  }
}

}  // namespace kata
