// The compiled program of a Game written out as C++: one function runs the instructions
// (each instruction a label, each jump a goto), one lists the legal decisions, and every
// expression is a C++ expression. The translation follows the interpreter (runtime/evaluator.hpp, machine.cpp) case for case, in
// the same order of evaluation and with the same checks, so a compiled game runs exactly
// as the interpreter runs it; what it does not translate (rare nodes, like `walk`) it
// hands back to the interpreter through KataCtx::eval and KataCtx::list. A large program
// is written in chunks and parts instead (find_chunks, parts()), for the system's compiler
// to take in parallel, with nothing written twice.
//
// Nothing of the rule file's text reaches the source: only numbers (indices, constants and
// the game's tables), so an untrusted rule file cannot inject code.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include "native/native.hpp"
#include "runtime/engine.hpp"

namespace kata {

namespace {

// The helpers every generated file starts with, after its tables and the kernel
// (runtime/kernel.hpp: the random generator, checked arithmetic, visibility, moving,
// turning and shuffling cards, the interpreter's own text). They are the interpreter's,
// over the same layout.
constexpr const char* prelude = R"(
// Only the four entry points are exported: calls among them, and between the parts the
// source is compiled in, stay direct, not through the procedure linkage table.
#define KATA_EXPORT __attribute__((visibility("default")))
#define KATA_LOCAL __attribute__((visibility("hidden")))
extern KATA_LOCAL KataHost H;
[[noreturn, gnu::cold, gnu::noinline]] static void fail(KataCtx& c, int kind, int where, int64_t a = 0, int64_t b = 0) {
  H.fail(c.host, c.s, kind, where, a, b);
  __builtin_unreachable();
}
// The owner of each zone's top card, kept in kata_playout alone (kept_sets()); code that
// reads it (`tw_on ? ... : ...`) takes its other branch everywhere else.
static constexpr bool tw_on = false;
static const int8_t* const tw = nullptr;
static inline int chkP(KataCtx& c, int n, int64_t p, int node) {
  if (__builtin_expect(p < 0 || p >= n, 0)) fail(c, kata_bad_player, node, p);
  return (int)p;
}
// A card read from a zone's list: a zone holds cards only (the kernel's invariant), which
// the compiler is told, so that the checks of a card it reads there fold away.
static inline int64_t zc(int32_t v) {
  if (v < 0 || v >= CC) __builtin_unreachable();
  return v;
}
static inline int chkC(KataCtx& c, int64_t x, int node) {
  if (__builtin_expect(x < 0 || x >= CC, 0)) fail(c, kata_bad_card, node);
  return (int)x;
}
static inline int chkK(KataCtx& c, int x, int kind, int node) {
  if (__builtin_expect(KIND[x] != kind, 0)) fail(c, kata_bad_kind, node, kind);
  return x;
}
// chkK(chkC(x)) for a kind whose cards are first..last (each kind's cards are numbered
// together): two comparisons the compiler can fold where it knows the card's range.
static inline int chkCK(KataCtx& c, int64_t x, int first, int last, int kind, int node) {
  if (__builtin_expect(x < 0 || x >= CC, 0)) fail(c, kata_bad_card, node);
  if (__builtin_expect(x < first || x > last, 0)) fail(c, kata_bad_kind, node, kind);
  return (int)x;
}
// The same for a value its range keeps at or below the kind's last card (none, or a card
// of this kind or one numbered before it): only the lower bounds are tested, which the
// compiler folds where it knows the value is not negative (a byte read from a table).
static inline int chkCKlo(KataCtx& c, int64_t x, int first, int kind, int node) {
  if (__builtin_expect(x < 0, 0)) fail(c, kata_bad_card, node);
  if (__builtin_expect(x < first, 0)) fail(c, kata_bad_kind, node, kind);
  return (int)x;
}
static inline int chkZ(KataCtx& c, int n, int64_t z, int node) {
  if (__builtin_expect(z < 0 || z >= NI || IOWNER[z] >= n, 0)) fail(c, kata_bad_zone, node, z);
  return (int)z;
}
// One step of the expressions' budget (Evaluator::spend): each round of an aggregate and
// each call of a function, counted from BUDGET anew for each run and each listing. W, the
// budget left, is a local of the entry point that runs (kata_run, kata_legal and
// kata_playout, written whole), which its functions are handed by reference: the compiler
// keeps it in a register, where c.work was written back to memory at every step. Code
// written in chunks shares c.work (W is then a reference to it), and so do the host's
// evaluations (host_eval: W handed over and taken back).
static inline void spend(KataCtx& c, int64_t& W, int node) {
  if (__builtin_expect(--W < 0, 0)) fail(c, kata_work, node);
}
static inline int32_t narrow(KataCtx& c, int64_t v, int instr) {
  if (__builtin_expect(!fits_slot(v), 0)) fail(c, kata_too_large, instr, v);
  return (int32_t)v;
}
// What the kernel's checked arithmetic found wrong (Evaluator::arithmetic).
[[noreturn, gnu::cold, gnu::noinline]] static void arithmetic(KataCtx& c, int fault, int node) {
  fail(c, fault == 2 ? kata_bad_division : kata_overflow, node);
}
// A whole shuffle: where compiled code runs, no shuffle is fixed (Machine::shuffle). Out of
// line: a loop of draws that, inlined into a playout's one function, costs it registers
// everywhere else (2 % more instructions a playout of a card game that shuffles each round).
[[gnu::noinline]] static void shuffle(int32_t* s, int z) {
  shuffle_draw(T, s, z);
  shuffle_end(T, s, z);
}
// The bits set in x (set_level's counts): popcnt where the compiler may use it, else in
// registers (no call to the runtime library's).
static inline int kata_pop64(uint64_t x) {
#if defined(__POPCNT__)
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}
// Bit i set where z[i] == 0, for i < n <= 64 (a set of empty zones, set_level): sixteen
// at a time where SSE2 is (zone sizes are never negative, so packing them keeps zero and
// non-zero apart).
static inline uint64_t kata_zero_bits(const int32_t* z, int n) {
  uint64_t m = 0;
  int i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i* v = reinterpret_cast<const __m128i*>(z + i);
    __m128i a = _mm_packs_epi32(_mm_loadu_si128(v), _mm_loadu_si128(v + 1));
    __m128i b = _mm_packs_epi32(_mm_loadu_si128(v + 2), _mm_loadu_si128(v + 3));
    m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_packs_epi16(a, b), zero)) << i;
  }
#endif
  for (; i < n; ++i) m |= (uint64_t)(z[i] == 0) << i;
  return m;
}
// A buffer on the heap, freed when its scope is left, by a failure too (std::vector's
// header alone would add a quarter of a second to each compilation).
template <class V> struct Heap {
  V* p = nullptr;
  size_t size = 0, room = 0;
  Heap() = default;
  Heap(size_t n, V v) { resize(n); for (size_t i = 0; i < n; ++i) p[i] = v; }
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;
  ~Heap() { std::free(p); }
  V* data() { return p; }
  V* begin() { return p; }
  V* end() { return p + size; }
  void reserve(size_t n) {
    if (n <= room) return;
    V* q = static_cast<V*>(std::realloc(p, n * sizeof(V)));
    if (!q) throw std::bad_alloc();
    p = q;
    room = n;
  }
  void resize(size_t n) { reserve(n); size = n; }
  void push_back(V v) { reserve(size < room ? room : 2 * room + 16); p[size++] = v; }
};
)";

// Thrown when the source passes its limit: at expression node `node`, or -1 (elsewhere).
struct TooLarge {
  int node;
};

// An interval holding every value an expression can have (by default, all of int64).
struct Range {
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  bool operator==(const Range&) const = default;
};

class Generator {
 public:
  Generator(const Game& g, size_t limit) : g_(g), p_(g.program), l_(g.layout), limit_(limit) {}

  // The whole source, or TooLarge thrown as soon as it passes the limit.
  std::string source() {
    out_ = "// Generated by kata from a compiled rule file; see interpreter/native/codegen.cpp.\n";
    out_ += "#include <cstdint>\n#include <climits>\n#include <cstdlib>\n#include <new>\n#if defined(__SSE2__)\n#include <emmintrin.h>\n#endif\n";
    out_ += KATA_NATIVE_ABI_TEXT;
    out_ += "\n";
    tables();
    out_ += KATA_KERNEL_TEXT;
    out_ += "\n";
    out_ += prelude;
    find_safe_locals();
    find_param_ranges();
    find_kept_tops();
    size_t padded_at = out_.size();  // (the padded lookup tables, once all are made: card_at)
    for (size_t f = 0; f < p_.functions.size(); ++f) {
      out_ += fmt::format("static inline int64_t F{}({});\n", f, signature(f));
      if (needs_tops_[f]) out_ += fmt::format("static inline int64_t G{}({});\n", f, signature(f, true));
    }
    for (size_t f = 0; f < p_.functions.size(); ++f) function(f);
    base_ = "0";
    names_.clear();
    ranges_.clear();
    in_function_ = false;
    run();
    if (chunked_) {
      legal();
      parts(driver());
    } else {
      units_ = {machine(false) + whole_legal()};
      parts(std::string(init) + machine(true));
    }
    out_.insert(padded_at, padded_);
    if (out_.size() > limit_) throw TooLarge{-1};
    return out_;
  }

 private:
  // ---- functions ----
  // A function's arguments are C++ parameters, and so are the variables of its
  // aggregates: C++ locals the compiler keeps in registers. Only where a node of the body
  // is handed back to the interpreter, which reads the frame (c.env), are they written
  // there too, as the interpreter would have them (Evaluator::call, aggregate).
  std::string signature(size_t f, bool tops = false) const {
    std::string sig = tops ? "KataCtx& c, int64_t& W, const int8_t* tw, int base" : "KataCtx& c, int64_t& W, int base";
    for (int i = 0; i < p_.functions[f].params; ++i) sig += fmt::format(", int64_t a{}", i);
    return sig;
  }
  void function(size_t f) {
    const Function& fn = p_.functions[f];
    base_ = "base";
    in_function_ = true;
    names_.clear();
    ranges_.clear();
    for (int i = 0; i < fn.params; ++i) {
      names_[i] = fmt::format("a{}", i);
      const Range& r = params_[f][static_cast<size_t>(i)];
      // (never called from compiled code, or assigned by its statements: unknown)
      if (r.lo <= r.hi && !assigned_[f].count(i)) ranges_[i] = r;
    }
    frame_ = fn.body >= 0 && hands_back(fn.body, false);
    std::string bind;
    if (frame_)
      for (int i = 0; i < fn.params; ++i) bind += fmt::format(" c.env[base + {0}] = a{0};", i);
    // Its statements' `let`s and `for` variables are C++ locals too, where no node is
    // handed back (which would read them in the frame).
    if (!frame_ && fn.body >= 0) {
      std::set<int> depths;
      find_assigned(fn.body, depths, true);
      std::set<int> lets;
      for (int d : depths)
        if (d >= fn.params) {
          names_[d] = fmt::format("v{}", d);
          bind += fmt::format(" int64_t v{} = 0; (void)v{};", d, d);
          lets.insert(d);
        }
      find_local_ranges(fn.body, lets);
    }
    std::string body = fn.body >= 0 ? e(fn.body) : "0";
    // A leaf (counted_loop): nothing in its body can fail (no check, checked arithmetic or
    // narrowing), spend, call or hand a node back.
    bool leaf = fn.body >= 0 && !frame_;
    for (const char* what : {"fail(", "chk", "arithmetic(", "narrow(", "spend(", "(c, W", "H.", "__builtin_trap"})
      leaf = leaf && body.find(what) == std::string::npos;
    if (leaf) leaf_functions_.insert(static_cast<int>(f));
    // What it returns, for its callers' checks (functions are written in order: a call of
    // one not written yet, a recursion among them, has no range).
    results_[f] = fn.body >= 0 ? range(fn.body) : span(0, 0);
    out_ += fmt::format("static inline int64_t F{}({}) {{\n  int32_t* s = c.s; const int n = c.n; (void)s; (void)n; (void)base;{}\n  return {};\n}}\n",
                        f, signature(f), bind, body);
    // The same body where the kept tops are (kata_playout's calls): G<f>.
    if (needs_tops_[f])
      out_ += fmt::format(
          "static inline int64_t G{}({}) {{\n  constexpr bool tw_on = true; int32_t* s = c.s; const int n = c.n; (void)s; (void)n; (void)base;{}\n  return {};\n}}\n",
          f, signature(f, true), bind, body);
  }

  // ---- the owners of zones' tops, kept through a playout ----
  // `size(Z) > 0 and top(Z).owner == E` (nonempty_and) reads three slots one after the
  // other: Z's size, its top card, that card's owner. kata_playout written whole keeps the
  // owner of each zone's top card instead (tw[zone], -128 for an empty zone), worked out
  // when the playout starts and again for the zones a move leaves and enters (the markers
  // the owner sets use, @U, @V and @O), so the test is one byte read and compared. Other
  // entry points keep none (tw_on false): the same test, the same answer. A function that
  // holds such a test, or calls one that does, is written twice: F<f>, and G<f> that is
  // handed the kept tops (call()).
  // Which side of equality `test` is the owner of Z's top, against an operand that reads no
  // zone (an argument, a local, a variable, an option or a constant); -1 if it is not such
  // an equality.
  int kept_top_side(int test, int zone) const {
    const Node& k = node(test);
    if (k.op != NodeOp::eq) return -1;
    for (int side = 0; side < 2; ++side) {
      const Node& x = node(k.kid[side]);
      if (x.op != NodeOp::card_owner || node(x.kid[0]).op != NodeOp::top || !same_node(node(x.kid[0]).kid[0], zone)) continue;
      switch (node(k.kid[1 - side]).op) {
        case NodeOp::arg: case NodeOp::constant: case NodeOp::local: case NodeOp::global: case NodeOp::option:
        case NodeOp::bound: return side;
        default: break;
      }
    }
    return -1;
  }
  void find_kept_tops() {
    size_t fs = p_.functions.size();
    needs_tops_.assign(fs, false);
    tops_ = false;
    if (g_.max_players > 100 || g_.card_count == 0) return;
    auto test = [&](int n) {
      const Node& k = node(n);
      if (k.op != NodeOp::and_) return false;
      int sized = node(k.kid[0]).op == NodeOp::and_ ? node(k.kid[0]).kid[1] : k.kid[0];
      int zone = size_test(sized);
      return zone >= 0 && kept_top_side(k.kid[1], zone) >= 0;
    };
    tw_read_.assign(g_.instance_zone.size(), false);
    tw_read_any_ = false;
    for (size_t n = 0; n < p_.nodes.size(); ++n) {
      if (!test(static_cast<int>(n))) continue;
      tops_ = true;
      // The zones its top may be read of (kept_top_sentinel): a kind's zones, or one zone.
      const Node& k = node(static_cast<int>(n));
      int zn = size_test(node(k.kid[0]).op == NodeOp::and_ ? node(k.kid[0]).kid[1] : k.kid[0]);
      const Node& z = node(zn);
      int first = -1, count = 0;
      if (z.op == NodeOp::card_zone_of) {
        const ZoneInfo& info = g_.zones[z.a];
        first = info.first_instance;
        count = g_.kinds[info.kind].card_count * (info.per_player ? g_.max_players : 1);
      } else if (z.op == NodeOp::zone) {
        first = z.a, count = 1;
      }
      if (first < 0) tw_read_any_ = true;
      for (int i = 0; i < count; ++i) tw_read_[static_cast<size_t>(first + i)] = true;
    }
    if (!tops_) return;
    // Each function's body, through its own nodes (not its callees'): tests and calls.
    std::vector<std::set<int>> calls(fs);
    std::vector<bool> direct(fs, false);
    for (size_t f = 0; f < fs; ++f) {
      std::vector<int> todo;
      if (p_.functions[f].body >= 0) todo.push_back(p_.functions[f].body);
      std::set<int> seen;
      while (!todo.empty()) {
        int n = todo.back();
        todo.pop_back();
        if (n < 0 || !seen.insert(n).second) continue;
        const Node& k = node(n);
        if (test(n)) direct[f] = true;
        if (k.op == NodeOp::call) calls[f].insert(k.a);
        for (int i = 0; i < 3; ++i) todo.push_back(k.kid[i]);
        for (int i = 0; i < k.kid_count; ++i) todo.push_back(p_.kids[k.first_kid + i]);
      }
    }
    for (size_t f = 0; f < fs; ++f) needs_tops_[f] = direct[f];
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t f = 0; f < fs; ++f)
        for (int g : calls[f])
          if (!needs_tops_[f] && needs_tops_[static_cast<size_t>(g)]) needs_tops_[f] = grew = true;
    }
  }

  // The values a computed function's `let`s take (they are C++ locals, 0 before their
  // `let`): the hull of every value assigned to each, worked out to a fixed point with the
  // ranges of the function's parameters. An assignment in a `while` whose condition bounds
  // the variable (`k < 3 and ...`) sees the variable within that bound, where it is the
  // only assignment of the variable in the loop's body and no loop inside that body holds
  // it (it runs at most once a round, right after the condition held): so a counter
  // (`while k < 3 ... { k += 1 }`) has a range, and its arithmetic needs no overflow check.
  // A variable whose range still grows after a few rounds is unknown.
  struct LetWrite {
    int node;                 // set_bound or loop_for
    std::vector<int> guards;  // the conditions of the `while`s that bound it there
  };
  void find_lets(int n, const std::set<int>& lets, std::vector<int>& whiles, std::vector<LetWrite>& out) const {
    const Node& k = node(n);
    if ((k.op == NodeOp::set_bound || k.op == NodeOp::loop_for) && lets.count(k.a)) {
      LetWrite w{n, {}};
      if (k.op == NodeOp::set_bound)
        for (int loop : whiles)
          if (sole_write(node(loop).kid[1], k.a, false) == 1) w.guards.push_back(node(loop).kid[0]);
      out.push_back(w);
    }
    if (k.op == NodeOp::call) return;  // its arguments are expressions; its body is its own
    if (k.op == NodeOp::block)
      for (int i = 0; i < k.kid_count; ++i) find_lets(p_.kids[k.first_kid + i], lets, whiles, out);
    bool loop = k.op == NodeOp::loop_while;
    for (int i = 0; i < 3; ++i) {
      if (k.kid[i] < 0) continue;
      if (loop && i == 1) whiles.push_back(n);
      find_lets(k.kid[i], lets, whiles, out);
      if (loop && i == 1) whiles.pop_back();
    }
  }
  // How many assignments of depth d node n holds (2: more than one, or one inside a loop).
  int sole_write(int n, int d, bool in_loop) const {
    const Node& k = node(n);
    int found = 0;
    if ((k.op == NodeOp::set_bound || k.op == NodeOp::loop_for) && k.a == d) found = in_loop || k.op == NodeOp::loop_for ? 2 : 1;
    if (k.op == NodeOp::call) return found;
    bool loop = k.op == NodeOp::loop_while || k.op == NodeOp::loop_times || k.op == NodeOp::loop_for;
    if (k.op == NodeOp::block)
      for (int i = 0; i < k.kid_count; ++i) found += sole_write(p_.kids[k.first_kid + i], d, in_loop);
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0) found += sole_write(k.kid[i], d, in_loop || loop);
    return std::min(found, 2);
  }
  // Depth d within what condition `cond` (true) tells of it: its conjuncts `d < X`, `d <= X`,
  // `d > X`, `d >= X` and their mirrors.
  Range guarded(int cond, int d, Range r) const {
    const Node& k = node(cond);
    if (k.op == NodeOp::and_) return guarded(k.kid[1], d, guarded(k.kid[0], d, r));
    NodeOp op = k.op;
    if (op != NodeOp::lt && op != NodeOp::le && op != NodeOp::gt && op != NodeOp::ge) return r;
    int x = k.kid[1];
    auto is_d = [&](int m) { return node(m).op == NodeOp::bound && node(m).a == d; };
    if (!is_d(k.kid[0])) {
      if (!is_d(k.kid[1])) return r;
      x = k.kid[0];  // X op d: mirrored
      op = op == NodeOp::lt ? NodeOp::gt : op == NodeOp::le ? NodeOp::ge : op == NodeOp::gt ? NodeOp::lt : NodeOp::le;
    }
    Range b = range(x);
    if (op == NodeOp::lt && b.hi != INT64_MIN) r.hi = std::min(r.hi, b.hi - 1);
    if (op == NodeOp::le) r.hi = std::min(r.hi, b.hi);
    if (op == NodeOp::gt && b.lo != INT64_MAX) r.lo = std::max(r.lo, b.lo + 1);
    if (op == NodeOp::ge) r.lo = std::max(r.lo, b.lo);
    return r;
  }
  void find_local_ranges(int body, const std::set<int>& lets) {
    std::vector<int> whiles;
    std::vector<LetWrite> writes;
    find_lets(body, lets, whiles, writes);
    std::map<int, Range> local;
    for (int d : lets) local[d] = span(0, 0);
    for (int round = 0;; ++round) {
      std::map<int, Range> next = local;
      for (const LetWrite& w : writes) {
        const Node& k = node(w.node);
        for (auto& [d, r] : local) ranges_[d] = r;
        if (k.op == NodeOp::loop_for) {
          next[k.a] = hull(next[k.a], elements(k.kid[0]));
          continue;
        }
        Range in = local[k.a];
        for (int g : w.guards) in = guarded(g, k.a, in);
        if (in.lo > in.hi) continue;  // the condition never holds: the assignment never runs
        ranges_[k.a] = in;
        next[k.a] = hull(next[k.a], range(k.kid[0]));
      }
      if (next == local) break;
      if (round >= 8) {  // still growing: unknown
        for (auto& [d, r] : next)
          if (r != local[d]) r = Range{};
        if (round >= 10) {
          for (auto& [d, r] : next) r = Range{};
          local = next;
          break;
        }
      }
      local = next;
    }
    for (auto& [d, r] : local) {
      if (r == Range{}) ranges_.erase(d);
      else ranges_[d] = r;
    }
  }

  // The values each function's parameters take: the hull of its arguments' ranges over
  // every call in the program (the compiled calls are among them), worked out to a fixed
  // point; a parameter whose range still grows after a few rounds (a recursion) is unknown.
  // The frame depths a computed function's statements assign (set_bound): a parameter
  // among them takes other values than its calls pass, so it has no range. With `loops`,
  // its `for` loops' variables too: every depth its statements name.
  void find_assigned(int n, std::set<int>& out, bool loops = false) const {
    const Node& k = node(n);
    if (k.op == NodeOp::set_bound || (loops && k.op == NodeOp::loop_for)) out.insert(k.a);
    if (k.op == NodeOp::block)
      for (int i = 0; i < k.kid_count; ++i) find_assigned(p_.kids[k.first_kid + i], out, loops);
    if (k.op == NodeOp::call) return;  // its arguments are expressions; its body is its own
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0) find_assigned(k.kid[i], out, loops);
  }

  void find_param_ranges() {
    assigned_.assign(p_.functions.size(), {});
    for (size_t f = 0; f < p_.functions.size(); ++f)
      if (p_.functions[f].body >= 0) find_assigned(p_.functions[f].body, assigned_[f]);
    const Range none{INT64_MAX, INT64_MIN};
    params_.assign(p_.functions.size(), {});
    for (size_t f = 0; f < p_.functions.size(); ++f) params_[f].assign(static_cast<size_t>(p_.functions[f].params), none);
    std::vector<char> inner(p_.nodes.size(), 0);
    for (const Node& k : p_.nodes) {
      for (int i = 0; i < 3; ++i)
        if (k.kid[i] >= 0) inner[static_cast<size_t>(k.kid[i])] = 1;
      // (a call's arguments, and a computed function's statements: a block's)
      if (k.op == NodeOp::call || k.op == NodeOp::block)
        for (int i = 0; i < k.kid_count; ++i) inner[static_cast<size_t>(p_.kids[k.first_kid + i])] = 1;
    }
    for (const Function& fn : p_.functions)
      if (fn.body >= 0) inner[static_cast<size_t>(fn.body)] = 1;
    // Invariants are checked by the interpreter alone (runner.cpp, scenario.cpp), never by
    // compiled code: their calls pass nothing to the compiled functions.
    for (const Invariant& inv : g_.invariants)
      if (inv.node >= 0) inner[static_cast<size_t>(inv.node)] = 1;
    size_t all = 0;
    for (const auto& f : params_) all += f.size();
    for (size_t round = 0;; ++round) {
      if (round > 10 + all) {  // cannot happen (each round past 8 widens one at least): unknown
        for (auto& f : params_) std::fill(f.begin(), f.end(), Range{});
        break;
      }
      auto before = params_;
      for (size_t f = 0; f < p_.functions.size(); ++f) {
        // Not called yet (a parameter without values): its calls have nothing to pass on.
        bool called = true;
        for (const Range& r : params_[f]) called &= r.lo <= r.hi;
        if (!called) continue;
        ranges_.clear();
        for (size_t i = 0; i < params_[f].size(); ++i)
          if (!assigned_[f].count(static_cast<int>(i))) ranges_[static_cast<int>(i)] = params_[f][i];
        if (p_.functions[f].body >= 0) visit_calls(p_.functions[f].body);
      }
      ranges_.clear();
      for (size_t n = 0; n < p_.nodes.size(); ++n)
        if (!inner[n]) visit_calls(static_cast<int>(n));
      if (params_ == before) break;
      for (size_t f = 0; f < params_.size(); ++f)
        for (size_t i = 0; i < params_[f].size(); ++i)
          if (round >= 8 && params_[f][i] != before[f][i]) params_[f][i] = Range{};
    }
    ranges_.clear();
  }
  // The calls under node n, with the ranges of the frame's variables as they stand there.
  void visit_calls(int n) {
    const Node& k = node(n);
    if (k.op == NodeOp::block) {  // a computed function's statements
      for (int i = 0; i < k.kid_count; ++i) visit_calls(p_.kids[k.first_kid + i]);
      return;
    }
    bool aggregate = false;
    switch (k.op) {
      KATA_AGGREGATE_NODES(KATA_NODE_CASE)
      aggregate = true;
      break;
      default: break;
    }
    if (aggregate) {
      visit_calls(k.kid[0]);
      bool had = ranges_.count(k.a) > 0;
      Range outer = frame_range(k.a);
      ranges_[k.a] = elements(k.kid[0]);
      for (int i = 1; i < 3; ++i)
        if (k.kid[i] >= 0) visit_calls(k.kid[i]);
      if (had) ranges_[k.a] = outer;
      else ranges_.erase(k.a);
      return;
    }
    if (k.op == NodeOp::call) {
      std::vector<Range>& to = params_[static_cast<size_t>(k.a)];
      for (int i = 0; i < k.kid_count; ++i) {
        int arg = p_.kids[k.first_kid + i];
        visit_calls(arg);
        if (static_cast<size_t>(i) < to.size()) to[static_cast<size_t>(i)] = hull(to[static_cast<size_t>(i)], range(arg));
      }
      return;
    }
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0) visit_calls(k.kid[i]);
  }

  // Whether evaluating node n (a list's elements if `as_list`) may hand a node back to the
  // interpreter (host_eval, or H.list in each), which reads the frame: the cases where
  // expression() and each() do, over the node's operands (not into the functions it calls,
  // whose frames are their own).
  bool hands_back(int n, bool as_list) const {
    const Node& k = node(n);
    switch (k.op) {
      KATA_LIST_NODES(KATA_NODE_CASE)
      if (!as_list) return true;
      break;
      default: break;
    }
    switch (k.op) {
      case NodeOp::linked:
      case NodeOp::position:
      case NodeOp::repetitions:
      case NodeOp::list_walk: return true;
      case NodeOp::card_at:
        if (!p_.lookups[k.a].dense) return true;
        break;
      case NodeOp::list_from:
        if (k.kid[0] < 0 || node(k.kid[0]).op != NodeOp::list_players) return true;
        break;
      case NodeOp::list_neighbours:
        if (g_.link_start.empty()) return true;
        break;
      case NodeOp::call:
      case NodeOp::block:  // a computed function's statements, in its own frame
        for (int i = 0; i < k.kid_count; ++i)
          if (hands_back(p_.kids[k.first_kid + i], false)) return true;
        break;
      default: break;
    }
    bool aggregate = false;
    switch (k.op) {
      KATA_AGGREGATE_NODES(KATA_NODE_CASE)
      aggregate = true;
      break;
      default: break;
    }
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0 && hands_back(k.kid[i], i == 0 && (aggregate || k.op == NodeOp::list_from || k.op == NodeOp::loop_for))) return true;
    return false;
  }
  // Whether evaluating node n may spend the expressions' budget (spend, or a node handed
  // back to the interpreter, which spends from the same count).
  bool spends(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      KATA_AGGREGATE_NODES(KATA_NODE_CASE)
      case NodeOp::call:
      case NodeOp::block:
      case NodeOp::loop_for:
      case NodeOp::loop_while:
      case NodeOp::loop_times: return true;
      default: break;
    }
    if (hands_back(n, false)) return true;
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0 && spends(k.kid[i])) return true;
    return false;
  }
  // Whether listing the elements of a domain (each()) may spend the budget: a node handed
  // back, or an operand that spends (a range's bounds, the zone, a neighbour's card).
  bool domain_spends(int n) const {
    if (hands_back(n, true)) return true;
    if (is_zone_list(n)) return spends(n);  // a zone, or a value operand of a list
    const Node& k = node(n);
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0 && domain_spends(k.kid[i])) return true;
    return false;
  }
  // A variable of the frame at `depth`: its C++ name where it has one, else the frame's slot.
  std::string frame_var(int depth) const {
    auto it = names_.find(depth);
    if (it != names_.end()) return it->second;
    return fmt::format("c.env[{} + {}]", base_, depth);
  }

  // ---- the game's tables, as constants ----
  template <typename T>
  static std::string table_text(const char* type, const char* name, const std::vector<T>& v) {
    std::string t = fmt::format("static constexpr {} {}[] = {{", type, name);
    if (v.empty()) t += "0";
    for (size_t i = 0; i < v.size(); ++i) t += fmt::format("{}{}", i ? "," : "", static_cast<int64_t>(v[i]));
    return t + "};\n";
  }
  template <typename T>
  void table(const char* type, const char* name, const std::vector<T>& v) {
    out_ += table_text(type, name, v);
  }

  // Zone instances first..last (the kernel's tables for a move, move_tables).
  using Span = std::pair<int, int>;
  // The value every instance of `span` has in kernel table `t`, or -1 if they differ.
  template <typename V>
  static int64_t same(const std::vector<V>& t, Span span) {
    if (span.first > span.second || span.first < 0 || static_cast<size_t>(span.second) >= t.size()) return -1;
    for (int z = span.first; z <= span.second; ++z)
      if (t[static_cast<size_t>(z)] != t[static_cast<size_t>(span.first)]) return -1;
    return static_cast<int64_t>(t[static_cast<size_t>(span.first)]);
  }
  // A member of a kernel table struct: the constant every instance of `span` holds, else the table.
  template <typename V>
  static std::string kernel_table(const char* type, const char* name, const std::vector<V>& t, Span span) {
    int64_t v = same(t, span);
    if (v >= 0) return fmt::format("static constexpr Same<{}> {}{{}};", v, name);
    return fmt::format("static constexpr const {}* {} = ::{};", type, name, name);
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
    // The kernel's tables (Game::kernel), and the struct through which it reads them: a
    // table whose entries are all the same is that constant (Same), which the compiler folds.
    const KernelTables& k = g_.kernel;
    table("uint8_t", "VIS", k.VIS);
    table("uint32_t", "OWNBIT", k.OWNBIT);
    table("uint8_t", "ISTOP", k.ISTOP);
    table("uint8_t", "ISET", k.ISET);
    out_ += "template <uint32_t V> struct Same { constexpr uint32_t operator[](int) const { return V; } };\n";
    const Span all{0, static_cast<int>(g_.instance_zone.size()) - 1};
    out_ += fmt::format(
        "struct KT {{ static constexpr int CC = {}, ZS = {}, ZC = {}, CZ = {}, FACE = {}, KNOWN = {}, RNG_HI = {}, RNG_LO = {};"
        " static constexpr int32_t PUBLIC = {}; {} {} {} static constexpr const int32_t* IOWNER = ::IOWNER; {} }};\n"
        "static constexpr KT T{{}};\n",
        k.CC, k.ZS, k.ZC, k.CZ, k.FACE, k.KNOWN, k.RNG_HI, k.RNG_LO, k.PUBLIC, kernel_table("uint8_t", "VIS", k.VIS, all),
        kernel_table("uint8_t", "ISTOP", k.ISTOP, all), kernel_table("uint8_t", "ISET", k.ISET, all),
        kernel_table("uint32_t", "OWNBIT", k.OWNBIT, all));
    // Each seat's cards, in card order: OWNED[OWNED_AT[p]] to OWNED[OWNED_AT[p + 1] - 1].
    std::vector<int32_t> owned, owned_at;
    for (int p = 0; p < g_.max_players; ++p) {
      owned_at.push_back(static_cast<int32_t>(owned.size()));
      for (int x = 0; x < g_.card_count; ++x)
        if (g_.card_owner[static_cast<size_t>(x)] == p) owned.push_back(x);
    }
    owned_at.push_back(static_cast<int32_t>(owned.size()));
    table("int32_t", "OWNED", owned);
    table("int32_t", "OWNED_AT", owned_at);
    table("int32_t", "LS", g_.link_start);
    table("int32_t", "LT", g_.link_to);
    for (size_t i = 0; i < p_.value_lists.size(); ++i)
      table("int64_t", fmt::format("VL{}", i).c_str(), p_.value_lists[i]);
    for (size_t i = 0; i < p_.lookups.size(); ++i)
      if (p_.lookups[i].dense) {
        // A table without holes of cards numbered below 256 in bytes: what it reads is
        // then never none, which the compiler sees from the type (the hint in card_at is
        // lost on the way to a test of none in a function it inlines).
        table(card_at_bytes(static_cast<int>(i)) ? "uint8_t" : "int32_t", fmt::format("LK{}", i).c_str(), p_.lookups[i].table);
      }
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
      case NodeOp::card_var_bound: return frame_var(b);
      default: return fmt::format("(int64_t){}", arg(b));
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
  // Whether node n's value, where it is stored, is a zone instance that passed the checks
  // of Z() (a shared zone, a per-player zone of a checked player, a local that only ever holds
  // such a zone).
  bool safe_zone(int n) const {
    switch (node(n).op) {
      case NodeOp::zone:
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg:
      case NodeOp::zone_of:
      case NodeOp::card_zone_of: return true;
      case NodeOp::local: return zone_locals_.count(node(n).a) > 0;
      default: return false;
    }
  }
  // What each slot of the state's locals may hold, from everything that writes it: an
  // assignment, a call's arguments, a loop, the binding of a decision, a return address. A
  // slot that only ever holds a seat (a loop's variable over players, an action's chooser, or
  // what is assigned or passed from one of these) needs no check where it is read as a
  // player (safe_locals_); one that only ever holds a checked zone (safe_zone), none where
  // it is read as a zone, and the zone is among the instances written (zone_locals_).
  // Values come only from these writers (a slot is written before its variable is read;
  // before, it is 0, a seat and a zone instance anyway), so the largest sets that hold are
  // kept.
  void find_safe_locals() {
    struct Writes {
      std::vector<int> nodes;  // value nodes stored
      bool seats = false;      // seats stored by a loop or a binding
      bool other = false;      // anything else: a number, a card, a count, a return address
    };
    std::map<int, Writes> w;
    for (const Instr& in : p_.code) {
      if (in.op == Op::assign && in.a == 2) {
        if (in.e == 0) w[in.b].nodes.push_back(in.c);
        else w[in.b].other = true;
      }
      if (in.op == Op::repeat_init) w[in.b].other = true;
      if (in.op == Op::call || in.op == Op::phase) w[p_.procedures[in.a].ret_slot].other = true;
      if (in.op == Op::call) {
        const Procedure& proc = p_.procedures[in.a];
        for (size_t i = 0; i < proc.param_slots.size(); ++i) w[proc.param_slots[i]].nodes.push_back(p_.kids[in.b + i]);
      }
    }
    for (const Loop& l : p_.loops) {
      bool seats = player_list(node(l.list_node));
      for (int slot = l.buffer_slot; slot < l.buffer_slot + std::max(l.capacity, 1); ++slot) (seats ? w[slot].seats : w[slot].other) = true;
      (seats ? w[l.var_slot].seats : w[l.var_slot].other) = true;
      w[l.count_slot].other = w[l.index_slot].other = true;
    }
    for (const Action& a : p_.actions) {
      w[a.player_slot].seats = true;
      // (a decision's arguments are not checked against those listed when it is applied)
      for (const Param& prm : a.params) w[prm.slot].other = true;
      w[a.ret_slot].other = true;
    }
    for (const auto& [slot, x] : w)
      if (!x.other) safe_locals_.insert(slot), zone_locals_[slot] = Span{INT_MAX, INT_MIN};
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [slot, x] : w) {
        bool seat = safe_locals_.count(slot) > 0, zone = zone_locals_.count(slot) > 0;
        for (int v : x.nodes) seat = seat && safe_player(v), zone = zone && safe_zone(v);
        if (!seat && safe_locals_.erase(slot)) changed = true;
        if ((!zone || x.seats) && zone_locals_.erase(slot)) changed = true;
      }
    }
    // The instances each zone slot holds: those its writers give, grown to a fixed point.
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& [slot, span] : zone_locals_)
        for (int v : w[slot].nodes) {
          Span r = instances(v);
          Span grown{std::min(span.first, r.first), std::max(span.second, r.second)};
          if (grown != span) span = grown, changed = true;
        }
    }
  }
  std::string C(int n) { return card(e(n), range(n), n); }
  // A card that must be of a kind (card_of_kind).
  std::string CK(int n, int kind) { return card_of_kind(e(n), range(n), kind, n); }
  // `v` (of range r) checked as a card, as Evaluator::card checks it at `node`: no check
  // where the value is one already (an element of a zone, a neighbour).
  std::string card(const std::string& v, Range r, int node) const {
    if (r.lo >= 0 && r.hi < g_.card_count) return fmt::format("(int){}", v);
    return fmt::format("chkC(c, {}, {})", v, node);
  }
  // `v` checked as a card of `kind` (Evaluator::card_of_kind); where the kind's cards are
  // numbered together, by two comparisons, none where the range shows them true.
  std::string card_of_kind(const std::string& v, Range r, int kind, int node) const {
    const KindInfo& info = g_.kinds[kind];
    int first = info.first_card, last = info.first_card + info.card_count - 1;
    if (!kind_contiguous(kind)) return fmt::format("chkK(c, {}, {}, {})", card(v, r, node), kind, node);
    if (r.lo >= first && r.hi <= last) return fmt::format("(int){}", v);
    if (r.hi <= last) return fmt::format("chkCKlo(c, {}, {}, {}, {})", v, first, kind, node);
    return fmt::format("chkCK(c, {}, {}, {}, {}, {})", v, first, last, kind, node);
  }
  bool kind_contiguous(int kind) const {
    const KindInfo& info = g_.kinds[kind];
    int count = 0;
    for (size_t x = 0; x < g_.card_kind.size(); ++x)
      if (g_.card_kind[x] == kind) {
        if (static_cast<int>(x) < info.first_card || static_cast<int>(x) >= info.first_card + info.card_count) return false;
        ++count;
      }
    return count == info.card_count && info.card_count > 0;
  }

  // ---- the values a node can take ----
  // An interval holding every value node n can have (the full int64 range if unknown):
  // where it shows a check cannot fail (a card from a zone, a sum of two small numbers),
  // the check is left out. Values read from the state fit its 32-bit slots; a bound
  // variable takes its domain's elements.
  static Range span(int64_t lo, int64_t hi) { return Range{lo, hi}; }
  static Range hull(Range a, Range b) { return Range{std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
  static Range int32_range() { return Range{INT32_MIN, INT32_MAX}; }
  // An interval from 128-bit bounds: full if it passes int64 (the operation may overflow).
  static bool fits(__int128 lo, __int128 hi) { return lo >= INT64_MIN && hi <= INT64_MAX; }
  Range props(int prop) const {
    Range r{INT64_MAX, INT64_MIN};
    for (int x = 0; x < g_.card_count; ++x) {
      int64_t v = g_.card_props[static_cast<size_t>(prop) * g_.card_count + x];
      r.lo = std::min(r.lo, v), r.hi = std::max(r.hi, v);
    }
    return g_.card_count > 0 ? r : Range{};
  }
  // The exact bounds, in 128 bits, of add, sub or mul of operands in these ranges.
  static std::pair<__int128, __int128> arithmetic_bounds(NodeOp op, Range a, Range b) {
    if (op == NodeOp::add) return {(__int128)a.lo + b.lo, (__int128)a.hi + b.hi};
    if (op == NodeOp::sub) return {(__int128)a.lo - b.hi, (__int128)a.hi - b.lo};
    __int128 p[4] = {(__int128)a.lo * b.lo, (__int128)a.lo * b.hi, (__int128)a.hi * b.lo, (__int128)a.hi * b.hi};
    return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
  }
  Range arithmetic_range(NodeOp op, Range a, Range b) const {
    auto [lo, hi] = arithmetic_bounds(op, a, b);
    if (!fits(lo, hi)) return Range{};
    return Range{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
  }
  // Whether add, sub or mul of these operands can overflow (the full range is kept for it).
  bool may_overflow(NodeOp op, Range a, Range b) const {
    auto [lo, hi] = arithmetic_bounds(op, a, b);
    return !fits(lo, hi);
  }
  Range frame_range(int depth) const {
    auto it = ranges_.find(depth);
    return it != ranges_.end() ? it->second : Range{};
  }
  Range arg_range(int i) const {
    auto it = arg_ranges_.find(i);
    return it != arg_ranges_.end() ? it->second : int32_range();
  }
  // The range of the variable a specialised member node reads.
  Range var_range(NodeOp op, int b) const {
    switch (op) {
      case NodeOp::player_var_bound:
      case NodeOp::zone_of_bound:
      case NodeOp::prop_bound:
      case NodeOp::card_var_bound: return frame_range(b);
      case NodeOp::player_var_arg:
      case NodeOp::zone_of_arg:
      case NodeOp::prop_arg:
      case NodeOp::card_var_arg: return arg_range(b);
      default: return int32_range();
    }
  }
  // The elements of a list node (or a zone's cards).
  Range elements(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::list_players:
      case NodeOp::list_all_players: return span(0, g_.max_players - 1);
      case NodeOp::list_from: return player_list(node(k.kid[0])) ? span(0, g_.max_players - 1) : Range{};
      case NodeOp::list_range: return span(range(k.kid[0]).lo, range(k.kid[1]).hi);
      case NodeOp::list_values: {
        const std::vector<int64_t>& v = p_.value_lists[k.a];
        if (v.empty()) return Range{};
        return span(*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
      }
      case NodeOp::list_neighbours: {
        // The cards the links table holds (a board's links join its points only).
        if (g_.link_start.empty()) return Range{};
        if (g_.link_to.empty()) return span(0, g_.card_count - 1);
        auto [lo, hi] = std::minmax_element(g_.link_to.begin(), g_.link_to.end());
        return span(*lo, *hi);
      }
      case NodeOp::list_walk: return Range{};
      default: return span(0, g_.card_count - 1);  // a zone's cards
    }
  }
  Range range(int n) const {
    const Node& k = node(n);
    const int64_t cc = g_.card_count, mp = g_.max_players, ni = static_cast<int64_t>(g_.instance_zone.size());
    switch (k.op) {
      case NodeOp::constant: return span(k.a, k.a);
      case NodeOp::local:
        // A slot that only ever holds a seat (find_safe_locals): one of the seats.
        if (safe_locals_.count(k.a)) return span(0, mp - 1);
        return int32_range();
      case NodeOp::option:
      case NodeOp::global:
      case NodeOp::player_var:
      case NodeOp::player_var_local:
      case NodeOp::player_var_bound:
      case NodeOp::player_var_arg:
      case NodeOp::card_var:
      case NodeOp::card_var_local:
      case NodeOp::card_var_bound:
      case NodeOp::card_var_arg: return int32_range();
      case NodeOp::arg: return arg_range(k.a);
      case NodeOp::bound: return frame_range(k.a);
      case NodeOp::zone:
      case NodeOp::zone_of:
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg:
      case NodeOp::card_zone_of: return span(0, ni - 1);
      case NodeOp::prop:
      case NodeOp::prop_local:
      case NodeOp::prop_bound:
      case NodeOp::prop_arg: return props(k.a);
      case NodeOp::not_:
      case NodeOp::eq:
      case NodeOp::ne:
      case NodeOp::lt:
      case NodeOp::le:
      case NodeOp::gt:
      case NodeOp::ge:
      case NodeOp::and_:
      case NodeOp::or_:
      case NodeOp::any:
      case NodeOp::all:
      case NodeOp::alive:
      case NodeOp::sees:
      case NodeOp::contains: return span(0, 1);
      case NodeOp::face_up: return int32_range();
      case NodeOp::add:
      case NodeOp::sub:
      case NodeOp::mul: return arithmetic_range(k.op, range(k.kid[0]), range(k.kid[1]));
      case NodeOp::neg: {
        Range a = range(k.kid[0]);
        if (a.lo == INT64_MIN || a.hi == INT64_MIN) return Range{};
        return span(-a.hi, -a.lo);
      }
      case NodeOp::abs: {
        Range a = range(k.kid[0]);
        if (a.lo == INT64_MIN || a.hi == INT64_MIN) return Range{};
        return span(a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0, std::max(-a.lo, a.hi));
      }
      case NodeOp::cond: return hull(range(k.kid[1]), range(k.kid[2]));
      case NodeOp::min_of:
      case NodeOp::max_of: return hull(range(k.kid[0]), range(k.kid[1]));
      case NodeOp::count: return span(0, INT32_MAX);
      case NodeOp::min:
      case NodeOp::max: return k.kid[2] >= 0 ? hull(range(k.kid[2]), span(0, 0)) : Range{};
      case NodeOp::best:
      case NodeOp::worst:
      case NodeOp::find: return hull(elements(k.kid[0]), span(-1, -1));
      case NodeOp::player_count: return span(0, mp);
      case NodeOp::top:
        if (nonempty_ >= 0 && same_node(k.kid[0], nonempty_)) return span(0, cc - 1);  // (nonempty_and)
        return span(-1, cc - 1);
      case NodeOp::bottom:
      case NodeOp::holder: return span(-1, cc - 1);
      case NodeOp::size: return span(0, cc);
      case NodeOp::next_player:
      case NodeOp::left:
      case NodeOp::right: return span(0, mp - 1);
      case NodeOp::seat: return span(1, mp);
      case NodeOp::zone_owner: return table_range(g_.instance_owner);
      case NodeOp::card_owner: return table_range(g_.card_owner);
      case NodeOp::card_zone: return span(-1, ni - 1);
      case NodeOp::block: return k.kid_count == 0 ? span(0, 0) : range(p_.kids[k.first_kid + k.kid_count - 1]);
      case NodeOp::call: {
        auto it = results_.find(k.a);
        return it != results_.end() ? it->second : Range{};
      }
      case NodeOp::card_at: {
        // A table without holes gives none only for a point off its bounds.
        Range r = card_at_range(k.a);
        if (card_at_inside(n)) return r;
        return hull(r, span(-1, -1));
      }
      default: return Range{};
    }
  }
  // The values in a table of the game (OWNER, IOWNER), with -1 (none) always among them.
  static Range table_range(const std::vector<int32_t>& t) {
    Range r{-1, -1};
    for (int32_t v : t) r.lo = std::min<int64_t>(r.lo, v), r.hi = std::max<int64_t>(r.hi, v);
    return r;
  }
  // Whether a dense lookup table holds a card at each of its points (no -1).
  bool card_at_full(int lookup) const {
    const CardLookup& t = p_.lookups[lookup];
    return t.dense && !t.table.empty() && std::find(t.table.begin(), t.table.end(), -1) == t.table.end();
  }
  // Whether a lookup table is written in bytes: without holes, its cards below 256.
  bool card_at_bytes(int lookup) const {
    const std::vector<int32_t>& t = p_.lookups[lookup].table;
    return card_at_full(lookup) && *std::max_element(t.begin(), t.end()) < 256;
  }
  // Whether `card_at` node n always finds a card: its table is full and the ranges of its
  // coordinates lie within the table's bounds.
  bool card_at_inside(int n) const {
    const Node& k = node(n);
    if (!card_at_full(k.a)) return false;
    const CardLookup& t = p_.lookups[k.a];
    for (int d = 0; d < t.dims; ++d) {
      Range a = range(k.kid[d]);
      if (a.lo < t.lo[d] || a.hi > t.hi[d]) return false;
    }
    return true;
  }
  // The cards a dense lookup table holds (-1 aside), or none (lo > hi).
  Range card_at_range(int lookup) const {
    const CardLookup& t = p_.lookups[lookup];
    Range r{INT64_MAX, INT64_MIN};
    if (!t.dense) return Range{};
    for (int32_t v : t.table)
      if (v >= 0) r.lo = std::min<int64_t>(r.lo, v), r.hi = std::max<int64_t>(r.hi, v);
    return r;
  }
  // A zone instance, checked as Evaluator::zone checks it.
  std::string Z(int n) {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::zone: return std::to_string(k.a);
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return fmt::format("({} + {})", k.a, PV(k.op, k.b, k.kid[0]));
      // A player's zone, or a card's, is one whose owner (if any) is the player checked: the
      // zone check cannot fail once the card and player checks inside have passed.
      case NodeOp::zone_of: return fmt::format("(int){}", e(n));
      case NodeOp::card_zone_of: return e(n);  // (64 bits where the card needs no check: expression())
      case NodeOp::local:
        if (zone_locals_.count(k.a)) return fmt::format("(int){}", e(n));
        return fmt::format("chkZ(c, n, {}, {})", e(n), n);
      default: return fmt::format("chkZ(c, n, {}, {})", e(n), n);
    }
  }
  // Whether `before`, `x != none` in `x != none and size(x.D) > 0 and top(x.D).owner == E`
  // (zone Z = x.D), may be left out where the tops are kept: the kept top's slot that x =
  // none would read, D's first zone less one less the kind's first card (Z's arithmetic,
  // unchecked under the test), is -128 for good, as an empty zone's is, so the test fails
  // there as `x != none` would have it fail. That slot is the one before tw's zones (-1:
  // twa[0], never written) or a zone whose top no kept-top test reads (tw_read_), which
  // tw_zone then never writes (tw_sentinels_, which the caller adds it to where the test is
  // written so). Where x is never none, nothing is needed. The zone to keep at -128, -1 if
  // none, or keeps_guard.
  static constexpr int keeps_guard = -2;
  int kept_top_sentinel(int before, int zone) const {
    const Node& b = node(before);
    auto none = [&](int x) { return node(x).op == NodeOp::constant && node(x).a == -1; };
    if (b.op != NodeOp::ne) return keeps_guard;
    int x = none(b.kid[1]) ? b.kid[0] : none(b.kid[0]) ? b.kid[1] : -1;
    const Node& z = node(zone);
    if (x < 0 || z.op != NodeOp::card_zone_of || !same_node(z.kid[0], x)) return keeps_guard;
    const ZoneInfo& info = g_.zones[z.a];
    if (info.per_player || info.kind < 0) return keeps_guard;
    const KindInfo& kind = g_.kinds[info.kind];
    Range r = range(x);
    if (r.lo >= kind.first_card && r.hi < kind.first_card + kind.card_count) return -1;
    // Under the test x is of the kind (nonempty_and's total_zone), so here x is none or one.
    if (r.lo != -1 || kind.first_card != 0 || r.hi >= kind.card_count) return keeps_guard;
    int slot = info.first_instance - 1;
    if (slot >= 0 && (tw_read_any_ || tw_read_[static_cast<size_t>(slot)])) return keeps_guard;
    return std::max(slot, -1);
  }
  // `size(Z) > 0 and T` (after any `x != none and`), T an equality on Z's top card: a
  // board's "my piece stands on q" (`q != none and size(q.spot) > 0 and top(q.spot).owner
  // == p`). Whether Z holds a card changes from one test to the next, and the processor
  // mispredicts the branch; where Z and T are total (nothing in them can fail or spend, Z's
  // top taken as a card), the top slot is read whatever the size (the zone's first slot if
  // it is empty), T worked out on it without branches, and the two tests joined by `&`:
  // where Z is empty the interpreter does not work out T, and nothing of T can fail, spend
  // or be seen, so the same value comes out. Only an equality: on an empty zone's stale
  // card it mostly fails, as the joined test does, and the branch the compiler keeps stays
  // as predictable; an inequality (`top(q.spot).owner != p` on a board) mostly passes there
  // and left the size's branch to mispredict (such a board game of rules/ a quarter
  // slower). Every slot of a zone's list holds a card, past its size too (the state
  // starts zeroed, card 0, and only cards are ever written there: setup, the kernel's
  // moves and shuffles, positions, determinize, and a reused state keeps the last game's,
  // ReusedState), so the card read from an empty zone is one (zc()), whose tables T may
  // read. The tests `x != none` before it stay a branch, and tell the ranges inside that x
  // is not none; where the tops are kept, the kept top's test alone may stand for both
  // (kept_top_sentinel).
  std::string nonempty_and(int n) {
    const Node& k = node(n);
    int left = k.kid[0], test = k.kid[1], before = -1, sized = left;
    if (node(left).op == NodeOp::and_) before = node(left).kid[0], sized = node(left).kid[1];
    int zone = size_test(sized);
    if (zone < 0 || nonempty_ >= 0 || g_.card_count == 0 || node(test).op != NodeOp::eq) return "";
    std::string out;
    bool guarded = false;  // `before` written in `out`, on the side without the kept tops
    int sentinel = tops_ && before >= 0 ? kept_top_sentinel(before, zone) : keeps_guard;  // (x's range before the test's facts)
    with_facts(before, [&] {
      if (!total_zone(zone)) return;
      nonempty_ = zone;
      if (total(test)) {
        std::string z = tmp(), m = tmp(), t = tmp();
        std::string where = Z(zone);
        nonempty_top_ = t;
        bool was = eager_;
        eager_ = true;
        std::string tested = e(test);
        eager_ = was;
        out = fmt::format(
            "({{ int {0} = {1}; int {2} = s[{3} + {0}]; int64_t {4} = zc(s[{5} + {0} * {6} + ({2} > 0 ? {2} - 1 : 0)]); (int64_t)(({2} > 0) & (({7}) != 0)); }})",
            z, where, m, l_.zone_size, t, l_.zone_cards, g_.card_count, tested);
        // The owner of the top against an operand, where the tops are kept (find_kept_tops).
        int side = tops_ ? kept_top_side(test, zone) : -1;
        if (side >= 0) {
          std::string v = tmp(), o = tmp();
          nonempty_ = -1;
          int other = node(test).kid[1 - side];
          std::string operand = e(other);
          // (an operand that may be -128 meets an empty zone's mark: tested apart)
          Range r = range(other);
          std::string empty = r.lo > -128 || r.hi < -128 ? "" : fmt::format(" & ({} != -128)", v);
          tops_read_ = true;
          std::string kept = fmt::format("({{ int {0} = tw[{1}]; int64_t {2} = {3}; (int64_t)(({0} == {2}){4}); }})", v, where, o, operand, empty);
          if (sentinel != keeps_guard) {
            if (sentinel >= 0) tw_sentinels_.insert(sentinel);
            guarded = true;
            out = fmt::format("(tw_on ? {} : (int64_t)(({}) && {}))", kept, e(before), out);
          } else {
            out = fmt::format("(tw_on ? {} : {})", kept, out);
          }
        }
      }
      nonempty_ = -1;
    });
    if (out.empty() || before < 0 || guarded) return out;
    return fmt::format("(int64_t)(({}) && {})", e(before), out);
  }
  // The zone Z of a test that it holds a card (`size(Z) > 0`, `>= 1`, `!= 0`, mirrored), or -1.
  int size_test(int n) const {
    const Node& k = node(n);
    auto is = [&](int m, int64_t v) { return node(m).op == NodeOp::constant && node(m).a == v; };
    auto size = [&](int m) { return node(m).op == NodeOp::size ? node(m).kid[0] : -1; };
    switch (k.op) {
      case NodeOp::gt: return is(k.kid[1], 0) ? size(k.kid[0]) : -1;
      case NodeOp::ge: return is(k.kid[1], 1) ? size(k.kid[0]) : -1;
      case NodeOp::lt: return is(k.kid[0], 0) ? size(k.kid[1]) : -1;
      case NodeOp::le: return is(k.kid[0], 1) ? size(k.kid[1]) : -1;
      case NodeOp::ne: return is(k.kid[1], 0) ? size(k.kid[0]) : is(k.kid[0], 0) ? size(k.kid[1]) : -1;
      default: return -1;
    }
  }
  // f() run with what condition `cond` (-1: none) tells when true: each of its conjuncts
  // `x != none` (x a variable of the frame) takes none out of x's range.
  template <class F>
  void with_facts(int cond, F f) {
    std::vector<std::pair<int, Range>> saved;
    std::vector<int> conjuncts;
    std::vector<int> todo;
    if (cond >= 0) todo.push_back(cond);
    while (!todo.empty()) {
      int m = todo.back();
      todo.pop_back();
      if (node(m).op == NodeOp::and_) todo.push_back(node(m).kid[0]), todo.push_back(node(m).kid[1]);
      else conjuncts.push_back(m);
    }
    for (int m : conjuncts) {
      const Node& c = node(m);
      if (c.op != NodeOp::ne) continue;
      int v = -1;
      auto none = [&](int x) { return node(x).op == NodeOp::constant && node(x).a == -1; };
      if (none(c.kid[1]) && node(c.kid[0]).op == NodeOp::bound) v = c.kid[0];
      if (none(c.kid[0]) && node(c.kid[1]).op == NodeOp::bound) v = c.kid[1];
      if (v < 0) continue;
      int d = node(v).a;
      auto it = ranges_.find(d);
      if (it == ranges_.end() || it->second.lo != -1 || it->second.hi < 0) continue;
      saved.emplace_back(d, it->second);
      it->second.lo = 0;
    }
    f();
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) ranges_[it->first] = it->second;
  }
  // Whether nodes a and b are the same expression.
  bool same_node(int a, int b) const {
    if (a == b) return true;
    if (a < 0 || b < 0) return false;
    const Node &x = node(a), &y = node(b);
    if (x.op != y.op || x.a != y.a || x.b != y.b || x.kid_count != y.kid_count) return false;
    for (int i = 0; i < 3; ++i)
      if (!same_node(x.kid[i], y.kid[i])) return false;
    for (int i = 0; i < x.kid_count; ++i)
      if (!same_node(p_.kids[x.first_kid + i], p_.kids[y.first_kid + i])) return false;
    return true;
  }
  // `top(z)` or `bottom(z)` (node n): the card, or -1 if the zone is empty; with `keep`, a
  // C++ variable that is given the zone.
  std::string end_card(int n, const std::string& keep) {
    const Node& k = node(n);
    std::string z = tmp(), m = tmp();
    return fmt::format("({{ int {0} = {1};{2} int {3} = s[{4} + {0}]; {3} ? zc(s[{5} + {0} * {6} + {7}]) : (int64_t)-1; }})", z,
                       Z(k.kid[0]), keep.empty() ? "" : fmt::format(" {} = {};", keep, z), m, l_.zone_size, l_.zone_cards,
                       g_.card_count, k.op == NodeOp::top ? m + " - 1" : std::string("0"));
  }
  // The zone instances a zone node may stand for, first and last: a shared zone's one, a
  // per-player zone's, one a seat, a per-component zone's, one a card of its kind (and a
  // seat); all of them where the zone is worked out otherwise.
  Span all_instances() const { return {0, static_cast<int>(g_.instance_zone.size()) - 1}; }
  Span instances(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::zone: return {k.a, k.a};
      case NodeOp::local: {
        auto arg = inline_spans_.find(k.a);  // a parameter of a procedure written in its call
        if (arg != inline_spans_.end()) return arg->second;
        auto it = zone_locals_.find(k.a);
        return it != zone_locals_.end() ? it->second : all_instances();
      }
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return {k.a, k.a + g_.max_players - 1};
      case NodeOp::zone_of: {
        int first = g_.zones[k.a].first_instance;
        return {first, first + g_.max_players - 1};
      }
      case NodeOp::card_zone_of: {
        const ZoneInfo& z = g_.zones[k.a];
        return {z.first_instance, z.first_instance + g_.kinds[z.kind].card_count * (z.per_player ? g_.max_players : 1) - 1};
      }
      default: return all_instances();
    }
  }
  // The kernel's tables for moving a card from a zone among instances `from` to one among
  // `to`: T, or a struct like it whose tables the move reads (ISTOP and OWNBIT of the zone
  // left, VIS and ISET of the zone entered) are constants where all the instances agree, as
  // a per-player zone's do but for the owner, so that the compiler folds the tests on them.
  std::string move_tables(Span from, Span to) {
    const KernelTables& k = g_.kernel;
    std::string members;
    auto member = [&](const char* type, const char* name, auto& table, Span span) {
      int64_t v = same(table, span);
      if (v >= 0 && v != same(table, all_instances())) members += " " + kernel_table(type, name, table, span);
    };
    member("uint8_t", "VIS", k.VIS, to);
    member("uint8_t", "ISET", k.ISET, to);
    member("uint8_t", "ISTOP", k.ISTOP, from);
    member("uint32_t", "OWNBIT", k.OWNBIT, from);
    if (members.empty()) return "T";
    auto [it, added] = move_tables_.try_emplace(members, move_tables_.size());
    if (added) kernel_structs_ += fmt::format("struct KT{0} : KT {{{1} }};\nstatic constexpr KT{0} T{0}{{}};\n", it->second, members);
    return fmt::format("T{}", it->second);
  }

  // Two operands evaluated left to right, then combined by the kernel's checked_OP
  // (runtime/kernel.hpp), which the interpreter calls too: the same results and errors.
  // add, sub and mul fail only when too large (a bool); div and mod say why (an int).
  // Where the operands' ranges show add, sub or mul cannot overflow, it is plain C++.
  std::string checked(int n, const char* op) {
    const Node& k = node(n);
    if ((k.op == NodeOp::add || k.op == NodeOp::sub || k.op == NodeOp::mul) &&
        !may_overflow(k.op, range(k.kid[0]), range(k.kid[1])))
      return binary(n, k.op == NodeOp::add ? "+" : k.op == NodeOp::sub ? "-" : "*");
    std::string a = tmp(), b = tmp(), r = tmp(), f = tmp();
    bool why = op == std::string_view("div") || op == std::string_view("mod");
    return fmt::format("({{ int64_t {0} = {1}; int64_t {2} = {3}, {4}; if ({8} {7} = checked_{5}({0}, {2}, &{4})) arithmetic(c, {7}, {6}); {4}; }})",
                       a, e(node(n).kid[0]), b, e(node(n).kid[1]), r, op, n, f, why ? "int" : "bool");
  }
  // One operand, by the kernel's checked_OP (neg, abs: true when too large).
  std::string checked_unary(int n, const char* op) {
    if (range(node(n).kid[0]).lo > INT64_MIN) {  // cannot overflow
      std::string a = tmp();
      bool neg = op == std::string_view("neg");
      return fmt::format("({{ int64_t {0} = {1}; (int64_t)({2}); }})", a, e(node(n).kid[0]),
                         neg ? "-" + a : fmt::format("{0} < 0 ? -{0} : {0}", a));
    }
    std::string r = tmp();
    return fmt::format("({{ int64_t {0}; if (checked_{1}({2}, &{0})) fail(c, kata_overflow, {3}); {0}; }})", r, op,
                       e(node(n).kid[0]), n);
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
    std::vector<std::string> coordinates;  // (local: a coordinate may hold a lookup too)
    for (int d = 0; d < t.dims; ++d) {
      std::string v = tmp();
      coordinates.push_back(v);
      s += fmt::format(" int64_t {} = {};", v, e(k.kid[d]));
      test += fmt::format(" || {0} < {1}LL || {0} > {2}LL", v, t.lo[d], t.hi[d]);
      index = fmt::format("({}) * {} + ({} - {}LL)", index, t.hi[d] - t.lo[d] + 1, v, t.lo[d]);
    }
    if (t.table.empty()) return s + " (int64_t)-1; })";
    // What the table holds, told to the compiler: past a test against `none`, the checks
    // of the card (chkC, chkCK) fold away.
    Range r = card_at_range(k.a);
    std::string v = tmp();
    if (r.lo > r.hi) return s + " (int64_t)-1; })";
    // A table without holes: -1 only off its bounds, a card from the table itself (so that
    // where the bounds hold, as the compiler often knows, the test of `none` folds).
    // Bytes (card_at_bytes) need no hint: the compiler sees from the type that they are
    // not none, and the hint's test, after a spend in a loop, stayed a branch.
    if (card_at_bytes(k.a)) {
      std::string at;
      int padded = padded_table(n, coordinates, at);
      if (padded >= 0) return s + fmt::format(" (int64_t)LP{}[{}]; }})", padded, at);
      return s + fmt::format(" int64_t {0} = ({1}) ? (int64_t)-1 : (int64_t)LK{2}[{3}]; {0}; }})", v, test, k.a, index);
    }
    if (card_at_full(k.a))
      return s + fmt::format(" int64_t {0} = ({1}) ? (int64_t)-1 : ({{ int64_t {6} = LK{2}[{3}]; if (!({6} >= {4} && {6} <= {5})) __builtin_unreachable(); {6}; }}); {0}; }})",
                             v, test, k.a, index, r.lo, r.hi, tmp());
    return s + fmt::format(" int64_t {0} = ({1}) ? (int64_t)-1 : (int64_t)LK{2}[{3}]; if (!({0} == -1 || ({0} >= {4} && {0} <= {5}))) __builtin_unreachable(); {0}; }})",
                           v, test, k.a, index, r.lo, r.hi);
  }
  // ---- lookups padded to their coordinates' ranges ----
  // A lookup in a table of bytes (card_at_bytes) whose coordinates each have a known range
  // (a square's column plus a few steps in a direction: -4 to 11 on a board of 7) reads a
  // copy of the table widened to those ranges, with none (-1) in each cell off the board:
  // the same card or none, without the tests of the bounds, which the processor
  // mispredicts at a board's edge. At most 4,096 cells; a copy for each lookup and set of
  // ranges (LP<i>), written before the functions (padded_).
  int padded_table(int n, const std::vector<std::string>& coordinates, std::string& at) {
    const Node& k = node(n);
    const CardLookup& t = p_.lookups[k.a];
    int64_t lo[3], width[3], cells = 1;
    for (int d = 0; d < t.dims; ++d) {
      Range r = range(k.kid[d]);
      if (r.lo > r.hi || r.lo < -4096 || r.hi > 4096) return -1;
      lo[d] = r.lo, width[d] = r.hi - r.lo + 1, cells *= width[d];
      if (cells > 4096) return -1;
    }
    std::string key = fmt::format("{}", k.a);
    for (int d = 0; d < t.dims; ++d) key += fmt::format(":{}:{}", lo[d], width[d]);
    auto [it, added] = padded_tables_.try_emplace(key, static_cast<int>(padded_tables_.size()));
    if (added) {
      std::vector<int32_t> cells_of(static_cast<size_t>(cells), -1);
      for (int64_t i = 0; i < cells; ++i) {
        int64_t v[3] = {0, 0, 0}, rest = i;
        for (int d = t.dims - 1; d >= 0; --d) v[d] = lo[d] + rest % width[d], rest /= width[d];
        cells_of[static_cast<size_t>(i)] = t.find(v);
      }
      padded_ += table_text(g_.card_count < 128 ? "int8_t" : "int16_t", fmt::format("LP{}", it->second).c_str(), cells_of);
    }
    at = "0";
    for (int d = 0; d < t.dims; ++d)
      at = fmt::format("({}) * {} + ({} - ({}LL))", at, width[d], coordinates[static_cast<size_t>(d)], lo[d]);
    return it->second;
  }
  // Argument i of the decision being listed: a C++ local where nothing of the action is
  // handed back to the interpreter (which reads c.args), else c.args.
  std::string arg(int i) const { return local_args_ ? fmt::format("A{}", i) : fmt::format("c.args[{}]", i); }
  // The host's evaluation of node n: the budget it spends is c.work, W's value handed over
  // and taken back (where W is a local, it stays one: its address is never taken).
  std::string host_eval(int n) {
    return fmt::format("({{ c.work = W; int64_t hv = H.eval(c.host, c.s, c.args, c.env, {}, {}, &c.work); W = c.work; hv; }})", base_, n);
  }

  // ---- expressions ----
  // The C++ of an expression node. What each node writes itself (its text less its
  // operands') is counted as it is written, and past the limit the generator stops there:
  // a rule file whose C++ would be huge is refused at the expression that makes it so,
  // having cost no more than the limit to write (times the expression's depth, as each
  // node copies its operands' text).
  std::string e(int n) {
    size_t outer = operands_;
    operands_ = 0;
    // Outside functions, each expression is a scope of its own (from depth 0).
    bool top = !in_function_ && depth_ == 0;
    if (top) frame_ = hands_back(n, false);
    ++depth_;
    std::string text = expression(n);
    --depth_;
    written_ += text.size() - std::min(text.size(), operands_);
    operands_ = outer + text.size();
    if (written_ > limit_) throw TooLarge{n};
    return text;
  }

  KATA_EXHAUSTIVE_BEGIN  // every node kind (ops.hpp)
  std::string expression(int n) {
    const Node& k = node(n);
    const int a = k.a, k0 = k.kid[0], k1 = k.kid[1], k2 = k.kid[2];
    switch (k.op) {
      case NodeOp::constant: return fmt::format("(int64_t){}", a);
      case NodeOp::option: return fmt::format("(int64_t)s[{}]", l_.options + a);
      case NodeOp::global: return fmt::format("(int64_t)s[{}]", l_.globals + a);
      case NodeOp::local: return fmt::format("(int64_t)s[{}]", l_.locals + a);
      case NodeOp::bound: return frame_var(a);
      case NodeOp::arg: return fmt::format("(int64_t){}", arg(a));
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
      case NodeOp::prop_arg: return fmt::format("PROPS[{} + {}]", a * g_.card_count, card(var(k.op, k.b), var_range(k.op, k.b), k0));
      case NodeOp::card_var_local:
      case NodeOp::card_var_bound:
      case NodeOp::card_var_arg: {
        const VarInfo& v = g_.card_vars[a];
        return fmt::format("(int64_t)s[{} + ({} - {})]", l_.card_vars + v.base,
                           card_of_kind(var(k.op, k.b), var_range(k.op, k.b), v.kind, k0), g_.kinds[v.kind].first_card);
      }
      case NodeOp::player_var: return fmt::format("(int64_t)s[{} + {}]", l_.player_vars + a * g_.max_players, P(k0));
      case NodeOp::zone_of: return fmt::format("(int64_t)({} + {})", g_.zones[a].first_instance, P(k0));
      case NodeOp::prop: return fmt::format("PROPS[{} + {}]", a * g_.card_count, C(k0));
      case NodeOp::card_var: return fmt::format("(int64_t)s[{}]", card_var_slot(n));
      case NodeOp::card_zone_of: {
        const ZoneInfo& z = g_.zones[a];
        std::string cv = tmp();
        const KindInfo& kind = g_.kinds[z.kind];
        Range r = range(k0);
        // A card known to be of the kind: its zone in 64 bits, the card as read plus the
        // zone's offset, which the compiler folds into an index (an int took a sign
        // extension and an add more at each read).
        if (!z.per_player && kind_contiguous(z.kind) && r.lo >= kind.first_card && r.hi < kind.first_card + kind.card_count)
          return fmt::format("((int64_t)({}) + {})", e(k0), z.first_instance - kind.first_card);
        if (!z.per_player)
          return fmt::format("({{ int {} = {}; (int64_t)({} + ({} - {})); }})", cv, CK(k0, z.kind), z.first_instance,
                             cv, kind.first_card);
        std::string pv = tmp();
        return fmt::format("({{ int {} = {}; int {} = {}; (int64_t)({} + ({} - {}) * {} + {}); }})", cv, CK(k0, z.kind),
                           pv, P(k1), z.first_instance, cv, g_.kinds[z.kind].first_card, g_.max_players, pv);
      }
      case NodeOp::card_owner: return fmt::format("(int64_t)OWNER[{}]", C(k0));
      case NodeOp::neg: return checked_unary(n, "neg");
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
      case NodeOp::div: return checked(n, "div");
      case NodeOp::mod: return checked(n, "mod");
      case NodeOp::and_: {
        std::string owned = owned_test(n);
        if (!owned.empty()) return owned;
        if (eager_) return fmt::format("(int64_t)((({}) != 0) & (({}) != 0))", e(k0), e(k1));
        std::string fused = nonempty_and(n);
        if (!fused.empty()) return fused;
        return fmt::format("(int64_t)(({}) && ({}))", e(k0), e(k1));
      }
      case NodeOp::or_:
        if (eager_) return fmt::format("(int64_t)((({}) != 0) | (({}) != 0))", e(k0), e(k1));
        return fmt::format("(int64_t)(({}) || ({}))", e(k0), e(k1));
      case NodeOp::cond: return fmt::format("(({}) ? ({}) : ({}))", e(k0), e(k1), e(k2));
      KATA_AGGREGATE_NODES(KATA_NODE_CASE) return aggregate(n);
      case NodeOp::call: return call(n);
      case NodeOp::player_count: return "(int64_t)n";
      case NodeOp::top:
        if (nonempty_ >= 0 && same_node(k0, nonempty_)) return "(int64_t)" + nonempty_top_;
        return end_card(n, "");
      case NodeOp::bottom: return end_card(n, "");
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
        return fmt::format("({{ int {} = {}; (int64_t)is_visible(T, c.s, {}, {}); }})", pv, P(k0), pv, C(k1));
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
      case NodeOp::abs: return checked_unary(n, "abs");
      case NodeOp::min_of: return binary_pick(n, "<");
      case NodeOp::max_of: return binary_pick(n, ">");
      case NodeOp::card_at: return card_at(n);
      case NodeOp::block: {
        // A computed function's statements (Evaluator::eval_rest): each in turn, the last one's value.
        if (k.kid_count == 0) return "(int64_t)0";
        std::string s = "({";
        for (int i = 0; i + 1 < k.kid_count; ++i) {
          int at = p_.kids[k.first_kid + i];
          std::string counted = i > 0 ? counted_loop(p_.kids[k.first_kid + i - 1], at) : "";
          s += fmt::format(" (void)({});", counted.empty() ? e(at) : counted);
        }
        return s + fmt::format(" (int64_t)({}); }})", e(p_.kids[k.first_kid + k.kid_count - 1]));
      }
      case NodeOp::set_bound: {
        // A parameter has a C++ name (frame_var); a `let` or a loop's variable lives in the
        // frame. Where nodes are handed back, the frame holds the parameter too.
        std::string slot = tmp(), v = tmp();
        auto named = names_.find(a);
        std::string to_name = named != names_.end() ? fmt::format(" {} = {};", named->second, v) : "";
        std::string to_frame = named == names_.end() || frame_ ? fmt::format(" c.env[{}] = {};", slot, v) : "";
        return fmt::format("({{ int {0} = {1} + {2}; if ({0} >= 256) fail(c, kata_nested, {3}); int64_t {4} = {5};{6}{7} (void){0}; (int64_t)0; }})",
                           slot, base_, a, n, v, e(k0), to_name, to_frame);
      }
      case NodeOp::loop_while:
        return fmt::format("({{ while ({}) {{ spend(c, W, {}); (void)({}); }} (int64_t)0; }})", e(k0), n, e(k1));
      case NodeOp::loop_times: {
        std::string count = tmp(), i = tmp();
        return fmt::format("({{ int64_t {0} = {1}; for (int64_t {2} = 0; {2} < {0}; ++{2}) {{ spend(c, W, {3}); (void)({4}); }} (int64_t)0; }})",
                           count, e(k0), i, n, e(k1));
      }
      case NodeOp::loop_for: return loop_for(n);
      case NodeOp::linked:
      case NodeOp::position:
      case NodeOp::repetitions:
      KATA_LIST_NODES(KATA_NODE_CASE) return host_eval(n);  // and a list, which cannot be a value
    }
    return host_eval(n);  // no kind is left: a node out of the table
  }
  KATA_EXHAUSTIVE_END

  KATA_EXHAUSTIVE_BEGIN  // every list, and a zone
  // A loop over a list node's elements, in list order: `body` runs with `x` bound (an
  // int64_t); in the body, `continue` goes on to the next element. With `runs`, a list of
  // players from a start is two runs of one loop (the start to the last seat, then the first
  // to the start) instead of a seat wrapped around at each round: for a short body, such as
  // a `for`'s gathering, where the runs' set-up costs less than the wrapping it saves.
  std::string each(int n, const std::string& x, const std::string& body, bool runs = false) {
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
        std::string st = tmp(), pv = tmp(), end = tmp();
        if (!runs)
          return fmt::format(
              "{{ int {0} = {1}; for (int {2} = 0; {2} < n; ++{2}) {{ int {3} = {0} + {2}; if ({3} >= n) {3} -= n; if (s[{4} + {3}]) continue; int64_t {5} = {3}; {6} }} }}",
              st, P(k.kid[1]), i, pv, l_.eliminated, x, body);
        return fmt::format(
            "{{ int {0} = {1}; for (int {2} = 0, {3} = {0}, {4} = n; {2} < 2; ++{2}, {3} = 0, {4} = {0}) for (; {3} < {4}; ++{3}) {{ if (s[{5} + {3}]) continue; int64_t {6} = {3}; {7} }} }}",
            st, P(k.kid[1]), i, pv, end, l_.eliminated, x, body);
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
      KATA_LEAF_NODES(KATA_NODE_CASE)
      KATA_INNER_NODES(KATA_NODE_CASE)
      KATA_REST_NODES(KATA_NODE_CASE) {
        // A zone: its cards, bottom first.
        std::string z = tmp(), m = tmp();
        return fmt::format(
            "{{ int {0} = {1}; const int32_t* {2}c = s + {3} + {0} * {4}; int {2} = s[{5} + {0}]; for (int {6} = 0; {6} < {2}; ++{6}) {{ int64_t {7} = zc({2}c[{6}]); {8} }} }}",
            z, Z(n), m, l_.zone_cards, g_.card_count, l_.zone_size, i, x, body);
      }
    }
    // Left to the interpreter: walks, and turn order over a list other than `players`.
    std::string buf = tmp(), m = tmp();
    return fmt::format(
        "{{ int32_t {0}[CC + 16]; c.work = W; int {1} = H.list(c.host, c.s, c.args, c.env, {2}, {3}, {0}, CC + 16, &c.work); W = c.work; for (int {4} = 0; {4} < {1}; ++{4}) {{ int64_t {5} = {0}[{4}]; {6} }} }}",
        buf, m, base_, n, i, x, body);
  }
  KATA_EXHAUSTIVE_END

  // The elements a `for` goes over (Evaluator::gather), into `buf`, counted in `cnt`: the
  // list, at most `cap` of them, then those that pass `where` (-1: none) with `var` bound
  // to each; for the statement (Op::for_init) and a computed function's loop alike.
  std::string gather(int list, int where, int cap, const std::string& buf, const std::string& cnt, const std::string& var) {
    std::string x = tmp();
    // A list of players never holds more than the seats. Nothing then fails while the list
    // is gathered, and `where` is tested as each player is: the buffer ends as the two
    // passes leave it (the kept players first, then the list's own from there on).
    bool seats = player_list(node(list)) && cap >= g_.max_players;
    if (seats && where >= 0) {
      std::string kept = tmp();
      std::string each_one = fmt::format("{0}[{1}++] = {2}; {3} = {2}; if ({4}) {0}[{5}++] = {2};", buf, cnt, x, var, e(where), kept);
      return fmt::format("int {0} = 0; {1} {2} = {0};", kept, each(list, x, each_one, true), cnt);
    }
    std::string keep = seats ? fmt::format("{}[{}++] = {};", buf, cnt, x)
                             : fmt::format("if ({0} >= {1}) fail(c, kata_long_loop, {2}, {1}); {3}[{0}++] = {4};", cnt, cap, list, buf, x);
    std::string s = each(list, x, keep, true);
    if (where >= 0) {
      std::string kept = tmp(), i = tmp();
      s += fmt::format(" int {0} = 0; for (int {1} = 0; {1} < {2}; ++{1}) {{ {3} = {4}[{1}]; if ({5}) {4}[{0}++] = {4}[{1}]; }} {2} = {0};",
                       kept, i, cnt, var, buf, e(where));
    }
    return s;
  }

  // `for` in a computed function (Evaluator::loop_for): the list and `where` first, into a
  // buffer of the loop's capacity; then the body for each element, a step a round.
  std::string loop_for(int n) {
    const Node& k = node(n);
    int list = k.kid[0], where = k.kid[1], body = k.kid[2], cap = k.b;
    std::string slot = tmp(), buf = tmp(), cnt = tmp();
    // The buffer on the stack when small (players, numbers, a small game's cards), else on
    // the heap (the evaluator keeps up to 64 on its stack: where it stands changes no result).
    std::string storage = cap <= 256 ? fmt::format("int64_t {}[{}];", buf, std::max(cap, 1))
                                     : fmt::format("Heap<int64_t> {0}v({1}, 0); int64_t* {0} = {0}v.data();", buf, cap);
    std::string s = fmt::format("({{ int {0} = {1} + {2}; if ({0} >= 256) fail(c, kata_nested, {3}); {4} int {5} = 0; ",
                                slot, base_, k.a, n, storage, cnt);
    // The variable: a C++ local where the function's are (function()), else in the frame.
    auto named = names_.find(k.a);
    std::string var = named != names_.end() && !frame_ ? named->second : fmt::format("c.env[{}]", slot);
    s += gather(list, where, cap, buf, cnt, var);
    std::string j = tmp();
    s += fmt::format(" for (int {0} = 0; {0} < {1}; ++{0}) {{ spend(c, W, {2}); {3} = {4}[{0}]; (void)({5}); }} (int64_t)0; }})",
                     j, cnt, n, var, buf, e(body));
    return s;
  }

  // An aggregate: a statement expression around a loop over its domain; `any`, `all` and
  // `find` leave the loop by a jump to the end (no lambda, so it is one function with the
  // code around it, its variables in registers).
  std::string aggregate(int n) {
    const Node& k = node(n);
    int domain = k.kid[0], where = k.kid[1], value = k.kid[2];
    std::string slot = tmp(), acc = tmp(), found = tmp(), key = tmp(), x = tmp(), done = tmp(), work = tmp();
    // The budget a round spends: counted in a local, written back after the loop, where
    // nothing else in the loop, nor the listing of its domain, spends or reads it (a failure
    // does not read it).
    bool own_work = !domain_spends(domain) && (where < 0 || !spends(where)) && (value < 0 || !spends(value));
    std::string body = own_work ? fmt::format("if (__builtin_expect(--{} < 0, 0)) fail(c, kata_work, {});", work, n)
                                : fmt::format("spend(c, W, {});", n);
    if (frame_) body += fmt::format(" c.env[{}] = {};", slot, x);
    bool had_name = names_.count(k.a) > 0;
    std::string outer_name = had_name ? names_[k.a] : std::string();
    names_[k.a] = x;
    bool had_range = ranges_.count(k.a) > 0;
    Range outer_range = frame_range(k.a);
    ranges_[k.a] = elements(domain);
    // Over players, the variable is a seat: reads of it need no check.
    bool was_safe = safe_depths_.count(k.a) > 0;
    if (player_list(node(domain))) safe_depths_.insert(k.a);
    else safe_depths_.erase(k.a);
    if (where >= 0) body += fmt::format(" if (!({})) continue;", e(where));
    bool leaves = false;  // whether the loop may end early
    switch (k.op) {
      case NodeOp::sum:
        body += fmt::format(" if (checked_add({0}, (int64_t)({1}), &{0})) fail(c, kata_overflow, {2});", acc, e(value), n);
        break;
      case NodeOp::count: body += fmt::format(" ++{};", acc); break;
      case NodeOp::any:
        leaves = true;
        body += value < 0 ? fmt::format(" {{ {} = 1; goto {}; }}", acc, done)
                          : fmt::format(" if ({}) {{ {} = 1; goto {}; }}", e(value), acc, done);
        break;
      case NodeOp::all:
        leaves = value >= 0;
        if (value >= 0) body += fmt::format(" if (!({})) {{ {} = 0; goto {}; }}", e(value), acc, done);
        break;
      case NodeOp::find:
        leaves = true;
        body += fmt::format(" {} = {}; {} = true; goto {};", acc, x, found, done);
        break;
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
    if (had_name) names_[k.a] = outer_name;
    else names_.erase(k.a);
    if (had_range) ranges_[k.a] = outer_range;
    else ranges_.erase(k.a);
    bool maybe_none = k.op == NodeOp::best || k.op == NodeOp::worst || k.op == NodeOp::find;
    std::string result = maybe_none ? fmt::format("{} ? {} : (int64_t)-1", found, acc) : acc;
    return fmt::format(
        "({{ int {0} = {1} + {2}; if ({0} >= 256) fail(c, kata_nested, {3}); (void){0}; int64_t {4} = {5}; bool {6} = false; int64_t {7} = 0; (void){6}; (void){7}; {11}{8} {9}{12}{10}; }})",
        slot, base_, k.a, n, acc, k.op == NodeOp::all ? 1 : 0, found, key, each(domain, x, body),
        leaves ? done + ": " : "", result, own_work ? fmt::format("int64_t {} = W; ", work) : "",
        own_work ? fmt::format("W = {}; ", work) : "");
  }

  // ---- a run counted by a loop, without branches ----
  // `let k = K0` then `while k < K and f(...) { k += 1 }` (a computed function's statements:
  // how far a line of one player's pieces goes), 1 to 4 rounds at most: the loop's exit,
  // at a piece that is not the player's, is a branch the processor mispredicts each time.
  // Where f is a leaf (its body can neither fail nor spend nor call, leaf_functions_) and
  // its arguments cannot fail for any k the loop could reach (counted_safe), f is worked
  // out for each k from K0 to K - 1, and the run is the count of those that hold before
  // the first that does not; the budget is charged at once what the loop would have spent
  // (a call and a round for each k it passes, and the call that stops it), and where it
  // holds less, the loop's failure is raised at the step the loop would have stopped at.
  // The same value, the same budget left or the same error, no other effect: f's calls
  // past the end change nothing.
  std::string counted_loop(int set, int loop) {
    const Node &st = node(set), &lp = node(loop);
    if (st.op != NodeOp::set_bound || node(st.kid[0]).op != NodeOp::constant || lp.op != NodeOp::loop_while || frame_)
      return "";
    int a = st.a;
    auto var_name = names_.find(a);
    if (var_name == names_.end()) return "";
    const Node& cond = node(lp.kid[0]);
    if (cond.op != NodeOp::and_) return "";
    const Node &bound = node(cond.kid[0]), &test = node(cond.kid[1]);
    if (bound.op != NodeOp::lt || node(bound.kid[0]).op != NodeOp::bound || node(bound.kid[0]).a != a ||
        node(bound.kid[1]).op != NodeOp::constant || test.op != NodeOp::call)
      return "";
    int64_t k0 = node(st.kid[0]).a, rounds = static_cast<int64_t>(node(bound.kid[1]).a) - k0;
    if (rounds < 1 || rounds > 4) return "";
    // The body: `k += 1`, alone (in a block of one statement or not).
    int body = lp.kid[1];
    if (node(body).op == NodeOp::block && node(body).kid_count == 1) body = p_.kids[node(body).first_kid];
    const Node& step = node(body);
    if (step.op != NodeOp::set_bound || step.a != a || node(step.kid[0]).op != NodeOp::add) return "";
    const Node& plus = node(step.kid[0]);
    if (node(plus.kid[0]).op != NodeOp::bound || node(plus.kid[0]).a != a || node(plus.kid[1]).op != NodeOp::constant ||
        node(plus.kid[1]).a != 1)
      return "";
    if (!leaf_functions_.count(test.a)) return "";
    for (int i = 0; i < test.kid_count; ++i) {
      int arg = p_.kids[test.first_kid + i];
      if (spends(arg) || !counted_safe(arg, a)) return "";
    }
    // f at each k: the loop's variable a constant there, its range that value alone.
    bool had_range = ranges_.count(a) > 0;
    Range outer = frame_range(a);
    std::string var = var_name->second, tests, run;
    std::vector<std::string> held;
    counted_ = true;  // (the calls' steps charged below, all at once)
    for (int64_t i = 0; i < rounds; ++i) {
      names_[a] = fmt::format("(int64_t){}", k0 + i);
      ranges_[a] = span(k0 + i, k0 + i);
      held.push_back(tmp());
      tests += fmt::format(" int64_t {} = ({}) != 0;", held.back(), e(cond.kid[1]));
    }
    counted_ = false;
    names_[a] = var;
    if (had_range) ranges_[a] = outer;
    else ranges_.erase(a);
    for (int64_t i = 0; i < rounds; ++i) {
      std::string all = held[0];
      for (int64_t j = 1; j <= i; ++j) all += " & " + held[static_cast<size_t>(j)];
      run += (i ? " + (" : "(") + all + ")";
    }
    // The loop's steps: a call, then a round if it held, and so on; where the budget runs
    // out on the way, the step it runs out at (the W-th from 0) is a call's if W is even,
    // a round's if odd.
    std::string r = tmp(), need = tmp();
    return fmt::format(
        "({{{0} int64_t {1} = {2}; int64_t {3} = ({1} < {4} ? {1} + 1 : {4}) + {1};"
        " if (__builtin_expect(W < {3}, 0)) fail(c, kata_work, (W & 1) ? {5} : {6}); W -= {3}; {7} = {8} + {1}; (int64_t)0; }})",
        tests, r, run, need, rounds, loop, cond.kid[1], var, k0);
  }
  // Whether node n, an argument of a counted loop's test, cannot fail for any value of the
  // loop's variable (depth a) the loop reaches where it did not fail for the first: its
  // parts that do not read the variable are worked out as for the first value; those that
  // do are arithmetic that cannot overflow on the variable's range, lookups by
  // coordinates (none off the table: no failure), comparisons, or the variable itself.
  bool counted_safe(int n, int a) const {
    if (!reads_bound(n, a)) return true;
    const Node& k = node(n);
    auto kids = [&]() {  // (the kinds below keep their operands in kid[])
      for (int i = 0; i < 3; ++i)
        if (k.kid[i] >= 0 && !counted_safe(k.kid[i], a)) return false;
      return true;
    };
    switch (k.op) {
      case NodeOp::bound: return true;
      case NodeOp::add:
      case NodeOp::sub:
      case NodeOp::mul: return !may_overflow(k.op, range(k.kid[0]), range(k.kid[1])) && kids();
      case NodeOp::card_at: return p_.lookups[k.a].dense && kids();
      case NodeOp::eq:
      case NodeOp::ne:
      case NodeOp::lt:
      case NodeOp::le:
      case NodeOp::gt:
      case NodeOp::ge:
      case NodeOp::min_of:
      case NodeOp::max_of: return kids();
      default: return false;
    }
  }
  // Whether node n reads the frame variable at depth a (its kids; a call's arguments and a
  // block's statements are its list, as find_param_ranges walks them).
  bool reads_bound(int n, int a) const {
    const Node& k = node(n);
    if (k.op == NodeOp::bound && k.a == a) return true;
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0 && reads_bound(k.kid[i], a)) return true;
    if (k.op == NodeOp::call || k.op == NodeOp::block)
      for (int i = 0; i < k.kid_count; ++i)
        if (reads_bound(p_.kids[k.first_kid + i], a)) return true;
    return false;
  }

  std::string call(int n) {
    const Node& k = node(n);
    const Function& f = p_.functions[k.a];
    std::string nb = tmp();
    std::string s = fmt::format("({{ int {0} = {1} + {2}; if ({0} + {3} + 1 >= 256) fail(c, kata_nested_functions, {4});{5}",
                                nb, base_, k.b, f.params, n, counted_ ? "" : fmt::format(" spend(c, W, {});", n));
    std::vector<std::string> args;
    for (int i = 0; i < k.kid_count; ++i) {
      args.push_back(tmp());
      s += fmt::format(" int64_t {} = {};", args.back(), e(p_.kids[k.first_kid + i]));
    }
    std::string rest = nb;
    for (int i = 0; i < k.kid_count; ++i) rest += ", " + args[i];
    if (needs_tops_[static_cast<size_t>(k.a)])
      return s + fmt::format(" tw_on ? G{0}(c, W, tw, {1}) : F{0}(c, W, {1}); }})", k.a, rest);
    return s + fmt::format(" F{}(c, W, {}); }})", k.a, rest);
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
    // Where a run can start or come back to: the flow, and the instruction after each
    // choose, call and phase (and, in chunks, the actions: find_chunks).
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
    text_.assign(p_.code.size(), "");
    size_t size = 0;
    for (size_t pc = 0; pc < p_.code.size(); ++pc) size += (text_[pc] = instr(static_cast<int>(pc))).size();
    chunked_ = size > whole_size;
    if (!chunked_) {
      inline_calls();
      return;
    }
    find_chunks(text_);
    std::vector<std::string> bodies(chunks_.size());
    for (size_t k = 0; k < chunks_.size(); ++k) bodies[k] = chunk_body(static_cast<int>(k), text_);
    for (size_t k = 0; k < chunks_.size(); ++k) {
      std::string f = fmt::format("int kata_c{}(KataCtx& c, int pc, int64_t* sp) {{\n  int32_t* s = c.s;\n  const int n = c.n;\n  int64_t& W = c.work;\n  (void)s; (void)n;\n  int64_t steps = *sp;\n  switch (pc) {{\n", k);
      for (int pc : chunk_entries_[k]) f += fmt::format("    case {0}: goto I{0};\n", pc);
      f += "    default: __builtin_trap();\n  }\n" + bodies[k] + "}\n";
      declare_ += fmt::format("KATA_LOCAL int kata_c{}(KataCtx& c, int pc, int64_t* sp);\n", k);
      units_.push_back(std::move(f));
    }
  }

  // A procedure that calls nothing, offers no decision and ends nothing (a leaf): its
  // instructions, from its entry to the return that ends them, or {-1, -1}.
  std::pair<int, int> leaf_body(const Procedure& proc) const {
    int far = proc.entry;  // the furthest instruction a jump so far goes to
    for (int pc = proc.entry; pc < static_cast<int>(p_.code.size()); ++pc) {
      const Instr& in = p_.code[pc];
      int to = -1;
      switch (in.op) {
        case Op::choose:
        case Op::call:
        case Op::phase:
        case Op::win:
        case Op::end_game:
        case Op::halt: return {-1, -1};
        case Op::jump: to = in.a; break;
        case Op::jump_if_not:
        case Op::for_init:
        case Op::for_next:
        case Op::repeat_next: to = in.b; break;
        case Op::ret:
          if (in.a == proc.ret_slot && pc >= far) return {proc.entry, pc};
          break;
        default: break;
      }
      if (to >= 0 && to < proc.entry) return {-1, -1};
      far = std::max(far, to);
    }
    return {-1, -1};
  }

  // In a program written whole, a call of a leaf procedure is written with the procedure's
  // instructions in place (labels of their own), its return a jump back: no return address
  // to test, and the instances of the zones its arguments are, not of all its calls',
  // for the kernel's tables (move_tables). The slots are written as the call writes them,
  // return address included, so the state is the same. The copies add up to inline_size
  // bytes of instructions at most (written twice, into kata_run and kata_playout), so that
  // the compilation stays short; the calls first in the program are copied first.
  static constexpr size_t inline_size = 16 << 10;
  void inline_calls() {
    size_t added = 0;
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      const Instr& in = p_.code[pc];
      if (in.op != Op::call) continue;
      const Procedure& proc = p_.procedures[in.a];
      if (proc.tells_only) continue;  // not called (instr)
      auto [first, last] = leaf_body(proc);
      if (first < 0) continue;
      size_t size = 0;
      for (int b = first; b <= last; ++b) size += text_[b].size();
      if (added + size > inline_size) continue;
      added += size;
      // (a parameter the procedure assigns holds other zones later: its span stays that of all)
      std::set<int> written;
      for (int b = first; b <= last; ++b) {
        const Instr& x = p_.code[b];
        if ((x.op == Op::assign && x.a == 2) || x.op == Op::repeat_init) written.insert(x.b);
        if (x.op == Op::for_init) written.insert(p_.loops[x.a].var_slot);
      }
      for (size_t i = 0; i < proc.param_slots.size(); ++i)
        if (!written.count(proc.param_slots[i])) inline_spans_[proc.param_slots[i]] = instances(p_.kids[in.b + i]);
      std::string body = text_[pc].substr(0, text_[pc].rfind(jump(proc.entry)));  // the arguments and return address
      for (int b = first; b <= last; ++b) {
        std::string t = p_.code[b].op == Op::ret ? std::string(jump(static_cast<int>(pc) + 1)) : instr(b);
        // Jumps within the procedure go to the copy's labels (I<call>_<instruction>).
        for (size_t at = t.find("@G"); at != std::string::npos; at = t.find("@G", at)) {
          size_t end = t.find('@', at + 2);
          int to = std::stoi(t.substr(at + 2, end - at - 2));
          std::string go = to >= first && to <= last ? fmt::format("goto I{}_{};", pc, to) : t.substr(at, end + 1 - at);
          t.replace(at, end + 1 - at, go);
          at += go.size();
        }
        body += fmt::format("\nI{}_{}: {}", pc, b, t);
      }
      inline_spans_.clear();
      text_[pc] = body;
    }
  }

  // The instructions are cut into chunks, each a C++ function (kata_cK), so that the
  // parts of the source compile in parallel and no code is written twice. A chunk takes
  // instructions until it holds about chunk_size bytes, then ends before the next
  // instruction that starts the flow, a procedure or an action, or that no jump within
  // the code passes over (no loop or branch is cut). A jump within a chunk is a goto; one
  // to another chunk returns its target to the driver (kata_go), which calls that chunk.
  static constexpr size_t chunk_size = 16 << 10;
  // Up to whole_size bytes of instructions, they are written whole into kata_run, and
  // again into kata_playout with each site's listing where its choose stands: calls
  // between chunks would cost a small game's playout 10 to 25 % more instructions.
  static constexpr size_t whole_size = 32 << 10;
  void find_chunks(const std::vector<std::string>& text) {
    std::set<int> starts = {0, p_.flow_entry};
    for (const Procedure& proc : p_.procedures) starts.insert(proc.entry);
    for (const Action& act : p_.actions) starts.insert(act.entry);
    // How many jumps pass over the start of each instruction (a difference array first).
    std::vector<int> over(p_.code.size() + 1, 0);
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      const Instr& in = p_.code[pc];
      int to = in.op == Op::jump ? in.a
               : in.op == Op::jump_if_not || in.op == Op::for_next || in.op == Op::repeat_next ? in.b
                                                                                                : -1;
      if (to < 0) continue;
      ++over[static_cast<size_t>(std::min(static_cast<int>(pc), to)) + 1];
      --over[static_cast<size_t>(std::max(static_cast<int>(pc), to)) + 1];
    }
    for (size_t pc = 1; pc < over.size(); ++pc) over[pc] += over[pc - 1];
    chunk_of_.assign(p_.code.size(), 0);
    chunks_.clear();
    size_t size = 0;
    for (size_t pc = 0; pc < p_.code.size(); ++pc) {
      bool cut = starts.count(static_cast<int>(pc)) || over[pc] == 0;
      if (chunks_.empty() || (cut && size >= chunk_size)) {
        chunks_.push_back({static_cast<int>(pc), static_cast<int>(pc)});
        size = 0;
      }
      size += text[pc].size();
      chunks_.back().second = static_cast<int>(pc) + 1;
      chunk_of_[pc] = static_cast<int>(chunks_.size()) - 1;
    }
    chunk_entries_.assign(chunks_.size(), {});
    for (int pc : entries_)
      if (pc < static_cast<int>(p_.code.size())) chunk_entries_[chunk_of_[pc]].insert(pc);
    for (const Action& act : p_.actions)
      if (act.entry < static_cast<int>(p_.code.size())) chunk_entries_[chunk_of_[act.entry]].insert(act.entry);
  }

  // An instruction's jumps and exits are written as markers (jump(), return_test(), and
  // @R@ a return to r, @Cs@ a choose at site s, @E@ the flow's end, @W@ after a win),
  // resolved by where its text goes: into chunk k, a function of its own, where a jump out
  // of the chunk returns its target (an entry of its chunk) and a choose or a win -1, the
  // end -2; or, for k < 0, into the one function that holds every instruction (kata_run,
  // or kata_playout if fused_).
  std::string resolve(const std::string& t, int k) {
    std::string out;
    auto leave = [&](int to) {
      if (k >= 0 && to >= static_cast<int>(p_.code.size())) return std::string("{ *sp = steps; return -2; }");
      if (k < 0 || chunk_of_[to] == k) return fmt::format("goto I{};", to);
      chunk_entries_[chunk_of_[to]].insert(to);
      return fmt::format("{{ *sp = steps; return {}; }}", to);
    };
    for (size_t at = 0; at < t.size();) {
      size_t m = t.find('@', at);
      if (m == std::string::npos) {
        out.append(t, at, std::string::npos);
        break;
      }
      out.append(t, at, m - at);
      size_t end = t.find('@', m + 1);
      std::string arg = t.substr(m + 2, end - m - 2);
      switch (t[m + 1]) {
        case 'G': out += leave(std::stoi(arg)); break;
        case 'T':
          if (k < 0 || chunk_of_[std::stoi(arg)] == k) out += fmt::format("if (r == {0}) goto I{0};", arg);
          break;
        case 'R': out += k < 0 ? "pc = r; goto dispatch;" : "*sp = steps; return r;"; break;
        case 'C': out += k >= 0 ? std::string("return -1;") : fused_ ? fmt::format("goto decide{};", arg) : std::string("return;"); break;
        case 'E': out += k < 0 ? "goto finish;" : "return -2;"; break;
        // The owner sets kata_playout keeps (kept_sets()): a zone's bits after a move (@U<zone>@),
        // all of them (@V@), and the zone a card is taken from, before the move (@O@).
        case 'U':
          if (k < 0 && fused_) {
            for (size_t i = 0; i < os_decls_.size(); ++i) out += fmt::format("os_zone{}({});", i, arg);
            for (size_t i = 0; i < zm_zones_.size(); ++i) out += fmt::format("if ({} == {}) zm_all{}();", arg, zm_zones_[i].first, i);
            if (tops_kept_) out += fmt::format("tw_zone({});", arg);
          }
          break;
        case 'V':
          if (k < 0 && fused_) {
            for (size_t i = 0; i < os_decls_.size(); ++i) out += fmt::format("os_all{}();", i);
            for (size_t i = 0; i < zm_zones_.size(); ++i) out += fmt::format("zm_all{}();", i);
            if (tops_kept_) out += "tw_all();";
          }
          break;
        case 'O':
          if (k < 0 && fused_ && (!os_decls_.empty() || tops_kept_)) out += fmt::format("int oz = s[{} + card];", l_.card_zone);
          break;
        default: out += k < 0 ? "return;" : "return -1;"; break;  // 'W'
      }
      at = end + 1;
    }
    return out;
  }
  std::string chunk_body(int k, const std::vector<std::string>& text) {
    std::string body;
    for (int pc = chunks_[k].first; pc < chunks_[k].second; ++pc) body += fmt::format("I{}: {}\n", pc, resolve(text[pc], k));
    return body + resolve(jump(chunks_[k].second), k) + "\n";
  }
  // A jump to instruction `to`, and a return's test of one of its targets (chunk_body).
  static std::string jump(int to) { return fmt::format("@G{}@", to); }
  static std::string return_test(int to) { return fmt::format("@T{}@", to); }

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
  // known to the chooser, in no zone), as blind_zone_of tests first (here face up first, the
  // commonest; the tests read the state and nothing else, so their order changes nothing but
  // time): then the draw is made here, as the host would make it, and the host is asked
  // only otherwise.
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
  auto seen = [&](int32_t k) {{ return k < 0 || k >= CC || s[{1} + k] != 0 || s[{0} + k] < 0 || ((s[{2} + k] >> ch) & 1) != 0; }};
  bool may_be_blind = [&]() {{ for (int i = 0; i < count; ++i) {{ const int32_t* o = list + 5 * i;{3} }} return false; }}();
  if (may_be_blind) {{ H.pick(c.host, s, list, count, rngp, picked); d = picked; }} else d = list + 5 * uniform(*rngp, (uint32_t)count); }})",
        l_.card_zone, l_.card_face, l_.card_known, tests);
  }

  // A playout's decision at a site, once its `count` decisions are in `list`: one drawn
  // into `d`, counted against limits.decisions, and its position remembered, as apply()
  // does; for kata_playout's whole loop and for a chunked program's draw functions alike.
  std::string decision_drawn(size_t site) const {
    return fmt::format(R"(  if (count == 0) fail(c, kata_no_legal, s[SITE]);
  {}
  if (++s[{}] > {}) fail(c, kata_too_many_decisions, s[SITE]);
{})",
                       offers_blind(p_.sites[site]) ? blind_or_uniform(p_.sites[site])
                                                    : "d = list + 5 * uniform(*rngp, (uint32_t)count);",
                       Layout::decisions, g_.max_decisions, l_.history_cap ? "  H.remember(c.host, s);\n" : "");
  }

  // The instruction loop, for a program of up to whole_size bytes of instructions (else
  // driver()). As kata_run, it runs from the state's pc (or from a decision's action) to
  // the next choose. Fused (kata_playout, after kata_legal), it plays a random
  // game to its end: each choose lists the legal decisions, draws one with the rng, binds
  // it and goes on, as random_playout's loop of legal_decisions and apply would.
  std::string machine(bool fused) {
    fused_ = fused;
    std::string body;
    if (!fused) {
      body += "extern \"C\" KATA_EXPORT void kata_run(KataCtx* cp, const int32_t* d) {\n  KataCtx& c = *cp;\n  int32_t* s = c.s;\n  const int n = c.n;\n  int64_t steps = 0;\n  int64_t W = BUDGET;\n  int pc = s[PC];\n  if (d) goto bind;\n  goto dispatch;\n";
    } else {
      body += R"(extern "C" KATA_EXPORT void kata_playout(KataCtx* cp, uint64_t* rngp) {
  KataCtx& c = *cp;
  int32_t* s = c.s;
  const int n = c.n;
  int64_t steps = 0;
  int64_t W = BUDGET;
  int pc = s[PC];
  int32_t small[5 * 64];
  int32_t picked[5];
  (void)picked;
  Heap<int32_t> large;
  const int32_t* d = nullptr;
  int32_t* list = small;
  int count = 0;
  if (s[STATUS] != 1) return;
)";
      size_t kept_at = body.size();  // (the owner sets kept, once the listings are written: kept_sets())
      body += "  switch (s[SITE]) {\n";
      for (size_t site = 0; site < p_.sites.size(); ++site) body += fmt::format("    case {0}: goto decide{0};\n", site);
      body += "    default: __builtin_trap();\n  }\n";
      os_decls_.clear();
      zm_zones_.clear();
      os_playout_ = true;
      // Each site's decisions listed where its choose stands (kata_legal's code for it).
      for (size_t site = 0; site < p_.sites.size(); ++site) {
        if (compact(site, body)) continue;
        body += fmt::format(R"(decide{0}: {{
  int32_t* out = small;
  int cap = 64, cnt;
  for (;;) {{
    cnt = 0;
    c.args[0] = s[CHOOSER];
    W = BUDGET;
    {4}
{1}    if (cnt <= cap) break;
    large.resize(5 * (std::size_t)cnt);
    out = large.data();
    cap = cnt;
  }}
  list = out;
  count = cnt;
}}
{5}  steps = 0;  // counted afresh after each decision, as each apply counts them
  W = BUDGET;
)",
                            site, site_listing(site), Layout::decisions, g_.max_decisions, when_start(),
                            decision_drawn(site));
        // The site's few actions tested in turn: better predicted than one indirect jump.
        const std::vector<int32_t>& acts = p_.sites[site].actions;
        for (size_t i = 0; i + 1 < acts.size(); ++i) body += fmt::format("  if (d[0] == {0}) goto B{0};\n", acts[i]);
        body += acts.empty() ? "  __builtin_trap();\n" : fmt::format("  goto B{};\n", acts.back());
      }
      os_playout_ = false;
      tops_kept_ = tops_read_;  // (read by the instructions, functions or listings written so far)
      body.insert(kept_at, kept_sets());
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
    for (size_t pc = 0; pc < p_.code.size(); ++pc) body += fmt::format("I{}: {}\n", pc, resolve(text_[pc], -1));
    body += "finish:\n" + finish() + "\n}\n";
    return body;
  }

  // A playout's decision at a site of few decisions at most (decisions_bound, and none a
  // blind pick), into `body`, if it is one: the decisions listed into an array on the stack
  // with room for all of them (8 kB at most, 32 kB for all the sites), as many numbers each
  // as the site's actions need (record()), without a test of room or of the limit; one drawn
  // and copied into `picked` as a whole Decision, as decision_drawn draws it.
  bool compact(size_t site, std::string& body) {
    const ChoiceSite& where = p_.sites[site];
    int64_t bound = decisions_bound(where);
    size_t params = 0;
    for (int a : where.actions) params = std::max(params, p_.actions[a].params.size());
    Compact shape{static_cast<int>(params) + (where.actions.size() > 1 ? 1 : 0), where.actions.size() > 1};
    int64_t room = bound * std::max(shape.stride, 1);
    if (bound < 1 || room > 2048 || compact_room_ + room > 8192 || offers_blind(where) || where.actions.empty()) return false;
    compact_room_ += room;
    if (shape.stride == 0) shape.stride = 1;  // (an action without parameters: a number written, never read)
    compact_ = shape;
    set_count_ = SetCount{};
    std::string listing = site_listing(site);
    compact_ = Compact{};
    std::string pick = fmt::format("const int32_t* r = out + {} * uniform(*rngp, (uint32_t)cnt);", shape.stride);
    int j = 0;
    pick += fmt::format(" picked[0] = {};", shape.action ? fmt::format("r[{}]", j++) : std::to_string(where.actions[0]));
    for (size_t k = 0; k < 4; ++k)
      pick += fmt::format(" picked[{}] = {};", k + 1, k < params ? fmt::format("r[{}]", j++) : std::string("0"));
    if (set_count_.used) {
      // The last level kept as a word for each of its x (set_level): the word holding the
      // drawn decision found by the counts before each (rising: each word kept has a bit),
      // the last whose count is at most the number drawn, by halves, without a branch on
      // the counts (a scan from the first ended at a branch the processor could not foresee),
      // then its bit.
      const SetCount& sc = set_count_;
      listing = fmt::format("  uint64_t SM[{0}]; int32_t SC[{0}]; int SN = 0;\n{1}", sc.origins, listing);
      pick = fmt::format(
          "uint32_t u = uniform(*rngp, (uint32_t)cnt); int j = 0;"
          " for (int len = SN; len > 1;) {{ int half = len >> 1; j = (uint32_t)SC[j + half] <= u ? j + half : j; len -= half; }}"
          " uint64_t m = SM[j]; for (u -= (uint32_t)SC[j]; u; --u) m &= m - 1; const int32_t* r = out + {} * j; picked[0] = {};",
          sc.k, sc.action);
      for (int k = 0; k < 4; ++k)
        pick += fmt::format(" picked[{}] = {};", k + 1,
                            k < sc.k ? fmt::format("r[{}]", k) : k == sc.k ? fmt::format("{} + __builtin_ctzll(m)", sc.first) : "0");
      set_count_ = SetCount{};
    }
    body += fmt::format(R"(decide{0}: {{
  int32_t out[{1}];
  int cnt = 0;
  c.args[0] = s[CHOOSER];
  W = BUDGET;
  {2}
{3}  if (cnt == 0) fail(c, kata_no_legal, s[SITE]);
  {{ {4} d = picked; }}
}}
  if (++s[{5}] > {6}) fail(c, kata_too_many_decisions, s[SITE]);
{7}  steps = 0;  // counted afresh after each decision, as each apply counts them
  W = BUDGET;
)",
                        site, bound * shape.stride, when_start(), listing, pick, Layout::decisions, g_.max_decisions,
                        l_.history_cap ? "  H.remember(c.host, s);\n" : "");
    const std::vector<int32_t>& acts = where.actions;
    for (size_t i = 0; i + 1 < acts.size(); ++i) body += fmt::format("  if (d[0] == {0}) goto B{0};\n", acts[i]);
    body += fmt::format("  goto B{};\n", acts.back());
    return true;
  }

  // kata_legal, for a program of up to whole_size bytes of instructions (else legal()):
  // each site's listing in a case of its own.
  std::string whole_legal() {
    std::string body =
        "extern \"C\" KATA_EXPORT int kata_legal(KataCtx* cp, int32_t* out, int cap) {\n  KataCtx& c = *cp;\n  int32_t* s = c.s;\n  const int n = c.n;\n  int cnt = 0;\n  c.args[0] = s[CHOOSER];\n  int64_t W = BUDGET;\n  " +
        when_start() + "\n  switch (s[SITE]) {\n";
    for (size_t site = 0; site < p_.sites.size(); ++site)
      body += fmt::format("    case {}: {{\n{}      break;\n    }}\n", site, site_listing(site));
    body += "  }\n  return cnt;\n}\n";
    return body;
  }

  // What runs the chunks, in the first part: the driver (kata_go) calls the chunk of the
  // instruction to run next until one stops at a choose or a win (-1) or at the flow's
  // end (-2). kata_run binds a decision and runs to the next choose; kata_playout lists
  // the decisions at each choose (the site's kata_lS, which kata_legal calls too), draws
  // one, binds it and goes on, as random_playout's loop of legal_decisions and apply
  // would, to the game's end.
  std::string driver() {
    std::string m = init;
    m += "static int kata_go(KataCtx& c, int pc, int64_t* steps) {\n  for (;;) {\n    if (pc < 0) return pc;\n    switch (pc) {\n";
    for (size_t k = 0; k < chunks_.size(); ++k)
      m += fmt::format("      case {} ... {}: pc = kata_c{}(c, pc, steps); break;\n", chunks_[k].first, chunks_[k].second - 1, k);
    m += "      default: __builtin_trap();\n    }\n  }\n}\n";
    m += "static void kata_finish(KataCtx& c) {\n  int32_t* s = c.s;\n  const int n = c.n;\n  int64_t& W = c.work;\n  (void)n; (void)W;\n" + finish() + "\n}\n";
    // A decision: its chooser and parameters into the action's locals (apply() in
    // machine.cpp); the instruction to go on at.
    for (size_t a = 0; a < p_.actions.size(); ++a) {
      const Action& act = p_.actions[a];
      m += fmt::format("static inline int kata_b{}(KataCtx& c, const int32_t* d) {{ int32_t* s = c.s; (void)d; s[{}] = s[CHOOSER];", a,
                       l_.locals + act.player_slot);
      for (size_t k = 0; k < act.params.size(); ++k) m += fmt::format(" s[{}] = d[{}];", l_.locals + act.params[k].slot, k + 1);
      m += fmt::format(" s[{}] = s[PC]; s[PC] = {}; s[STATUS] = 0; return {}; }}\n", l_.locals + act.ret_slot, act.entry, act.entry);
    }
    m += R"(extern "C" KATA_EXPORT void kata_run(KataCtx* cp, const int32_t* d) {
  KataCtx& c = *cp;
  int32_t* s = c.s;
  int64_t steps = 0;
  c.work = BUDGET;
  int pc = s[PC];
  if (d) switch (d[0]) {
)";
    for (size_t a = 0; a < p_.actions.size(); ++a) m += fmt::format("    case {0}: pc = kata_b{0}(c, d); break;\n", a);
    m += "    default: __builtin_trap();\n  }\n  if (kata_go(c, pc, &steps) == -2) kata_finish(c);\n}\n";
    m += "extern \"C\" KATA_EXPORT int kata_legal(KataCtx* cp, int32_t* out, int cap) {\n  KataCtx& c = *cp;\n  switch (c.s[SITE]) {\n";
    for (size_t site = 0; site < p_.sites.size(); ++site) m += fmt::format("    case {0}: return kata_l{0}(c, out, cap);\n", site);
    m += "  }\n  c.args[0] = c.s[CHOOSER];\n  c.work = BUDGET;\n  return 0;\n}\n";
    // Each site's draw: its decisions listed (again with more room if they did not fit),
    // one drawn, bound; the instruction to go on at.
    m += "struct KataDraw {\n  int32_t small[5 * 64];\n  int32_t picked[5];\n  Heap<int32_t> large;\n};\n";
    for (size_t site = 0; site < p_.sites.size(); ++site) {
      m += fmt::format(R"(static int kata_d{0}(KataCtx& c, uint64_t* rngp, KataDraw& w) {{
  int32_t* s = c.s;
  int64_t& W = c.work;
  (void)W;
  int32_t* out = w.small;
  int32_t* picked = w.picked;
  (void)picked;
  int cap = 64, cnt;
  for (;;) {{
    cnt = kata_l{0}(c, out, cap);
    if (cnt <= cap) break;
    w.large.resize(5 * (size_t)cnt);
    out = w.large.data();
    cap = cnt;
  }}
  const int32_t* list = out;
  const int count = cnt;
  const int32_t* d;
{1}  c.work = BUDGET;
)",
                       site, decision_drawn(site));
      // The site's few actions tested in turn: better predicted than one indirect jump.
      const std::vector<int32_t>& acts = p_.sites[site].actions;
      for (size_t i = 0; i + 1 < acts.size(); ++i) m += fmt::format("  if (d[0] == {0}) return kata_b{0}(c, d);\n", acts[i]);
      m += acts.empty() ? "  __builtin_trap();\n}\n" : fmt::format("  return kata_b{}(c, d);\n}}\n", acts.back());
    }
    m += R"(extern "C" KATA_EXPORT void kata_playout(KataCtx* cp, uint64_t* rngp) {
  KataCtx& c = *cp;
  int32_t* s = c.s;
  if (s[STATUS] != 1) return;
  KataDraw w;
  for (;;) {
    int pc;
    switch (s[SITE]) {
)";
    for (size_t site = 0; site < p_.sites.size(); ++site) m += fmt::format("      case {0}: pc = kata_d{0}(c, rngp, w); break;\n", site);
    m += R"(      default: __builtin_trap();
    }
    int64_t steps = 0;  // counted afresh after each decision, as each apply counts them
    if (kata_go(c, pc, &steps) == -2) {
      kata_finish(c);
      return;
    }
    if (s[STATUS] != 1) return;
  }
}
)";
    return m;
  }

  KATA_EXHAUSTIVE_BEGIN  // every instruction (ops.hpp)
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
        // A card taken from the top or bottom of a zone: the kernel is told that zone (`fz`),
        // and that the card is its top, instead of reading them.
        const Node& taken = node(in.a);
        bool from_zone = taken.op == NodeOp::top || taken.op == NodeOp::bottom;
        std::string took = from_zone ? card(end_card(in.a, "fz"), range(in.a), in.a) : C(in.a);
        std::string kt = move_tables(from_zone ? instances(taken.kid[0]) : all_instances(), instances(in.b));
        std::string move = from_zone ? fmt::format("move_card_from({}, s, n, card, fz, {}, z, {}, ", kt,
                                                   taken.op == NodeOp::top ? "true" : "false", face(in))
                                     : fmt::format("move_card({}, s, n, card, z, {}, ", kt, face(in));
        std::string take = fmt::format("{}int card = {}; int z = {};", from_zone ? "int fz; " : "", took, Z(in.b));
        // The owner sets kept (kept_sets()): the zone left (fz, else the card's, @O) and z.
        std::string kept = from_zone ? " @Ufz@ @Uz@" : " @Uoz@ @Uz@";
        if (!from_zone) take += " @O@";
        if (in.d != 2) return fmt::format("{{ {} {}{});{} }}", take, move, in.d == 1 ? 0 : -1, kept);
        return fmt::format(
            "{{ {} int64_t k = {}; int room = s[{} + z] + (s[{} + card] == z ? 0 : 1); if (k < 1 || k > room) fail(c, kata_bad_position, {}, k, ((int64_t)z << 32) | room); {}(int)k - 1);{} }}",
            take, e(in.e), l_.zone_size, l_.card_zone, pc, move, kept);
      }
      case Op::move_all: {
        std::string x = tmp();
        if (is_zone_list(in.a)) {
          // A zone's cards, bottom first, into a buffer on the stack (at most every card), then
          // each moved: each is in that zone (`fz`) when its turn comes, which the kernel is told.
          Span from = instances(in.a), to = instances(in.b);
          std::string kt = move_tables(from, to);
          // Onto the top of a zone that is no set: all in one pass (move_all_on_top), where
          // the zone left is another (told by the instances, else tested).
          if (in.d != 1 && same(g_.kernel.ISET, to) == 0) {
            bool apart = from.second < to.first || to.second < from.first;
            std::string one_pass = fmt::format("move_all_on_top({}, s, n, fz, z, {});", kt, face(in));
            if (apart) return fmt::format("{{ int fz = {}; int z = {}; {} @Ufz@ @Uz@ }}", Z(in.a), Z(in.b), one_pass);
            return fmt::format(
                "{{ int fz = {0}; int z = {1}; if (fz != z) {2} else {{ int32_t buf[CC]; int k = s[{3} + fz]; for (int i = 0; i < k; ++i) buf[i] = (int32_t)zc(s[{4} + fz * {5} + i]); for (int i = 0; i < k; ++i) move_card_from({6}, s, n, buf[i], fz, false, z, {7}, -1); }} @Ufz@ @Uz@ }}",
                Z(in.a), Z(in.b), one_pass, l_.zone_size, l_.zone_cards, g_.card_count, kt, face(in));
          }
          return fmt::format(
              "{{ int32_t buf[CC]; int fz = {0}; int k = s[{1} + fz]; for (int i = 0; i < k; ++i) buf[i] = (int32_t)zc(s[{2} + fz * {3} + i]); int z = {4}; for (int i = 0; i < k; ++i) move_card_from({5}, s, n, buf[i], fz, false, z, {6}, {7}); @Ufz@ @Uz@ }}",
              Z(in.a), l_.zone_size, l_.zone_cards, g_.card_count, Z(in.b), kt, face(in), in.d == 1 ? 0 : -1);
        }
        // (cards from anywhere: the owner sets kept worked out again, @V)
        return fmt::format(
            "{{ Heap<int32_t> buf; {} int z = {}; for (int32_t card : buf) move_card({}, s, n, card, z, {}, {}); @V@ }}",
            each(in.a, x, fmt::format("buf.push_back((int32_t){});", x)), Z(in.b),
            move_tables(all_instances(), instances(in.b)), face(in), in.d == 1 ? 0 : -1);
      }
      case Op::shuffle: return fmt::format("{{ int z = {}; shuffle(s, z); @Uz@ }}", Z(in.a));
      case Op::flip: return fmt::format("flip(T, s, n, {}, {});", C(in.a), in.c);
      case Op::reveal: return fmt::format("s[{} + {}] = (int32_t)((1u << n) - 1) | PUBLIC;", l_.card_known, C(in.a));
      case Op::look:
        return fmt::format("{{ int p = {}; int card = {}; s[{} + card] |= (int32_t)(1u << p); }}", P(in.a), C(in.b),
                           l_.card_known);
      case Op::eliminate: return fmt::format("s[{} + {}] = 1;", l_.eliminated, P(in.a));
      case Op::jump: return fmt::format("{} {}", step(pc), jump(in.a));
      case Op::jump_if_not: return fmt::format("if (!({})) {}", e(in.a), jump(in.b));
      case Op::for_init: {
        const Loop& l = p_.loops[in.a];
        std::string s = fmt::format("{{ int k = 0; int32_t* buf = s + {}; ", L + l.buffer_slot) +
                        gather(l.list_node, l.where_node, l.capacity, "buf", "k", fmt::format("s[{}]", L + l.var_slot));
        s += fmt::format(" s[{}] = k; s[{}] = 0; }}", L + l.count_slot, L + l.index_slot);
        return s;
      }
      case Op::for_next: {
        const Loop& l = p_.loops[in.a];
        return fmt::format("{{ int32_t& ix = s[{}]; if (ix >= s[{}]) {} s[{}] = s[{} + ix++]; }}", L + l.index_slot,
                           L + l.count_slot, jump(in.b), L + l.var_slot, L + l.buffer_slot);
      }
      case Op::repeat_init: return fmt::format("s[{}] = {};", L + in.b, narrowed(in.a, e(in.a), pc));
      case Op::repeat_next: return fmt::format("if (s[{0}] <= 0) {1} --s[{0}];", L + in.a, jump(in.b));
      case Op::choose:
        return fmt::format("s[CHOOSER] = {}; s[SITE] = {}; s[STATUS] = 1; s[PC] = {}; @C{}@", P(in.a), in.b, pc + 1, in.b);
      case Op::call: {
        const Procedure& proc = p_.procedures[in.a];
        // Compiled code runs only where no event is recorded: a procedure that only tells
        // is not called (Machine::tell), its step counted.
        if (proc.tells_only) return step(pc);
        std::string s = step(pc);
        for (size_t i = 0; i < proc.param_slots.size(); ++i)
          s += fmt::format(" s[{}] = {};", L + proc.param_slots[i], narrowed(p_.kids[in.b + i], e(p_.kids[in.b + i]), pc));
        s += fmt::format(" s[{}] = {}; {}", L + proc.ret_slot, pc + 1, jump(proc.entry));
        return s;
      }
      case Op::ret: {
        // Where this return can go, tested in turn: direct jumps within the chunk, which
        // the processor predicts far better than the driver's one indirect jump.
        std::string r = fmt::format("{{ int r = s[{}];", L + in.a);
        auto t = returns_.find(in.a);
        if (t != returns_.end() && t->second.size() <= 4)
          for (int target : t->second) r.append(" ").append(return_test(target));  // (not " " + ...: GCC 12's -Wrestrict at -O3)
        return r + " @R@ }";
      }
      case Op::phase: {
        const Procedure& proc = p_.procedures[in.a];
        return fmt::format("{} s[PHASE] = {}; s[{}] = {}; {}", step(pc), in.b, L + proc.ret_slot, pc + 1, jump(proc.entry));
      }
      case Op::win: {
        std::string x = tmp();
        std::string mask = in.b ? fmt::format("uint32_t mask = 0; {}",
                                              each(in.a, x, fmt::format("mask |= 1u << {};", x)))
                                : fmt::format(
                                      "int64_t {0} = {1}; uint32_t mask = {0} == -1 ? 0u : 1u << "
                                      "chkP(c, n, {0}, {2});",
                                      x, e(in.a), in.a);
        return fmt::format("{{ {} s[WINNERS] = (int32_t)mask; s[STATUS] = 2; @W@ }}", mask);
      }
      case Op::end_game:
      case Op::halt: return "@E@";
      // Compiled code runs only where no event is recorded: a message is said to nobody,
      // and its values, which change nothing, are not worked out (Machine::say).
      case Op::say: return ";";
    }
    return "__builtin_trap();";
  }
  KATA_EXHAUSTIVE_END

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
    enter_level(act, k);
    // In kata_playout written whole, the levels below the first are written in place: each
    // runs once for each value of the level above, and GCC, on a large playout, may leave one
    // out of line, a call and the captures read through memory for each value (the
    // largest board game of rules/, once its owner sets were kept: 28.2 million instructions a
    // game, 24.9 in place).
    std::string s = os_playout_ && k >= 1 ? "[&]() __attribute__((always_inline)) {" : "[&]() {";
    size_t eager = k == act.params.size() ? eager_from(act) : act.when_nodes.size();
    std::string ok;
    for (size_t i = 0; i < act.when_nodes.size(); ++i) {
      if (act.when_level[i] != static_cast<int32_t>(k) || filtered_ == static_cast<int>(i)) continue;
      if (i < eager) {
        s += " " + when(act, i);
        continue;
      }
      eager_ = true;
      ok += fmt::format("{}(({}) != 0)", ok.empty() ? "" : " & ", e(act.when_nodes[i]));
      eager_ = false;
    }
    if (k == act.params.size()) {
      s += " " + record(act, a, ok);
    } else {
      std::string as_set = set_level(act, a, k);
      if (!as_set.empty()) return s + " " + as_set + " }()";
      std::string x = tmp();
      OwnedScan owned = k < given_count_ ? OwnedScan{} : owned_scan(act, k);
      NeighbourFilter filter = k < given_count_ ? NeighbourFilter{} : neighbour_filter(act, k);
      if (filter.when >= 0 && !branch_free(act, k + 1, static_cast<size_t>(filter.when))) filter = NeighbourFilter{};
      enter_level(act, k);
      std::string bits = owned.zone < 0 ? std::string() : tmp();
      bool set = owned.zone >= 0;
      if (set) owner_sets_.push_back(OwnerSet{owned.decl, owned.owner, bits});
      std::string next = below(act, a, k, x, filter.when);
      if (set) owner_sets_.pop_back();
      // A value the `choose` gives the parameter (GV, worked out in site_listing).
      if (k < given_count_) next = fmt::format("if ({} == GV{}) {{ {} }}", x, k, next);
      if (filter.when >= 0) s += " " + filtered_each(act, k, filter, x, next);
      else if (owned.zone >= 0) s += " " + owned_each(act, k, owned, bits, x, next);
      else s += " " + each(act.params[k].domain_node, x, next);
    }
    return s + " }()";
  }
  // The levels below parameter k, with parameter k bound to `x` (`when` number `filtered`
  // answered by a neighbour filter, or -1).
  std::string below(const Action& act, int a, size_t k, const std::string& x, int filtered) {
    filtered_ = filtered;
    std::string next = local_args_ ? fmt::format("const int32_t A{} = d[{}] = (int32_t){}; {};", k + 1, k, x, level(act, a, k + 1))
                                   : fmt::format("c.args[{}] = d[{}] = (int32_t){}; {};", k + 1, k, x, level(act, a, k + 1));
    filtered_ = -1;
    enter_level(act, k);
    return next;
  }

  // A decision the listing found, written where the next one goes: five numbers (the
  // action, then the arguments, as a Decision), each only if there is room (`cap`; the caller
  // lists again with more otherwise), or, in a playout's listing of a site with few decisions
  // at most (compact_), as many as the site's actions need, with room for all of them. `ok`:
  // the `when`s worked out together (eager_from), the decision then counted if they hold.
  // A site that cannot list more than max_legal_decisions (decisions_bound) is not counted
  // against it.
  std::string record(const Action& act, int a, const std::string& ok) const {
    std::string store;
    if (compact_.stride > 0) {
      store = fmt::format("int32_t* o = out + {} * cnt;", compact_.stride);
      int j = 0;
      if (compact_.action) store += fmt::format(" o[{}] = {};", j++, a);
      for (size_t k = 0; j < compact_.stride; ++k)
        store += k < act.params.size() ? fmt::format(" o[{}] = d[{}];", j++, k) : fmt::format(" o[{}] = 0;", j++);
    } else {
      store = fmt::format("if ({}) {{ int32_t* o = out + 5 * cnt; o[0] = {}; o[1] = d[0]; o[2] = d[1]; o[3] = d[2]; o[4] = d[3]; }}",
                          ok.empty() ? "cnt < cap" : "__builtin_expect(cnt < cap, 1)", a);
    }
    if (ok.empty()) {
      std::string limit = bounded_ ? "" : fmt::format(" if (cnt == {}) fail(c, kata_too_many_legal, s[SITE]);", max_legal_decisions);
      return fmt::format("{{ {} }}{} ++cnt;", store, limit);
    }
    std::string limit =
        bounded_ ? "" : fmt::format(" if (__builtin_expect(cnt > {}, 0)) fail(c, kata_too_many_legal, s[SITE]);", max_legal_decisions);
    return fmt::format("{{ bool ok = {}; {{ {} }} cnt += ok;{} }}", ok, store, limit);
  }
  // The most decisions a choice site can list, or -1 if there is no bound: for each action,
  // the product of its parameters' domains' sizes at most (a zone holds every card at
  // most, a range 4096 numbers, a card as many neighbours as the most any card has; a value
  // the `choose` gives, one).
  int64_t decisions_bound(const ChoiceSite& site) {
    arg_ranges_.clear();  // (a range's bounds that read the arguments: any of their values)
    int64_t total = 0;
    for (size_t i = 0; i < site.actions.size(); ++i) {
      const Action& act = p_.actions[site.actions[i]];
      int64_t product = 1;
      for (size_t k = 0; k < act.params.size(); ++k) {
        int64_t size = k < site.given[i].size() ? 1 : domain_bound(act.params[k].domain_node);
        if (size < 0) return -1;
        product *= std::max<int64_t>(size, 1);
        if (product > max_legal_decisions) return -1;
      }
      total += product;
      if (total > max_legal_decisions) return -1;
    }
    return total;
  }
  KATA_EXHAUSTIVE_BEGIN  // every list, and a zone
  int64_t domain_bound(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::list_players:
      case NodeOp::list_all_players:
      case NodeOp::list_from: return g_.max_players;
      case NodeOp::list_values: return static_cast<int64_t>(p_.value_lists[k.a].size());
      case NodeOp::list_range: {
        // each() refuses a range of more than 4096 numbers.
        __int128 width = (__int128)range(k.kid[1]).hi - range(k.kid[0]).lo + 1;
        return width < 0 ? 0 : width > 4096 ? 4096 : static_cast<int64_t>(width);
      }
      case NodeOp::list_neighbours: {
        if (g_.link_start.empty()) return -1;
        int64_t most = 0;
        for (size_t c = 0; c + 1 < g_.link_start.size(); ++c) most = std::max<int64_t>(most, g_.link_start[c + 1] - g_.link_start[c]);
        return most;
      }
      case NodeOp::list_walk: return -1;
      KATA_LEAF_NODES(KATA_NODE_CASE)
      KATA_INNER_NODES(KATA_NODE_CASE)
      KATA_REST_NODES(KATA_NODE_CASE) return g_.card_count;  // a zone's cards
    }
    return -1;
  }
  KATA_EXHAUSTIVE_END

  // What is known of the arguments at level k: the chooser, and the parameters chosen so
  // far among players, are seats; each parameter chosen so far is an element of its domain.
  // (Code written later for an earlier level never reads the later arguments.)
  void enter_level(const Action& act, size_t k) {
    safe_args_ = {0};
    for (size_t j = 0; j < k; ++j)
      if (player_list(node(act.params[j].domain_node))) safe_args_.insert(static_cast<int>(j) + 1);
    arg_ranges_ = {{0, span(0, g_.max_players - 1)}};
    for (size_t j = 0; j < k; ++j) arg_ranges_[static_cast<int>(j) + 1] = elements(act.params[j].domain_node);
  }

  // ---- a parameter found through its owner's cards ----
  // A parameter `q` drawn from a set zone Z whose first `when` is, in substance, `size(q.D)
  // > 0 and top(q.D).owner == E` (D a zone of each component of q's kind, E a seat that does
  // not depend on q), as a board game's "one of my pieces stands on q" is: for most of Z's
  // cards the test fails, one unpredictable branch or two each. The cards whose D holds a
  // card of E's are found instead from E's cards (the game's table of owners, each card's
  // zone), and only they are tried, in Z's order (a set's: card order), each with every
  // `when` as before. For any other card q of Z, the `when` is false and fails nowhere: the
  // conjuncts before the owner test cannot fail (nor spend) for a q of D's kind, one of them
  // is false where q.D is empty, and where it is not, its top card is not E's. So the same
  // decisions are listed in the same order, with the same errors and budget; where Z holds a
  // card not of D's kind (its set order puts it first or last), all of Z is tried as before.

  // The flattened conjuncts of an `and` chain, in the order they are evaluated.
  void conjuncts(int n, std::vector<int>& out) const {
    const Node& k = node(n);
    if (k.op == NodeOp::and_) {
      conjuncts(k.kid[0], out);
      conjuncts(k.kid[1], out);
    } else {
      out.push_back(n);
    }
  }
  // A card operand of the patterns below: argument q (q >= 0), or else the same expression
  // as node `like`.
  struct CardOperand {
    int q = -1, like = -1;
  };
  bool matches(int m, CardOperand y) const {
    return y.q >= 0 ? node(m).op == NodeOp::arg && node(m).a == y.q : same_expr(m, y.like);
  }
  // Whether nodes x and y are the same expression: the same kinds, fields and operands.
  bool same_expr(int x, int y) const {
    if (x == y) return true;
    if (x < 0 || y < 0) return false;
    const Node& a = node(x);
    const Node& b = node(y);
    if (a.op != b.op || a.a != b.a || a.b != b.b || a.kid_count != b.kid_count) return false;
    // (each kid once: the list holds the fixed kids too, any_kid)
    for (int i = 0; i < a.kid_count; ++i)
      if (!same_expr(p_.kids[a.first_kid + i], p_.kids[b.first_kid + i])) return false;
    return true;
  }
  // Whether node n is `y.D` (D a zone declaration per component, not per player), and if so D.
  int card_zone_decl(int n, CardOperand y) const {
    const Node& k = node(n);
    if (k.op != NodeOp::card_zone_of || k.kid[0] < 0 || !matches(k.kid[0], y)) return -1;
    const ZoneInfo& z = g_.zones[k.a];
    return z.per_player || z.kind < 0 ? -1 : k.a;
  }
  // Whether node n is `size(y.D) > 0` (or != 0, >= 1, 0 <, 0 !=), the test that y.D holds a card.
  bool holds_a_card(int n, CardOperand y, int decl) const {
    const Node& k = node(n);
    auto size_of = [&](int m) { return node(m).op == NodeOp::size && card_zone_decl(node(m).kid[0], y) == decl; };
    auto is = [&](int m, int64_t v) { return node(m).op == NodeOp::constant && node(m).a == v; };
    switch (k.op) {
      case NodeOp::gt: return (size_of(k.kid[0]) && is(k.kid[1], 0));
      case NodeOp::ge: return (size_of(k.kid[0]) && is(k.kid[1], 1));
      case NodeOp::ne: return (size_of(k.kid[0]) && is(k.kid[1], 0)) || (is(k.kid[0], 0) && size_of(k.kid[1]));
      case NodeOp::lt: return is(k.kid[0], 0) && size_of(k.kid[1]);
      default: return false;
    }
  }
  // Whether node n can be evaluated, for a card `q` of the kind of D, without failing,
  // spending or handing anything back: comparisons and logic over constants, arguments, and
  // the sizes of the zones of q of D's kind.
  bool cannot_fail(int n, int q, int kind) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::constant:
      case NodeOp::arg: return true;
      case NodeOp::size: {
        const Node& z = node(k.kid[0]);
        if (z.op == NodeOp::zone) return true;
        int d = card_zone_decl(k.kid[0], CardOperand{q});
        return d >= 0 && g_.zones[d].kind == kind && kind_contiguous(kind);
      }
      case NodeOp::not_: return cannot_fail(k.kid[0], q, kind);
      case NodeOp::eq:
      case NodeOp::ne:
      case NodeOp::lt:
      case NodeOp::le:
      case NodeOp::gt:
      case NodeOp::ge:
      case NodeOp::and_:
      case NodeOp::or_: return cannot_fail(k.kid[0], q, kind) && cannot_fail(k.kid[1], q, kind);
      default: return false;
    }
  }
  // The owner test `top(y.D).owner == E` (either way round): D, and E's node in `e`, or -1;
  // the card's node in `card`.
  int owner_test(int n, CardOperand y, int& e, int* card = nullptr) const {
    const Node& k = node(n);
    if (k.op != NodeOp::eq) return -1;
    for (int side = 0; side < 2; ++side) {
      const Node& o = node(k.kid[side]);
      if (o.op != NodeOp::card_owner || node(o.kid[0]).op != NodeOp::top) continue;
      int zone = node(o.kid[0]).kid[0];
      const Node& z = node(zone);
      if (y.q < 0 && y.like < 0 && z.op == NodeOp::card_zone_of && z.kid[0] >= 0) y.like = z.kid[0];
      int d = card_zone_decl(zone, y);
      if (d < 0) continue;
      e = k.kid[1 - side];
      if (card) *card = z.kid[0];
      return d;
    }
    return -1;
  }
  struct OwnedScan {
    int zone = -1, decl = -1, owner = -1;  // Z's instance, D, E's node
  };
  // Whether parameter k of the action can be found through its owner's cards, and how.
  OwnedScan owned_scan(const Action& act, size_t k) const {
    OwnedScan none;
    const Node& domain = node(act.params[k].domain_node);
    if (domain.op != NodeOp::zone || !g_.kernel.ISET[static_cast<size_t>(domain.a)]) return none;
    int q = static_cast<int>(k) + 1;
    size_t first = act.when_nodes.size();
    for (size_t i = 0; i < act.when_nodes.size() && first == act.when_nodes.size(); ++i)
      if (act.when_level[i] == q) first = i;
    if (first == act.when_nodes.size() || spends(act.when_nodes[first])) return none;
    std::vector<int> cs;
    conjuncts(act.when_nodes[first], cs);
    for (size_t j = 0; j < cs.size(); ++j) {
      int e = -1, decl = owner_test(cs[j], CardOperand{q}, e);
      if (decl < 0) continue;
      const Node& en = node(e);
      // E: a seat that does not depend on q, and fails nowhere.
      bool seat = (en.op == NodeOp::arg && en.a < q && arg_range(en.a).lo >= 0 && arg_range(en.a).hi < g_.max_players) ||
                  (en.op == NodeOp::constant && en.a >= 0 && en.a < g_.max_players);
      int kind = g_.zones[decl].kind;
      if (!seat || !kind_contiguous(kind) || g_.kinds[kind].card_count > 512) return none;
      bool guarded = false;
      for (size_t i = 0; i < j; ++i) {
        if (!cannot_fail(cs[i], q, kind)) return none;
        guarded |= holds_a_card(cs[i], CardOperand{q}, decl);
      }
      if (!guarded) return none;
      return OwnedScan{domain.a, decl, e};
    }
    return none;
  }
  // The loop over parameter k's domain (each()), through its owner's cards, as owned_scan
  // found it can be. The cards of E's on top of an instance of D are found first, as a set
  // of D's components (`bits`, an owner set: the test `size(y.D) > 0 and top(y.D).owner ==
  // E` of any card y of D's kind, owned_test); only its members are then tried, where Z holds
  // cards of D's kind alone, else all of Z as each() would. A member is exactly a card whose
  // first `when` holds the owner test; the others fail it without an error.
  std::string owned_each(const Action& act, size_t k, const OwnedScan& o, const std::string& bits, const std::string& x,
                         const std::string& body) {
    std::string owner = e(o.owner);
    const ZoneInfo& d = g_.zones[o.decl];
    const KindInfo& kind = g_.kinds[d.kind];
    int words = (kind.card_count + 63) / 64;
    std::string zc = tmp(), m = tmp(), i = tmp(), w = tmp(), b = tmp(), own = tmp(), card = tmp(), z = tmp();
    // In kata_playout, the sets kept from one decision to the next (kept_sets()) are copied,
    // and Z's members of D's kind are a set kept too, instead of a test of each card's zone.
    std::string member = fmt::format("if (s[{} + {}] != {}) continue;", l_.card_zone, x, o.zone), candidates = bits + "[" + w + "]";
    if (os_playout_) {
      member.clear();
      candidates = fmt::format("({}[{}] & ZM{}[{}])", bits, w, kept_members(o.zone, d.kind), w);
    }
    std::string scan =
        os_playout_ ? fmt::format("uint64_t {bits}[{words}]; for (int {i} = 0; {i} < {words}; ++{i}) {bits}[{i}] = OS{set}[{own}][{i}];",
                                  fmt::arg("bits", bits), fmt::arg("words", words), fmt::arg("i", i), fmt::arg("own", own),
                                  fmt::arg("set", kept_set(o.decl)))
                    : fmt::format(
                          "uint64_t {bits}[{words}] = {{}};"
                          " for (int {i} = OWNED_AT[{own}]; {i} < OWNED_AT[{own} + 1]; ++{i}) {{ int {card} = OWNED[{i}]; int {z} = s[{CZ} + {card}];"
                          " uint32_t r = (uint32_t)({z} - {fi}); if (r < {count}u) {bits}[r >> 6] |= (uint64_t)(s[{ZC} + {z} * {CC} + s[{ZS} + {z}] - 1] == {card}) << (r & 63); }}",
                          fmt::arg("bits", bits), fmt::arg("words", words), fmt::arg("i", i), fmt::arg("own", own), fmt::arg("card", card),
                          fmt::arg("z", z), fmt::arg("CZ", l_.card_zone), fmt::arg("fi", d.first_instance), fmt::arg("count", kind.card_count),
                          fmt::arg("ZC", l_.zone_cards), fmt::arg("CC", g_.card_count), fmt::arg("ZS", l_.zone_size));
    return fmt::format(
        "{{ const int {own} = (int)({owner}); {scan}"
        " const int32_t* {zc} = s + {ZC} + {Z} * {CC}; int {m} = s[{ZS} + {Z}];"
        " if ({m} == 0 || ({zc}[0] >= {first} && {zc}[{m} - 1] <= {last})) {{"
        " for (int {w} = 0; {w} < {words}; ++{w}) for (uint64_t {b} = {candidates}; {b}; {b} &= {b} - 1) {{"
        " int64_t {x} = {kf} + {w} * 64 + __builtin_ctzll({b}); {member} {body} }}"
        " }} else {loop} }}",
        fmt::arg("zc", zc), fmt::arg("m", m), fmt::arg("bits", bits), fmt::arg("w", w), fmt::arg("b", b), fmt::arg("own", own),
        fmt::arg("owner", owner), fmt::arg("scan", scan), fmt::arg("ZC", l_.zone_cards), fmt::arg("ZS", l_.zone_size),
        fmt::arg("CZ", l_.card_zone), fmt::arg("CC", g_.card_count), fmt::arg("Z", o.zone), fmt::arg("first", kind.first_card),
        fmt::arg("last", kind.first_card + kind.card_count - 1), fmt::arg("words", words), fmt::arg("kf", kind.first_card),
        fmt::arg("x", x), fmt::arg("body", body), fmt::arg("loop", each(act.params[k].domain_node, x, body)),
        fmt::arg("candidates", candidates), fmt::arg("member", member));
  }

  // ---- owner sets kept through a playout ----
  // In kata_playout written whole, the owner sets of each zone D that a listing scans for
  // (owned_each) are kept from one decision to the next, for every seat at once (OS<i>[seat],
  // a bit for each of D's instances whose top card is that seat's): worked out from the cards
  // when the playout starts (os_all<i>), then, after each instruction that moves cards, the
  // bits of the zones the cards left and entered worked out again from their top cards
  // (os_zone<i>; markers @O, @U and @V in the instructions' text, which resolve() writes only
  // there). A listing then copies the chooser's set instead of scanning the chooser's cards:
  // the same set, so the same decisions. Nothing else in a playout changes where cards are
  // (nodes handed back to the interpreter and the host's draws read the state only).
  int kept_set(int decl) {
    for (size_t i = 0; i < os_decls_.size(); ++i)
      if (os_decls_[i] == decl) return static_cast<int>(i);
    os_decls_.push_back(decl);
    return static_cast<int>(os_decls_.size()) - 1;
  }
  // Set zone Z's cards of `kind` (numbered together), kept in kata_playout as ZM<i>: worked
  // out from Z's cards when the playout starts and after each move that leaves or enters Z.
  int kept_members(int zone, int kind) {
    for (size_t i = 0; i < zm_zones_.size(); ++i)
      if (zm_zones_[i] == std::make_pair(zone, kind)) return static_cast<int>(i);
    zm_zones_.emplace_back(zone, kind);
    return static_cast<int>(zm_zones_.size()) - 1;
  }
  // kata_playout's sets and what keeps them, once the listings are written.
  std::string kept_sets() const {
    std::string t;
    if (tops_kept_) {
      // (tw[-1], and the zones kept_top_sentinel chose: -128 for good)
      std::string kept = "m";
      for (int z : tw_sentinels_) kept += fmt::format(" && z != {}", z);
      t += fmt::format(
          "  int8_t twa[NI + 1]; int8_t* tw = twa + 1; twa[0] = -128; constexpr bool tw_on = true;\n"
          "  auto tw_zone = [&](int z) {{ int m = s[{ZS} + z]; tw[z] = {K} ? (int8_t)OWNER[s[{ZC} + z * {CC} + m - 1]] : (int8_t)-128; }};\n"
          "  auto tw_all = [&]() {{ for (int z = 0; z < NI; ++z) tw_zone(z); }};\n"
          "  tw_all();\n",
          fmt::arg("ZS", l_.zone_size), fmt::arg("ZC", l_.zone_cards), fmt::arg("CC", g_.card_count), fmt::arg("K", kept));
    }
    for (size_t i = 0; i < zm_zones_.size(); ++i) {
      const KindInfo& kind = g_.kinds[zm_zones_[i].second];
      int words = (kind.card_count + 63) / 64;
      t += fmt::format(
          "  uint64_t ZM{i}[{W}];\n"
          "  auto zm_all{i} = [&]() {{ for (int w = 0; w < {W}; ++w) ZM{i}[w] = 0; const int32_t* cs = s + {ZC} + {Z} * {CC};"
          " for (int k = 0, m = s[{ZS} + {Z}]; k < m; ++k) {{ uint32_t r = (uint32_t)(cs[k] - {kf}); if (r < {count}u) ZM{i}[r >> 6] |= 1ull << (r & 63); }} }};\n"
          "  zm_all{i}();\n",
          fmt::arg("i", i), fmt::arg("W", words), fmt::arg("ZC", l_.zone_cards), fmt::arg("Z", zm_zones_[i].first),
          fmt::arg("CC", g_.card_count), fmt::arg("ZS", l_.zone_size), fmt::arg("kf", kind.first_card),
          fmt::arg("count", kind.card_count));
    }
    for (size_t i = 0; i < os_decls_.size(); ++i) {
      const ZoneInfo& d = g_.zones[os_decls_[i]];
      const KindInfo& kind = g_.kinds[d.kind];
      int words = (kind.card_count + 63) / 64;
      t += fmt::format(
          "  uint64_t OS{i}[MP][{W}];\n"
          "  auto os_all{i} = [&]() {{ for (int p = 0; p < MP; ++p) for (int w = 0; w < {W}; ++w) OS{i}[p][w] = 0;"
          " for (int k = 0; k < OWNED_AT[MP]; ++k) {{ int card = OWNED[k]; int z = s[{CZ} + card]; uint32_t r = (uint32_t)(z - {fi});"
          " if (r < {count}u && s[{ZC} + z * {CC} + s[{ZS} + z] - 1] == card) OS{i}[OWNER[card]][r >> 6] |= 1ull << (r & 63); }} }};\n"
          "  auto os_zone{i} = [&](int z) {{ uint32_t r = (uint32_t)(z - {fi}); if (r >= {count}u) return; uint64_t b = 1ull << (r & 63);"
          " for (int p = 0; p < MP; ++p) OS{i}[p][r >> 6] &= ~b; int m = s[{ZS} + z];"
          " if (m) {{ int o = OWNER[s[{ZC} + z * {CC} + m - 1]]; if (o >= 0) OS{i}[o][r >> 6] |= b; }} }};\n"
          "  (void)os_zone{i};\n  os_all{i}();\n",
          fmt::arg("i", i), fmt::arg("W", words), fmt::arg("CZ", l_.card_zone), fmt::arg("fi", d.first_instance),
          fmt::arg("count", kind.card_count), fmt::arg("ZC", l_.zone_cards), fmt::arg("CC", g_.card_count),
          fmt::arg("ZS", l_.zone_size));
    }
    return t;
  }

  // ---- neighbours picked by a property's value ----
  // A parameter `y` drawn from `neighbours(x)` whose first `when` is `y.P == V` (either way
  // round), P a property and V a total expression (below) that does not read y: the
  // neighbours of each card with each value of P are a table of the game (NF, a bit for each
  // place in the card's list of links, for each value P takes among linked cards), and the
  // loop goes over the bits of x's entry for V, in the list's order, with that `when` left
  // out. V is worked out once for x, before the loop, where the interpreter works it out for
  // each neighbour: it reads no neighbour, cannot fail or spend, so the same decisions come
  // out. A board game's "one row forward" (`target.row == origin.row + player.forward`)
  // then skips the squares behind and beside.
  struct NeighbourFilter {
    int when = -1;         // the `when`
    int value = -1;        // V's node
    int table = -1;        // NF<table>
    int64_t lo = 0, width = 0;  // the values P takes among linked cards: lo .. lo + width - 1
  };
  NeighbourFilter neighbour_filter(const Action& act, size_t k) {
    NeighbourFilter none;
    const Node& domain = node(act.params[k].domain_node);
    if (domain.op != NodeOp::list_neighbours || g_.link_start.empty() || g_.link_to.empty()) return none;
    int q = static_cast<int>(k) + 1;
    size_t first = act.when_nodes.size();
    for (size_t i = 0; i < act.when_nodes.size() && first == act.when_nodes.size(); ++i)
      if (act.when_level[i] == q) first = i;
    if (first == act.when_nodes.size()) return none;
    const Node& test = node(act.when_nodes[first]);
    if (test.op != NodeOp::eq) return none;
    for (int side = 0; side < 2; ++side) {
      const Node& y = node(test.kid[side]);
      int prop = -1;
      if (y.op == NodeOp::prop_arg && y.b == q) prop = y.a;
      if (y.op == NodeOp::prop && node(y.kid[0]).op == NodeOp::arg && node(y.kid[0]).a == q) prop = y.a;
      int v = test.kid[1 - side];
      if (prop < 0 || reads_arg(v, q) || !total(v)) continue;
      // The values P takes among the linked cards, and the most links a card has.
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (int32_t t : g_.link_to) {
        int64_t pv = g_.card_props[static_cast<size_t>(prop) * g_.card_count + t];
        lo = std::min(lo, pv), hi = std::max(hi, pv);
      }
      size_t most = 0;
      for (size_t c = 0; c + 1 < g_.link_start.size(); ++c)
        most = std::max(most, static_cast<size_t>(g_.link_start[c + 1] - g_.link_start[c]));
      if (most > 32 || (__int128)hi - lo >= 64 || (hi - lo + 1) * g_.card_count > (1 << 16)) return none;
      return NeighbourFilter{static_cast<int>(first), v, neighbour_table(prop, lo, hi - lo + 1), lo, hi - lo + 1};
    }
    return none;
  }
  // Whether level k is the last and, but for `when` number `skip`, has no branch on the
  // cards (eager_from): the filter's loop ends after a number of rounds the processor does
  // not foresee, which costs more than the tests it saves where its body branches on the
  // cards too (a race game on an 8x8 board in rules/, its `when`s without branches: 13.7 to
  // 12.4 µs a game; with their branches: 15.2 to 16.0).
  bool branch_free(const Action& act, size_t k, size_t skip) {
    if (k != act.params.size()) return false;
    enter_level(act, k);
    size_t eager = eager_from(act);
    for (size_t i = 0; i < eager; ++i)
      if (i != skip && act.when_level[i] == static_cast<int32_t>(k) && reads_cards(act.when_nodes[i])) return false;
    return true;
  }
  // Whether node n reads argument q.
  bool reads_arg(int n, int q) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::arg: return k.a == q;
      case NodeOp::player_var_arg:
      case NodeOp::zone_of_arg:
      case NodeOp::prop_arg:
      case NodeOp::card_var_arg:
        if (k.b == q) return true;
        break;
      default: break;
    }
    return any_kid(k, [&](int kid) { return reads_arg(kid, q); });
  }
  // Whether f holds for a kid of node k, each kid tried once: a node's kids are its list
  // (Program::kids; a call's arguments, a block's statements), which holds the fixed kids
  // (kid[]) of the other kinds too. Walking both went through those twice at each level,
  // a time that doubled with each level of a rule file's expression.
  template <typename F>
  bool any_kid(const Node& k, F&& f) const {
    for (int i = 0; i < k.kid_count; ++i)
      if (f(p_.kids[k.first_kid + i])) return true;
    return false;
  }
  // The table NF<i> of property `prop`'s values lo .. lo + width - 1 (made once, shared).
  int neighbour_table(int prop, int64_t lo, int64_t width) {
    auto key = std::make_pair(prop, lo);
    auto it = neighbour_tables_.find(key);
    if (it != neighbour_tables_.end()) return it->second;
    std::vector<uint32_t> t(static_cast<size_t>(width) * g_.card_count, 0);
    for (int c = 0; c < g_.card_count; ++c)
      for (int32_t l = g_.link_start[c]; l < g_.link_start[c + 1]; ++l) {
        int64_t pv = g_.card_props[static_cast<size_t>(prop) * g_.card_count + g_.link_to[l]];
        t[static_cast<size_t>(c * width + pv - lo)] |= 1u << (l - g_.link_start[c]);
      }
    int i = static_cast<int>(neighbour_tables_.size());
    neighbour_tables_[key] = i;
    tables_ += table_text("uint32_t", fmt::format("NF{}", i).c_str(), t);
    return i;
  }
  // The loop over parameter k's neighbours that the filter picks.
  std::string filtered_each(const Action& act, size_t k, const NeighbourFilter& f, const std::string& x, const std::string& body) {
    const Node& domain = node(act.params[k].domain_node);
    std::string cv = tmp(), v = tmp(), m = tmp(), lt = tmp();
    return fmt::format(
        "{{ int {0} = {1}; uint64_t {2} = (uint64_t)({3}) - (uint64_t)({4}LL); uint32_t {5} = {2} < {6}u ? NF{7}[{0} * {6} + {2}] : 0u;"
        " const int32_t* {8} = LT + LS[{0}]; for (; {5}; {5} &= {5} - 1) {{ int64_t {9} = {8}[__builtin_ctz({5})]; {10} }} }}",
        cv, C(domain.kid[0]), v, e(f.value), f.lo, m, f.width, f.table, lt, x, body);
  }

  // ---- the last level as a set ----
  // The last parameter `y` drawn from `neighbours(x)`, where every card linked to is one of
  // a kind K of at most 64 cards (numbered together) and each list of links is in card
  // order (the game's: link_to), and where each of its `when`s is total (it cannot fail,
  // spend or read outside the state and tables: total()) and made of tests that are sets of
  // K's components: an owner set's bit (owned_test), a zone of y's holding a card or not
  // (`size(y.D) == 0`, `> 0`: the set of K's empty instances of D, worked out once for the
  // listing, which writes nothing in the state), `y.P == V` or `!=` (V not reading y: a
  // table of the game, the components with each value of P), `y == c`, and anything that
  // does not read y (all or none), with `not`, `and`, `or`. Then x's neighbours that hold
  // them all are one word: x's neighbours in a table (NM) and each `when`'s set. They are
  // listed from it in card order, which is the list's; the interpreter tests each neighbour
  // in turn, but no test can fail, spend or change anything, so the same decisions come out
  // with the same errors and budget. A playout's compact listing of a site of one action
  // (compact()) keeps each x's word and how many decisions came before it instead, and the
  // drawn decision is found from them (set_count_): x's neighbours are never gone through.
  // A set of K's components, as a C++ uint64_t expression, for `when` node n over argument q
  // (y), or "" where n is not made of such tests. `empties`: the zones D whose set of empty
  // instances it reads (EZ<D>).
  std::string set_mask(int n, int q, int kind, std::set<int>& empties) {
    const Node& k = node(n);
    const KindInfo& info = g_.kinds[kind];
    if (!reads_arg(n, q)) {
      bool was = eager_;
      eager_ = true;
      std::string v = e(n);
      eager_ = was;
      return fmt::format("(({}) != 0 ? ~0ull : 0ull)", v);
    }
    auto both = [&](const char* op) -> std::string {
      std::string l = set_mask(k.kid[0], q, kind, empties);
      std::string r = l.empty() ? l : set_mask(k.kid[1], q, kind, empties);
      return r.empty() ? r : fmt::format("(({}) {} ({}))", l, op, r);
    };
    auto is_y = [&](int m) { return node(m).op == NodeOp::arg && node(m).a == q; };
    switch (k.op) {
      case NodeOp::not_: {
        std::string v = set_mask(k.kid[0], q, kind, empties);
        return v.empty() ? v : fmt::format("(~({}))", v);
      }
      case NodeOp::and_: {
        OwnedMatch m = owned_match(n);
        if (m.set && is_y(m.checked) && g_.zones[m.set->decl].kind == kind && info.card_count <= 64) {
          std::string bits = m.set->bits + "[0]";
          if (m.rest < 0) return bits;
          std::string r = set_mask(m.rest, q, kind, empties);
          return r.empty() ? r : fmt::format("(({}) & {})", r, bits);
        }
        return both("&");
      }
      case NodeOp::or_: return both("|");
      case NodeOp::eq:
      case NodeOp::ne: {
        bool eq = k.op == NodeOp::eq;
        for (int side = 0; side < 2; ++side) {
          int yn = k.kid[side], v = k.kid[1 - side];
          const Node& y = node(yn);
          // y == c: one component, or none.
          if (is_y(yn) && node(v).op == NodeOp::constant) {
            int64_t c = node(v).a;
            uint64_t bit = c >= info.first_card && c < info.first_card + info.card_count ? 1ull << (c - info.first_card) : 0;
            return fmt::format("{}0x{:x}ull", eq ? "" : "~", bit);
          }
          // y.P == V
          int prop = -1;
          if (y.op == NodeOp::prop_arg && y.b == q) prop = y.a;
          if (y.op == NodeOp::prop && is_y(y.kid[0])) prop = y.a;
          if (prop >= 0 && !reads_arg(v, q) && total(v)) {
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (int c = info.first_card; c < info.first_card + info.card_count; ++c) {
              int64_t pv = g_.card_props[static_cast<size_t>(prop) * g_.card_count + c];
              lo = std::min(lo, pv), hi = std::max(hi, pv);
            }
            if ((__int128)hi - lo >= 4096) return "";
            bool was = eager_;
            eager_ = true;
            std::string val = e(v);
            eager_ = was;
            // A table over every value V can take, where they are few: no test of its range.
            Range r = range(v);
            if (r.lo > INT32_MIN && r.hi < INT32_MAX && r.hi - r.lo < 4096) {
              int t = value_sets(prop, kind, r.lo, r.hi - r.lo + 1);
              return fmt::format("({}VS{}[(int64_t)({}) - ({}LL)])", eq ? "" : "~", t, val, r.lo);
            }
            int t = value_sets(prop, kind, lo, hi - lo + 1);
            std::string u = tmp();
            return fmt::format("({5}({{ uint64_t {0} = (uint64_t)({1}) - (uint64_t)({2}LL); {0} < {3}u ? VS{4}[{0}] : 0ull; }}))",
                               u, val, lo, hi - lo + 1, t, eq ? "" : "~");
          }
        }
        break;
      }
      default: break;
    }
    // size(y.D) compared with a constant, true for an empty zone alone or for a zone holding
    // a card alone (or always, or never).
    if (k.op == NodeOp::eq || k.op == NodeOp::ne || k.op == NodeOp::lt || k.op == NodeOp::le || k.op == NodeOp::gt ||
        k.op == NodeOp::ge) {
      for (int side = 0; side < 2; ++side) {
        const Node& sz = node(k.kid[side]);
        const Node& c = node(k.kid[1 - side]);
        if (sz.op != NodeOp::size || c.op != NodeOp::constant) continue;
        int decl = card_zone_decl(sz.kid[0], CardOperand{q});
        if (decl < 0 || g_.zones[decl].kind != kind) continue;
        auto holds = [&](int64_t size) {
          int64_t a = side == 0 ? size : c.a, b = side == 0 ? c.a : size;
          switch (k.op) {
            case NodeOp::eq: return a == b;
            case NodeOp::ne: return a != b;
            case NodeOp::lt: return a < b;
            case NodeOp::le: return a <= b;
            case NodeOp::gt: return a > b;
            default: return a >= b;
          }
        };
        // The same for every size from 1 on: past |c| + 1, a comparison with c no longer changes.
        bool at0 = holds(0), at1 = holds(1);
        int64_t reach = c.a < 0 ? 2 : std::min<int64_t>(c.a, 1 << 20) + 2;
        for (int64_t size = 2; size <= reach; ++size)
          if (holds(size) != at1) return "";
        if (at0 == at1) return at0 ? "~0ull" : "0ull";
        empties.insert(decl);
        return fmt::format("{}EZ{}", at0 ? "" : "~", decl);
      }
    }
    return "";
  }
  // The kind K whose components are every card linked to, of at most 64 cards numbered
  // together, or -1. (Each card's links are in card order: link_to.)
  int set_kind() const {
    if (g_.link_start.empty() || g_.link_to.empty()) return -1;
    int kind = g_.card_kind[static_cast<size_t>(g_.link_to[0])];
    if (kind < 0 || !kind_contiguous(kind) || g_.kinds[kind].card_count > 64) return -1;
    const KindInfo& info = g_.kinds[kind];
    for (size_t c = 0; c + 1 < g_.link_start.size(); ++c)
      for (int32_t l = g_.link_start[c]; l < g_.link_start[c + 1]; ++l) {
        int32_t t = g_.link_to[static_cast<size_t>(l)];
        if (t < info.first_card || t >= info.first_card + info.card_count) return -1;
        if (l > g_.link_start[c] && t <= g_.link_to[static_cast<size_t>(l) - 1]) return -1;
      }
    return kind;
  }
  // The table VS<i>: for each value lo .. lo + width - 1, the components of `kind` whose
  // property `prop` has that value (made once, shared).
  int value_sets(int prop, int kind, int64_t lo, int64_t width) {
    auto key = std::make_tuple(prop, kind, lo, width);
    auto it = value_sets_.find(key);
    if (it != value_sets_.end()) return it->second;
    const KindInfo& info = g_.kinds[kind];
    std::vector<uint64_t> t(static_cast<size_t>(width), 0);
    for (int c = info.first_card; c < info.first_card + info.card_count; ++c) {
      int64_t pv = g_.card_props[static_cast<size_t>(prop) * g_.card_count + c];
      if (pv >= lo && pv - lo < width) t[static_cast<size_t>(pv - lo)] |= 1ull << (c - info.first_card);
    }
    int i = static_cast<int>(value_sets_.size());
    value_sets_[key] = i;
    tables_ += mask_text(fmt::format("VS{}", i), t);
    return i;
  }
  static std::string mask_text(const std::string& name, const std::vector<uint64_t>& v) {
    std::string t = fmt::format("static constexpr uint64_t {}[] = {{", name);
    if (v.empty()) t += "0";
    for (size_t i = 0; i < v.size(); ++i) t += fmt::format("{}0x{:x}ull", i ? "," : "", v[i]);
    return t + "};\n";
  }
  // Level k's loop over the last parameter as a set, as above, or "" where it cannot be.
  std::string set_level(const Action& act, int a, size_t k) {
    const Node& domain = node(act.params[k].domain_node);
    if (k + 1 != act.params.size() || k < given_count_ || domain.op != NodeOp::list_neighbours) return "";
    int kind = set_kind();
    if (kind < 0) return "";
    int q = static_cast<int>(k) + 1;
    enter_level(act, k + 1);
    std::set<int> empties;
    std::string mask;
    bool whole = true;
    for (size_t i = 0; i < act.when_nodes.size() && whole; ++i) {
      if (act.when_level[i] != q) continue;
      std::string m = total(act.when_nodes[i]) ? set_mask(act.when_nodes[i], q, kind, empties) : std::string();
      if (m.empty()) whole = false;
      mask += " & " + m;
    }
    enter_level(act, k);
    if (!whole) return "";
    set_empties_.insert(empties.begin(), empties.end());
    if (!set_table_written_) {
      std::vector<uint64_t> nm(static_cast<size_t>(g_.card_count), 0);
      int first = g_.kinds[kind].first_card;
      for (int c = 0; c < g_.card_count; ++c)
        for (int32_t l = g_.link_start[c]; l < g_.link_start[c + 1]; ++l) nm[static_cast<size_t>(c)] |= 1ull << (g_.link_to[l] - first);
      tables_ += mask_text("NM", nm);
      set_table_written_ = true;
    }
    std::string x = tmp(), m = tmp(), b = tmp();
    std::string head = fmt::format("{{ const int {} = {}; uint64_t {} = NM[{}]{};", x, C(domain.kid[0]), m, x, mask);
    int first = g_.kinds[kind].first_card;
    // A playout's compact listing of a site of one action: x's word kept, and the count.
    if (compact_.stride > 0 && !compact_.action && !set_count_.used) {
      int64_t origins = 1;
      for (size_t j = 0; j < k && origins <= 2048; ++j) origins *= std::max<int64_t>(domain_bound(act.params[j].domain_node), 1);
      if (origins <= 2048) {
        set_count_ = SetCount{true, static_cast<int>(k), first, static_cast<int>(origins), a};
        std::string keep = fmt::format("int32_t* o = out + {} * SN;", k);
        for (size_t j = 0; j < k; ++j) keep += fmt::format(" o[{0}] = d[{0}];", j);
        return fmt::format("{} {{ {} SM[SN] = {}; SC[SN] = cnt; cnt += kata_pop64({}); SN += {} != 0; }} }}", head, keep, m, m, m);
      }
    }
    return fmt::format("{} for (uint64_t {} = {}; {}; {} &= {} - 1) {{ d[{}] = (int32_t)({} + __builtin_ctzll({})); {} }} }}", head, b, m, b,
                       b, b, k, first, b, record(act, a, ""));
  }
  // The set form's compact listing (set_level), for compact()'s draw: the last parameter's
  // level k, K's first card, the most words kept, the action.
  struct SetCount {
    bool used = false;
    int k = 0, first = 0, origins = 0, action = 0;
  };

  // ---- owner sets ----
  // Within the loop of a parameter found through its owner's cards, and the levels below
  // it, the set `bits` of D's components whose top card is E's (owned_each) answers the
  // owner test of any card y of D's kind: `size(y.D) > 0 and top(y.D).owner == E` (an
  // `and`, or the end of a chain of them) is y's bit, after y's check as a card of D's kind
  // (which the test's first operand makes, at the same node). The listing changes nothing
  // in the state, so the set holds for the whole loop: a board game's "not mine(target,
  // player)" is a bit of a word in a register instead of a chain of three loads, a zone's
  // size, its top card and that card's owner. y must not spend the budget (the test reads it
  // twice); E is the set's own expression (an argument or a constant).
  struct OwnerSet {
    int decl = -1, owner = -1;  // D, E's node
    std::string bits;           // the set's C++ array
  };
  // An `and` that owned_test answers: the owner set, the `and`s before the size test (or
  // -1), and y's node in the size test, where y is checked first.
  struct OwnedMatch {
    const OwnerSet* set = nullptr;
    int rest = -1, checked = -1;
  };
  OwnedMatch owned_match(int n) const {
    OwnedMatch none;
    const Node& k = node(n);
    if (owner_sets_.empty() || k.op != NodeOp::and_) return none;
    int owner = -1, y = -1, decl = owner_test(k.kid[1], CardOperand{}, owner, &y);
    if (decl < 0 || spends(y)) return none;
    OwnedMatch m;
    for (const OwnerSet& o : owner_sets_)
      if (o.decl == decl && same_expr(o.owner, owner)) m.set = &o;
    if (!m.set) return none;
    // The size test, alone or as the last of a chain of `and`s.
    int left = k.kid[0];
    if (!holds_a_card(left, CardOperand{-1, y}, decl)) {
      if (node(left).op != NodeOp::and_ || !holds_a_card(node(left).kid[1], CardOperand{-1, y}, decl)) return none;
      m.rest = node(left).kid[0];
      left = node(left).kid[1];
    }
    const Node& size = node(node(left).kid[0]).op == NodeOp::size ? node(node(left).kid[0]) : node(node(left).kid[1]);
    m.checked = node(size.kid[0]).kid[0];
    return m;
  }
  std::string owned_test(int n) {
    OwnedMatch m = owned_match(n);
    if (!m.set) return "";
    int kind = g_.zones[m.set->decl].kind;
    std::string v = tmp();
    std::string bit = fmt::format("({{ int {0} = {1} - {2}; (int64_t)(({3}[{0} >> 6] >> ({0} & 63)) & 1); }})", v,
                                  CK(m.checked, kind), g_.kinds[kind].first_card, m.set->bits);
    if (m.rest < 0) return bit;
    if (eager_) return fmt::format("(int64_t)((({}) != 0) & {})", e(m.rest), bit);
    return fmt::format("(int64_t)(({}) && ({}))", e(m.rest), bit);
  }

  // ---- the last level without branches ----
  // The last parameter's `when`s that read where cards are (a zone's size or top card, an
  // owner set) change from one decision to the next, and the processor mispredicts their
  // branches; those over properties, arguments and variables repeat with a board's
  // geometry, and it predicts them. Where every `when` from one that reads the cards on is
  // total (it cannot fail, spend or read outside the state and tables, whatever the values
  // it reads), they are worked out together without a branch (`and` and `or` inside them
  // too), and the decision is written where the next one goes, counted if they all hold:
  // the same decisions, and no error or budget the interpreter's order would meet first,
  // since there is none to meet.
  bool total(int n) const {
    const Node& k = node(n);
    auto card = [&](int m) { return range(m).lo >= 0 && range(m).hi < g_.card_count && total(m); };
    auto of_kind = [&](int m, int kind) {
      const KindInfo& info = g_.kinds[kind];
      return kind_contiguous(kind) && range(m).lo >= info.first_card && range(m).hi < info.first_card + info.card_count &&
             total(m);
    };
    auto both = [&]() { return total(k.kid[0]) && total(k.kid[1]); };
    switch (k.op) {
      case NodeOp::constant:
      case NodeOp::option:
      case NodeOp::global:
      case NodeOp::local:
      case NodeOp::arg:
      case NodeOp::zone:
      case NodeOp::player_count: return true;
      case NodeOp::bound: return names_.count(k.a) > 0;
      case NodeOp::player_var_local:
      case NodeOp::player_var_bound:
      case NodeOp::player_var_arg:
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg: return safe_var(k.op, k.b);
      case NodeOp::prop_local:
      case NodeOp::prop_bound:
      case NodeOp::prop_arg: return var_range(k.op, k.b).lo >= 0 && var_range(k.op, k.b).hi < g_.card_count;
      case NodeOp::player_var:
      case NodeOp::zone_of: return safe_player(k.kid[0]) && total(k.kid[0]);
      case NodeOp::prop:
      case NodeOp::card_owner:
      case NodeOp::card_zone:
      case NodeOp::face_up: return card(k.kid[0]);
      case NodeOp::card_zone_of: {
        const ZoneInfo& z = g_.zones[k.a];
        return of_kind(k.kid[0], z.kind) && (!z.per_player || (safe_player(k.kid[1]) && total(k.kid[1])));
      }
      case NodeOp::size:
      case NodeOp::top:
      case NodeOp::bottom: return total_zone(k.kid[0]);
      case NodeOp::contains: return total_zone(k.kid[0]) && card(k.kid[1]);
      case NodeOp::add:
      case NodeOp::sub:
      case NodeOp::mul: return !may_overflow(k.op, range(k.kid[0]), range(k.kid[1])) && both();
      case NodeOp::neg:
      case NodeOp::abs: return range(k.kid[0]).lo > INT64_MIN && total(k.kid[0]);
      case NodeOp::and_: {
        OwnedMatch m = owned_match(n);
        if (m.set) return of_kind(m.checked, g_.zones[m.set->decl].kind) && (m.rest < 0 || total(m.rest));
        return both();
      }
      case NodeOp::eq:
      case NodeOp::ne:
      case NodeOp::lt:
      case NodeOp::le:
      case NodeOp::gt:
      case NodeOp::ge:
      case NodeOp::or_:
      case NodeOp::min_of:
      case NodeOp::max_of: return both();
      case NodeOp::not_: return total(k.kid[0]);
      case NodeOp::cond: return both() && total(k.kid[2]);
      default: return false;
    }
  }
  // Whether zone node n is worked out without a check that could fail (Z()).
  bool total_zone(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::zone: return true;
      case NodeOp::zone_of_local:
      case NodeOp::zone_of_bound:
      case NodeOp::zone_of_arg:
      case NodeOp::zone_of:
      case NodeOp::card_zone_of: return total(n);
      default: return false;
    }
  }
  // Whether node n reads where cards are: a zone's size or cards, a card's zone or face, an
  // owner set.
  bool reads_cards(int n) const {
    const Node& k = node(n);
    switch (k.op) {
      case NodeOp::size:
      case NodeOp::top:
      case NodeOp::bottom:
      case NodeOp::contains:
      case NodeOp::card_zone:
      case NodeOp::face_up:
      case NodeOp::sees:
      case NodeOp::holder: return true;
      default: break;
    }
    for (int i = 0; i < 3; ++i)
      if (k.kid[i] >= 0 && reads_cards(k.kid[i])) return true;
    return false;
  }
  // The first of the last level's `when`s worked out together (act.when_nodes.size() if none).
  size_t eager_from(const Action& act) const {
    size_t from = act.when_nodes.size();
    int32_t last = static_cast<int32_t>(act.params.size());
    for (size_t i = act.when_nodes.size(); i-- > 0;) {
      if (act.when_level[i] != last) continue;
      if (!total(act.when_nodes[i])) break;
      if (reads_cards(act.when_nodes[i])) from = i;
    }
    // None before them may read the cards: the processor then waits on that branch's loads
    // to go on, and the count's chain through the decisions, which the branches broke,
    // slows it further (that race game without owner sets, `not mine(target, player)` a branch
    // before its last `when` worked out so: 21.4 µs a game, against 19.9 with both branches).
    for (size_t i = 0; i < from; ++i)
      if (act.when_level[i] == last && reads_cards(act.when_nodes[i])) return act.when_nodes.size();
    return from;
  }

  // A `when` tested while decisions are listed: `return` if it fails. One that reads only its
  // last parameter is worked out once for each value of it in a listing (cached() in
  // runtime/legal.cpp), so that it spends the expressions' budget as the interpreter does; WV
  // holds its values (2: not worked out yet).
  // One that spends nothing (no aggregate, call or node handed back) is worked out each time
  // instead: nothing tells the two apart but the time, and testing the table of values costs
  // more than a few loads and comparisons.
  std::string when(const Action& act, size_t i) {
    std::string test = e(act.when_nodes[i]);
    if (act.when_cache[i] < 0 || !spends(act.when_nodes[i]))
      return fmt::format("if (!({})) return;", test);
    int32_t level = act.when_level[i];
    int count = act.params[level - 1].type == Type::card ? g_.card_count : g_.max_players;
    return fmt::format(
        "{{ int32_t x = {4}; bool kept = x >= 0 && x < {1}; uint8_t w = kept ? WV[{3} + x] : 2; if (w == 2) {{ w = ({2}) != 0; if (kept) WV[{3} + x] = w; }} if (!w) return; }}",
        level, count, test, act.when_cache[i], arg(level));
  }
  // The start of a listing: room for the values of the `when`s kept, none worked out. (On
  // the stack, or the heap if large; not in thread_local storage, whose destructors would
  // keep the library from being unloaded.)
  std::string when_start() const {
    int32_t size = p_.when_cache_size;
    bool kept = false;  // whether any `when` keeps its values (when())
    for (const Action& act : p_.actions)
      for (size_t i = 0; i < act.when_nodes.size(); ++i)
        kept |= act.when_cache[i] >= 0 && spends(act.when_nodes[i]);
    if (size == 0 || !kept) return "";
    if (size <= 16384) return fmt::format("uint8_t WV[{0}]; __builtin_memset(WV, 2, {0});", size);
    return fmt::format("Heap<uint8_t> WVV({}, 2); uint8_t* WV = WVV.data();", size);
  }

  // Whether listing an action's decisions may hand a node back to the interpreter, which
  // reads the arguments from c.args.
  bool lists_hand_back(const Action& act, const std::vector<int32_t>& given) const {
    for (int32_t n : act.when_nodes)
      if (hands_back(n, false)) return true;
    for (const Param& prm : act.params)
      if (hands_back(prm.domain_node, true)) return true;
    for (int32_t n : given)
      if (hands_back(n, false)) return true;
    return false;
  }

  // The decisions of one choice site, into `out` (room for `cap`), counted in `cnt` (which
  // may pass `cap`: the caller then asks again with more room).
  std::string site_listing(size_t site) {
    std::string body;
    const ChoiceSite& where = p_.sites[site];
    int64_t bound = decisions_bound(where);
    bounded_ = bound >= 0 && bound <= max_legal_decisions;
    for (size_t i = 0; i < where.actions.size(); ++i) {
      int a = where.actions[i];
      const Action& act = p_.actions[a];
      // The values the `choose` gives the first parameters (ChoiceSite::given).
      std::string given;
      given_count_ = where.given[i].size();
      local_args_ = !lists_hand_back(act, where.given[i]);
      for (size_t k = 0; k < given_count_; ++k) given += fmt::format("int64_t GV{} = {}; ", k, e(where.given[i][k]));
      std::string levels = level(act, a, 0);
      // The sets of empty instances the last level reads (set_level), once for the listing.
      for (int decl : set_empties_) {
        const ZoneInfo& z = g_.zones[decl];
        given += fmt::format("const uint64_t EZ{} = kata_zero_bits(s + {}, {}); ", decl, l_.zone_size + z.first_instance,
                             g_.kinds[z.kind].card_count);
      }
      set_empties_.clear();
      body += fmt::format("      {{ int32_t d[4] = {{0, 0, 0, 0}}; (void)d; {}{}{}; }}\n", local_args_ ? "const int32_t A0 = c.args[0]; " : "",
                          given, levels);
      local_args_ = false;
    }
    given_count_ = 0;
    bounded_ = false;
    safe_args_.clear();
    arg_ranges_.clear();
    return body;
  }

  // Each site's listing, a function of its own (kata_lS) that kata_legal and kata_playout
  // both call: the decisions into `out` (room for `cap`), how many there are.
  void legal() {
    for (size_t site = 0; site < p_.sites.size(); ++site) {
      declare_ += fmt::format("KATA_LOCAL int kata_l{}(KataCtx& c, int32_t* __restrict out, int cap);\n", site);
      units_.push_back(fmt::format(
          "int kata_l{}(KataCtx& c, int32_t* __restrict out, int cap) {{\n  int32_t* s = c.s;\n  const int n = c.n;\n  (void)n;\n  int cnt = 0;\n"
          "  c.args[0] = s[CHOOSER];\n  int64_t& W = c.work;\n  W = BUDGET;\n  {}\n{}  return cnt;\n}}\n",
          site, when_start(), site_listing(site)));
    }
  }

  // The source's parts: the chunks and listings shared among them, largest first, each to
  // the part with the least so far (the first holds the driver too). Compiled alone (no
  // KATA_PART), the file holds them all.
  void parts(const std::string& main) {
    size_t total = main.size();
    for (const std::string& u : units_) total += u.size();
    size_t count = std::clamp<size_t>((total + part_size - 1) / part_size, 1, std::min(max_parts, units_.size() + 1));
    std::vector<size_t> order(units_.size()), load(count, 0), part(units_.size(), 0);
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return units_[x].size() > units_[y].size(); });
    load[0] = main.size();
    for (size_t i : order) {
      part[i] = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      load[part[i]] += units_[i].size();
    }
    out_ += fmt::format("#define KATA_PARTS {}\n", count);
    if (chunked_) out_ += "#define KATA_LEVEL 1\n";  // -O1: see native.cpp's flags()
    out_ += tables_;
    out_ += kernel_structs_;
    out_ += declare_;
    for (size_t k = 0; k < count; ++k) {
      out_ += fmt::format("#if !defined(KATA_PART) || (KATA_PART >> {} & 1)\n", k);
      for (size_t i = 0; i < units_.size(); ++i)
        if (part[i] == k) out_ += units_[i];
      if (k == 0) out_ += main;
      out_ += "#endif\n";
    }
  }
  static constexpr size_t part_size = 24 << 10, max_parts = 4;
  static constexpr const char* init = "KataHost H;\nextern \"C\" KATA_EXPORT void kata_init(const KataHost* h) { H = *h; }\n";

  const Game& g_;
  const Program& p_;
  const Layout& l_;
  std::string out_;
  std::map<int, std::set<int>> returns_;  // return slot -> the instructions it may return to
  std::set<int> entries_;  // where a run can start or come back to
  size_t given_count_ = 0;  // the listing's action: how many values its `choose` gives it
  std::vector<std::pair<int, int>> chunks_;  // each chunk's instructions: first, last + 1
  std::vector<int> chunk_of_;                 // instruction -> its chunk
  std::vector<std::set<int>> chunk_entries_;  // chunk -> where it may be entered
  std::vector<std::string> text_;   // each instruction's C++, its jumps and exits as markers (resolve())
  bool chunked_ = false;            // instructions in chunks (find_chunks), else whole (machine())
  bool fused_ = false;              // writing the whole instructions into kata_playout
  std::vector<std::string> units_;  // the chunks and listings, or kata_run and kata_legal, to share among the parts
  std::string declare_;             // their declarations, in every part
  std::map<std::string, size_t> move_tables_;  // the members of each struct of move_tables -> its number
  std::string kernel_structs_;                 // those structs, in every part
  std::set<int> safe_locals_, safe_depths_, safe_args_;  // see safe_player
  std::map<int, Range> results_;  // a function written (F<f>) -> the values it returns
  int nonempty_ = -1;              // writing nonempty_and's test: the zone known to hold a card
  std::string nonempty_top_;       // ... and the C++ local holding its top card
  bool tops_ = false;              // the owners of zones' tops may be read (find_kept_tops)
  std::vector<bool> tw_read_;      // ... of these zones (by their tests' zones)
  bool tw_read_any_ = false;       // ... or of any zone
  std::set<int> tw_sentinels_;     // zones whose kept top is -128 for good (kept_top_sentinel)
  std::set<int> leaf_functions_;   // functions whose bodies cannot fail, spend or call (counted_loop)
  bool counted_ = false;           // writing a counted loop's tests: calls do not spend (counted_loop)
  bool tops_read_ = false;         // ... and are read
  bool tops_kept_ = false;         // ... and kata_playout keeps them (kept_sets())
  std::vector<bool> needs_tops_;   // a function written twice, F<f> and G<f> (find_kept_tops)
  std::map<int, Span> zone_locals_;  // a local slot that only holds checked zones -> their instances (find_safe_locals)
  int filtered_ = -1;    // the `when` a neighbour filter answers (neighbour_filter), left out of its level
  std::map<std::pair<int, int64_t>, int> neighbour_tables_;  // (property, lowest value) -> its NF table
  std::map<std::tuple<int, int, int64_t, int64_t>, int> value_sets_;  // (property, kind, lowest value, width) -> its VS table (set_level)
  bool set_table_written_ = false;                  // NM, the neighbours of each card as a set (set_level)
  std::set<int> set_empties_;  // the zones whose empty instances the listing being written reads, as EZ<zone> (set_level)
  SetCount set_count_;         // the compact listing being written keeps words and counts (set_level)
  std::string tables_;  // tables made while the listings are written, before them in the source
  std::string padded_;  // the padded lookup tables (padded_table), before the functions
  std::map<std::string, int> padded_tables_;  // (lookup, each coordinate's lowest value and width) -> its LP table
  bool eager_ = false;  // writing a `when` worked out without branches (eager_from): `and`, `or` as `&`, `|`
  bool bounded_ = false;  // the site being listed cannot list more than max_legal_decisions (decisions_bound)
  // In a playout's listing of a site (machine()): the numbers written for each decision (0:
  // a whole Decision, with room checked), and whether the action is among them.
  struct Compact {
    int stride = 0;
    bool action = false;
  } compact_;
  int64_t compact_room_ = 0;  // the numbers the compact sites' arrays hold together, at most 8192 (32 kB of stack)
  std::vector<OwnerSet> owner_sets_;  // the owner sets of the listing being written, outermost first (owned_test)
  bool os_playout_ = false;  // writing kata_playout's listings in the one-function form: owner sets kept (kept_sets())
  std::vector<int> os_decls_;  // the zones D whose owner sets kata_playout keeps, OS<i> for the i-th (kept_sets())
  std::vector<std::pair<int, int>> zm_zones_;  // the set zones Z and kinds whose members kata_playout keeps, ZM<i> (kept_sets())
  std::map<int, Span> inline_spans_;  // while a leaf procedure is written in its call: parameter slot -> its argument's instances
  std::string base_ = "0";
  std::map<int, std::string> names_;  // frame depth -> the C++ variable that holds it
  std::vector<std::set<int>> assigned_;  // for each function: the depths its statements assign
  std::map<int, Range> ranges_;       // frame depth -> the values it takes
  std::map<int, Range> arg_ranges_;   // argument -> the values it takes (while listing)
  bool local_args_ = false;           // the listing's arguments are C++ locals (arg())
  std::vector<std::vector<Range>> params_;  // function -> its parameters' ranges
  bool frame_ = false;        // the scope being written hands nodes back: keep c.env too
  bool in_function_ = false;  // writing a function's body
  int depth_ = 0;             // of e()'s recursion
  int next_ = 0;
  size_t limit_;          // the most the source may hold
  size_t written_ = 0;    // by expressions so far, each node's own text counted once
  size_t operands_ = 0;   // the text of the operands of the node being written
};

}  // namespace

std::string native_source(const Game& g) { return Generator(g, SIZE_MAX).source(); }

namespace {

// The number a `#define NAME 12` line of the source gives, or `otherwise`.
int defined_number(const std::string& source, std::string_view name, int otherwise) {
  std::string mark = fmt::format("\n#define {} ", name);
  size_t at = source.find(mark);
  if (at == std::string::npos) return otherwise;
  int value = 0;
  for (at += mark.size(); at < source.size() && source[at] >= '0' && source[at] <= '9' && value < 1000; ++at)
    value = value * 10 + (source[at] - '0');
  return value;
}

}  // namespace

int native_parts(const std::string& source) { return std::max(defined_number(source, "KATA_PARTS", 1), 1); }

int native_level(const std::string& source) { return defined_number(source, "KATA_LEVEL", 3) == 1 ? 1 : 3; }

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
