// The machine that runs a compiled game: an expression evaluator (one short case per node
// kind) and an instruction loop that runs effects until a `choose` waits for a player or
// the game ends. Locals live in the state, so a waiting game is just a value; expression
// variables (aggregates, function parameters) live in a small frame here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <memory>
#include <type_traits>

#include "runtime/backend.hpp"
#include "runtime/engine.hpp"
#include "runtime/view.hpp"

namespace kata {

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
  static thread_local std::vector<std::unique_ptr<WalkLists>> pool_;
  static thread_local size_t depth_;
};
thread_local std::vector<std::unique_ptr<WalkLists>> WalkScope::pool_;
thread_local size_t WalkScope::depth_ = 0;

class Evaluator {
 public:
  Evaluator(const Game& g, const int32_t* s, const int32_t* locals)
      : g_(g), p_(g.program), nodes_(g.program.nodes.data()), s_(s), locals_(locals),
        n_(s[Layout::players]), mp_(g.max_players), work_left_(g.max_steps) {}

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

  // Each round of an aggregate, each function call and each test of a walk's condition
  // is one step of the expressions' budget: limits.steps for the evaluator's life (one run
  // of effects up to a decision, one listing of the legal decisions, one score...).
  // Nested aggregates and functions calling functions grow exponentially with the text's
  // length; this stops them.
  void spend(int node) {
    if (--work_left_ < 0) [[unlikely]] too_much_work(node);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void too_much_work(int node) const {
    fail(node, fmt::format("the expressions took more than {} steps (rounds of aggregates and function calls) without a decision; raise limits.steps if this is intended", g_.max_steps));
  }
  // What is left of the budget: compiled code keeps its own count and hands it over with
  // the nodes it leaves to the interpreter (native_eval), so both spend alike.
  int64_t work_left() const { return work_left_; }
  void set_work_left(int64_t left) { work_left_ = left; }

  static int kid(const Node& n, int i) { return n.kid[i]; }

  // The chooser and parameters of the decision whose legality is being decided.
  void set_args(const int32_t* args) { args_ = args; }

  int player(int node) {
    int64_t p = eval(node);
    if (p < 0 || p >= n_) [[unlikely]] bad_player(node, p);
    return static_cast<int>(p);
  }
  int card(int node) {
    int64_t c = eval(node);
    if (c < 0 || c >= g_.card_count) [[unlikely]] bad_card(node);
    return static_cast<int>(c);
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

  int zone(int node) {
    // A named zone, or a player's zone with the player checked, needs no further check.
    const Node& k = nodes_[node];
    switch (k.op) {
      case NodeOp::zone: return k.a;
      case NodeOp::zone_of_local: return k.a + checked_player(k, locals_[k.b]);
      case NodeOp::zone_of_bound: return k.a + checked_player(k, env_[base_ + k.b]);
      case NodeOp::zone_of_arg: return k.a + checked_player(k, args_[k.b]);
      default: break;
    }
    int64_t z = eval(node);
    if (z < 0 || z >= static_cast<int64_t>(g_.instance_zone.size()) || g_.instance_owner[z] >= n_) [[unlikely]]
      bad_zone(node, z);
    return static_cast<int>(z);
  }

  // A node's value. Leaves (constants, variables, arguments, and members of a player held
  // in a variable) are read here without a call; about two thirds of all nodes evaluated
  // are leaves. A bound variable is always written by its aggregate or call before it is
  // read (the checker scopes them), so the frame is not cleared on construction; GCC
  // cannot see that (clang has no such warning).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
  int64_t eval(int node) {
    const Node& k = nodes_[node];
    switch (k.op) {
      case NodeOp::constant: return k.a;
      case NodeOp::local: return locals_[k.a];
      case NodeOp::arg: return args_[k.a];
      case NodeOp::bound: return env_[base_ + k.a];
      case NodeOp::global: return s_[g_.layout.globals + k.a];
      case NodeOp::option: return s_[g_.layout.options + k.a];
      case NodeOp::zone: return k.a;
      case NodeOp::player_var_local: return player_var(k, locals_[k.b]);
      case NodeOp::player_var_bound: return player_var(k, env_[base_ + k.b]);
      case NodeOp::player_var_arg: return player_var(k, args_[k.b]);
      case NodeOp::zone_of_local: return k.a + checked_player(k, locals_[k.b]);
      case NodeOp::zone_of_bound: return k.a + checked_player(k, env_[base_ + k.b]);
      case NodeOp::zone_of_arg: return k.a + checked_player(k, args_[k.b]);
      case NodeOp::prop_local: return prop(k, locals_[k.b]);
      case NodeOp::prop_bound: return prop(k, env_[base_ + k.b]);
      case NodeOp::prop_arg: return prop(k, args_[k.b]);
      case NodeOp::card_var_local: return card_var(k, locals_[k.b]);
      case NodeOp::card_var_bound: return card_var(k, env_[base_ + k.b]);
      case NodeOp::card_var_arg: return card_var(k, args_[k.b]);
      default: return inner(node, k);
    }
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // The player a specialised member node's kid holds, checked.
  int checked_player(const Node& n, int64_t p) {
    if (p < 0 || p >= n_) [[unlikely]] bad_player(kid(n, 0), p);
    return static_cast<int>(p);
  }
  int64_t player_var(const Node& n, int64_t p) {
    return s_[g_.layout.player_vars + n.a * mp_ + checked_player(n, p)];
  }
  // A property of the card a specialised member node's kid holds, checked.
  int64_t prop(const Node& n, int64_t c) {
    if (c < 0 || c >= g_.card_count) [[unlikely]] bad_card(kid(n, 0));
    return g_.card_props[n.a * g_.card_count + c];
  }
  // A component variable (not per player) of the card such a node's kid holds, checked as
  // card_of_kind checks it.
  int64_t card_var(const Node& n, int64_t c) {
    const VarInfo& v = g_.card_vars[n.a];
    if (c < 0 || c >= g_.card_count) [[unlikely]] bad_card(kid(n, 0));
    if (g_.card_kind[c] != v.kind) [[unlikely]] bad_kind(kid(n, 0), v.kind);
    return s_[g_.layout.card_vars + v.base + (c - g_.kinds[v.kind].first_card)];
  }

  int size(int z) const { return s_[g_.layout.zone_size + z]; }
  const int32_t* cards(int z) const { return s_ + g_.layout.zone_cards + z * g_.card_count; }
  bool eliminated(int p) const { return s_[g_.layout.eliminated + p] != 0; }

  // The inner node kinds met most often are evaluated here; the others in `eval_rest`, out
  // of line, so that this function needs few registers and its calls stay cheap.
  [[gnu::noinline]] int64_t inner(int node, const Node& n) {
    switch (n.op) {
      case NodeOp::player_var: return s_[g_.layout.player_vars + n.a * mp_ + player(kid(n, 0))];
      case NodeOp::zone_of: return g_.zones[n.a].first_instance + player(kid(n, 0));
      case NodeOp::prop: return g_.card_props[n.a * g_.card_count + card(kid(n, 0))];
      case NodeOp::not_: return !eval(kid(n, 0));
      case NodeOp::add: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1)), r;
        if (__builtin_add_overflow(a, b, &r)) [[unlikely]] overflow(node);
        return r;
      }
      case NodeOp::sub: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1)), r;
        if (__builtin_sub_overflow(a, b, &r)) [[unlikely]] overflow(node);
        return r;
      }
      case NodeOp::eq: return eval(kid(n, 0)) == eval(kid(n, 1));
      case NodeOp::ne: return eval(kid(n, 0)) != eval(kid(n, 1));
      case NodeOp::lt: return eval(kid(n, 0)) < eval(kid(n, 1));
      case NodeOp::le: return eval(kid(n, 0)) <= eval(kid(n, 1));
      case NodeOp::gt: return eval(kid(n, 0)) > eval(kid(n, 1));
      case NodeOp::ge: return eval(kid(n, 0)) >= eval(kid(n, 1));
      case NodeOp::and_: return eval(kid(n, 0)) && eval(kid(n, 1));
      case NodeOp::or_: return eval(kid(n, 0)) || eval(kid(n, 1));
      case NodeOp::cond: return eval(kid(n, 0)) ? eval(kid(n, 1)) : eval(kid(n, 2));
      case NodeOp::top: {
        int z = zone(kid(n, 0));
        return size(z) ? cards(z)[size(z) - 1] : -1;
      }
      default: return eval_rest(node, n);
    }
  }

  [[gnu::noinline]] int64_t eval_rest(int node, const Node& n) {
    switch (n.op) {
      case NodeOp::card_var: return s_[card_var_slot(n)];
      case NodeOp::card_zone_of: return card_zone_instance(n);
      case NodeOp::card_owner: return g_.card_owner[card(kid(n, 0))];
      case NodeOp::neg: {
        int64_t v = eval(kid(n, 0));
        if (v == INT64_MIN) [[unlikely]] overflow(node);
        return -v;
      }
      case NodeOp::mul: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1)), r;
        if (__builtin_mul_overflow(a, b, &r)) [[unlikely]] overflow(node);
        return r;
      }
      case NodeOp::div:
      case NodeOp::mod: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1));
        if (b == 0) [[unlikely]] bad_division(node);
        if (a == INT64_MIN && b == -1) [[unlikely]] overflow(node);
        return n.op == NodeOp::div ? a / b : a % b;
      }
      case NodeOp::sum:
      case NodeOp::count:
      case NodeOp::min:
      case NodeOp::max:
      case NodeOp::any:
      case NodeOp::all:
      case NodeOp::best:
      case NodeOp::worst:
      case NodeOp::find: return aggregate(node, n);
      case NodeOp::call: return call(node, n);
      case NodeOp::player_count: return n_;
      case NodeOp::bottom: {
        int z = zone(kid(n, 0));
        return size(z) ? cards(z)[0] : -1;
      }
      case NodeOp::size: return size(zone(kid(n, 0)));
      case NodeOp::next_player: {
        int p = player(kid(n, 0));
        for (int i = 1, q = p; i <= n_; ++i) {
          if (++q == n_) q = 0;  // (p + i) % n_, without a division
          if (!eliminated(q)) return q;
        }
        return p;
      }
      case NodeOp::left: {
        int p = player(kid(n, 0)) + 1;
        return p == n_ ? 0 : p;
      }
      case NodeOp::right: {
        int p = player(kid(n, 0));
        return p == 0 ? n_ - 1 : p - 1;
      }
      case NodeOp::alive: return !eliminated(player(kid(n, 0)));
      case NodeOp::sees: {
        int p = player(kid(n, 0));
        return is_visible(p, card(kid(n, 1)));
      }
      case NodeOp::face_up: return s_[g_.layout.card_face + card(kid(n, 0))];
      case NodeOp::zone_owner: return g_.instance_owner[zone(kid(n, 0))];
      case NodeOp::card_zone: return s_[g_.layout.card_zone + card(kid(n, 0))];
      case NodeOp::contains: {
        int z = zone(kid(n, 0));
        return s_[g_.layout.card_zone + card(kid(n, 1))] == z;
      }
      case NodeOp::seat: return player(kid(n, 0)) + 1;
      case NodeOp::holder: return g_.instance_card[zone(kid(n, 0))];
      case NodeOp::abs: {
        int64_t v = eval(kid(n, 0));
        if (v == INT64_MIN) [[unlikely]] overflow(node);
        return v < 0 ? -v : v;
      }
      case NodeOp::min_of: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1));
        return a < b ? a : b;
      }
      case NodeOp::max_of: {
        int64_t a = eval(kid(n, 0)), b = eval(kid(n, 1));
        return a > b ? a : b;
      }
      case NodeOp::card_at: {
        const CardLookup& t = p_.lookups[n.a];
        int64_t v[3] = {0, 0, 0};
        for (int d = 0; d < t.dims; ++d) v[d] = eval(kid(n, d));
        return t.find(v);
      }
      case NodeOp::linked: {
        int a = card(kid(n, 0)), b = card(kid(n, 1));
        return std::binary_search(g_.link_to.begin() + g_.link_start[a], g_.link_to.begin() + g_.link_start[a + 1], b);
      }
      case NodeOp::position: {
        int c = card(kid(n, 0));
        int z = s_[g_.layout.card_zone + c];
        if (z < 0) return 0;
        return std::find(cards(z), cards(z) + size(z), c) - cards(z) + 1;
      }
      default: not_a_value(node);
    }
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
      default: {
        int z = zone(node);
        const int32_t* c = cards(z);
        for (int i = 0, k = size(z); i < k; ++i)
          if (!f(c[i])) return;
      }
    }
  }

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

  int64_t aggregate(int node, const Node& n) {
    int domain = kid(n, 0), where = kid(n, 1), value = kid(n, 2);
    int slot = base_ + n.a;
    if (slot >= frame_size) fail(node, "expressions nested too deeply");
    int64_t acc = 0;
    bool found = false;
    int64_t best_key = 0;
    each(domain, [&](int64_t x) {
      spend(node);
      env_[slot] = x;
      if (where >= 0 && !eval(where)) return true;
      switch (n.op) {
        case NodeOp::sum:
          if (__builtin_add_overflow(acc, eval(value), &acc)) [[unlikely]] overflow(node);
          return true;
        case NodeOp::count: ++acc; return true;
        case NodeOp::any:
          if (value < 0 || eval(value)) return acc = 1, false;
          return true;
        case NodeOp::all:
          if (value >= 0 && !eval(value)) return found = true, false;
          return true;
        case NodeOp::find: return acc = x, found = true, false;
        default: {
          int64_t v = eval(value);
          bool better = n.op == NodeOp::max || n.op == NodeOp::best ? v > best_key : v < best_key;
          if (!found || better) {
            best_key = v;
            acc = n.op == NodeOp::best || n.op == NodeOp::worst ? x : v;
            found = true;
          }
          return true;
        }
      }
    });
    if (n.op == NodeOp::all) return !found;
    if ((n.op == NodeOp::best || n.op == NodeOp::worst || n.op == NodeOp::find) && !found) return -1;
    return acc;
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

  bool is_visible(int viewer, int c) const {
    if (viewer < 0) return true;
    int z = s_[g_.layout.card_zone + c];
    if (z < 0) return false;
    if (s_[g_.layout.card_face + c]) return true;
    if (s_[g_.layout.card_known + c] & (1u << viewer)) return true;
    // A zone's visibility decides who sees its face-down cards: `everyone` only turns cards
    // face up as they enter (a card put there face down stays hidden).
    switch (g_.instance_visibility[z]) {
      case Visibility::everyone: return false;
      case Visibility::owner: return g_.instance_owner[z] == viewer;
      case Visibility::top: return cards(z)[size(z) - 1] == c;
      case Visibility::nobody: return false;
    }
    return false;
  }

  // Layout::public_knowledge if every seat sees card c now in a way all are shown (face
  // up, the top card of a `top` zone) or has known it so since the last shuffle, else 0.
  int32_t seen_publicly(int c) const {
    int z = s_[g_.layout.card_zone + c];
    bool seen = (s_[g_.layout.card_known + c] & Layout::public_knowledge) != 0 ||
                (z >= 0 && (s_[g_.layout.card_face + c] ||
                            (g_.instance_visibility[z] == Visibility::top && cards(z)[size(z) - 1] == c)));
    return seen ? Layout::public_knowledge : 0;
  }

  // The seats that see card c: is_visible for every seat at once.
  uint32_t seen_mask(int c) const {
    uint32_t all = (1u << n_) - 1;
    int z = s_[g_.layout.card_zone + c];
    if (z < 0) return 0;
    uint32_t m = static_cast<uint32_t>(s_[g_.layout.card_known + c]);
    if (s_[g_.layout.card_face + c]) return all;
    switch (g_.instance_visibility[z]) {
      case Visibility::everyone: return m & all;
      case Visibility::owner: {
        int owner = g_.instance_owner[z];  // a shared zone has no owner: nobody sees it
        return (owner < 0 ? m : m | (1u << owner)) & all;
      }
      case Visibility::top: return cards(z)[size(z) - 1] == c ? all : m & all;
      case Visibility::nobody: return m & all;
    }
    return m & all;
  }

 protected:
  const Game& g_;
  const Program& p_;
  const Node* nodes_;
  const int32_t* s_;
  const int32_t* locals_;
  int n_, mp_;
  const int32_t* args_ = nullptr;
  int64_t env_[frame_size];
  int base_ = 0;
  int64_t work_left_;  // see spend()
};

class Machine : public Evaluator {
 public:
  Machine(const Game& g, State& st, Hooks* hooks)
      : Evaluator(g, st.slots.data(), st.slots.data() + g.layout.locals),
        st_(st),
        w_(st.slots.data()),
        wl_(st.slots.data() + g.layout.locals),
        hooks_(hooks),
        events_(hooks ? hooks->events : nullptr) {}

  void run() {
    int pc = w_[Layout::pc];
    int64_t steps = 0;
    const int64_t budget = g_.max_steps;
    // Steps are counted where execution can come back: jumps and calls. Straight-line code
    // between them is bounded by the program's length, so this still stops any endless
    // loop, without a check on every instruction.
    auto step = [&](const Instr& in) {
      if (++steps > budget) [[unlikely]] too_many_steps(in, budget);
    };
    const Instr* code = p_.code.data();
    for (;;) {
      const Instr& in = code[pc];
      switch (in.op) {
        case Op::assign: assign(in); break;
        case Op::move: move(in); break;
        case Op::move_all: move_all(in); break;
        case Op::shuffle: shuffle(zone(in.a), in); break;
        case Op::flip: flip(card(in.a), in.c); break;
        case Op::reveal: {
          int c = card(in.a);
          w_[g_.layout.card_known + c] = static_cast<int32_t>((1u << n_) - 1) | Layout::public_knowledge;
          if (events_) record(Event::reveal, -1, c, w_[g_.layout.card_zone + c], -1, (1u << n_) - 1);
          break;
        }
        case Op::look: {
          int p = player(in.a), c = card(in.b);
          w_[g_.layout.card_known + c] |= static_cast<int32_t>(1u << p);
          if (events_) record(Event::look, p, c, w_[g_.layout.card_zone + c], -1, 1u << p);
          break;
        }
        case Op::eliminate: {
          int p = player(in.a);
          w_[g_.layout.eliminated + p] = 1;
          if (events_) record(Event::eliminate, p, -1, -1, -1, 0);
          break;
        }
        case Op::jump:
          step(in);
          pc = in.a;
          continue;
        case Op::jump_if_not:
          if (!eval(in.a)) {
            pc = in.b;
            continue;
          }
          break;
        case Op::for_init: for_init(p_.loops[in.a], in); break;
        case Op::for_next: {
          const Loop& l = p_.loops[in.a];
          int32_t& index = wl_[l.index_slot];
          if (index >= wl_[l.count_slot]) {
            pc = in.b;
            continue;
          }
          wl_[l.var_slot] = wl_[l.buffer_slot + index++];
          break;
        }
        case Op::repeat_init: wl_[in.b] = narrow(eval(in.a), in); break;
        case Op::repeat_next:
          if (wl_[in.a] <= 0) {
            pc = in.b;
            continue;
          }
          --wl_[in.a];
          break;
        case Op::choose:
          w_[Layout::chooser] = player(in.a);
          w_[Layout::site] = in.b;
          w_[Layout::status] = static_cast<int32_t>(Status::waiting);
          w_[Layout::pc] = pc + 1;
          return;
        case Op::call: {
          step(in);
          const Procedure& proc = p_.procedures[in.a];
          for (size_t i = 0; i < proc.param_slots.size(); ++i)
            wl_[proc.param_slots[i]] = narrow(eval(p_.kids[in.b + i]), in);
          wl_[proc.ret_slot] = pc + 1;
          pc = proc.entry;
          if (proc.quiet && events_) record(Event::quiet, -1, -1, -1, 1, 0);
          continue;
        }
        case Op::ret:
          // The end of a decision's effect (1) or of a bookkeeping call (2), for the screens.
          if (in.b == 1 && events_) record(Event::done, -1, -1, -1, -1, 0);
          if (in.b == 2 && events_) record(Event::quiet, -1, -1, -1, 0, 0);
          pc = wl_[in.a];
          continue;
        case Op::phase: {
          step(in);
          const Procedure& proc = p_.procedures[in.a];
          w_[Layout::phase] = in.b;
          if (events_) record(Event::phase, in.b, -1, -1, -1, 0);
          wl_[proc.ret_slot] = pc + 1;
          pc = proc.entry;
          continue;
        }
        case Op::win: win(in); return;
        case Op::end_game:
        case Op::halt: finish(); return;
        case Op::say:
          if (events_) say(in);
          break;
      }
      ++pc;
    }
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void too_many_steps(const Instr& in, int64_t budget) {
    throw RuntimeError(in.pos, fmt::format("the effects ran more than {} steps without a decision (an endless loop?); raise limits.steps if this is intended", budget));
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void too_large(int64_t v, const Instr& in) {
    throw RuntimeError(in.pos, fmt::format("the number {} is too large to keep", v));
  }
  [[noreturn, gnu::cold, gnu::noinline]] void bad_position(const Instr& in, int64_t k, int z, int room) {
    throw RuntimeError(in.pos, fmt::format("position {} is outside {} (1 to {})", k, g_.instance_name(z), room));
  }

 private:
  static int32_t narrow(int64_t v, const Instr& in) {
    if (v < INT32_MIN || v > INT32_MAX) [[unlikely]] too_large(v, in);
    return static_cast<int32_t>(v);
  }

  // The larger effects are kept out of line (noinline): inlined, they made the
  // instruction loop slower.
  [[gnu::noinline]] void assign(const Instr& in) {
    int32_t* slot;
    if (in.a == 0) slot = w_ + g_.layout.globals + in.b;
    else if (in.a == 1) slot = w_ + g_.layout.player_vars + in.b * mp_ + player(in.d);
    else if (in.a == 3) slot = w_ + card_var_slot(p_.nodes[in.d]);
    else slot = wl_ + in.b;
    int64_t v = eval(in.c);
    if (in.e == 1) v = *slot + v;
    else if (in.e == 2) v = *slot - v;
    *slot = narrow(v, in);
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

  void remove_from_zone(int c, int z) {
    if (z < 0) return;
    int32_t* cs = w_ + g_.layout.zone_cards + z * g_.card_count;
    int32_t& n = w_[g_.layout.zone_size + z];
    if (cs[n - 1] != c) {  // not the top card: close the gap
      int i = 0;
      while (cs[i] != c) ++i;
      std::copy(cs + i + 1, cs + n, cs + i);
    }
    --n;
  }

  // `move c to z [at bottom | at position k]`: the position is checked once the card has
  // left its zone, so that moving a card within its own zone counts it once.
  void move(const Instr& in) {
    int c = card(in.a), z = zone(in.b);
    if (in.d != 2) return move_card(c, z, in.c, in.d == 1 ? 0 : -1);
    int64_t k = eval(in.e);
    int room = size(z) + (s_[g_.layout.card_zone + c] == z ? 0 : 1);
    if (k < 1 || k > room) bad_position(in, k, z, room);
    move_card(c, z, in.c, static_cast<int>(k) - 1);
  }

  // Moves a card into a zone at index `at` (0 the bottom; -1 on top). Whoever could see it
  // before the move still knows it after: a card's identity is forgotten only by a shuffle.
  [[gnu::noinline]] void move_card(int c, int z, int face, int at) {
    uint32_t before = seen_mask(c);
    int32_t was_public = seen_publicly(c);
    int from = w_[g_.layout.card_zone + c];
    remove_from_zone(c, from);
    int32_t* cs = w_ + g_.layout.zone_cards + z * g_.card_count;
    int32_t& n = w_[g_.layout.zone_size + z];
    if (at < 0 || at > n) at = n;
    if (g_.instance_set[z]) at = static_cast<int>(std::upper_bound(cs, cs + n, c) - cs);
    Visibility visibility = g_.instance_visibility[z];
    // Covering the top card of a `top` zone: whoever saw it there remembers it.
    if (n > 0 && at == n && visibility == Visibility::top)
      w_[g_.layout.card_known + cs[n - 1]] |= static_cast<int32_t>(seen_mask(cs[n - 1])) | Layout::public_knowledge;
    std::copy_backward(cs + at, cs + n, cs + n + 1);
    cs[at] = c;
    ++n;
    w_[g_.layout.card_zone + c] = z;
    w_[g_.layout.card_face + c] = face == 1 ? 1 : face == 2 ? 0 : visibility == Visibility::everyone;
    w_[g_.layout.card_known + c] |= static_cast<int32_t>(before) | was_public;
    if (events_) record(Event::move, -1, c, from, z, before | seen_mask(c));
  }

  // The cards are listed first, then moved: moving changes the list being read.
  [[gnu::noinline]] void move_all(const Instr& in) {
    thread_local std::vector<int32_t> buf;
    buf.clear();
    each(in.a, [&](int64_t x) {
      buf.push_back(static_cast<int32_t>(x));
      return true;
    });
    int z = zone(in.b);
    for (int32_t c : buf) move_card(c, z, in.c, in.d == 1 ? 0 : -1);
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
    uint64_t rng = (static_cast<uint64_t>(static_cast<uint32_t>(w_[Layout::rng_hi])) << 32) |
                   static_cast<uint32_t>(w_[Layout::rng_lo]);
    for (int i = n - 1; i > 0; --i) std::swap(cs[i], cs[uniform(rng, i + 1)]);
    w_[Layout::rng_hi] = static_cast<int32_t>(rng >> 32);
    w_[Layout::rng_lo] = static_cast<int32_t>(rng);
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
    // A set is mixed but keeps card order: the random draws are made all the same, so
    // that a game's later chances do not depend on a zone's order.
    if (g_.instance_set[z]) std::sort(cs, cs + n);
    for (int i = 0; i < n; ++i) w_[g_.layout.card_known + cs[i]] = 0;
    if (events_) events_->push_back({Event::shuffle, -1, -1, z, z, 0, std::vector<int32_t>(cs, cs + n), {}, {}});
  }

  void flip(int c, int face) {
    int32_t& f = w_[g_.layout.card_face + c];
    uint32_t before = seen_mask(c);
    int32_t was_public = seen_publicly(c), was = f;
    f = face == 0 ? !f : face == 1;
    // Turned face down, a card stays known to whoever saw it; face up, to everyone.
    w_[g_.layout.card_known + c] |= static_cast<int32_t>(f ? (1u << n_) - 1 : before) |
                                    (f ? Layout::public_knowledge : was_public);
    // A card left as it was is no event: "3 cards are turned face up" named cards that
    // were face up already.
    if (events_ && f != was) record(Event::flip, -1, c, w_[g_.layout.card_zone + c], f, before | seen_mask(c));
  }

  void for_init(const Loop& l, const Instr&) {
    int k = 0;
    int cap = l.capacity;
    int32_t* buf = wl_ + l.buffer_slot;
    each(l.list_node, [&](int64_t x) {
      if (k >= cap) fail(l.list_node, fmt::format("a loop over more than {} elements", cap));
      buf[k++] = static_cast<int32_t>(x);
      return true;
    });
    if (l.where_node >= 0) {
      int kept = 0;
      for (int i = 0; i < k; ++i) {
        wl_[l.var_slot] = buf[i];
        if (eval(l.where_node)) buf[kept++] = buf[i];
      }
      k = kept;
    }
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
    } else if (int64_t p = eval(in.a); p != -1) {
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
      std::vector<std::vector<int64_t>> keys(n_);
      for (int p = 0; p < n_; ++p) {
        env_[0] = p;
        keys[p].push_back(eval(g_.score_node));
        for (int t : g_.tiebreak_nodes) keys[p].push_back(eval(t));
        if (g_.lowest_wins) keys[p][0] = -keys[p][0];
      }
      // An eliminated player cannot win on points, unless everyone was eliminated.
      bool anyone = false;
      for (int p = 0; p < n_; ++p) anyone |= !eliminated(p);
      std::vector<int64_t> best;
      for (int p = 0; p < n_; ++p)
        if ((!anyone || !eliminated(p)) && (best.empty() || keys[p] > best)) best = keys[p];
      for (int p = 0; p < n_; ++p)
        if ((!anyone || !eliminated(p)) && keys[p] == best) mask |= 1u << p;
    }
    w_[Layout::winners] = static_cast<int32_t>(mask);
    if (events_) record(Event::over, -1, -1, -1, -1, mask);
  }

  const State& st_;
  int32_t* w_;
  int32_t* wl_;
  Hooks* hooks_;
  std::vector<Event>* events_;  // null when nobody listens
};

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
    case kata_steps: Machine::too_many_steps(code[where], g.max_steps);
    case kata_too_large: Machine::too_large(a, code[where]);
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

namespace {
void native_pick(const void* host, int32_t* s, const int32_t* list, int count, uint64_t* rng, int32_t* out);
}  // namespace

const KataHost* native_host() {
  static const KataHost host{native_fail, native_eval, native_list, native_pick};
  return &host;
}

std::vector<int64_t> default_options(const Game& g) {
  std::vector<int64_t> v;
  for (auto& o : g.options) v.push_back(o.default_value);
  return v;
}

namespace {

// "option 'placement' has no value 'drft'; did you mean 'draft'? its values are random, draft"
std::string no_such_value(const Game& g, const OptionInfo& o, const std::string& value) {
  std::vector<std::string> values;
  for (auto c : o.choices) values.push_back(g.symbol_name(c));
  std::string near = closest_name(value, values);
  return fmt::format("option '{}' has no value '{}'{}{}", o.name, value,
                     near.empty() ? "" : fmt::format("; did you mean '{}'?", near),
                     values.empty() ? ""
                                    : fmt::format("{} its values are {}", near.empty() ? ";" : "",
                                                  fmt::join(values, ", ")));
}

}  // namespace

bool set_option(const Game& g, std::vector<int64_t>& values, const std::string& name,
                const std::string& value, std::string& error) {
  for (size_t i = 0; i < g.options.size(); ++i) {
    const OptionInfo& o = g.options[i];
    if (o.name != name) continue;
    int64_t v = 0;
    if (o.is_bool) {
      if (value != "true" && value != "false") return error = fmt::format("option '{}' is true or false, not '{}'", name, value), false;
      v = value == "true";
    } else if (o.is_symbol || (!o.choices.empty() && g.symbol_name(o.choices[0]) != std::to_string(o.choices[0]))) {
      auto it = std::find(g.symbols.begin(), g.symbols.end(), value);
      if (it == g.symbols.end()) return error = no_such_value(g, o, value), false;
      v = Game::symbol_base + (it - g.symbols.begin());
    } else {
      // Digits and an optional '-', nothing else (no spaces, no '+'); a value is kept in a
      // 32-bit slot of the state, so one beyond that is refused, never cut short.
      const char* end = value.data() + value.size();
      auto [at, ec] = std::from_chars(value.data(), end, v);
      if (value.empty() || at != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
        return error = fmt::format("option '{}' is a number, not '{}'", name, value), false;
      int64_t lo = std::max<int64_t>(o.min, INT32_MIN), hi = std::min<int64_t>(o.max, INT32_MAX);
      if (ec == std::errc::result_out_of_range || v < lo || v > hi)
        return error = fmt::format("option '{}' must be between {} and {}", name, lo, hi), false;
    }
    if (!o.choices.empty() && std::find(o.choices.begin(), o.choices.end(), v) == o.choices.end()) {
      std::string list;
      for (auto c : o.choices) list += (list.empty() ? "" : ", ") + g.symbol_name(c);
      return error = fmt::format("option '{}' must be one of: {}", name, list), false;
    }
    values[i] = v;
    return true;
  }
  std::vector<std::string> names;
  for (auto& o : g.options) names.push_back(o.name);
  std::string near = closest_name(name, names);
  if (names.empty())
    error = fmt::format("unknown option '{}'; {} has no options", name, g.name);
  else
    error = fmt::format("unknown option '{}'; {}the options of {} are {}", name,
                        near.empty() ? "" : fmt::format("did you mean '{}'? ", near), g.name,
                        fmt::join(names, ", "));
  return false;
}

std::string setup_error(const Game& g, int players, const std::vector<int64_t>& options) {
  if (players < g.min_players || players > g.max_players)
    return fmt::format("{} plays with {} to {} players, not {}", g.name, g.min_players, g.max_players, players);
  for (size_t i = 0; i < g.options.size() && i < options.size(); ++i) {
    const OptionInfo& o = g.options[i];
    if (o.max_is_players && options[i] > players)
      return fmt::format("option {}={} is more than the {} players", o.name, options[i], players);
    if (options[i] == o.default_value || (players >= o.min_players && players <= o.max_players)) continue;
    std::string value = o.is_bool ? (options[i] ? "true" : "false") : g.symbol_name(options[i]);
    std::string counts = o.min_players == o.max_players ? std::to_string(o.min_players)
                                                        : fmt::format("{} to {}", o.min_players, o.max_players);
    return fmt::format("option {}={} is for {} players, not {}", o.name, value, counts, players);
  }
  return "";
}

State initial_state(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options) {
  State st;
  st.slots.assign(g.layout.total, 0);
  int32_t* s = st.slots.data();
  const Layout& l = g.layout;
  s[Layout::players] = players;
  uint64_t rng = seed;
  next_random(rng);  // decorrelate nearby seeds
  s[Layout::rng_hi] = static_cast<int32_t>(rng >> 32);
  s[Layout::rng_lo] = static_cast<int32_t>(rng);
  for (size_t i = 0; i < options.size(); ++i) s[l.options + i] = static_cast<int32_t>(options[i]);
  for (int c = 0; c < g.card_count; ++c) s[l.card_zone + c] = -1;
  for (const KindInfo& k : g.kinds) {
    if (k.start_zone < 0) continue;
    for (int c = k.first_card; c < k.first_card + k.card_count; ++c) {
      int owner = g.card_owner[c];
      if (owner >= players) continue;
      int z = g.zone_instance(k.start_zone, std::max(owner, 0));
      s[l.zone_cards + z * g.card_count + s[l.zone_size + z]++] = c;
      s[l.card_zone + c] = z;
      s[l.card_face + c] = g.zones[k.start_zone].visibility == Visibility::everyone;
    }
  }
  Evaluator ev(g, s, s + l.locals);
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (g.globals[i].initial >= 0) s[l.globals + i] = static_cast<int32_t>(ev.eval(g.globals[i].initial));
    else if (g.globals[i].type == VarType::player || g.globals[i].type == VarType::card) s[l.globals + i] = -1;
  for (const VarInfo& v : g.card_vars) {
    int32_t initial = v.initial >= 0 ? static_cast<int32_t>(ev.eval(v.initial))
                      : v.type == VarType::player || v.type == VarType::card ? -1 : 0;
    int count = g.kinds[v.kind].card_count * (v.per_player ? g.max_players : 1);
    std::fill(s + l.card_vars + v.base, s + l.card_vars + v.base + count, initial);
  }
  for (size_t i = 0; i < g.player_vars.size(); ++i)
    for (int p = 0; p < players; ++p) {
      int32_t v = g.player_vars[i].initial >= 0 ? static_cast<int32_t>(ev.eval(g.player_vars[i].initial))
                  : g.player_vars[i].type == VarType::player || g.player_vars[i].type == VarType::card ? -1 : 0;
      s[l.player_vars + i * g.max_players + p] = v;
    }
  s[Layout::pc] = g.program.flow_entry;
  return st;
}

State new_game(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
               Hooks* hooks) {
  State st = initial_state(g, players, seed, options);
  run(g, st, hooks);
  return st;
}

void run_from(const Game& g, State& s, int pc, Hooks* hooks) {
  s.slots[Layout::pc] = pc;
  run(g, s, hooks);
}

namespace {

// The values of the `when`s that read only their last parameter (Action::when_cache),
// kept while one state's legal decisions are listed. An entry holds if its stamp is the
// listing's; the stamps of a thread's listings all differ, so nothing is cleared between
// them.
struct WhenCache {
  std::vector<uint32_t> stamp;
  std::vector<uint8_t> value;
  uint32_t now = 0;

  void start(int32_t size) {
    if (stamp.size() < static_cast<size_t>(size)) stamp.resize(size), value.resize(size);
    if (++now == 0) std::fill(stamp.begin(), stamp.end(), 0), now = 1;
  }
};

// What one listing of legal decisions works with.
struct Listing {
  Evaluator& ev;
  const Game& g;
  WhenCache* cache;  // null if no `when` is cached
  std::vector<Decision>& out;
  const ChoiceSite& site;
};

// A cached `when`'s value for its parameter's value, worked out the first time it is asked.
[[gnu::noinline]] bool cached(Listing& l, const Action& act, size_t i, const int32_t* args) {
  int32_t level = act.when_level[i];
  int32_t x = args[level];
  int32_t count = act.params[level - 1].type == Type::card ? l.g.card_count : l.g.max_players;
  if (x < 0 || x >= count) return l.ev.eval(act.when_nodes[i]);
  size_t at = static_cast<size_t>(act.when_cache[i] + x);
  WhenCache& c = *l.cache;
  if (c.stamp[at] != c.now) {
    c.value[at] = l.ev.eval(act.when_nodes[i]) != 0;
    c.stamp[at] = c.now;
  }
  return c.value[at];
}

// The decisions of one action: every combination of its parameters from parameter k on
// (the earlier ones are in d and args) for which all its conditions hold.
// Each `when` is decided as soon as the parameters it reads are chosen (when_level), so a
// choice that fails is not combined with every value of the parameters after it, and
// their lists are only worked out for choices that can still be legal.
void enumerate(Listing& l, const Action& act, size_t k, Decision& d, int32_t* args) {
  for (size_t i = 0; i < act.when_nodes.size(); ++i) {
    if (act.when_level[i] != static_cast<int32_t>(k)) continue;
    if (!(act.when_cache[i] < 0 ? l.ev.eval(act.when_nodes[i]) : cached(l, act, i, args))) return;
  }
  if (k == act.params.size()) {
    if (static_cast<int64_t>(l.out.size()) == max_legal_decisions) too_many_legal(l.site);
    l.out.push_back(d);
    return;
  }
  l.ev.each(act.params[k].domain_node, [&](int64_t x) {
    args[k + 1] = d.args[k] = static_cast<int32_t>(x);
    enumerate(l, act, k + 1, d, args);
    return true;
  });
}

// The thread's legality cache, started for a new listing; null if the game caches no
// `when`. Out of line: most actions have no parameters and never ask for it.
[[gnu::noinline]] WhenCache* when_cache(const Game& g) {
  if (g.program.when_cache_size == 0) return nullptr;
  thread_local WhenCache kept;
  kept.start(g.program.when_cache_size);
  return &kept;
}

[[noreturn, gnu::noinline]] void no_legal_action(const Game& g, const State& st, const ChoiceSite& site) {
  no_legal_action(g, st.chooser(), site);
}

// The legal decisions, listed by compiled code into a buffer of the thread's (as five
// int32 each: a Decision), then copied.
[[gnu::noinline]] void native_legal(const Game& g, const State& st, std::vector<Decision>& out) {
  static_assert(sizeof(Decision) == 5 * sizeof(int32_t) && std::is_trivially_copyable_v<Decision>);
  constexpr int cap = 64;
  int32_t raw[5 * cap];  // not initialised: the compiled code writes what is read
  KataCtx c;
  native_context(g, const_cast<int32_t*>(st.slots.data()), c);  // listing writes nothing in the state
  int count = g.native->legal(&c, raw, cap);
  if (count <= cap) {
    out.resize(count);
    if (count > 0) std::memcpy(static_cast<void*>(out.data()), raw, sizeof(Decision) * count);
  } else {
    out.resize(count);
    g.native->legal(&c, reinterpret_cast<int32_t*>(out.data()), count);
  }
  if (out.empty()) no_legal_action(g, st, g.program.sites[st[Layout::site]]);
}

}  // namespace

namespace {

// Every combination of parameters for which the conditions hold, a hidden card of a set
// as itself (before blind picks are made one decision).
void raw_legal(const Game& g, const State& st, std::vector<Decision>& out) {
  out.clear();
  if (st.status() != Status::waiting) return;
  const int32_t* s = st.slots.data();
  if (g.native) return native_legal(g, st, out);
  Evaluator ev(g, s, s + g.layout.locals);
  int32_t args[5] = {s[Layout::chooser], 0, 0, 0, 0};
  ev.set_args(args);
  const ChoiceSite& site = g.program.sites[s[Layout::site]];
  for (int a : site.actions) {
    const Action& act = g.program.actions[a];
    Decision d;
    d.action = a;
    if (act.params.empty()) {  // the usual case, without a call
      bool holds = true;
      for (int w : act.when_nodes) holds = holds && ev.eval(w);
      if (holds) out.push_back(d);
    } else {
      Listing listing{ev, g, when_cache(g), out, site};
      enumerate(listing, act, 0, d, args);
    }
  }
  if (out.empty()) no_legal_action(g, st, site);
}

// Whether an action offered here may take a blind pick (may_pick_blind).
bool offers_blind(const Game& g, const int32_t* s) {
  for (int a : g.program.sites[s[Layout::site]].actions)
    for (const Param& p : g.program.actions[a].params)
      if (may_pick_blind(g, p)) return true;
  return false;
}

// The set zone of a card the chooser cannot see there, or -1.
int blind_zone_of(const Game& g, const int32_t* s, int32_t card) {
  if (card < 0 || card >= g.card_count) return -1;
  int z = s[g.layout.card_zone + card];
  // A card face up, known to the chooser or in its own zone is seen (is_visible's usual
  // cases, inline: this is asked of every card a list offers).
  int chooser = s[Layout::chooser];
  if (z < 0 || !g.instance_set[z] || s[g.layout.card_face + card] || (s[g.layout.card_known + card] >> chooser) & 1 ||
      (g.instance_visibility[z] == Visibility::owner && g.instance_owner[z] == chooser))
    return -1;
  return Evaluator(g, s, s + g.layout.locals).is_visible(s[Layout::chooser], card) ? -1 : z;
}

// The decision as the chooser can know it: each card it cannot see in a set replaced by
// blind_card of that set; true if there was one.
bool blinded(const Game& g, const int32_t* s, Decision& d) {
  const Action& act = g.program.actions[d.action];
  bool blind = false;
  for (size_t k = 0; k < act.params.size(); ++k)
    if (act.params[k].type == Type::card)
      if (int z = blind_zone_of(g, s, d.args[k]); z >= 0) d.args[k] = blind_card(z), blind = true;
  return blind;
}

bool args_less(const Decision& a, const Decision& b) { return std::lexicographical_compare(a.args, a.args + 4, b.args, b.args + 4); }

// Makes the raw decisions that differ only in which hidden card of a set they take one
// decision each. An action's decisions are one run of the list; its blind picks follow its
// other decisions, sorted by their values (a zone for each blind card), since where the
// first of their cards stood would tell the hidden cards' order.
// Whether a decision of the list is a blind pick (most lists have none: a quick look).
// A card that the decision before had at the same place is not looked at again: a long
// list combines few cards with many other values.
bool any_blind(const Game& g, const int32_t* s, const Decision* list, size_t count) {
  if (count == 0 || !offers_blind(g, s)) return false;
  for (size_t i = 0; i < count; ++i) {
    const std::vector<Param>& params = g.program.actions[list[i].action].params;
    bool same_action = i > 0 && list[i - 1].action == list[i].action;
    for (size_t k = 0; k < params.size(); ++k) {
      if (!may_pick_blind(g, params[k]) || (same_action && list[i - 1].args[k] == list[i].args[k])) continue;
      if (blind_zone_of(g, s, list[i].args[k]) >= 0) return true;
    }
  }
  return false;
}

void collapse_blind(const Game& g, const int32_t* s, std::vector<Decision>& out) {
  if (!any_blind(g, s, out.data(), out.size())) return;
  thread_local std::vector<Decision> blind;
  size_t kept = 0;
  for (size_t i = 0; i < out.size();) {
    size_t j = i;
    blind.clear();
    for (; j < out.size() && out[j].action == out[i].action; ++j) {
      Decision d = out[j];
      if (blinded(g, s, d)) blind.push_back(d);
      else out[kept++] = d;
    }
    std::sort(blind.begin(), blind.end(), args_less);
    blind.erase(std::unique(blind.begin(), blind.end()), blind.end());
    for (const Decision& d : blind) out[kept++] = d;
    i = j;
  }
  out.resize(kept);
}

// Whether parameter k of `d` is a blind pick (a number parameter may be negative too).
bool blind_at(const Game& g, const Decision& d, int k) {
  const Action& act = g.program.actions.at(d.action);
  return k < static_cast<int>(act.params.size()) && act.params[k].type == Type::card && is_blind(d.args[k]);
}

// Whether raw decision `r` is one of the cards blind decision `d` stands for.
bool stands_for(const Game& g, const int32_t* s, const Decision& d, const Decision& r) {
  if (r.action != d.action) return false;
  for (int k = 0; k < 4; ++k)
    if (blind_at(g, d, k) ? blind_zone_of(g, s, r.args[k]) != blind_zone(d.args[k]) : r.args[k] != d.args[k]) return false;
  return true;
}


// A blind pick made: one of the raw decisions in `raw` that `d` stands for, drawn with the
// state's generator (as a shuffle draws), or the one whose cards the hooks fix.
Decision pick_blind(const Game& g, int32_t* s, const Decision& d, const Decision* raw, int count, Hooks* hooks) {
  const ChoiceSite& site = g.program.sites[s[Layout::site]];
  std::vector<Decision> candidates;
  for (int i = 0; i < count; ++i)
    if (stands_for(g, s, d, raw[i])) candidates.push_back(raw[i]);
  const Action& act = g.program.actions.at(d.action);
  int k0 = 0;
  while (k0 < 4 && !blind_at(g, d, k0)) ++k0;
  std::string from = k0 < 4 && blind_zone(d.args[k0]) < static_cast<int>(g.instance_zone.size()) ? g.instance_name(blind_zone(d.args[k0])) : "?";
  if (candidates.empty())
    throw RuntimeError(site.pos, fmt::format("'{}' picks a card from {} that {} cannot see, but no such pick is legal here",
                                             act.name, from, seat_name(s[Layout::chooser])));
  uint64_t rng = (static_cast<uint64_t>(static_cast<uint32_t>(s[Layout::rng_hi])) << 32) | static_cast<uint32_t>(s[Layout::rng_lo]);
  Decision chosen = candidates[uniform(rng, static_cast<uint32_t>(candidates.size()))];
  s[Layout::rng_hi] = static_cast<int32_t>(rng >> 32);
  s[Layout::rng_lo] = static_cast<int32_t>(rng);
  if (hooks && hooks->forced_picks && !hooks->forced_picks->empty()) {
    Decision want = d;
    for (int k = 0; k < 4; ++k)
      if (blind_at(g, d, k)) {
        if (hooks->forced_picks->empty()) throw ForcedPickError(site.pos, "the fixed picks ran out in the middle of a decision");
        want.args[k] = hooks->forced_picks->front();
        hooks->forced_picks->pop_front();
      }
    if (std::find(candidates.begin(), candidates.end(), want) == candidates.end()) {
      std::string names;
      for (int k = 0; k < 4; ++k)
        if (blind_at(g, d, k)) {
          int32_t c = want.args[k];
          names += (names.empty() ? "" : ", ") + (c >= 0 && c < g.card_count ? g.card_names[c] : std::string("a card"));
        }
      throw ForcedPickError(site.pos, fmt::format("the fixed pick names {}, which is not a card {} could pick from {} here",
                                                  names, seat_name(s[Layout::chooser]), from));
    }
    chosen = want;
  }
  return chosen;
}

// The picks of a blind decision, as events: each card is told to the seats that see it.
void record_picks(const Game& g, const State& st, const Decision& d, const Decision& chosen, std::vector<Event>& events) {
  for (int k = 0; k < 4; ++k) {
    if (!blind_at(g, d, k)) continue;
    uint32_t seen = 0;
    for (int p = 0; p < st.players(); ++p)
      if (visible(g, st, p, chosen.args[k])) seen |= 1u << p;
    events.push_back({Event::pick, st.chooser(), chosen.args[k], blind_zone(d.args[k]), -1, seen, {}, {}, {}});
  }
}

bool has_blind(const Game& g, const Decision& d) {
  for (int k = 0; k < 4; ++k)
    if (blind_at(g, d, k)) return true;
  return false;
}

// A fused playout's choice where cards are offered (kata_playout): what play_randomly's
// loop of legal_decisions and apply does, on the decisions compiled code listed: one of
// the collapsed decisions drawn with the playout's generator, then a blind pick's card
// with the state's.
void native_pick(const void* host, int32_t* s, const int32_t* list, int count, uint64_t* rng, int32_t* out) {
  const Game& g = *static_cast<const Game*>(host);
  const Decision* raw = reinterpret_cast<const Decision*>(list);
  if (!any_blind(g, s, raw, static_cast<size_t>(count))) {
    std::memcpy(out, raw + uniform(*rng, static_cast<uint32_t>(count)), sizeof(Decision));
    return;
  }
  thread_local std::vector<Decision> legal;
  legal.assign(raw, raw + count);
  collapse_blind(g, s, legal);
  Decision d = legal[uniform(*rng, static_cast<uint32_t>(legal.size()))];
  if (has_blind(g, d)) d = pick_blind(g, s, d, raw, count, nullptr);
  std::memcpy(out, &d, sizeof d);
}

}  // namespace

bool may_pick_blind(const Game& g, const Param& p) {
  if (p.type != Type::card) return false;
  const Node& n = g.program.nodes[p.domain_node];
  int zone = -1;  // the zone declaration
  switch (n.op) {
    case NodeOp::zone:
    case NodeOp::zone_of_local:
    case NodeOp::zone_of_bound: zone = g.instance_zone[n.a]; break;
    case NodeOp::zone_of_arg:  // argument 0 is the chooser
      zone = g.instance_zone[n.a];
      if (n.b == 0 && g.zones[zone].visibility == Visibility::owner) return false;
      break;
    case NodeOp::card_zone_of: zone = n.a; break;
    default: return true;
  }
  return g.zones[zone].order == ZoneOrder::set;
}

int blind_zone_of(const Game& g, const State& st, int32_t card) { return blind_zone_of(g, st.slots.data(), card); }

bool blind_decision(const Game& g, const State& st, Decision& d) { return blinded(g, st.slots.data(), d); }

void legal_decisions(const Game& g, const State& st, std::vector<Decision>& out) {
  raw_legal(g, st, out);
  collapse_blind(g, st.slots.data(), out);
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
  if (++s[Layout::decisions] > g.max_decisions) too_many_decisions(g, g.program.sites[s[Layout::site]]);
  const Action& act = g.program.actions.at(d.action);
  if (use_native(g, hooks)) {
    // Compiled code binds the chooser and parameters itself, and starts at the action.
    static_assert(sizeof(Decision) == 5 * sizeof(int32_t));
    KataCtx c;
    native_context(g, s, c);
    g.native->run(&c, reinterpret_cast<const int32_t*>(&d));
    return;
  }
  int32_t* locals = s + g.layout.locals;
  locals[act.player_slot] = s[Layout::chooser];
  for (size_t k = 0; k < act.params.size(); ++k) locals[act.params[k].slot] = d.args[k];
  locals[act.ret_slot] = s[Layout::pc];
  s[Layout::pc] = act.entry;
  s[Layout::status] = static_cast<int32_t>(Status::running);
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
  std::vector<Decision> legal;
  while (!st.over()) {
    legal_decisions(g, st, legal);
    apply(g, st, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
  }
}

std::vector<int64_t> scores(const Game& g, const State& st) {
  std::vector<int64_t> out;
  if (g.score_node < 0) return out;
  const int32_t* s = st.slots.data();
  for (int p = 0; p < st.players(); ++p) {
    Evaluator ev(g, s, s + g.layout.locals);
    out.push_back(ev.eval_with(p, g.score_node));
  }
  return out;
}

ScoreTable score_table(const Game& g, const State& st) {
  ScoreTable t;
  const int32_t* s = st.slots.data();
  auto per_seat = [&](int node) {
    std::vector<int64_t> row;
    for (int p = 0; p < st.players(); ++p)
      row.push_back(Evaluator(g, s, s + g.layout.locals).eval_with(p, node));
    return row;
  };
  t.scores = scores(g, st);
  for (const ScorePart& part : g.score_parts) t.parts.push_back(per_seat(part.node));
  for (int node : g.tiebreak_nodes) t.tiebreaks.push_back(per_seat(node));
  for (size_t i = 0; i < g.score_notes.size(); ++i)
    if (evaluate(g, st, g.score_notes[i].node)) t.notes.push_back(static_cast<int32_t>(i));
  return t;
}

uint32_t winners(const State& st) { return static_cast<uint32_t>(st[Layout::winners]); }

int64_t evaluate(const Game& g, const State& st, int node) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).eval(node);
}

int64_t evaluate_with(const Game& g, const State& st, int64_t x, int node) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).eval_with(x, node);
}

int place_in_zone(const Game& g, const State& s, int card) {
  int z = s[g.layout.card_zone + card];
  if (z < 0) return -1;
  const int32_t* cs = s.slots.data() + g.layout.zone_cards + z * g.card_count;
  return static_cast<int>(std::find(cs, cs + s[g.layout.zone_size + z], card) - cs);
}

bool visible(const Game& g, const State& st, int viewer, int card) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).is_visible(viewer, card);
}

}  // namespace kata

namespace kata {

std::vector<int64_t> parameter_domain(const Game& g, const State& st, const Decision& d, int k) {
  std::vector<int64_t> out;
  const Action& act = g.program.actions.at(d.action);
  int32_t args[5] = {st.chooser(), d.args[0], d.args[1], d.args[2], d.args[3]};
  Evaluator ev(g, st.slots.data(), st.slots.data() + g.layout.locals);
  ev.set_args(args);
  ev.each(act.params[k].domain_node, [&](int64_t x) {
    out.push_back(x);
    return true;
  });
  return out;
}

int failed_condition(const Game& g, const State& st, const Decision& d, int params) {
  const Action& act = g.program.actions.at(d.action);
  int32_t args[5] = {st.chooser(), d.args[0], d.args[1], d.args[2], d.args[3]};
  Evaluator ev(g, st.slots.data(), st.slots.data() + g.layout.locals);
  ev.set_args(args);
  for (size_t i = 0; i < act.when_nodes.size(); ++i)
    if ((params < 0 || act.when_level[i] <= params) && !ev.eval(act.when_nodes[i])) return static_cast<int>(i);
  return -1;
}

}  // namespace kata
