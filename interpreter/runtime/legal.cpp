// Listing the legal decisions: every combination of an action's parameters for which its
// conditions hold (each `when` decided as soon as what it reads is chosen), interpreted or
// through compiled code; blind picks (a hidden card of a set offered as one decision, the
// card drawn when it is taken); and what the menus ask of a decision's parameters.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "runtime/evaluator.hpp"
#include "runtime/internal.hpp"

namespace kata {

using namespace detail;

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
  // The values the `choose` gives the action's first parameters (ChoiceSite::given).
  int32_t given[4];
  size_t given_count;
};

// A cached `when`'s value for its parameter's value, worked out the first time it is asked.
[[gnu::noinline]] bool cached(Listing& l, const Action& act, size_t i, const int32_t* args) {
  int32_t level = act.when_level[i];
  int32_t x = args[level];
  int32_t count = act.params[level - 1].type == Type::card ? l.g.card_count : l.g.max_players;
  if (x < 0 || x >= count) return l.ev.value(act.when_nodes[i]);
  size_t at = static_cast<size_t>(act.when_cache[i] + x);
  WhenCache& c = *l.cache;
  if (c.stamp[at] != c.now) {
    c.value[at] = l.ev.value(act.when_nodes[i]) != 0;
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
    if (!(act.when_cache[i] < 0 ? l.ev.value(act.when_nodes[i]) : cached(l, act, i, args))) return;
  }
  if (k == act.params.size()) {
    if (static_cast<int64_t>(l.out.size()) == max_legal_decisions) too_many_legal(l.site);
    l.out.push_back(d);
    return;
  }
  l.ev.each(act.params[k].domain_node, [&](int64_t x) {
    if (k < l.given_count && x != l.given[k]) return true;
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
  if (out.empty()) no_legal_action(g, st.chooser(), g.program.sites[st[Layout::site]]);
}

}  // namespace

namespace detail {

// Every combination of parameters for which the conditions hold, a hidden card of a set
// as itself (before blind picks are made one decision).
[[gnu::hot]] void raw_legal(const Game& g, const State& st, std::vector<Decision>& out) {
  out.clear();
  if (st.status() != Status::waiting) return;
  const int32_t* s = st.slots.data();
  if (g.native) return native_legal(g, st, out);
  Evaluator ev(g, s, s + g.layout.locals);
  int32_t args[5] = {s[Layout::chooser], 0, 0, 0, 0};
  ev.set_args(args);
  const ChoiceSite& site = g.program.sites[s[Layout::site]];
  for (size_t i = 0; i < site.actions.size(); ++i) {
    const Action& act = g.program.actions[site.actions[i]];
    Decision d;
    d.action = site.actions[i];
    if (act.params.empty()) {  // the usual case, without a call
      if (ev.whens_hold(act)) out.push_back(d);
    } else {
      Listing listing{ev, g, when_cache(g), out, site, {}, site.given[i].size()};
      for (size_t k = 0; k < listing.given_count; ++k) listing.given[k] = static_cast<int32_t>(ev.eval(site.given[i][k]));
      enumerate(listing, act, 0, d, args);
    }
  }
  if (out.empty()) no_legal_action(g, st.chooser(), site);
}

}  // namespace detail

namespace {


// Whether an action offered here may take a blind pick (may_pick_blind).
bool offers_blind(const Game& g, const int32_t* s) { return g.site_blind[s[Layout::site]]; }

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


}  // namespace

namespace detail {

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

}  // namespace detail

namespace {


}  // namespace

namespace detail {

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

}  // namespace detail

namespace {


}  // namespace

namespace detail {

bool has_blind(const Game& g, const Decision& d) {
  for (int k = 0; k < 4; ++k)
    if (blind_at(g, d, k)) return true;
  return false;
}

}  // namespace detail

namespace {


}  // namespace

namespace detail {

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

}  // namespace detail

namespace {


}  // namespace

bool may_pick_blind(const Game& g, const Param& p) {
  if (p.type != Type::card || g.cards_always_seen) return false;
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


std::vector<int64_t> parameter_domain(const Game& g, const State& st, const Decision& d, int k) {
  std::vector<int64_t> out;
  const Action& act = g.program.actions.at(d.action);
  int32_t args[5] = {st.chooser(), d.args[0], d.args[1], d.args[2], d.args[3]};
  Evaluator ev(g, st.slots.data(), st.slots.data() + g.layout.locals);
  ev.set_args(args);
  // A value the `choose` gives this parameter is its only choice, if its list holds it.
  const ChoiceSite& site = g.program.sites[st[Layout::site]];
  const std::vector<int32_t>* given = nullptr;
  for (size_t i = 0; i < site.actions.size(); ++i)
    if (site.actions[i] == d.action && static_cast<size_t>(k) < site.given[i].size()) given = &site.given[i];
  int64_t only = given ? ev.eval((*given)[k]) : 0;
  ev.each(act.params[k].domain_node, [&](int64_t x) {
    if (!given || x == only) out.push_back(x);
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
    if ((params < 0 || act.when_level[i] <= params) && !ev.value(act.when_nodes[i])) return static_cast<int>(i);
  return -1;
}


}  // namespace kata
