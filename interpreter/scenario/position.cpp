// Setting a scenario's position on a state. The state's slots are written directly, the
// way initial_state lays them out (game.hpp's Layout): the position is a fact about the
// state, not something the game's effects did, so it records no event. Every name is
// checked first, and nothing is written while any is wrong.
#include "scenario/position.hpp"
#include "syntax/keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <set>

namespace kata {

namespace {

Pos at(int file, const YAML::Node& n) { return Pos{file, n.Mark().line + 1, n.Mark().column + 1}; }

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string near = closest_name(name, candidates);
  return near.empty() ? "" : fmt::format("; did you mean '{}'?", near);
}

void read_card(const YAML::Node& n, int file, PositionSpec::Card& c, Diagnostics& d) {
  c.pos = at(file, n);
  if (n.IsScalar()) {
    c.name = n.Scalar();
    return;
  }
  if (!n.IsMap())
    return d.error(c.pos,
                   "a card in a position is its name, or {card: NAME, face: up, known: [P1]}");
  for (auto it = n.begin(); it != n.end(); ++it) {
    std::string k = it->first.as<std::string>("");
    const YAML::Node v = it->second;
    if (k == "card") {
      c.name = v.as<std::string>("");
      c.pos = at(file, v);
    } else if (k == "face") {
      c.face = v.as<std::string>("");
      c.face_pos = at(file, v);
      if (c.face != "up" && c.face != "down")
        d.error(c.face_pos, fmt::format("'face:' is up or down, not '{}'", c.face));
    } else if (k == "known") {
      c.known_given = true;
      if (v.IsScalar())
        c.known.push_back({v.Scalar(), at(file, v)});
      else if (v.IsSequence())
        for (const auto& s : v) c.known.push_back({s.as<std::string>(""), at(file, s)});
      else
        d.error(at(file, v), "'known:' is a seat or a list of seats, like [P1, P2]");
    } else {
      d.error(at(file, it->first), fmt::format("unknown key '{}' in a card of a position{}", k,
                                               did_you_mean(k, keys::position_card)));
    }
  }
  if (c.name.empty()) d.error(c.pos, "a card in a position needs 'card:', its name");
}

}  // namespace

void read_position(const YAML::Node& n, int file, PositionSpec& out, Diagnostics& d) {
  out.given = true;
  out.pos = at(file, n);
  if (!n.IsMap())
    return d.error(out.pos, "'position:' is a mapping: at:, zones:, variables:, expect:");
  for (auto it = n.begin(); it != n.end(); ++it) {
    std::string k = it->first.as<std::string>("");
    const YAML::Node v = it->second;
    if (k == "at") {
      out.at = v.as<std::string>("");
      out.at_pos = at(file, v);
    } else if (k == "zones") {
      if (!v.IsMap()) {
        d.error(at(file, v), "'zones:' maps each zone to its cards, bottom first: {deck: [A, B]}");
        continue;
      }
      for (auto z = v.begin(); z != v.end(); ++z) {
        PositionSpec::Zone zone{z->first.as<std::string>(""), at(file, z->first), {}};
        const YAML::Node cards = z->second;
        if (cards.IsSequence()) {
          for (const auto& c : cards) read_card(c, file, zone.cards.emplace_back(), d);
        } else if (!cards.IsNull()) {
          d.error(
              at(file, cards),
              fmt::format("the cards of '{}' are a list, bottom first, like [A, B]", zone.name));
        }
        out.zones.push_back(std::move(zone));
      }
    } else if (k == "expect") {
      // Conditions on the position as set: read and compiled by the scenario runner.
    } else if (k == "variables") {
      if (!v.IsMap()) {
        d.error(at(file, v),
                "'variables:' maps each variable to its value: {round: 3, P1.score: 2}");
        continue;
      }
      for (auto x = v.begin(); x != v.end(); ++x) {
        if (!x->second.IsScalar()) {
          d.error(at(file, x->second),
                  "a variable's value is a number, true or false, a seat, a card's name or none");
          continue;
        }
        out.variables.push_back({x->first.as<std::string>(""), at(file, x->first),
                                 x->second.Scalar(), at(file, x->second)});
      }
    } else {
      d.error(at(file, it->first),
              fmt::format("unknown key '{}' in a position{}", k,
                          did_you_mean(k, keys::position)));
    }
  }
}

namespace {

class Setter {
 public:
  Setter(const Game& g, State& s, Diagnostics& d) : g_(g), s_(s), d_(d), players_(s.players()) {}

  int run(const PositionSpec& spec) {
    int pc = resume_at(spec);
    std::vector<std::pair<int, std::vector<Placed>>> zones = zones_of(spec);
    std::vector<std::pair<int, int32_t>> vars;
    for (const auto& v : spec.variables) variable(v, vars);
    if (d_.has_errors()) return -1;
    place(zones);
    for (auto [slot, value] : vars) s_.slots[slot] = value;
    return pc;
  }

 private:
  struct Placed {
    int card;
    bool up;
    uint32_t known;
  };

  // A seat written "P3": its index, or an error if the game has no such seat.
  int seat(const std::string& text, Pos pos) {
    bool digits = text.size() >= 2 && text.size() <= 4 && text[0] == 'P' &&
                  text.find_first_not_of("0123456789", 1) == std::string::npos;
    int p = digits ? std::stoi(text.substr(1)) - 1 : -1;
    if (p >= 0 && p < players_) return p;
    if (digits)
      d_.error(pos, fmt::format("there is no {} in a {}-player game; the seats are P1 to P{}", text,
                                players_, players_));
    else
      d_.error(pos, fmt::format("expected a seat, P1 to P{}, not '{}'", players_, text));
    return -1;
  }

  int card(const std::string& name, Pos pos) {
    auto it = std::find(g_.card_names.begin(), g_.card_names.end(), name);
    if (it == g_.card_names.end()) {
      d_.error(pos,
               fmt::format("no card is named '{}'{}", name, did_you_mean(name, g_.card_names)));
      return -1;
    }
    int c = static_cast<int>(it - g_.card_names.begin());
    if (g_.card_owner[c] >= players_) {
      d_.error(pos, fmt::format("'{}' is not in a {}-player game", name, players_));
      return -1;
    }
    return c;
  }

  // The phase's `phase` statement in the flow (which runs from instruction 0 to its first
  // `halt`), if the flow runs it once: a statement inside a loop would resume without the
  // loop's counter, so it is refused.
  int resume_at(const PositionSpec& spec) {
    if (spec.at.empty()) return g_.program.flow_entry;
    auto it = std::find(g_.phases.begin(), g_.phases.end(), spec.at);
    if (it == g_.phases.end()) {
      std::string near = did_you_mean(spec.at, g_.phases);
      d_.error(spec.at_pos, fmt::format("{} has no phase '{}'{}", g_.name, spec.at,
                                        near.empty() ? fmt::format("; its phases are {}",
                                                                   fmt::join(g_.phases, ", "))
                                                     : near));
      return -1;
    }
    int phase = static_cast<int>(it - g_.phases.begin());
    const auto& code = g_.program.code;
    size_t end = g_.program.flow_entry;
    while (end < code.size() && code[end].op != Op::halt) ++end;
    int found = -1;
    for (size_t i = g_.program.flow_entry; i < end; ++i)
      if (code[i].op == Op::phase && code[i].b == phase) {
        if (found >= 0)
          return d_.error(spec.at_pos,
                          fmt::format("the flow runs phase '{}' more than once; a position resumes "
                                      "only at a phase the flow runs once",
                                      spec.at)),
                 -1;
        found = static_cast<int>(i);
      }
    if (found < 0)
      return d_.error(spec.at_pos, fmt::format("the flow does not run phase '{}' itself", spec.at)),
             -1;
    for (size_t j = found + 1; j < end; ++j)
      if (code[j].op == Op::jump && code[j].a <= found)
        return d_.error(spec.at_pos, fmt::format("the flow runs phase '{}' in a loop; a position "
                                                 "resumes only at a phase the flow runs once",
                                                 spec.at)),
               -1;
    return found;
  }

  int zone(const std::string& name, Pos pos) {
    std::vector<std::string> names;
    for (int i = 0; i < static_cast<int>(g_.instance_zone.size()); ++i) {
      std::string n = g_.instance_name(i);
      if (n != name) {
        names.push_back(n);
        continue;
      }
      int owner = g_.instance_owner[i];
      int holder = g_.instance_card[i] >= 0 ? g_.card_owner[g_.instance_card[i]] : -1;
      if (owner >= players_ || holder >= players_) {
        d_.error(pos, fmt::format("'{}' is not in a {}-player game", name, players_));
        return -1;
      }
      return i;
    }
    d_.error(pos, fmt::format("no zone is named '{}'{}", name, did_you_mean(name, names)));
    return -1;
  }

  std::vector<std::pair<int, std::vector<Placed>>> zones_of(const PositionSpec& spec) {
    std::vector<std::pair<int, std::vector<Placed>>> out;
    std::map<int, Pos> zone_at, card_at;
    uint32_t all = (1u << players_) - 1;
    for (const auto& zs : spec.zones) {
      int z = zone(zs.name, zs.pos);
      if (z >= 0 && !zone_at.emplace(z, zs.pos).second)
        d_.error(zs.pos, fmt::format("zone '{}' is listed twice", zs.name),
                 {{zone_at[z], "first listed here"}});
      std::vector<Placed> cards;
      for (const auto& cs : zs.cards) {
        int c = card(cs.name, cs.pos);
        if (c < 0) continue;
        if (!card_at.emplace(c, cs.pos).second) {
          d_.error(cs.pos, fmt::format("'{}' is placed twice", cs.name),
                   {{card_at[c], "first placed here"}});
          continue;
        }
        bool up = cs.face.empty() ? z >= 0 && g_.instance_visibility[z] == Visibility::everyone
                                  : cs.face == "up";
        if (!up && cs.face == "down" && g_.cards_always_seen)
          d_.error(cs.face_pos, fmt::format("'{}' cannot be face down: in this game every card is always seen by "
                                            "everyone (every zone is, and nothing turns a card face down)", cs.name));
        uint32_t known = 0;
        if (!cs.known_given && g_.card_owner[c] >= 0) known = 1u << g_.card_owner[c];
        for (const auto& [who, p] : cs.known)
          if (int k = seat(who, p); k >= 0) known |= 1u << k;
        cards.push_back({c, up, up ? all : known});
      }
      out.push_back({z, std::move(cards)});
    }
    return out;
  }

  // A variable's value as its type writes it, or an error saying what it should be.
  bool value(VarType t, const PositionSpec::Variable& v, int32_t& out) {
    const std::string& x = v.value;
    switch (t) {
      case VarType::integer: {
        if (auto it = std::find(g_.symbols.begin(), g_.symbols.end(), x); it != g_.symbols.end())
          return out = static_cast<int32_t>(Game::symbol_base + (it - g_.symbols.begin())), true;
        int64_t n = 0;
        auto [end, ec] = std::from_chars(x.data(), x.data() + x.size(), n);
        if (!x.empty() && ec == std::errc() && end == x.data() + x.size() && n >= INT32_MIN &&
            n <= INT32_MAX)
          return out = static_cast<int32_t>(n), true;
        d_.error(v.value_pos, fmt::format("'{}' is a number from {} to {}, not '{}'", v.name,
                                          INT32_MIN, INT32_MAX, x));
        return false;
      }
      case VarType::boolean:
        if (x == "true" || x == "false") return out = x == "true", true;
        d_.error(v.value_pos, fmt::format("'{}' is true or false, not '{}'", v.name, x));
        return false;
      case VarType::player: {
        if (x == "none") return out = -1, true;
        bool seat_like = x.size() >= 2 && x[0] == 'P' &&
                         x.find_first_not_of("0123456789", 1) == std::string::npos;
        if (!seat_like) {
          d_.error(v.value_pos, fmt::format("'{}' is a player, P1 to P{} or none, not '{}'", v.name,
                                            players_, x));
          return false;
        }
        int p = seat(x, v.value_pos);
        return p >= 0 && (out = p, true);
      }
      case VarType::card: {
        if (x == "none") return out = -1, true;
        int c = card(x, v.value_pos);
        return c >= 0 && (out = c, true);
      }
    }
    return false;
  }

  // "round", "P1.vp", "Port.seat_a", "Port.port_bonus(P1)": the variable's slot.
  void variable(const PositionSpec::Variable& v, std::vector<std::pair<int, int32_t>>& out) {
    const Layout& l = g_.layout;
    std::string name = v.name, head, seat_text;
    if (!name.empty() && name.back() == ')' && name.find('(') != std::string::npos) {
      size_t open = name.rfind('(');
      seat_text = name.substr(open + 1, name.size() - open - 2);
      name = name.substr(0, open);
    }
    if (size_t dot = name.rfind('.'); dot != std::string::npos) {
      head = name.substr(0, dot);
      name = name.substr(dot + 1);
    }
    auto named = [&](const std::vector<VarInfo>& vars, int kind) {
      for (size_t i = 0; i < vars.size(); ++i)
        if (vars[i].name == name && (kind < 0 || vars[i].kind == kind)) return static_cast<int>(i);
      return -1;
    };
    auto names = [&](const std::vector<VarInfo>& vars, const std::string& prefix) {
      std::vector<std::string> out;
      for (auto& x : vars) out.push_back(prefix + x.name);
      return out;
    };
    int slot = -1;
    const VarInfo* info = nullptr;
    if (head.empty() && seat_text.empty()) {
      int i = named(g_.globals, -1);
      if (i < 0) {
        std::string hint = named(g_.player_vars, -1) >= 0
                               ? fmt::format("; '{}' is a player variable: write P1.{}", name, name)
                               : did_you_mean(name, names(g_.globals, ""));
        return d_.error(v.pos, fmt::format("no global variable is named '{}'{}", name, hint));
      }
      info = &g_.globals[i];
      slot = l.globals + i;
    } else if (seat_text.empty() && !head.empty() && head[0] == 'P' &&
               head.find_first_not_of("0123456789", 1) == std::string::npos && head.size() >= 2) {
      int i = named(g_.player_vars, -1);
      if (i < 0)
        return d_.error(
            v.pos, fmt::format("no player variable is named '{}'{}", name,
                               did_you_mean(head + "." + name, names(g_.player_vars, head + "."))));
      int p = seat(head, v.pos);
      if (p < 0) return;
      info = &g_.player_vars[i];
      slot = l.player_vars + i * g_.max_players + p;
    } else {
      int c = card(head, v.pos);
      if (c < 0) return;
      int kind = g_.card_kind[c];
      int i = named(g_.card_vars, kind);
      if (i < 0) {
        std::vector<std::string> mine;
        for (auto& x : g_.card_vars)
          if (x.kind == kind) mine.push_back(head + "." + x.name);
        return d_.error(v.pos, fmt::format("{} has no variable '{}'{}", head, name,
                                           did_you_mean(head + "." + name, mine)));
      }
      info = &g_.card_vars[i];
      int p = 0;
      if (info->per_player != !seat_text.empty())
        return d_.error(v.pos,
                        info->per_player
                            ? fmt::format("'{}' is per player: write {}.{}(P1)", name, head, name)
                            : fmt::format("'{}' is not per player: write {}.{}", name, head, name));
      if (info->per_player && (p = seat(seat_text, v.pos)) < 0) return;
      slot = l.card_vars + info->base + g_.component_index(kind, info->per_player, c, p);
    }
    for (auto& [s, _] : out)
      if (s == slot) return d_.error(v.pos, fmt::format("'{}' is set twice", v.name));
    int32_t x = 0;
    if (value(info->type, v, x)) out.push_back({slot, x});
  }

  void take_out(int c) {
    const Layout& l = g_.layout;
    int z = s_.slots[l.card_zone + c];
    if (z < 0) return;
    int32_t* cs = s_.slots.data() + l.zone_cards + z * g_.card_count;
    int32_t& n = s_.slots[l.zone_size + z];
    std::remove(cs, cs + n, c);
    --n;
    s_.slots[l.card_zone + c] = -1;
  }

  // The listed zones are emptied first (their other cards leave the game), then each card
  // is taken from wherever it starts and put on top of its zone, in the order listed.
  void place(const std::vector<std::pair<int, std::vector<Placed>>>& zones) {
    const Layout& l = g_.layout;
    for (auto& [z, cards] : zones) {
      int32_t* cs = s_.slots.data() + l.zone_cards + z * g_.card_count;
      for (int i = 0; i < s_.slots[l.zone_size + z]; ++i) s_.slots[l.card_zone + cs[i]] = -1;
      s_.slots[l.zone_size + z] = 0;
    }
    for (auto& [z, cards] : zones) {
      int32_t* cs = s_.slots.data() + l.zone_cards + z * g_.card_count;
      for (const Placed& p : cards) {
        take_out(p.card);
        cs[s_.slots[l.zone_size + z]++] = p.card;
        s_.slots[l.card_zone + p.card] = z;
        s_.slots[l.card_face + p.card] = p.up;
        s_.slots[l.card_known + p.card] = static_cast<int32_t>(p.known);
      }
      if (g_.instance_set[z]) std::sort(cs, cs + s_.slots[l.zone_size + z]);
    }
  }

  const Game& g_;
  State& s_;
  Diagnostics& d_;
  int players_;
};

}  // namespace

int set_position(const Game& g, const PositionSpec& spec, State& s, Diagnostics& d) {
  return Setter(g, s, d).run(spec);
}

}  // namespace kata
