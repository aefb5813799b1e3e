// Views and notation. The notation is produced and read by the same functions, so what
// a player types, what a script holds and what a log records always agree.
#include "runtime/view.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <sstream>

#include "runtime/wrap.hpp"

namespace kata {

namespace {

// Whether every seat sees the card.
bool seen_by_all(const Game& g, const State& s, int card) {
  for (int p = 0; p < s.players(); ++p)
    if (!visible(g, s, p, card)) return false;
  return true;
}

// A view of the cards that `sees` lets through. A set's cards are listed as the viewer
// may know them: the cards it sees (in card order), then the others, hidden. Listed where
// they lie, hidden cards would tell how they rank against the seen ones.
template <typename Sees>
PlayerView build_view(const Game& g, const State& s, int viewer, const Sees& sees) {
  const Layout& l = g.layout;
  PlayerView v;
  v.viewer = viewer;
  v.status = s.status();
  v.chooser = s.status() == Status::waiting ? s.chooser() : -1;
  v.phase = s[Layout::phase];
  v.decisions = s.decisions();
  v.winners = winners(s);
  int n = s.players();
  // A variable may hold a card: the view says which only if the viewer may see it.
  auto value = [&](const VarInfo& info, int slot) -> int64_t {
    int64_t x = s[slot];
    if (info.type != VarType::card || x < 0 || sees(static_cast<int>(x))) return x;
    return PlayerView::hidden_card;
  };
  // `show: {if: ...}` reads the value as the view holds it (and options): nothing more.
  auto unshown = [&](const VarInfo& info, int64_t x) {
    return info.show_node >= 0 && x != PlayerView::unknown && !evaluate_with(g, s, x, info.show_node);
  };
  for (size_t i = 0; i < g.globals.size(); ++i) {
    v.globals.push_back(value(g.globals[i], l.globals + static_cast<int>(i)));
    v.globals_unshown.push_back(unshown(g.globals[i], v.globals.back()));
  }
  for (size_t i = 0; i < g.player_vars.size(); ++i) {
    std::vector<int64_t> row;
    std::vector<bool> off;
    for (int p = 0; p < n; ++p) {
      row.push_back(value(g.player_vars[i], l.player_vars + static_cast<int>(i) * g.max_players + p));
      off.push_back(unshown(g.player_vars[i], row.back()));
    }
    v.player_vars.push_back(row);
    v.player_vars_unshown.push_back(off);
  }
  for (const VarInfo& info : g.card_vars) {
    std::vector<int64_t> row;
    int count = g.kinds[info.kind].card_count * (info.per_player ? g.max_players : 1);
    int seats = info.per_player ? g.max_players : 1;
    // A component's variables are told only to whoever sees the component: "the Lord was
    // played third" must not name a face-down Lord.
    std::vector<bool> off;
    for (int k = 0; k < count; ++k) {
      row.push_back(sees(g.kinds[info.kind].first_card + k / seats) ? value(info, l.card_vars + info.base + k)
                                                                      : PlayerView::unknown);
      off.push_back(unshown(info, row.back()));
    }
    v.card_vars.push_back(row);
    v.card_vars_unshown.push_back(off);
  }
  for (int p = 0; p < n; ++p) v.eliminated.push_back(s[l.eliminated + p] != 0);
  for (size_t z = 0; z < g.instance_zone.size(); ++z) {
    if (g.instance_owner[z] >= n) continue;
    ZoneView zv;
    zv.instance = static_cast<int>(z);
    int size = s[l.zone_size + static_cast<int>(z)];
    const int32_t* cs = s.slots.data() + l.zone_cards + static_cast<int>(z) * g.card_count;
    for (int i = 0; i < size; ++i) {
      bool seen = sees(cs[i]);
      // Public: to an onlooker, what every seat knows; to a seat, what all were shown.
      bool known_publicly = (s[l.card_known + cs[i]] & Layout::public_knowledge) != 0;
      zv.cards.push_back({seen ? cs[i] : -1, s[l.card_face + cs[i]] != 0,
                          seen && (viewer < 0 ? seen_by_all(g, s, cs[i]) : known_publicly), g.card_kind[cs[i]]});
    }
    if (g.instance_set[z])
      std::stable_partition(zv.cards.begin(), zv.cards.end(), [](const CardView& c) { return c.card >= 0; });
    v.zones.push_back(std::move(zv));
  }
  if (v.status == Status::over) v.end = score_table(g, s);
  if (viewer >= 0 && g.board.turn_node >= 0) {
    int64_t turn = evaluate_with(g, s, viewer, g.board.turn_node) % 360;
    v.board_turn = static_cast<int>((turn + 360) % 360 / 30 * 30);
  }
  return v;
}

}  // namespace

PlayerView make_view(const Game& g, const State& s, int viewer) {
  return build_view(g, s, viewer, [&](int c) { return visible(g, s, viewer, c); });
}

PlayerView public_view(const Game& g, const State& s) {
  uint32_t all = (1u << s.players()) - 1;
  return build_view(g, s, -1, [&](int c) {
    uint32_t seen = 0;
    for (int p = 0; p < s.players(); ++p) seen |= visible(g, s, p, c) ? 1u << p : 0u;
    return seen == all;
  });
}

namespace {

// A hidden card as a seat may name it. In a stack or a row, where it lies is there for
// everyone to see. A set keeps card order, so its place would name the card: it is only
// "a card from" the set, as is a blind pick there (see view.hpp).
std::string blind_text(const Game& g, int zone) { return fmt::format("a card from {}", g.instance_name(zone)); }

std::string hidden_text(const Game& g, const State& s, int card) {
  int z = s[g.layout.card_zone + card];
  if (z < 0) return "a card out of play";
  if (g.instance_set[z]) return blind_text(g, z);
  return fmt::format("{}#{}", g.instance_name(z), place_in_zone(g, s, card) + 1);
}

}  // namespace

std::string card_text(const Game& g, const State& s, int card, int viewer) {
  if (is_blind(card) && blind_zone(card) < static_cast<int>(g.instance_zone.size())) return blind_text(g, blind_zone(card));
  if (card < 0 || card >= g.card_count) return "none";
  if (visible(g, s, viewer, card)) return g.card_names[card];
  return hidden_text(g, s, card);
}

std::string hidden_card_text(const Game& g, const State& s, int card) {
  int z = s[g.layout.card_zone + card];
  if (z < 0 || g.zones[g.instance_zone[z]].label.empty()) return hidden_text(g, s, card);
  // Told, not typed: the zone by its label, and a place in words.
  if (g.instance_set[z]) return fmt::format("a card from {}", g.place_name(z, true));
  return fmt::format("card {} from the bottom of {}", place_in_zone(g, s, card) + 1, g.place_name(z, true));
}

std::string value_text(const Game& g, Type t, int64_t v) {
  if (t == Type::player) return seat_name(static_cast<int>(v));
  if (t == Type::boolean) return v ? "true" : "false";
  return g.symbol_name(v);
}

std::string comparison_sides(const Game& g, const State& s, const Invariant& inv) {
  const Node& n = g.program.nodes[inv.node];
  bool comparison = n.op == NodeOp::eq || n.op == NodeOp::ne || n.op == NodeOp::lt || n.op == NodeOp::le ||
                    n.op == NodeOp::gt || n.op == NodeOp::ge;
  if (n.kid_count != 2 || !comparison) return {};
  auto show = [&](Type t, int64_t v) {
    if (t == Type::card) return v >= 0 && v < g.card_count ? g.card_names[v] : std::string("none");
    return value_text(g, t, v);
  };
  int64_t a = evaluate(g, s, g.program.kids[n.first_kid]);
  int64_t b = evaluate(g, s, g.program.kids[n.first_kid + 1]);
  return fmt::format("the left side is {}, the right side is {}", show(inv.left, a),
                     show(inv.right, b));
}

std::string var_value_text(const Game& g, VarType t, int64_t v) {
  if (t == VarType::card) {
    if (v == PlayerView::hidden_card) return "a hidden card";
    // A name of several words ("Gold Mine") is one unit: a page never breaks it.
    return v >= 0 && v < g.card_count ? unbroken(g.card_plain_names[v]) : "none";
  }
  if (t == VarType::boolean) return v ? "yes" : "no";
  return value_text(g, t == VarType::player ? Type::player : t == VarType::boolean ? Type::boolean : Type::integer, v);
}

std::string decision_text(const Game& g, const State& s, const Decision& d) { return decision_text(g, s, d, s.chooser()); }

namespace {

std::string decision_text(const Game& g, const State& s, const Decision& d, int viewer, bool units) {
  const Action& a = g.program.actions.at(d.action);
  std::string out = a.name;
  for (size_t k = 0; k < a.params.size(); ++k) {
    std::string value = a.params[k].type == Type::card ? card_text(g, s, d.args[k], viewer) : value_text(g, a.params[k].type, d.args[k]);
    // On a screen, a card with copies is named without its copy number (Game::card_plain_names).
    if (units && a.params[k].type == Type::card && d.args[k] >= 0 && d.args[k] < g.card_count && visible(g, s, viewer, d.args[k]))
      value = g.card_plain_names[d.args[k]];
    out += ' ' + (units ? unbroken(value) : value);
  }
  return out;
}

}  // namespace

std::string decision_text(const Game& g, const State& s, const Decision& d, int viewer) {
  return decision_text(g, s, d, viewer, false);
}

std::string decision_screen_text(const Game& g, const State& s, const Decision& d, int viewer) {
  return decision_text(g, s, d, viewer, true);
}

std::string normal(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

namespace {

// Runs of blank space as one space, for quoting rule text on one line.
std::string spaced(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool blank = std::isspace(static_cast<unsigned char>(c));
    if (blank && (out.empty() || out.back() == ' ')) continue;
    out += blank ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace

namespace {

// A `refuse:` message with each {name} given its value, as the chooser knows it; a
// parameter not chosen yet keeps its name.
std::string refusal_text(const Game& g, const State& s, const Decision& d, int params, const std::string& message) {
  const Action& a = g.program.actions.at(d.action);
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    size_t end = message[i] == '{' ? message.find('}', i) : std::string::npos;
    if (end == std::string::npos) {
      out += message[i];
      continue;
    }
    std::string name = message.substr(i + 1, end - i - 1);
    i = end;
    if (name == "player") {
      out += seat_name(s.chooser());
      continue;
    }
    int k = 0;
    while (k < static_cast<int>(a.params.size()) && a.params[k].name != name) ++k;
    if (k >= params) out += name;
    else if (a.params[k].type == Type::card) {
      // Told, not typed: a card the chooser sees by its title (or name without its copy
      // number), a hidden one by its place in words.
      int c = static_cast<int>(d.args[k]);
      if (is_blind(c) || c < 0 || c >= g.card_count) out += card_text(g, s, c, s.chooser());
      else if (visible(g, s, s.chooser(), c)) out += g.card_plain_names[c];
      else out += hidden_card_text(g, s, c);
    }
    else out += value_text(g, a.params[k].type, d.args[k]);
  }
  return out;
}

}  // namespace

namespace {

// Notation compared as normal() compares it, read a piece at a time: `at` is how much of
// `want` followed by one space the normal form of the pieces so far is (a blank run at
// their end has given its one space already, which normal() drops at the very end). The
// pieces' text is what normal(decision_text) reads, so they spell `want` exactly when the
// whole of it is matched.
struct Spelling {
  const std::string* want;
  size_t at = 0;

  char wanted(size_t i) const { return i < want->size() ? (*want)[i] : ' '; }
  bool emit(char c) {
    if (at > want->size() || c != wanted(at)) return false;
    ++at;
    return true;
  }
  bool read(const std::string& piece) {
    for (char c : piece) {
      bool blank = std::isspace(static_cast<unsigned char>(c));
      if (blank && (at == 0 || wanted(at - 1) == ' ')) continue;
      if (!emit(blank ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))))) return false;
    }
    return true;
  }
  bool whole() const { return at == want->size() || at == want->size() + 1; }
};

// A value of parameter k in the chooser's notation, as decision_text writes it.
std::string value_notation(const Game& g, const State& s, const Param& p, int64_t x) {
  return p.type == Type::card ? card_text(g, s, static_cast<int>(x), s.chooser()) : value_text(g, p.type, x);
}

// The first legal decision of d's action, in the order legal_decisions lists them, whose
// notation goes on from `read` (the action's name and d's first k values) to spell the
// whole text: each parameter's list is only worked out for a value that spells the text
// so far and whose conditions hold, as the listing works it out only where they hold.
std::optional<Decision> spelled(const Game& g, const State& s, Decision& d, size_t k, const Spelling& read) {
  const Action& a = g.program.actions[d.action];
  if (failed_condition(g, s, d, static_cast<int>(k)) >= 0) return std::nullopt;
  if (k == a.params.size()) return read.whole() ? std::optional<Decision>(d) : std::nullopt;
  for (int64_t x : parameter_domain(g, s, d, static_cast<int>(k))) {
    int32_t v = static_cast<int32_t>(x);  // as a decision holds it
    Spelling next = read;
    if (!next.read(" ") || !next.read(value_notation(g, s, a.params[k], v))) continue;
    d.args[k] = v;
    if (auto found = spelled(g, s, d, k + 1, next)) return found;
  }
  return std::nullopt;
}

// Whether some legal decision begins with d's first k values (those before them are
// known to fit their conditions).
bool begins_legal(const Game& g, const State& s, Decision d, size_t k) {
  const Action& a = g.program.actions[d.action];
  if (failed_condition(g, s, d, static_cast<int>(k)) >= 0) return false;
  if (k == a.params.size()) return true;
  for (int64_t x : parameter_domain(g, s, d, static_cast<int>(k))) {
    d.args[k] = static_cast<int32_t>(x);
    if (begins_legal(g, s, d, k + 1)) return true;
  }
  return false;
}

// The longest list of refusals a dead end spells out; beyond it, how many more.
constexpr size_t dead_end_refusals = 4;

// Why no legal decision begins with d's first k values, whose own conditions hold: "no go
// is legal with origin 8/-7: 7/-8 holds a piece of yours; 7/-5 holds a piece of yours",
// each refusal that parameter k's values meet, once; or that it has no value. A value that
// is a card the chooser cannot see gives no refusal (it would tell of that card), nor does
// one whose own conditions hold (a later parameter has no value); no refusal at all when
// one of the first k values is such a card.
std::string dead_end(const Game& g, const State& s, Decision d, size_t k) {
  const Action& a = g.program.actions[d.action];
  std::vector<std::string> chosen;
  bool names_hidden = false;
  for (size_t i = 0; i < k; ++i) {
    chosen.push_back(
        fmt::format("{} {}", a.params[i].name, value_notation(g, s, a.params[i], d.args[i])));
    names_hidden |= a.params[i].type == Type::card && !visible(g, s, s.chooser(), d.args[i]);
  }
  std::string head = fmt::format("no {} is legal with {}", a.name, fmt::join(chosen, " and "));
  if (names_hidden) return head;
  std::vector<int64_t> values = parameter_domain(g, s, d, static_cast<int>(k));
  if (values.empty()) return fmt::format("{}: no {} is possible", head, a.params[k].name);
  std::vector<std::string> refusals;
  size_t more = 0;
  for (int64_t x : values) {
    d.args[k] = static_cast<int32_t>(x);
    if (a.params[k].type == Type::card && !visible(g, s, s.chooser(), d.args[k])) continue;
    int failed = failed_condition(g, s, d, static_cast<int>(k) + 1);
    std::string why;
    if (failed < 0) continue;
    if (!a.when_refusals[failed].empty())
      why = refusal_text(g, s, d, static_cast<int>(k) + 1, a.when_refusals[failed]);
    else if (a.when_quotable[failed])
      why = fmt::format("'{}' requires {}", a.name, spaced(a.when_texts[failed]));
    else
      continue;
    while (!why.empty() && (why.back() == '.' || why.back() == ' ')) why.pop_back();
    if (std::find(refusals.begin(), refusals.end(), why) != refusals.end()) continue;
    if (refusals.size() < dead_end_refusals)
      refusals.push_back(why);
    else
      ++more;
  }
  if (refusals.empty()) return head;
  return fmt::format("{}: {}{}", head, fmt::join(refusals, "; "),
                     more ? fmt::format("; and {} more", more) : "");
}

}  // namespace

std::optional<Decision> parse_decision(const Game& g, const State& s, const std::string& text,
                                       std::string& why) {
  if (s.status() != Status::waiting) {
    why = "the game is not waiting for a decision";
    return std::nullopt;
  }
  const ChoiceSite& site = g.program.sites[s[Layout::site]];
  std::string want = normal(text);
  for (int action : site.actions) {
    Spelling read{&want};
    if (!read.read(g.program.actions[action].name)) continue;
    Decision d;
    d.action = action;
    if (auto found = spelled(g, s, d, 0, read)) {
      // A card the chooser cannot see in a set is read as the blind pick that stands for
      // every such card there (legal_decisions lists that one decision).
      blind_decision(g, s, *found);
      return found;
    }
  }

  // Not legal: say why, as precisely as the text allows.
  std::vector<std::string> w = words(want);
  std::string offered;
  for (int a : site.actions) offered += (offered.empty() ? "" : ", ") + g.program.actions[a].name;
  if (w.empty()) {
    why = fmt::format("type an action: {}", offered);
    return std::nullopt;
  }
  int action = -1;
  std::vector<std::string> names;
  for (size_t i = 0; i < g.program.actions.size(); ++i) {
    names.push_back(g.program.actions[i].name);
    if (normal(g.program.actions[i].name) == w[0]) action = static_cast<int>(i);
  }
  if (action < 0) {
    std::string near = closest_name(w[0], names);
    why = fmt::format("there is no action '{}'{}", w[0], near.empty() ? "" : fmt::format("; did you mean '{}'?", near));
    return std::nullopt;
  }
  if (std::find(site.actions.begin(), site.actions.end(), action) == site.actions.end()) {
    why = fmt::format("'{}' is not possible now; {} may: {}", w[0], seat_name(s.chooser()), offered);
    return std::nullopt;
  }
  const Action& a = g.program.actions[action];
  std::string params;
  for (auto& p : a.params) params += " " + p.name;
  std::string usage = a.params.empty() ? fmt::format("'{}' takes no values: type {} alone", a.name, a.name)
                                       : fmt::format("'{}' takes {} value{}: {}{}", a.name, a.params.size(), a.params.size() == 1 ? "" : "s", a.name, params);
  // The values follow the action's name; a value's text may have spaces ("P1 Lord"), so
  // each parameter takes the longest of its choices that the rest of the text starts with.
  std::string rest = want.substr(std::min(want.size(), w[0].size()));
  Decision d;
  d.action = action;
  // Why the decision fails once its first `params` values are known (false if it does
  // not yet). Which condition a hidden card fails would tell something about it: then
  // the reason is only that the decision is not legal.
  auto fails = [&](int params) {
    bool names_hidden = false;
    for (int k = 0; k < params; ++k)
      names_hidden |= a.params[k].type == Type::card && !visible(g, s, s.chooser(), d.args[k]);
    int failed = failed_condition(g, s, d, params);
    if (failed < 0) return false;
    if (names_hidden) why = fmt::format("'{}' is not legal now", normal(text));
    else if (!a.when_refusals[failed].empty()) why = refusal_text(g, s, d, params, a.when_refusals[failed]);
    else if (a.when_quotable[failed]) why = fmt::format("'{}' requires {}", a.name, spaced(a.when_texts[failed]));
    else why = fmt::format("'{}' is not allowed now{}", normal(text), a.doc.empty() ? "" : fmt::format(" ({}: {})", a.name, spaced(a.doc)));
    return true;
  };
  for (size_t k = 0; k < a.params.size(); ++k) {
    // The later parameters' lists are worked out only where the conditions on the earlier
    // ones hold, as for the legal decisions.
    if (fails(static_cast<int>(k))) return std::nullopt;
    while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    // Too few values: when those typed already leave no legal decision, that is the news.
    if (rest.empty() && k > 0 && !begins_legal(g, s, d, k))
      return why = dead_end(g, s, d, k), std::nullopt;
    if (rest.empty()) return why = usage, std::nullopt;
    size_t best = 0;
    std::vector<int64_t> values = parameter_domain(g, s, d, static_cast<int>(k));
    for (int64_t x : values) {
      std::string n = normal(value_notation(g, s, a.params[k], x));
      bool fits = rest.compare(0, n.size(), n) == 0 && (rest.size() == n.size() || rest[n.size()] == ' ');
      if (fits && n.size() > best) {
        best = n.size();
        d.args[k] = static_cast<int32_t>(x);
      }
    }
    if (best == 0) {
      // The choices suggested are those of a legal decision. Hidden cards of a set read
      // alike ("a card from P2.hand"): listed once, after the others, as the legal
      // decisions list them (where they stand would tell their order).
      std::string choices, blind_choices;
      for (int64_t x : values) {
        d.args[k] = static_cast<int32_t>(x);
        if (d.args[k] != x || !begins_legal(g, s, d, k + 1)) continue;
        std::string t = value_notation(g, s, a.params[k], x);
        std::string& list = a.params[k].type == Type::card && blind_zone_of(g, s, static_cast<int32_t>(x)) >= 0 ? blind_choices : choices;
        if ((", " + list + ", ").find(", " + t + ", ") == std::string::npos) list += (list.empty() ? "" : ", ") + t;
      }
      if (!blind_choices.empty()) choices += (choices.empty() ? "" : ", ") + blind_choices;
      std::string word = rest.substr(0, rest.find(' '));
      if (choices.empty() && k > 0) choices = "none: " + dead_end(g, s, d, k);
      why = fmt::format("'{}' is not a choice for {} (choices: {})", word, a.params[k].name, choices.empty() ? "none" : choices);
      return std::nullopt;
    }
    rest.erase(0, best);
  }
  while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
  if (!rest.empty()) return why = usage, std::nullopt;
  if (!fails(static_cast<int>(a.params.size()))) why = fmt::format("'{}' is not legal now", normal(text));
  return std::nullopt;
}

namespace {

// Whether a variable's value, as a view holds it, is unset: 0, false or none.
bool unset(const VarInfo& info, int64_t x) {
  return info.type == VarType::player || info.type == VarType::card ? x == -1 : x == 0;
}

// Whether a page shows this value of a variable (`show:`; `unshown`: its condition does
// not hold there).
bool shown(const VarInfo& info, int64_t x, bool unshown) {
  return !unshown && (info.show == Show::always || (info.show == Show::when_set && !unset(info, x)));
}

// "  Port: west=P1 east=P2": the variables each component has, where they are set (not
// 0, false or none): a component's variables are many, and most are unset.
std::string describe_component_vars(const Game& g, const PlayerView& v) {
  std::string out;
  for (size_t k = 0; k < g.kinds.size(); ++k) {
    const KindInfo& kind = g.kinds[k];
    for (int c = 0; c < kind.card_count; ++c) {
      std::string line;
      for (size_t i = 0; i < g.card_vars.size(); ++i) {
        const VarInfo& info = g.card_vars[i];
        if (info.kind != static_cast<int>(k) || info.show == Show::never) continue;
        int seats = info.per_player ? static_cast<int>(v.eliminated.size()) : 1;
        for (int p = 0; p < seats; ++p) {
          int k = g.component_index(info.kind, info.per_player, kind.first_card + c, p);
          int64_t x = v.card_vars[i][k];
          if (x == PlayerView::unknown || unset(info, x) || v.card_vars_unshown[i][k]) continue;
          // Formatted, not concatenated: GCC 12 at -O2 warns falsely (-Wrestrict) on
          // `"(" + string + ")"`.
          std::string seat = info.per_player ? fmt::format("({})", seat_name(p)) : std::string();
          line += fmt::format(" {}{}={}", info.name, seat, var_value_text(g, info.type, x));
        }
      }
      if (!line.empty()) out += fmt::format("  {}:{}\n", unbroken(g.card_plain_names[kind.first_card + c]), line);
    }
  }
  return out;
}

// A kind's `label:` for a card the viewer sees, the mark after its name: "North (vp 4)
// between P1 and P2"; nothing while a variable it names is unset (0, false or none: a
// place whose seats are not set yet). The view holds the component's variables, since the
// viewer sees the component.
std::optional<std::string> label(const Game& g, const PlayerView& v, int32_t card, const char* mark) {
  const KindInfo& kind = g.kinds[g.card_kind[card]];
  if (kind.label.empty()) return std::nullopt;
  std::string out;
  bool marked = false;
  using What = KindInfo::LabelPiece::What;
  for (const KindInfo::LabelPiece& piece : kind.label) {
    switch (piece.what) {
      case What::text: out += piece.text; break;
      case What::name:
        out += g.card_plain_names[card] + mark;
        marked = true;
        break;
      case What::property:
        out += g.symbol_name(g.card_props[static_cast<size_t>(piece.index) * g.card_count + card]);
        break;
      case What::variable: {
        const VarInfo& info = g.card_vars[piece.index];
        int64_t x = v.card_vars[piece.index][g.component_index(info.kind, false, card, 0)];
        if (x == PlayerView::unknown || unset(info, x)) return std::nullopt;
        out += var_value_text(g, info.type, x);
        break;
      }
    }
  }
  return marked ? out : out + mark;
}

// A card the viewer sees, by its kind's label, else by name and with the properties its
// kind's `show:` puts on screens: "Port (vp 4)". The properties are printed on the card:
// whoever sees it may read them.
std::string shown_card(const Game& g, const PlayerView& v, int32_t card, const char* mark) {
  // One unit on a screen: a line is never broken inside it.
  if (auto text = label(g, v, card, mark)) return unbroken(*text);
  const KindInfo& kind = g.kinds[g.card_kind[card]];
  std::string props;
  for (int32_t p : kind.shown)
    props += fmt::format("{}{} {}", props.empty() ? "" : ", ", g.properties[p].name,
                         g.symbol_name(g.card_props[static_cast<size_t>(p) * g.card_count + card]));
  return unbroken(props.empty() ? g.card_plain_names[card] + mark : fmt::format("{}{} ({})", g.card_plain_names[card], mark, props));
}

// Sets the flags for the page's legend: a card marked `*`, a card written `?`. On a
// seat's page a card is marked when it lies face down and the viewer knows it, unless all
// seats were shown it (revealed, or seen face up): whether the others know it otherwise is
// not the viewer's to know (view.hpp, CardView). On an onlooker's page it is marked when
// not every seat knows it. The cards of the
// viewer's own `owner` zone (a hand) are not marked: being seen by their owner is what
// such a zone is, and "face down" read oddly of a hand.
// How a zone's page line names it: its label and a colon, or its name.
std::string zone_heading(const Game& g, int instance) {
  const ZoneInfo& info = g.zones[g.instance_zone[instance]];
  return info.label.empty() ? g.instance_name(instance) : g.place_name(instance, true) + ":";
}

// The widest zone heading up to this many columns sets where the cards start on every
// zone line; a longer one runs on into its line, so that a page of short names stays
// narrow.
constexpr size_t zone_column_most = 22, zone_column_least = 14;

std::string describe_zone(const Game& g, const PlayerView& v, const ZoneView& z, size_t column,
                          bool& known_face_down, bool& unknown_shown) {
  int viewer = v.viewer;
  const ZoneInfo& info = g.zones[g.instance_zone[z.instance]];
  bool own = viewer >= 0 && info.visibility == Visibility::owner && g.instance_owner[z.instance] == viewer;
  // A label is words: a colon ends it, so that the cards do not seem to go on with it.
  std::string out = fmt::format("  {:<{}}", unbroken(zone_heading(g, z.instance)), column);
  if (z.cards.empty()) out += " (empty)";
  int hidden = 0;
  std::vector<std::string> names;
  for (const CardView& c : z.cards) {
    bool marked = c.card >= 0 && !c.face_up && !c.public_ && !own;
    names.push_back(c.card < 0 ? "?" : shown_card(g, v, c.card, marked ? "*" : ""));
    known_face_down |= marked;
  }
  // Cards written in several words ("P1 Guard", "North (vp 4)") would run together: they
  // are parted by commas.
  bool words = std::any_of(names.begin(), names.end(),
                           [](const std::string& n) { return n.find(unbroken_space) != std::string::npos; });
  std::string shown, in_order;
  for (size_t i = 0; i < names.size(); ++i) {
    in_order += (words && i > 0 ? ", " : " ") + names[i];
    if (z.cards[i].card < 0)
      ++hidden;
    else
      shown += (words && !shown.empty() ? ", " : " ") + names[i];
  }
  // A stack or a row keeps its order, so a hidden card's place shows; a set shows the
  // cards the viewer knows and counts the others.
  // Hidden components are counted by their kinds' noun ("3 hidden tiles"): a kind shows on
  // a component's back.
  int kind = g.kind_of_all(z.cards, [](const CardView& c) { return c.kind; });
  if (info.order != ZoneOrder::set && !z.cards.empty() &&
      hidden == static_cast<int>(z.cards.size()))
    out += fmt::format(" {} face down", hidden == 1 ? "1 " + g.noun(kind, false) : g.counted(hidden, kind));
  else if (info.order != ZoneOrder::set) {
    out += in_order;
    unknown_shown |= hidden > 0;
  }
  else {
    out += shown;
    // "P2's hand: 13 hidden cards"; beside cards the viewer sees, "+2 hidden".
    if (hidden && shown.empty()) out += fmt::format(" {} hidden {}", hidden, g.noun(kind, hidden != 1));
    else if (hidden) out += fmt::format(" +{} hidden", hidden);
  }
  if (info.order == ZoneOrder::stack && !z.cards.empty() && z.cards.back().card >= 0 &&
      z.cards.size() > 1)
    out += "  (top: " + unbroken(g.card_plain_names[z.cards.back().card]) + ")";
  return out + '\n';
}

// Whether a page lists the zone: not a board's (they are in the drawing), not the empty
// zones of components (a stack on each tile for each player), and as `show:` says.
bool zone_listed(const Game& g, const ZoneView& z) {
  const ZoneInfo& info = g.zones[g.instance_zone[z.instance]];
  if (g.board.kind >= 0 && g.instance_zone[z.instance] == g.board.zone) return false;
  if (g.board.kind >= 0 && !z.cards.empty() &&
      std::all_of(z.cards.begin(), z.cards.end(), [&](const CardView& c) {
        return c.card >= 0 && g.card_kind[c.card] == g.board.kind;
      }))
    return false;
  if (info.show == Show::never) return false;
  return !z.cards.empty() || (info.kind < 0 && info.show == Show::always);
}

// The zones a page lists, in the order it lists them: as declared, except that the zones
// components hold (each player's side of a tile) follow their holders where the viewer sees them
// lie (the tiles in their row's order), then their owners' seats. A holder the viewer does
// not see keeps its zones in declaration order, after the seen ones: where an unseen card
// lies is not the page's to tell.
std::vector<const ZoneView*> page_order(const Game& g, const PlayerView& v) {
  // Where each card the viewer sees lies: its zone's index in v.zones, its place there.
  std::vector<std::pair<int, int>> at(static_cast<size_t>(g.card_count), {-1, -1});
  for (size_t i = 0; i < v.zones.size(); ++i)
    for (size_t k = 0; k < v.zones[i].cards.size(); ++k)
      if (int c = v.zones[i].cards[k].card; c >= 0) at[static_cast<size_t>(c)] = {static_cast<int>(i), static_cast<int>(k)};
  struct Keyed {
    std::array<int, 5> key;
    const ZoneView* zone;
  };
  std::vector<Keyed> keyed;
  std::vector<int> first_of(g.zones.size(), -1);  // each declaration's first listed zone
  for (size_t i = 0; i < v.zones.size(); ++i) {
    const ZoneView& z = v.zones[i];
    if (!zone_listed(g, z)) continue;
    int decl = g.instance_zone[z.instance], holder = g.instance_card[z.instance];
    if (first_of[decl] < 0) first_of[decl] = static_cast<int>(i);
    std::array<int, 5> key{static_cast<int>(i), 0, 0, 0, 0};
    if (holder >= 0) {
      auto [zone, place] = at[static_cast<size_t>(holder)];
      key = zone < 0 ? std::array<int, 5>{first_of[decl], 1, 0, 0, static_cast<int>(i)}
                     : std::array<int, 5>{first_of[decl], 0, zone, place, g.instance_owner[z.instance]};
    }
    keyed.push_back({key, &z});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
  std::vector<const ZoneView*> out;
  for (const Keyed& k : keyed) out.push_back(k.zone);
  return out;
}

bool nonzero(const std::vector<int64_t>& xs) {
  return std::any_of(xs.begin(), xs.end(), [](int64_t x) { return x != 0; });
}

// The end of the game: who won, then a row for each seat with the parts of its score,
// the score (the "total" when it is the parts' sum), the tie-breaks, and the winners
// marked; then the notes whose condition held.
std::string describe_end(const Game& g, const PlayerView& v) {
  int n = static_cast<int>(v.eliminated.size());
  std::string w;
  for (int p = 0; p < n; ++p)
    if (v.winners & (1u << p)) w += (w.empty() ? "" : ", ") + seat_name(p);
  std::string out = fmt::format("Game over. Winner{}: {}\n",
                                std::popcount(v.winners) == 1 ? "" : "s", w.empty() ? "none" : w);
  const ScoreTable& t = v.end;
  if (!t.scores.empty()) {
    // Nothing was scored: the winners above say all, and a column of 0s would not.
    if (!scores_shown(g, t)) {
      for (int32_t i : t.notes) out += g.score_notes[i].text + '\n';
      return out;
    }
    std::vector<std::string> head;
    std::vector<const std::vector<int64_t>*> cols;
    // A part that is 0 for every seat says nothing (a bonus nobody earned): left out.
    for (size_t i = 0; i < t.parts.size(); ++i)
      if (nonzero(t.parts[i])) head.push_back(g.score_parts[i].name), cols.push_back(&t.parts[i]);
    // The sum of a single part is that part again.
    if (!g.score_is_sum || t.parts.size() > 1 || cols.empty()) {
      head.push_back(g.score_is_sum ? "total" : "score");
      cols.push_back(&t.scores);
    }
    // A named tie-break is headed by its name, and a line under the table says what it
    // decides; an unnamed one is the "tie-break".
    std::vector<std::string> named;
    for (size_t i = 0; i < t.tiebreaks.size(); ++i) {
      std::string name = i < g.tiebreak_names.size() ? g.tiebreak_names[i] : "";
      if (!name.empty()) named.push_back((named.empty() ? "the most " : "then the most ") + name);
      head.push_back(!name.empty() ? name : t.tiebreaks.size() == 1 ? "tie-break" : fmt::format("tie-break {}", i + 1));
      cols.push_back(&t.tiebreaks[i]);
    }
    std::vector<std::string> seats;
    size_t seat_width = 4;
    for (int p = 0; p < n; ++p) {
      seats.push_back(seat_name(p) + (p == v.viewer ? " (you)" : ""));
      seat_width = std::max(seat_width, seats.back().size());
    }
    // A table where it fits the screen, else a line for each seat that wraps:
    // "P1 (you): points 12, bonus 2, score 14; winner".
    std::string table = fmt::format("  {:<{}}", "", seat_width), lines;
    std::vector<size_t> width;
    for (size_t c = 0; c < cols.size(); ++c) {
      size_t wd = head[c].size();
      for (int64_t x : *cols[c]) wd = std::max(wd, fmt::format("{}", x).size());
      width.push_back(wd);
      table += fmt::format("  {:>{}}", head[c], wd);
    }
    for (int p = 0; p < n; ++p) {
      std::string row = fmt::format("  {:<{}}", seats[p], seat_width), line = "  " + seats[p] + ":";
      for (size_t c = 0; c < cols.size(); ++c) {
        row += fmt::format("  {:>{}}", (*cols[c])[p], width[c]);
        line += fmt::format("{} {} {}", c ? "," : "", unbroken(head[c]), (*cols[c])[p]);
      }
      bool won = v.winners & (1u << p), out_of_game = v.eliminated[p];
      table += '\n' + row + (won ? "  winner" : "") + (out_of_game ? "  eliminated" : "");
      lines += (p ? "\n" : "") + line + (won ? "; winner" : "") + (out_of_game ? "; eliminated" : "");
    }
    out += wide_or_narrow(table, lines) + '\n';
    if (!named.empty()) out += fmt::format("A tie on the score goes to {}.\n", fmt::join(named, ", "));
  }
  for (int32_t i : t.notes) out += g.score_notes[i].text + '\n';
  return out;
}

}  // namespace

bool scores_shown(const Game& g, const ScoreTable& t) {
  return !t.scores.empty() &&
         (!g.score_is_sum || !t.tiebreaks.empty() || std::any_of(t.parts.begin(), t.parts.end(), nonzero));
}

std::string describe_view(const Game& g, const PlayerView& v) { return plain(describe_screen(g, v)); }

std::string describe_screen(const Game& g, const PlayerView& v) {
  std::string out;
  int n = static_cast<int>(v.eliminated.size());
  out += fmt::format("{} — {}", g.name, v.viewer < 0 ? "everything" : fmt::format("as {} sees it", seat_name(v.viewer)));
  // Once the game is over, the phase it ended in says nothing more.
  if (v.status == Status::over) out += " — game over";
  else if (v.phase >= 0 && v.phase < static_cast<int>(g.phases.size())) out += fmt::format(" — phase: {}", g.phases[v.phase]);
  out += '\n';
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (shown(g.globals[i], v.globals[i], v.globals_unshown[i]))
      out += g.globals[i].label.empty()
                 ? fmt::format("  {} = {}\n", g.globals[i].name, var_value_text(g, g.globals[i].type, v.globals[i]))
                 : fmt::format("  {}: {}\n", g.globals[i].label, var_value_text(g, g.globals[i].type, v.globals[i]));
  // A line for each seat with something to show: its variables, or that it is out.
  for (int p = 0; p < n; ++p) {
    std::string vars;
    for (size_t i = 0; i < g.player_vars.size(); ++i)
      if (shown(g.player_vars[i], v.player_vars[i][p], v.player_vars_unshown[i][p]))
        vars += g.player_vars[i].label.empty()
                    ? fmt::format(" {}={}", g.player_vars[i].name, var_value_text(g, g.player_vars[i].type, v.player_vars[i][p]))
                    : fmt::format("{} {}: {}", vars.empty() ? "" : ";", g.player_vars[i].label,
                                  var_value_text(g, g.player_vars[i].type, v.player_vars[i][p]));
    if (!vars.empty() || v.eliminated[p])
      out += fmt::format("  {}{}{}:{}\n", seat_name(p), p == v.viewer ? " (you)" : "", v.eliminated[p] ? " [eliminated]" : "", vars);
  }
  out += describe_component_vars(g, v);
  out += draw_board_units(g, v);
  bool known_face_down = false, unknown_shown = false;
  size_t column = zone_column_least;
  std::vector<const ZoneView*> listed = page_order(g, v);
  for (const ZoneView* z : listed)
    if (size_t w = zone_heading(g, z->instance).size(); w <= zone_column_most) column = std::max(column, w);
  for (const ZoneView* z : listed) out += describe_zone(g, v, *z, column, known_face_down, unknown_shown);
  if (known_face_down)
    out += v.viewer < 0 ? "  (* face down: not every player knows it)\n" : "  (* face down: you know it)\n";
  if (unknown_shown) out += "  (? a face-down card you do not know, in its place in the pile)\n";
  if (v.status == Status::over)
    out += describe_end(g, v);
  else if (v.chooser >= 0)
    out += fmt::format("{} to choose.\n", seat_name(v.chooser));
  return out;
}

}  // namespace kata
