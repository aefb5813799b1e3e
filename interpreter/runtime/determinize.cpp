// The sampler of determinizations. The hidden cards are listed with their places; places
// are put in an order that does not depend on which card is where (a stack's or a row's
// position, or in a set, what the seat can know of the card there), the cards of each
// kind and owner are shuffled, from card order, and dealt to those places in that order.
#include "runtime/determinize.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include "runtime/view.hpp"

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

State rename_cards(const Game& g, const State& s, const std::vector<int>& to) {
  const Layout& l = g.layout;
  State t = s;
  for (size_t z = 0; z < g.instance_zone.size(); ++z) {
    int32_t* cs = t.slots.data() + l.zone_cards + static_cast<int>(z) * g.card_count;
    int n = s[l.zone_size + static_cast<int>(z)];
    for (int i = 0; i < n; ++i) cs[i] = to[cs[i]];
    if (g.instance_set[z]) std::sort(cs, cs + n);
  }
  for (int c = 0; c < g.card_count; ++c) {
    t.slots[l.card_zone + to[c]] = s[l.card_zone + c];
    t.slots[l.card_face + to[c]] = s[l.card_face + c];
    t.slots[l.card_known + to[c]] = s[l.card_known + c];
  }
  auto card_value = [&](int slot) {
    if (s[slot] >= 0 && s[slot] < g.card_count) t.slots[slot] = to[s[slot]];
  };
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (g.globals[i].type == VarType::card) card_value(l.globals + static_cast<int>(i));
  for (size_t i = 0; i < g.player_vars.size(); ++i)
    if (g.player_vars[i].type == VarType::card)
      for (int p = 0; p < g.max_players; ++p)
        card_value(l.player_vars + static_cast<int>(i) * g.max_players + p);
  for (const VarInfo& v : g.card_vars) {
    const KindInfo& k = g.kinds[v.kind];
    int seats = v.per_player ? g.max_players : 1;
    for (int c = k.first_card; c < k.first_card + k.card_count; ++c)
      for (int p = 0; p < seats; ++p) {
        int from = l.card_vars + v.base + (c - k.first_card) * seats + p;
        int into = l.card_vars + v.base + (to[c] - k.first_card) * seats + p;
        int32_t x = s[from];
        t.slots[into] = v.type == VarType::card && x >= 0 && x < g.card_count ? to[x] : x;
      }
  }
  return t;
}

Decision rename_cards(const Game& g, const Decision& d, const std::vector<int>& to) {
  Decision r = d;
  const Action& a = g.program.actions.at(d.action);
  for (size_t k = 0; k < a.params.size() && k < 4; ++k)
    if (a.params[k].type == Type::card && d.args[k] >= 0 && d.args[k] < g.card_count)
      r.args[k] = to[d.args[k]];
  return r;
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

namespace {

// Whether `d`, made in `s`, names a card `seat` cannot see there: the seat then knows it only
// as it was told it (decision_screen_text).
bool names_hidden(const Game& g, const State& s, const Decision& d, int seat) {
  const Action& a = g.program.actions.at(d.action);
  for (size_t p = 0; p < a.params.size() && p < 4; ++p)
    if (a.params[p].type == Type::card && d.args[p] >= 0 && d.args[p] < g.card_count &&
        !visible(g, s, seat, d.args[p]))
      return true;
  return false;
}

// What the seat knows of one decision of the history, what it was told as it was made, and
// which cards it saw where after it.
struct Step {
  Decision decision;
  std::string text;  // for a decision that names a hidden card: how the seat was told it
  size_t told_begin = 0, told_end = 0;            // its lines in the list of all the lines told
  std::vector<std::pair<int32_t, int32_t>> seen;  // after it: (card, zone) the seat sees
};

// The history's decisions made again in a sample of its start, each compared with what the
// seat was told. When the seat saw a card after a decision where the sample has another
// that it sees instead (the card it drew, the face-down card it looked at), the two are
// swapped in the sample of the start, both being cards it could not see there, and the
// decisions are made again (at most `max_repairs` times): the try then agrees with what
// was seen, and is checked again from the start.
struct Replay {
  static constexpr int max_repairs = 8;
  const Game& g;
  int seat;
  TellFn tell;
  const std::vector<Step>& steps;
  const std::vector<std::string>& truth;
  std::vector<Decision> legal, alike, script;
  std::vector<std::string> told;
  std::vector<int> to;
  State tried, start;

  // Whether making `d` in `x` tells the seat the lines of `st` (and makes it).
  bool tells(State& x, const Decision& d, const Step& st) {
    told.clear();
    try {
      tell(g, x, d, seat, told);
    } catch (const RuntimeError&) {
      return false;  // the rules stop in this state: it is not the seat's
    }
    return told.size() == st.told_end - st.told_begin &&
           std::equal(told.begin(), told.end(), truth.begin() + static_cast<long>(st.told_begin));
  }

  // Makes step `st` again in `x` (the decision of the script where it has one): the same
  // decision where it names no card the seat could not see, else one of the sample's legal
  // decisions told to the seat in the same words (which hidden card another seat chose is
  // not known), tried in random order, the first that tells the seat the true lines. False
  // if there is none; `x` is then the state after the last decision tried, if any.
  bool step(State& x, size_t i, uint64_t& rng) {
    const Step& st = steps[i];
    legal_decisions(g, x, legal);
    if (i < script.size() || st.text.empty()) {
      const Decision& d = i < script.size() ? script[i] : st.decision;
      if (std::find(legal.begin(), legal.end(), d) == legal.end()) return false;
      if (i >= script.size()) script.push_back(d);
      return tells(x, d, st);
    }
    alike.clear();
    for (const Decision& d : legal)
      if (d.action == st.decision.action && decision_screen_text(g, x, d, seat) == st.text)
        alike.push_back(d);
    for (size_t k = alike.size(); k > 0; --k) {
      std::swap(alike[k - 1], alike[uniform(rng, static_cast<uint32_t>(k))]);
      tried = x;
      if (tells(tried, alike[k - 1], st)) {
        std::swap(x, tried);
        script.push_back(alike[k - 1]);
        return true;
      }
    }
    if (!alike.empty()) std::swap(x, tried);
    return false;
  }

  // After step `st`, a card the seat saw in the truth that `x` has elsewhere, and the card
  // `x` shows the seat in that zone instead: swapped in the start (and the script), if both
  // were hidden from the seat there and are of the same kind and owner. False if none.
  bool repair(const State& x, const Step& st) {
    const Layout& l = g.layout;
    for (auto [card, zone] : st.seen) {
      if (seen_in(x, card, zone)) continue;
      for (int other = 0; other < g.card_count; ++other) {
        if (!seen_in(x, other, zone) ||
            std::any_of(st.seen.begin(), st.seen.end(), [&](auto& p) { return p.first == other; }))
          continue;
        if (g.card_kind[other] != g.card_kind[card] || g.card_owner[other] != g.card_owner[card] ||
            start[l.card_zone + card] < 0 || start[l.card_zone + other] < 0 ||
            visible(g, start, seat, card) || visible(g, start, seat, other))
          return false;
        to.resize(g.card_count);
        for (int c = 0; c < g.card_count; ++c) to[c] = c;
        std::swap(to[card], to[other]);
        start = rename_cards(g, start, to);
        for (Decision& d : script) d = rename_cards(g, d, to);
        return true;
      }
      return false;
    }
    return false;
  }

  // Whether the decisions, made again from `start` (a determinization of the history's
  // start) with an empty script, or from `x` where the first `script.size()` of them were
  // made before (a kept sample), tell the seat what it was told; `x` is then the present
  // of that sample. A repair makes them all again from the start.
  bool consistent(State& x, uint64_t& rng) {
    size_t first = script.size();
    if (first > steps.size()) return false;
    if (first == 0) x = start;
    for (int repairs = 0;; ++repairs) {
      size_t i = first;
      bool same = true;
      try {
        for (; same && i < steps.size(); ++i) {
          same = step(x, i, rng);
          if (same) same = !mismatch(x, steps[i]);
        }
      } catch (const RuntimeError&) {
        return false;  // the rules stop in this state: it is not the seat's
      }
      if (same) return true;
      if (repairs == max_repairs || !repair(x, steps[i - 1])) return false;
      script.resize(i - 1);
      x = start;
      first = 0;
    }
  }

  // Whether the seat sees `card` in `zone` in `x`.
  bool seen_in(const State& x, int card, int zone) const {
    return x[g.layout.card_zone + card] == zone && visible(g, x, seat, card);
  }

  // Whether the seat, after step `st`, sees in `x` a card where the truth has another.
  bool mismatch(const State& x, const Step& st) const {
    return !std::all_of(st.seen.begin(), st.seen.end(),
                        [&](auto& p) { return seen_in(x, p.first, p.second); });
  }
};

}  // namespace

void InfoSet::find_consistent(uint64_t& rng) const {
  const History& h = *history_;
  // The truth made again from the history's start: what the seat was told at each step,
  // and the cards it saw where. A history that does not lead to the present (a caller's
  // mistake) is not used.
  std::vector<Step> steps;
  std::vector<std::string> truth;
  State s = *h.from;
  for (const Decision& d : *h.since) {
    Step st{d,
            names_hidden(g_, s, d, seat_) ? decision_screen_text(g_, s, d, seat_) : "",
            truth.size(),
            0,
            {}};
    h.tell(g_, s, d, seat_, truth);
    st.told_end = truth.size();
    for (int c = 0; c < g_.card_count; ++c)
      if (s[g_.layout.card_zone + c] >= 0 && visible(g_, s, seat_, c))
        st.seen.emplace_back(c, s[g_.layout.card_zone + c]);
    steps.push_back(std::move(st));
  }
  if (s != truth_) return;
  PlayerView now = make_view(g_, truth_, seat_);
  Replay replay{g_, seat_, h.tell, steps, truth, {}, {}, {}, {}, {}, {}, {}};
  // The samples that agreed with the seat's history at its last decision, while they still
  // agree: up to half of those wanted; then new ones, so that the samples do not narrow to
  // the first few found; then the rest of the earlier ones if room is left.
  std::vector<ConsistentSample> earlier, kept, spare;
  if (h.kept) earlier.swap(*h.kept);
  auto agrees = [&](ConsistentSample& c) {
    if (!replay.consistent(c.present, rng) || make_view(g_, c.present, seat_) != now) return false;
    c.start = std::move(replay.start);
    c.decisions = std::move(replay.script);
    return true;
  };
  auto keep = [&](ConsistentSample& c) {
    consistent_.push_back(c.present);
    kept.push_back(std::move(c));
  };
  auto room = [&] { return static_cast<int>(consistent_.size()) < wanted_; };
  for (ConsistentSample& c : earlier) {
    replay.start = std::move(c.start);
    replay.script = std::move(c.decisions);
    if (!agrees(c)) continue;
    if (static_cast<int>(consistent_.size()) < (wanted_ + 1) / 2) {
      keep(c);
      ++stats_.kept;
    } else {
      spare.push_back(std::move(c));
    }
  }
  ConsistentSample fresh;
  while (stats_.attempts < consistent_tries && room()) {
    ++stats_.attempts;
    determinize(g_, *h.from, seat_, rng, replay.start);
    replay.script.clear();
    if (agrees(fresh)) keep(fresh);
  }
  for (size_t k = 0; k < spare.size() && room(); ++k, ++stats_.kept) keep(spare[k]);
  if (h.kept) h.kept->swap(kept);
  stats_.consistent = static_cast<int>(consistent_.size());
  stats_.fell_back = consistent_.empty();
}

void HistoryKeeper::made(const Decision& d, const State& now) {
  if (now[Layout::rng_hi] == from_[Layout::rng_hi] &&
      now[Layout::rng_lo] == from_[Layout::rng_lo]) {
    since_.push_back(d);
    return;
  }
  from_ = now;
  since_.clear();
  for (auto& k : kept_) k.clear();
}

void InfoSet::sample(uint64_t& rng, State& out) const {
  if (cheat_) {
    out = truth_;
    return reseed(out, rng);
  }
  // Worked out at the first sample: the places of the hidden cards, and the states
  // consistent with the history (none is sought where the seat sees every card, or where
  // nothing was decided since chance was last used).
  if (!places_) {
    places_ = std::make_shared<HiddenPlaces>();
    list_places(g_, truth_, seat_, *places_);
    if (!places_->places.empty() && history_ && history_->from && history_->since &&
        history_->tell && !history_->since->empty())
      find_consistent(rng);
  }
  if (!consistent_.empty()) {
    out = consistent_[uniform(rng, static_cast<uint32_t>(consistent_.size()))];
    return reseed(out, rng);
  }
  deal_into(g_, truth_, *places_, rng, out);
}

}  // namespace kata
