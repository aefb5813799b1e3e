// The sampler of determinizations. The hidden cards are listed with their places; places
// are put in an order that does not depend on which card is where (a stack's or a row's
// position, or in a set, what the seat can know of the card there), the cards of each
// kind and owner are shuffled, from card order, and dealt to those places in that order.
#include "runtime/determinize.hpp"

#include <algorithm>
#include <tuple>

namespace kata {

namespace {

// A hidden card and the place it lies in, as the seat may know it.
struct Place {
  int32_t cls;       // kind and owner of the card there
  int32_t instance;  // its zone
  int32_t position;  // in a stack or a row; 0 in a set
  uint64_t what;     // in a set: the hash of what is known of the card there; else 0
  int32_t card;      // the true card (never used to order places)
  int32_t index;     // where it lies in the zone, to write the dealt card there
  bool operator<(const Place& o) const {
    return std::tie(cls, instance, position, what) <
           std::tie(o.cls, o.instance, o.position, o.what);
  }
};

}  // namespace

// What a sample needs of the true state, worked out once for all the samples of one
// information set: it depends on the state and the seat, not on the generator.
struct HiddenPlaces {
  std::vector<Place> places;
  std::vector<int32_t> dealt;       // [card]: the card dealt to its place, or -1 if seen
  std::vector<uint64_t> held_by;    // [card]: hash of the variables that hold it
  std::vector<int32_t> card_slots;  // the slots of card-valued variables
  std::vector<int32_t> pool;
};

namespace {

uint64_t mix(uint64_t h, uint64_t x) {
  uint64_t z = h ^ (x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  return next_random(z);
}

// Every slot of the state that holds a card-valued variable: globals, players' and
// components' variables.
void card_valued_slots(const Game& g, std::vector<int32_t>& out) {
  const Layout& l = g.layout;
  out.clear();
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (g.globals[i].type == VarType::card) out.push_back(l.globals + static_cast<int32_t>(i));
  for (size_t i = 0; i < g.player_vars.size(); ++i)
    if (g.player_vars[i].type == VarType::card)
      for (int p = 0; p < g.max_players; ++p)
        out.push_back(l.player_vars + static_cast<int32_t>(i) * g.max_players + p);
  for (const VarInfo& v : g.card_vars) {
    if (v.type != VarType::card) continue;
    int n = g.kinds[v.kind].card_count * (v.per_player ? g.max_players : 1);
    for (int k = 0; k < n; ++k) out.push_back(l.card_vars + v.base + k);
  }
}

// Calls f(slot) for each slot of a component variable of `card`.
template <class F>
void each_card_var(const Game& g, int card, F f) {
  int kind = g.card_kind[card];
  for (const VarInfo& v : g.card_vars) {
    if (v.kind != kind) continue;
    int seats = v.per_player ? g.max_players : 1;
    int first = g.layout.card_vars + v.base + (card - g.kinds[kind].first_card) * seats;
    for (int p = 0; p < seats; ++p) f(first + p);
  }
}

bool hidden(const HiddenPlaces& w, int32_t v, int card_count) {
  return v >= 0 && v < card_count && w.dealt[v] >= 0;
}

// The hidden cards of `truth` for `seat`, with their places (dealt[c] = c marks them).
void list_places(const Game& g, const State& truth, int seat, HiddenPlaces& w) {
  const Layout& l = g.layout;
  int cc = g.card_count;
  w.places.clear();
  w.dealt.assign(cc, -1);
  for (int c = 0; c < cc; ++c)
    if (truth[l.card_zone + c] >= 0 && !visible(g, truth, seat, c)) w.dealt[c] = c;
  // What the variables say of a hidden card goes with its place.
  card_valued_slots(g, w.card_slots);
  w.held_by.assign(cc, 0);
  for (int32_t slot : w.card_slots)
    if (int32_t v = truth[slot]; hidden(w, v, cc))
      w.held_by[v] = mix(w.held_by[v], static_cast<uint64_t>(slot) + 1);
  for (size_t z = 0; z < g.instance_zone.size(); ++z) {
    int n = truth[l.zone_size + static_cast<int>(z)];
    const int32_t* cs = truth.slots.data() + l.zone_cards + static_cast<int>(z) * cc;
    for (int i = 0; i < n; ++i) {
      int c = cs[i];
      if (w.dealt[c] < 0) continue;
      Place p{g.card_kind[c] * (g.max_players + 1) + g.card_owner[c] + 1,
              static_cast<int32_t>(z),
              i,
              0,
              c,
              i};
      if (g.instance_set[z]) {
        // A set keeps card order, so a hidden card's position there is not known: what is
        // known of it is its face, who knows it, its variables and what holds it.
        uint64_t h = mix(mix(w.held_by[c], static_cast<uint32_t>(truth[l.card_face + c])),
                         static_cast<uint32_t>(truth[l.card_known + c]));
        each_card_var(g, c, [&](int slot) { h = mix(h, static_cast<uint32_t>(truth[slot])); });
        p.position = 0;
        p.what = h;
      }
      w.places.push_back(p);
    }
  }
  std::sort(w.places.begin(), w.places.end());
}

// Shuffles the cards of each kind and owner, taken in card order, and deals them to the
// places of that kind and owner, in the places' order.
void deal(HiddenPlaces& w, uint64_t& rng) {
  for (size_t b = 0; b < w.places.size();) {
    size_t e = b;
    while (e < w.places.size() && w.places[e].cls == w.places[b].cls) ++e;
    w.pool.clear();
    for (size_t i = b; i < e; ++i) w.pool.push_back(w.places[i].card);
    std::sort(w.pool.begin(), w.pool.end());
    for (size_t i = w.pool.size(); i > 1; --i)
      std::swap(w.pool[i - 1], w.pool[uniform(rng, static_cast<uint32_t>(i))]);
    for (size_t i = b; i < e; ++i) w.dealt[w.places[i].card] = w.pool[i - b];
    b = e;
  }
}

void reseed(State& s, uint64_t& rng) {
  uint64_t seed = next_random(rng);
  s.slots[Layout::rng_hi] = static_cast<int32_t>(seed >> 32);
  s.slots[Layout::rng_lo] = static_cast<int32_t>(seed);
}

// Deals the hidden cards listed in `w` (list_places) again, into `out`.
void deal_into(const Game& g, const State& truth, HiddenPlaces& w, uint64_t& rng, State& out) {
  const Layout& l = g.layout;
  int cc = g.card_count;
  out = truth;
  deal(w, rng);
  // The dealt card takes its place and what goes with it.
  for (const Place& p : w.places) {
    int c = p.card, d = w.dealt[c];
    out.slots[l.zone_cards + p.instance * cc + p.index] = d;
    out.slots[l.card_zone + d] = p.instance;
    out.slots[l.card_face + d] = truth[l.card_face + c];
    out.slots[l.card_known + d] = truth[l.card_known + c];
    std::vector<int32_t>& from = w.pool;
    from.clear();
    each_card_var(g, c, [&](int slot) { from.push_back(truth[slot]); });
    size_t k = 0;
    each_card_var(g, d, [&](int slot) { out.slots[slot] = from[k++]; });
  }
  for (int32_t slot : w.card_slots)
    if (int32_t v = out[slot]; hidden(w, v, cc)) out.slots[slot] = w.dealt[v];
  // Sets keep card order.
  for (size_t i = 0; i < w.places.size(); ++i) {
    int z = w.places[i].instance;
    if (!g.instance_set[z] || (i > 0 && w.places[i - 1].instance == z)) continue;
    int32_t* cs = out.slots.data() + l.zone_cards + z * cc;
    std::sort(cs, cs + out[l.zone_size + z]);
  }
  reseed(out, rng);
}

}  // namespace

void determinize(const Game& g, const State& truth, int seat, uint64_t& rng, State& out) {
  thread_local HiddenPlaces w;
  list_places(g, truth, seat, w);
  deal_into(g, truth, w, rng, out);
}

bool hides_information(const Game& g) {
  for (const ZoneInfo& z : g.zones)
    if (z.visibility != Visibility::everyone) return true;
  for (const Instr& i : g.program.code) {
    if ((i.op == Op::move || i.op == Op::move_all) && i.c == 2) return true;
    if (i.op == Op::flip && i.c != 1) return true;
  }
  return false;
}

void InfoSet::sample(uint64_t& rng, State& out) const {
  if (!cheat_) {
    // The places of the hidden cards are the same for every sample: listed once.
    if (!places_) {
      places_ = std::make_shared<HiddenPlaces>();
      list_places(g_, truth_, seat_, *places_);
    }
    return deal_into(g_, truth_, *places_, rng, out);
  }
  out = truth_;
  reseed(out, rng);
}

}  // namespace kata
