// Setting a game up: its options (set_option, checked against the player count by
// setup_error) and its initial state (cards in their starting zones, variables at their
// initial values) before the flow's first effects run.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstddef>

#include "runtime/evaluator.hpp"

namespace kata {

using namespace detail;

KernelTables make_kernel_tables(const Game& g) {
  const Layout& l = g.layout;
  KernelTables t;
  t.CC = g.card_count;
  t.ZS = l.zone_size;
  t.ZC = l.zone_cards;
  t.CZ = l.card_zone;
  t.FACE = l.card_face;
  t.KNOWN = l.card_known;
  t.RNG_HI = Layout::rng_hi;
  t.RNG_LO = Layout::rng_lo;
  t.PUBLIC = Layout::public_knowledge;
  static_assert(static_cast<int>(Visibility::everyone) == 0 && static_cast<int>(Visibility::owner) == 1 &&
                static_cast<int>(Visibility::nobody) == 2 && static_cast<int>(Visibility::top) == 3);
  for (size_t z = 0; z < g.instance_visibility.size(); ++z) {
    Visibility v = g.instance_visibility[z];
    int owner = g.instance_owner[z];
    t.VIS.push_back(static_cast<uint8_t>(v));
    t.ISTOP.push_back(v == Visibility::top);
    t.ISET.push_back(g.instance_set[z] != 0);
    t.IOWNER.push_back(owner);
    t.OWNBIT.push_back(v == Visibility::owner && owner >= 0 ? 1u << owner : 0u);
  }
  return t;
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

std::string players_text(int least, int most) {
  if (least == most) return fmt::format("{} player{}", least, least == 1 ? "" : "s");
  return fmt::format("{} to {} players", least, most);
}

std::string setup_error(const Game& g, int players, const std::vector<int64_t>& options) {
  if (players < g.min_players || players > g.max_players)
    return fmt::format("{} plays with {}, not {}", g.name,
                       players_text(g.min_players, g.max_players), players);
  for (size_t i = 0; i < g.options.size() && i < options.size(); ++i) {
    const OptionInfo& o = g.options[i];
    if (o.max_is_players && options[i] > players)
      return fmt::format("option {}={} is more than the {} players", o.name, options[i], players);
    if (options[i] == o.default_value || (players >= o.min_players && players <= o.max_players)) continue;
    std::string value = o.is_bool ? (options[i] ? "true" : "false") : g.symbol_name(options[i]);
    return fmt::format("option {}={} is for {}, not {}", o.name, value,
                       players_text(o.min_players, o.max_players), players);
  }
  return "";
}

namespace {

// The initial value `node` of a variable of type `type`, or its default where it has none. A
// player's names a seat of this game, or none: a seat beyond the player count stops the
// set-up there (docs/language.md §2.5), not later where some rule happens to use it.
int32_t initial_value(Evaluator& ev, int node, VarType type, int players) {
  if (node < 0) return type == VarType::player || type == VarType::card ? -1 : 0;
  int64_t v = ev.eval(node);
  if (type == VarType::player && v >= players) ev.bad_player(node, v);
  return static_cast<int32_t>(v);
}

// What initial_state sets, but for the random generator.
std::vector<int32_t> fill_initial(const Game& g, int players, const std::vector<int64_t>& options) {
  std::vector<int32_t> slots(g.layout.total, 0);
  int32_t* s = slots.data();
  const Layout& l = g.layout;
  s[Layout::players] = players;
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
    s[l.globals + i] = initial_value(ev, g.globals[i].initial, g.globals[i].type, players);
  for (const VarInfo& v : g.card_vars) {
    int32_t initial = initial_value(ev, v.initial, v.type, players);
    int count = g.kinds[v.kind].card_count * (v.per_player ? g.max_players : 1);
    std::fill(s + l.card_vars + v.base, s + l.card_vars + v.base + count, initial);
  }
  for (size_t i = 0; i < g.player_vars.size(); ++i)
    for (int p = 0; p < players; ++p) {
      const VarInfo& var = g.player_vars[i];
      int32_t initial = var.seat_initial.empty() ? var.initial : var.seat_initial[p];
      s[l.player_vars + i * g.max_players + p] = initial_value(ev, initial, var.type, players);
    }
  s[Layout::pc] = g.program.flow_entry;
  return slots;
}

}  // namespace

// Nothing but the generator depends on the seed, and the initial values are expressions of
// options and constants: the same count and options give the same slots every time.
std::vector<InitialSlots> make_initial_slots(const Game& g) {
  std::vector<InitialSlots> all;
  std::vector<int64_t> options = default_options(g);
  for (int players = g.min_players; players <= g.max_players; ++players) {
    all.emplace_back();
    if (!setup_error(g, players, options).empty()) continue;
    try {
      all.back().slots = fill_initial(g, players, options);
    } catch (const RuntimeError&) {
      all.back().slots.clear();  // raised again by each new game, where it is reported
      continue;
    }
    const std::vector<int32_t>& from = all.back().slots;
    std::vector<std::pair<int32_t, int32_t>>& runs = all.back().runs;
    const Layout& l = g.layout;
    // Slots [first, end) to write again, joined to the run before where few slots lie between.
    auto add = [&](int32_t first, int32_t end) {
      constexpr int32_t near = 16;
      if (first == end) return;
      if (!runs.empty() && first - (runs.back().first + runs.back().second) <= near)
        runs.back().second = end - runs.back().first;
      else
        runs.emplace_back(first, end - first);
    };
    add(0, l.zone_cards);
    for (int z = 0, zones = l.zone_cards - l.zone_size; z < zones; ++z) {
      int32_t first = l.zone_cards + z * g.card_count;
      add(first, first + from[static_cast<size_t>(l.zone_size + z)]);
    }
    add(l.card_zone, static_cast<int32_t>(from.size()));
  }
  return all;
}

namespace {

// The slots made once for this count with the default options, or null.
const InitialSlots* made_initial(const Game& g, int players, const std::vector<int64_t>& options) {
  size_t at = static_cast<size_t>(players - g.min_players);
  bool defaults = options.size() == g.options.size();
  for (size_t i = 0; defaults && i < options.size(); ++i)
    defaults = options[i] == g.options[i].default_value;
  if (defaults && players >= g.min_players && at < g.initial_slots.size() && !g.initial_slots[at].slots.empty())
    return &g.initial_slots[at];
  return nullptr;
}

}  // namespace

// A fresh state is a reused one that holds none yet: every slot is written.
State initial_state(const Game& g, int players, uint64_t seed,
                    const std::vector<int64_t>& options) {
  ReusedState r;
  initial_state_in(r, g, players, seed, options);
  return std::move(r.state);
}

// initial_state into r: where r last held a game of g with as many slots as the made
// ones (the same count: the layout is the game's, the players' slots its most), the
// made ones' runs (InitialSlots: the slots before the zones' lists and after them, and
// each zone's cards up to its starting size); else all of them.
void initial_state_in(ReusedState& r, const Game& g, int players, uint64_t seed,
                      const std::vector<int64_t>& options) {
  const InitialSlots* made = made_initial(g, players, options);
  std::vector<int32_t>& s = r.state.slots;
  if (made && r.game == g.serial && g.serial != 0 && s.size() == made->slots.size()) {
    const int32_t* from = made->slots.data();
    int32_t* to = s.data();
    for (auto [first, count] : made->runs) std::copy(from + first, from + first + count, to + first);
  } else {
    r.game = 0;  // (until the slots are whole: fill_initial may throw)
    if (made)
      s = made->slots;
    else
      s = fill_initial(g, players, options);
    r.game = g.serial;
  }
  uint64_t rng = seed;
  next_random(rng);  // decorrelate nearby seeds
  s[Layout::rng_hi] = static_cast<int32_t>(rng >> 32);
  s[Layout::rng_lo] = static_cast<int32_t>(rng);
}

}  // namespace kata
