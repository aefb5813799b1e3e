// The structural diff of two rule files. Each kind of declaration has one function that
// lists what differs between two of the same name; `match` pairs them by name and adds
// the declarations only one side has.
#include "check/diff.hpp"

#include <fmt/format.h>

#include <map>

namespace kata {

namespace {

// Text as compared and shown: runs of white space made one space, trimmed.
std::string squeeze(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// 'text', cut at 60 characters; none when empty.
std::string quoted(const std::string& text) {
  std::string s = printable(squeeze(text));
  if (s.empty()) return "none";
  constexpr size_t most = 60;
  if (s.size() > most) s = s.substr(0, most - 3) + "...";
  return "'" + s + "'";
}

std::string value_text(const Value& v) {
  if (v.is_bool) return v.number ? "true" : "false";
  return v.is_symbol ? v.symbol : std::to_string(v.number);
}

std::string values_text(const std::vector<Value>& values) {
  std::string out;
  for (const Value& v : values) out += (out.empty() ? "" : ", ") + value_text(v);
  return "[" + out + "]";
}

std::string words(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& w : list) out += (out.empty() ? "" : ", ") + w;
  return "[" + out + "]";
}

// The details of one changed declaration, and the position of its first changed part.
struct Details {
  std::vector<std::string>& lines;
  Pos& pos;

  // A part shown as it is ("default 4 -> 5").
  void plain(const std::string& part, const std::string& before, const std::string& after,
             Pos at = {}) {
    if (before == after) return;
    lines.push_back(fmt::format("{} {} -> {}", part, before, after));
    if (!pos.valid()) pos = at;
  }
  // A part of text: expressions, effects, templates.
  void text(const std::string& part, const std::string& before, const std::string& after,
            Pos at = {}) {
    if (squeeze(before) == squeeze(after)) return;
    lines.push_back(fmt::format("{} {} -> {}", part, quoted(before), quoted(after)));
    if (!pos.valid()) pos = at;
  }
  void text(const std::string& part, const Text& before, const Text& after) {
    text(part, before.text, after.text, after.pos);
  }
  void flag(const std::string& part, bool before, bool after) {
    plain(part, before ? "yes" : "no", after ? "yes" : "no");
  }
  // Lists of texts, item by item ("when 2 'x' added"); an empty item is no item (a
  // condition without a refusal).
  void texts(const std::string& part, const std::vector<Text>& before,
             const std::vector<Text>& after) {
    for (size_t i = 0; i < std::max(before.size(), after.size()); ++i) {
      std::string item = fmt::format("{} {}", part, i + 1);
      bool was = i < before.size() && !squeeze(before[i].text).empty(),
           is = i < after.size() && !squeeze(after[i].text).empty();
      if (!was && !is) continue;
      if (!was) {
        lines.push_back(fmt::format("{} {} added", item, quoted(after[i].text)));
        if (!pos.valid()) pos = after[i].pos;
      } else if (!is) {
        lines.push_back(fmt::format("{} {} removed", item, quoted(before[i].text)));
      } else {
        text(item, before[i], after[i]);
      }
    }
  }
};

const char* order_name(ZoneOrder o) {
  switch (o) {
    case ZoneOrder::stack: return "stack";
    case ZoneOrder::row: return "row";
    case ZoneOrder::set: return "set";
  }
  return "?";
}

const char* visibility_name(Visibility v) {
  switch (v) {
    case Visibility::everyone: return "everyone";
    case Visibility::owner: return "owner";
    case Visibility::nobody: return "nobody";
    case Visibility::top: return "top";
  }
  return "?";
}

const char* show_name(Show s) {
  switch (s) {
    case Show::always: return "always";
    case Show::never: return "never";
    case Show::when_set: return "when_not_empty";
  }
  return "?";
}

const char* type_name(VarType t) {
  switch (t) {
    case VarType::integer: return "integer";
    case VarType::boolean: return "boolean";
    case VarType::player: return "player";
    case VarType::card: return "card";
  }
  return "?";
}

std::string optional_text(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : "none";
}

void option_changes(const OptionDecl& b, const OptionDecl& a, Details d) {
  d.plain("default", value_text(b.default_value), value_text(a.default_value), a.default_value.pos);
  d.plain("min", optional_text(b.min), optional_text(a.min));
  d.plain("max", b.max_is_players ? "players" : optional_text(b.max),
          a.max_is_players ? "players" : optional_text(a.max));
  d.plain("choices", values_text(b.choices), values_text(a.choices));
  d.plain("players", fmt::format("{}-{}", b.min_players, b.max_players),
          fmt::format("{}-{}", a.min_players, a.max_players));
  d.text("doc", b.doc, a.doc);
}

void zone_changes(const ZoneDecl& b, const ZoneDecl& a, Details d) {
  d.flag("per_player", b.per_player, a.per_player);
  d.plain("per", b.per_kind.empty() ? "none" : b.per_kind, a.per_kind.empty() ? "none" : a.per_kind,
          a.per_pos);
  d.plain("order", order_name(b.order), order_name(a.order));
  d.plain("visibility", visibility_name(b.visibility), visibility_name(a.visibility));
  d.plain("show", show_name(b.show), show_name(a.show));
  d.text("label", b.label, a.label);
  d.text("doc", b.doc, a.doc);
}

void variable_changes(const VarDecl& b, const VarDecl& a, Details d) {
  d.flag("per_player", b.per_player, a.per_player);
  d.plain("per", b.per_kind.empty() ? "none" : b.per_kind, a.per_kind.empty() ? "none" : a.per_kind,
          a.per_pos);
  d.plain("type", type_name(b.type), type_name(a.type));
  d.text("initial", b.initial, a.initial);
  d.texts("initial per seat", b.seat_initials, a.seat_initials);
  d.flag("constant", b.constant, a.constant);
  d.flag("position", b.in_position, a.in_position);
  d.plain("show", show_name(b.show), show_name(a.show));
  d.text("show if", b.show_if, a.show_if);
  d.text("label", b.label, a.label);
  d.text("doc", b.doc, a.doc);
}

std::string params_text(const std::vector<ParamDecl>& params) {
  std::string out;
  for (const ParamDecl& p : params)
    out += (out.empty() ? "" : ", ") + p.name + " in " + squeeze(p.domain.text);
  return "(" + out + ")";
}

// Each parameter's `doc:`, by name, for the parameters both sides have.
void param_docs(const std::vector<ParamDecl>& before, const std::vector<ParamDecl>& after, Details& d) {
  for (const ParamDecl& a : after)
    for (const ParamDecl& b : before)
      if (a.name == b.name) d.text("doc of " + a.name, b.doc, a.doc, a.pos);
}

void action_changes(const ActionDecl& b, const ActionDecl& a, Details d) {
  d.plain("parameters", params_text(b.params), params_text(a.params),
          a.params.empty() ? Pos{} : a.params[0].pos);
  d.texts("when", b.when, a.when);
  d.texts("refusal", b.refusals, a.refusals);
  d.text("effect", b.effect, a.effect);
  d.text("say", b.say, a.say);
  d.text("doc", b.doc, a.doc);
  param_docs(b.params, a.params, d);
}

void routine_changes(const RoutineDecl& b, const RoutineDecl& a, Details d) {
  d.plain("parameters", words(b.params), words(a.params));
  d.text("body", b.body, a.body);
  d.flag("show", b.shown, a.shown);
  d.text("doc", b.doc, a.doc);
}

void invariant_changes(const InvariantDecl& b, const InvariantDecl& a, Details d) {
  d.text("condition", b.text, a.text);
}

void component_changes(const ComponentDecl& b, const ComponentDecl& a, Details d) {
  d.flag("per_player", b.per_player, a.per_player);
  d.text("name", b.name_template, a.name_template, a.name_pos);
  d.text("title", b.title_template, a.title_template, a.title_pos);
  d.plain("noun", b.noun_one.empty() ? "card" : b.noun_one + ", " + b.noun_many,
          a.noun_one.empty() ? "card" : a.noun_one + ", " + a.noun_many, a.noun_pos);
  d.plain("properties", words(b.properties), words(a.properties));
  d.plain("in", b.start_zone.empty() ? "none" : b.start_zone,
          a.start_zone.empty() ? "none" : a.start_zone, a.start_pos);
  d.text("where", b.where, a.where);
  d.text("label", b.label, a.label);
  d.flag("show", !b.unshown, !a.unshown);
  d.plain("shown", words(b.shown), words(a.shown));
  d.plain("bookkeeping", words(b.bookkeeping), words(a.bookkeeping));
  d.plain("cards", std::to_string(b.rows.size()), std::to_string(a.rows.size()));
  d.text("doc", b.doc, a.doc);
}

// What pairs two declarations: their name (a link's, the kind it joins).
template <class Decl>
const std::string& name_of(const Decl& d) {
  return d.name;
}
const std::string& name_of(const LinkDecl& d) { return d.kind; }

// Pairs the declarations of one kind by name: those of `after` in order (changed ones
// with what differs), then those only `before` has.
template <class Decl, class Compare>
void match(std::vector<Change>& out, const char* what, const std::vector<Decl>& before,
           const std::vector<Decl>& after, Compare compare) {
  std::map<std::string, const Decl*> old_by_name, new_by_name;
  for (const Decl& b : before) old_by_name.emplace(name_of(b), &b);
  for (const Decl& a : after) new_by_name.emplace(name_of(a), &a);
  for (const Decl& a : after) {
    auto it = old_by_name.find(name_of(a));
    if (it == old_by_name.end()) {
      out.push_back({ChangeKind::added, what, name_of(a), "", {}, a.pos});
      continue;
    }
    Change c{ChangeKind::changed, what, name_of(a), "", {}, {}};
    compare(*it->second, a, Details{c.details, c.pos});
    if (c.details.empty()) continue;
    if (!c.pos.valid()) c.pos = a.pos;
    out.push_back(std::move(c));
  }
  for (const Decl& b : before)
    if (!new_by_name.count(name_of(b)))
      out.push_back({ChangeKind::removed, what, name_of(b), "", {}, b.pos});
}

// A card's name, as far as its row tells it: the name template with each {property}
// replaced ({index} by its number among the rows; {owner} and {copy}, which the compiler
// fills in, left out), or, without a template, the compiler's default.
std::string card_label(const ComponentDecl& c, const std::vector<Value>& row, size_t index) {
  std::string name = c.name_template;
  if (name.empty()) {
    bool has_name =
        std::find(c.properties.begin(), c.properties.end(), "name") != c.properties.end();
    name = has_name                   ? "{name}"
           : c.properties.size() == 1 ? "{" + c.properties[0] + "}"
                                      : c.kind + " {index}";
  }
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    size_t close = name[i] == '{' ? name.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += name[i];
      continue;
    }
    std::string field = name.substr(i + 1, close - i - 1);
    i = close;
    if (field == "index") out += std::to_string(index + 1);
    for (size_t k = 0; k < c.properties.size() && k < row.size(); ++k)
      if (c.properties[k] == field) out += value_text(row[k]);
  }
  return squeeze(out);
}

std::string row_text(const ComponentDecl& c, const std::vector<Value>& row) {
  std::string out;
  for (size_t k = 0; k < c.properties.size() && k < row.size(); ++k)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", c.properties[k], value_text(row[k]));
  return out;
}

// The `doc:` of a row of `c`, or "".
std::string row_doc(const ComponentDecl& c, const std::vector<Value>* row) {
  size_t i = static_cast<size_t>(row - c.rows.data());
  return i < c.row_docs.size() ? c.row_docs[i] : "";
}

// The `title:` of a row of `c`, or "".
std::string row_title(const ComponentDecl& c, const std::vector<Value>* row) {
  size_t i = static_cast<size_t>(row - c.rows.data());
  return i < c.row_titles.size() ? c.row_titles[i] : "";
}

// The cards of one component in both files, grouped by name: added, removed, their
// properties changed, or their number of copies.
void card_changes(std::vector<Change>& out, const ComponentDecl& b, const ComponentDecl& a) {
  using Rows = std::vector<const std::vector<Value>*>;
  std::vector<std::string> order;
  std::map<std::string, Rows> old_rows, new_rows;
  for (size_t i = 0; i < b.rows.size(); ++i)
    old_rows[card_label(b, b.rows[i], i)].push_back(&b.rows[i]);
  for (size_t i = 0; i < a.rows.size(); ++i) {
    auto& rows = new_rows[card_label(a, a.rows[i], i)];
    if (rows.empty()) order.push_back(card_label(a, a.rows[i], i));
    rows.push_back(&a.rows[i]);
  }
  auto where = [](const Rows& rows, Pos fallback) {
    return !rows.empty() && !rows[0]->empty() && (*rows[0])[0].pos.valid() ? (*rows[0])[0].pos
                                                                           : fallback;
  };
  for (const std::string& name : order) {
    const Rows& now = new_rows[name];
    auto it = old_rows.find(name);
    if (it == old_rows.end()) {
      Change c{ChangeKind::added, "card", name, a.kind, {row_text(a, *now[0])}, where(now, a.pos)};
      if (now.size() > 1) c.details.push_back(fmt::format("{} copies", now.size()));
      out.push_back(std::move(c));
      continue;
    }
    Change c{ChangeKind::changed, "card", name, a.kind, {}, where(now, a.pos)};
    Details d{c.details, c.pos};
    // Copies of one name (rows that differ in a property the name leaves out), in order.
    const Rows& was = it->second;
    for (size_t i = 0; i < std::min(was.size(), now.size()); ++i) {
      std::string copy = now.size() > 1 ? fmt::format("copy {} ", i + 1) : "";
      d.plain(copy + "properties", row_text(b, *was[i]), row_text(a, *now[i]));
      d.text(copy + "doc", row_doc(b, was[i]), row_doc(a, now[i]));
      d.text(copy + "title", row_title(b, was[i]), row_title(a, now[i]));
    }
    d.plain("copies", std::to_string(was.size()), std::to_string(now.size()));
    if (!c.details.empty()) out.push_back(std::move(c));
  }
  for (size_t i = 0; i < b.rows.size(); ++i) {
    std::string name = card_label(b, b.rows[i], i);
    if (new_rows.count(name) || old_rows[name].empty()) continue;
    out.push_back({ChangeKind::removed,
                   "card",
                   name,
                   b.kind,
                   {row_text(b, b.rows[i])},
                   where(old_rows[name], b.pos)});
    old_rows[name].clear();  // said once for all its copies
  }
}

// The components by kind, each followed by its cards' changes.
void components(std::vector<Change>& out, const RuleFile& before, const RuleFile& after) {
  std::map<std::string, const ComponentDecl*> old_by_kind, new_by_kind;
  for (const ComponentDecl& b : before.components) old_by_kind.emplace(b.kind, &b);
  for (const ComponentDecl& a : after.components) new_by_kind.emplace(a.kind, &a);
  for (const ComponentDecl& a : after.components) {
    auto it = old_by_kind.find(a.kind);
    if (it == old_by_kind.end()) {
      out.push_back({ChangeKind::added,
                     "component",
                     a.kind,
                     "",
                     {fmt::format("{} card{}", a.rows.size(), a.rows.size() == 1 ? "" : "s")},
                     a.pos});
      continue;
    }
    Change c{ChangeKind::changed, "component", a.kind, "", {}, {}};
    component_changes(*it->second, a, Details{c.details, c.pos});
    if (!c.details.empty()) {
      if (!c.pos.valid()) c.pos = a.pos;
      out.push_back(std::move(c));
    }
    card_changes(out, *it->second, a);
  }
  for (const ComponentDecl& b : before.components)
    if (!new_by_kind.count(b.kind))
      out.push_back({ChangeKind::removed, "component", b.kind, "", {}, b.pos});
}

// One change of a part the game has once (its name and players, scoring, flow, limits),
// if `fill` finds any.
template <class Fill>
void once(std::vector<Change>& out, const char* what, Pos fallback, Fill fill) {
  Change c{ChangeKind::changed, what, "", "", {}, {}};
  fill(Details{c.details, c.pos});
  if (c.details.empty()) return;
  if (!c.pos.valid()) c.pos = fallback;
  out.push_back(std::move(c));
}

std::string parts_text(const std::vector<ScorePartDecl>& parts) {
  std::string out;
  for (const ScorePartDecl& p : parts)
    out += (out.empty() ? "" : "; ") + p.name + ": " + squeeze(p.text.text);
  return out;
}

std::string notes_text(const std::vector<ScoreNoteDecl>& notes) {
  std::string out;
  for (const ScoreNoteDecl& n : notes)
    out += (out.empty() ? "" : "; ") + squeeze(n.text) + (n.when.present() ? " when " + squeeze(n.when.text) : "");
  return out;
}

void scoring_changes(const ScoringDecl& b, const ScoringDecl& a, Details d) {
  d.text("score", b.score, a.score);
  d.text("parts", parts_text(b.parts), parts_text(a.parts), a.parts_pos);
  d.texts("tiebreak", b.tiebreak, a.tiebreak);
  d.plain("tiebreak names", words(b.tiebreak_names), words(a.tiebreak_names));
  d.text("notes", notes_text(b.notes), notes_text(a.notes), a.notes_pos);
  d.flag("lowest_wins", b.lowest_wins, a.lowest_wins);
}

// `links:` by kind.
void link_changes(const LinkDecl& b, const LinkDecl& a, Details d) { d.text("condition", b.text, a.text); }

std::string lines_text(const std::optional<bool>& lines) { return lines ? (*lines ? "yes" : "no") : "default"; }

void board_changes(const std::optional<BoardDecl>& before, const std::optional<BoardDecl>& after, Details d) {
  static const BoardDecl none;
  const BoardDecl& b = before ? *before : none;
  const BoardDecl& a = after ? *after : none;
  d.plain("board", before ? "yes" : "no", after ? "yes" : "no", a.pos);
  d.plain("points", b.kind.empty() ? "none" : b.kind, a.kind.empty() ? "none" : a.kind, a.pos);
  d.text("x", b.x, a.x);
  d.text("y", b.y, a.y);
  d.text("marked", b.marked, a.marked);
  d.text("turn", b.turn, a.turn);
  d.plain("zone", b.zone.empty() ? "none" : b.zone, a.zone.empty() ? "none" : a.zone, a.zone_pos);
  d.text("label", b.label, a.label, a.label_pos);
  d.text("marked_name", b.marked_name, a.marked_name);
  d.text("empty_name", b.empty_name, a.empty_name);
  d.plain("seats", words(b.seats), words(a.seats));
  d.plain("lines", lines_text(b.lines), lines_text(a.lines));
  d.plain("coordinates", words(b.coordinates), words(a.coordinates), a.coordinates_pos);
}

}  // namespace

std::vector<Change> diff_rules(const RuleFile& b, const RuleFile& a) {
  std::vector<Change> out;
  once(out, "game", a.game_pos, [&](Details d) {
    d.plain("name", b.game, a.game, a.game_pos);
    d.plain("players", fmt::format("{}-{}", b.min_players, b.max_players),
            fmt::format("{}-{}", a.min_players, a.max_players), a.players_pos);
    d.text("doc", b.doc, a.doc);
  });
  match(out, "option", b.options, a.options, option_changes);
  components(out, b, a);
  match(out, "link", b.links, a.links, link_changes);
  once(out, "board", a.board ? a.board->pos : a.game_pos,
       [&](Details d) { board_changes(b.board, a.board, d); });
  match(out, "zone", b.zones, a.zones, zone_changes);
  match(out, "variable", b.variables, a.variables, variable_changes);
  match(out, "action", b.actions, a.actions, action_changes);
  match(out, "function", b.functions, a.functions, routine_changes);
  match(out, "procedure", b.procedures, a.procedures, routine_changes);
  match(out, "phase", b.phases, a.phases, routine_changes);
  match(out, "invariant", b.invariants, a.invariants, invariant_changes);
  once(out, "scoring", a.scoring.pos.valid() ? a.scoring.pos : a.game_pos,
       [&](Details d) { scoring_changes(b.scoring, a.scoring, d); });
  once(out, "flow", a.flow.pos.valid() ? a.flow.pos : a.game_pos,
       [&](Details d) { d.text("text", b.flow, a.flow); });
  once(out, "limits", a.game_pos, [&](Details d) {
    d.plain("max_decisions", std::to_string(b.max_decisions), std::to_string(a.max_decisions));
    d.plain("max_steps", std::to_string(b.max_steps), std::to_string(a.max_steps));
    d.plain("max_positions", std::to_string(b.max_positions), std::to_string(a.max_positions));
  });
  return out;
}

const char* change_name(ChangeKind k) {
  switch (k) {
    case ChangeKind::added: return "added";
    case ChangeKind::removed: return "removed";
    case ChangeKind::changed: return "changed";
  }
  return "?";
}

}  // namespace kata
