// The checker walks every declaration and body of a rule file once, resolving names in
// scope order (locals, then globals, options, shared zones, builtins, symbols, seats) and
// giving each expression a type. Procedures and functions take their parameter types
// from their first call; bodies nobody calls are still checked, with unknown types.
//
// What binds a name, and where (the scopes below), is also what an import's `rename:`
// leaves alone (syntax/visit.hpp, syntax/rename.cpp): a change here is made there too, and
// tests/test_imports_hygiene.cpp renames every rule file to hold the two together.
#include "check/checker.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <type_traits>

namespace kata {

const char* type_name(Type t) {
  switch (t) {
    case Type::error: return "unknown";
    case Type::integer: return "a number";
    case Type::boolean: return "true or false";
    case Type::player: return "a player";
    case Type::card: return "a card";
    case Type::zone: return "a zone";
    case Type::player_list: return "a list of players";
    case Type::card_list: return "a list of cards";
    case Type::int_list: return "a range of numbers";
  }
  return "unknown";
}

namespace {

// `P1` to `P16`: the seat's number; 0 for any other name.

bool compatible(Type a, Type b) { return a == b || a == Type::error || b == Type::error; }

bool is_list(Type t) {
  return t == Type::player_list || t == Type::card_list || t == Type::int_list || t == Type::zone;
}

Type element(Type t) {
  switch (t) {
    case Type::player_list: return Type::player;
    case Type::card_list:
    case Type::zone: return Type::card;
    case Type::int_list: return Type::integer;
    default: return Type::error;
  }
}

struct Binding {
  std::string name;
  Resolved sym;
  Type type;
};

struct Builtin {
  const char* name;
  std::vector<Type> params;  // Type::zone also accepts a card list where noted by `list_ok`
  Type result;
};

// `min` and `max` of values, which take any number of them (two or more).
bool is_extreme(const std::string& name) { return name == "min" || name == "max"; }

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> b = {
      {"top", {Type::zone}, Type::card},
      {"bottom", {Type::zone}, Type::card},
      {"size", {Type::zone}, Type::integer},
      {"next", {Type::player}, Type::player},
      {"left", {Type::player}, Type::player},
      {"right", {Type::player}, Type::player},
      {"alive", {Type::player}, Type::boolean},
      {"sees", {Type::player, Type::card}, Type::boolean},
      {"face_up", {Type::card}, Type::boolean},
      {"owner", {Type::zone}, Type::player},
      {"zone_of", {Type::card}, Type::zone},
      {"contains", {Type::zone, Type::card}, Type::boolean},
      {"seat", {Type::player}, Type::integer},
      {"holder", {Type::zone}, Type::card},
      {"abs", {Type::integer}, Type::integer},
      {"linked", {Type::card, Type::card}, Type::boolean},
      {"neighbours", {Type::card}, Type::card_list},
      {"position", {Type::card}, Type::integer},
      {"repetitions", {}, Type::integer},
  };
  return b;
}

// Graph nodes for the recursion check: actions, then procedures, then phases, then flow.
class Checker {
 public:
  Checker(RuleFile& rf, Symbols& s, Diagnostics& d) : rf_(rf), s_(s), d_(d) {}

  void run() {
    declare();
    func_state_.assign(rf_.functions.size(), 0);
    func_chain_.assign(rf_.functions.size(), 0);
    func_height_.assign(rf_.functions.size(), 0);
    proc_state_.assign(rf_.procedures.size(), 0);
    proc_height_.assign(rf_.procedures.size(), 0);
    s_.function_params.assign(rf_.functions.size(), {});
    s_.function_types.assign(rf_.functions.size(), Type::error);
    s_.procedure_params.assign(rf_.procedures.size(), {});
    s_.procedure_param_locals.assign(rf_.procedures.size(), {});
    edges_.assign(rf_.actions.size() + rf_.procedures.size() + rf_.phases.size() + 1, {});
    zone_used_.assign(rf_.zones.size(), false);
    phase_used_.assign(rf_.phases.size(), false);
    action_used_.assign(rf_.actions.size(), false);

    for (auto& v : rf_.variables) check_initial(v);
    for (auto& v : rf_.variables) check_show_if(v);
    check_components();
    node_ = flow_node();
    if (!rf_.flow.present()) d_.error(rf_.game_pos, "a rule file needs 'flow:', the game's program");
    check_block(rf_.flow_block);
    for (size_t i = 0; i < rf_.phases.size(); ++i) {
      node_ = static_cast<int>(rf_.actions.size() + rf_.procedures.size() + i);
      check_block(rf_.phases[i].block);
    }
    for (size_t i = 0; i < rf_.actions.size(); ++i) check_action(static_cast<int>(i));
    check_given_values();
    for (size_t i = 0; i < rf_.procedures.size(); ++i)
      if (proc_state_[i] == 0) check_procedure(static_cast<int>(i), {});
    // Invariants and scoring use functions too: check them before calling any unused.
    for (auto& inv : rf_.invariants) expect(inv.expr.get(), Type::boolean, "an invariant");
    check_scoring();
    check_board_turn();
    for (size_t i = 0; i < rf_.functions.size(); ++i)
      if (func_state_[i] == 0) {
        if (own(rf_.functions[i].pos) && !d_.has_errors())
          d_.warning(rf_.functions[i].pos, fmt::format("function '{}' is never used", rf_.functions[i].name));
        check_function(static_cast<int>(i), std::vector<Type>(rf_.functions[i].params.size(), Type::error));
      }
    find_recursion();
    // After an error, "never used" is often its echo: warn only about clean files.
    if (!d_.has_errors()) warn_unused();
  }

 private:
  int flow_node() const { return static_cast<int>(edges_.size()) - 1; }
  int proc_node(int i) const { return static_cast<int>(rf_.actions.size()) + i; }
  int phase_node(int i) const { return static_cast<int>(rf_.actions.size() + rf_.procedures.size()) + i; }

  // ---- declarations ----
  int intern(const std::string& sym) {
    auto [it, added] = s_.symbol_index.emplace(sym, static_cast<int>(s_.symbols.size()));
    if (added) s_.symbols.push_back(sym);
    return it->second;
  }

  // A declared name is one expressions can write, and hides nothing the language gives.
  // `word_only`: a name written only where the grammar reads a bare identifier (an action
  // after `choose p:`, a phase after `phase`, a property after '.'), which may be a
  // reserved word (an action `flip`).
  void valid_name(const std::string& name, Pos pos, const char* what, bool word_only = false) {
    if (std::string fault = name_fault(name, !word_only); !fault.empty())
      d_.error(pos, fmt::format("'{}' {}; {} needs another name", name, fault, what));
  }

  void name_once(const std::string& name, Pos pos, const char* what) {
    valid_name(name, pos, what);
    auto [it, added] = declared_.emplace(name, std::make_pair(pos, what));
    if (!added)
      d_.error(pos, fmt::format("'{}' is already declared as {}", name, it->second.second),
               {{it->second.first, "declared here"}});
  }

  void declare() {
    for (size_t i = 0; i < rf_.options.size(); ++i) {
      auto& o = rf_.options[i];
      name_once(o.name, o.pos, "an option");
      s_.options[o.name] = static_cast<int>(i);
      Type t = o.default_value.is_bool ? Type::boolean : Type::integer;
      auto same = [&](const Value& a, const Value& b) {
        return a.is_symbol == b.is_symbol && (a.is_symbol ? a.symbol == b.symbol : a.number == b.number);
      };
      if (!o.choices.empty() && std::none_of(o.choices.begin(), o.choices.end(), [&](auto& c) { return same(c, o.default_value); }))
        d_.error(o.pos, fmt::format("the default of option '{}' is not one of its values", o.name));
      if (!o.default_value.is_symbol && ((o.min && o.default_value.number < *o.min) || (o.max && o.default_value.number > *o.max)))
        d_.error(o.pos, fmt::format("the default of option '{}' is outside its min and max", o.name));
      if (o.default_value.is_symbol) intern(o.default_value.symbol);
      for (auto& c : o.choices)
        if (c.is_symbol) intern(c.symbol);
      s_.option_types.push_back(t);
    }
    for (auto& c : rf_.components) {
      for (size_t p = 0; p < c.properties.size(); ++p) {
        auto [it, added] = s_.properties.emplace(c.properties[p], static_cast<int>(s_.property_symbolic.size()));
        if (added) s_.property_symbolic.push_back(false);
        for (auto& row : c.rows)
          if (row[p].is_symbol) {
            intern(row[p].symbol);
            s_.property_symbolic[it->second] = true;
          }
      }
    }
    for (size_t i = 0; i < rf_.components.size(); ++i) {
      const ComponentDecl& c = rf_.components[i];
      valid_name(c.kind, c.pos, "a component kind");
      for (const std::string& p : c.properties) valid_name(p, c.pos, "a property", true);
      s_.kinds[c.kind] = static_cast<int>(i);
    }
    for (size_t i = 0; i < rf_.zones.size(); ++i) {
      name_once(rf_.zones[i].name, rf_.zones[i].pos, "a zone");
      s_.zones[rf_.zones[i].name] = static_cast<int>(i);
      if (!rf_.zones[i].per_kind.empty() && !s_.kinds.count(rf_.zones[i].per_kind))
        unknown(rf_.zones[i].per_pos, "component kind", rf_.zones[i].per_kind, s_.kinds);
      check_zone_label(rf_.zones[i]);
    }
    int g = 0, pv = 0, cv = 0;
    for (auto& v : rf_.variables) {
      name_once(v.name, v.pos, "a variable");
      if (!v.per_kind.empty()) {
        s_.card_vars[v.name] = cv++;
        if (!s_.kinds.count(v.per_kind)) unknown(v.per_pos, "component kind", v.per_kind, s_.kinds);
      } else if (v.per_player) {
        s_.player_vars[v.name] = pv++;
      } else {
        s_.globals[v.name] = g++;
      }
    }
    for (auto* list : {&rf_.functions, &rf_.procedures})
      for (auto& r : *list)
        if (is_extreme(r.name) || std::any_of(builtins().begin(), builtins().end(), [&](auto& b) { return r.name == b.name; }))
          d_.error(r.pos, fmt::format("'{}' is a builtin function; choose another name", r.name));
    for (size_t i = 0; i < rf_.functions.size(); ++i) {
      name_once(rf_.functions[i].name, rf_.functions[i].pos, "a function");
      s_.functions[rf_.functions[i].name] = static_cast<int>(i);
    }
    for (size_t i = 0; i < rf_.procedures.size(); ++i) {
      name_once(rf_.procedures[i].name, rf_.procedures[i].pos, "a procedure");
      s_.procedures[rf_.procedures[i].name] = static_cast<int>(i);
    }
    for (size_t i = 0; i < rf_.phases.size(); ++i) {
      valid_name(rf_.phases[i].name, rf_.phases[i].pos, "a phase", true);
      s_.phases[rf_.phases[i].name] = static_cast<int>(i);
    }
    for (auto* list : {&rf_.functions, &rf_.procedures, &rf_.phases})
      for (const RoutineDecl& r : *list)
        for (const std::string& p : r.params) valid_name(p, r.pos, "a parameter");
    for (size_t i = 0; i < rf_.actions.size(); ++i) {
      const ActionDecl& a = rf_.actions[i];
      valid_name(a.name, a.pos, "an action", true);
      for (const ParamDecl& p : a.params) valid_name(p.name, p.pos, "a parameter");
      s_.actions[a.name] = static_cast<int>(i);
    }
    const ScoringDecl& sc = rf_.scoring;
    // A `parts:` or `notes:` that is written but malformed has its own error.
    bool scoreless = sc.pos.valid() && !sc.score.present() && !sc.parts_pos.valid();
    if (scoreless && !sc.notes_pos.valid())
      d_.error(sc.pos, "'scoring' needs 'score:' or 'parts:', each player's score");
    else if (scoreless && (!sc.tiebreak.empty() || sc.lowest_wins))
      d_.error(sc.pos,
               "'scoring' has tie-breaks or a winners rule but no score: add 'score:' or 'parts:'");
  }

  void check_initial(VarDecl& v) {
    Type want = type_of(v.type);
    if (!v.seat_initials.empty()) {
      // One value for each seat: a per-player variable's, as many as the game may have.
      if (!v.per_player || !v.per_kind.empty())
        d_.error(v.seat_initials_pos, fmt::format("'{}' has one initial value for each seat, which only a per_player "
                                                  "variable has (per_player: true, without per:)",
                                                  v.name));
      else if (static_cast<int>(v.seat_initials.size()) != rf_.max_players)
        d_.error(v.seat_initials_pos,
                 fmt::format("'{}' has {} initial value{}, but the game has up to {} seats: give one for each, P1's first",
                             v.name, v.seat_initials.size(), v.seat_initials.size() == 1 ? "" : "s", rf_.max_players));
      in_initial_ = true;
      for (size_t i = 0; i < v.seat_initial_exprs.size(); ++i)
        expect(v.seat_initial_exprs[i].get(), want, fmt::format("P{}'s initial value of '{}'", i + 1, v.name).c_str());
      in_initial_ = false;
    }
    Expr* e = v.initial_expr.get();
    if (!e) return;
    in_initial_ = true;
    expect(e, want, fmt::format("the initial value of '{}'", v.name).c_str());
    in_initial_ = false;
  }

  // A variable's `show: {if: ...}`, with the variable's own name bound to its value. A page
  // is made from a view: a condition that read anything but that value (which the view
  // holds), options and literals could put on it what the viewer may not know.
  void check_show_if(VarDecl& v) {
    Expr* e = v.show_if_expr.get();
    if (!e) return;
    scope_.clear();
    depth_ = 0;
    scope_.push_back({v.name, {SymKind::bound, depth_++, 0}, type_of(v.type)});
    expect(e, Type::boolean, fmt::format("the show condition of '{}'", v.name).c_str());
    own_value_only(e, v.name);
    scope_.clear();
    depth_ = 0;
  }

  void own_value_only(const Expr* e, const std::string& name) {
    if (!e) return;
    bool ok = false;
    switch (e->kind) {
      case ExprKind::integer:
      case ExprKind::boolean:
      case ExprKind::none:
      case ExprKind::unary:
      case ExprKind::binary:
      case ExprKind::conditional: ok = true; break;
      case ExprKind::name:
        ok = e->sym.kind == SymKind::bound || e->sym.kind == SymKind::option || e->sym.kind == SymKind::constant;
        break;
      case ExprKind::member:
      case ExprKind::call:
      case ExprKind::aggregate:
      case ExprKind::range:
      case ExprKind::from:
      case ExprKind::walk: ok = false; break;
    }
    if (!ok && e->type != Type::error) {
      d_.error(e->pos, fmt::format("a show condition reads only '{}' (the variable's own value), options and literals", name));
      return;
    }
    for (auto& a : e->args) own_value_only(a.get(), name);
  }

  // A kind's `label:`: each {field} is the card's name, a property of the kind, or a
  // variable of each component of the kind (not of each player as well: a label writes one
  // value).
  void check_label(const ComponentDecl& c) {
    for (const TemplateField& t : template_fields(c.label.text)) {
      const std::string& f = t.name;
      if (f == "name" || std::find(c.properties.begin(), c.properties.end(), f) != c.properties.end()) continue;
      auto v = std::find_if(rf_.variables.begin(), rf_.variables.end(),
                            [&](const VarDecl& v) { return v.name == f && v.per_kind == c.kind; });
      Pos at = c.label.where.at(t.begin + 1);
      if (v == rf_.variables.end())
        d_.error(at, fmt::format("'{{{}}}' in a label is neither the name, a property of '{}' nor a variable of each '{}'", f, c.kind, c.kind));
      else if (v->per_player)
        d_.error(at, fmt::format("'{}' is a variable of each '{}' and each player: a label writes one value, so it names only variables of each '{}'", f, c.kind, c.kind));
    }
  }

  // A zone's `label:`: its fields are {player}, the owner of a per-player zone, and the
  // kind's name for a zone of each component of a kind (`per: tile`: {tile}).
  void check_zone_label(const ZoneDecl& z) {
    std::vector<std::string> allowed;
    if (z.per_player) allowed.push_back("{player} (its owner)");
    if (!z.per_kind.empty()) allowed.push_back(fmt::format("{{{}}} (the '{}' it belongs to)", z.per_kind, z.per_kind));
    for (const TemplateField& t : template_fields(z.label.text)) {
      if ((z.per_player && t.name == "player") || (!z.per_kind.empty() && t.name == z.per_kind)) continue;
      Pos at = z.label.where.at(t.begin + 1);
      if (allowed.empty())
        d_.error(at, fmt::format("'{{{}}}' in the label of zone '{}': a shared zone's label has no fields (a zone declared per_player: has {{player}}, per: KIND has {{KIND}})", t.name, z.name));
      else
        d_.error(at, fmt::format("'{{{}}}' in the label of zone '{}' is not {}", t.name, z.name, fmt::join(allowed, " nor ")));
    }
  }

  // What is worked out at load time (a kind's `where:`, `links:`) may use numbers, the
  // names bound for it, properties, abs(), min(), max() and aggregates over ranges: not the
  // game's state.
  void constant_only(const Expr* e, const char* what) {
    if (!e) return;
    bool ok = true;
    switch (e->kind) {
      case ExprKind::name: ok = e->sym.kind == SymKind::bound || e->sym.kind == SymKind::constant; break;
      case ExprKind::member: ok = e->sym.kind == SymKind::property; break;
      case ExprKind::call: ok = e->name == "abs" || is_extreme(e->name); break;
      case ExprKind::aggregate: ok = e->args[0] && e->args[0]->kind == ExprKind::range; break;
      case ExprKind::none:
      case ExprKind::from:
      case ExprKind::walk: ok = false; break;
      default: break;
    }
    if (!ok && e->type != Type::error) {
      d_.error(e->pos, fmt::format("{} is worked out when the file is loaded: it may use numbers, properties, abs(), min(), max() and aggregates over ranges, not this", what));
      return;
    }
    for (auto& a : e->args) constant_only(a.get(), what);
  }

  void check_board() {
    for (auto& c : rf_.components) {
      if (!c.where_expr) continue;
      scope_.clear();
      depth_ = 0;
      for (auto& p : c.properties) scope_.push_back({p, {SymKind::bound, depth_++, 0}, Type::integer});
      max_depth_ = depth_;
      expect(c.where_expr.get(), Type::boolean, "a component's 'where:'");
      constant_only(c.where_expr.get(), "a component's 'where:'");
    }
    for (auto& l : rf_.links) {
      if (!s_.kinds.count(l.kind)) unknown(l.pos, "component kind", l.kind, s_.kinds);
      if (!l.expr) continue;
      scope_ = {{"a", {SymKind::bound, 0, 0}, Type::card}, {"b", {SymKind::bound, 1, 0}, Type::card}};
      depth_ = max_depth_ = 2;
      expect(l.expr.get(), Type::boolean, "a 'links:' condition");
      constant_only(l.expr.get(), "a 'links:' condition");
    }
    if (rf_.board) check_board_drawing(*rf_.board);
    scope_.clear();
    depth_ = max_depth_ = 0;
  }

  void check_board_drawing(BoardDecl& b) {
    auto kind = s_.kinds.find(b.kind);
    if (kind == s_.kinds.end()) {
      if (!b.kind.empty()) unknown(b.pos, "component kind", b.kind, s_.kinds);
      return;
    }
    scope_.clear();
    depth_ = 0;
    for (auto& p : rf_.components[kind->second].properties) scope_.push_back({p, {SymKind::bound, depth_++, 0}, Type::integer});
    max_depth_ = depth_;
    for (auto [e, what] : {std::pair{b.x_expr.get(), "the board's 'x:'"}, std::pair{b.y_expr.get(), "the board's 'y:'"}}) {
      expect(e, Type::integer, what);
      constant_only(e, what);
    }
    if (b.marked_expr) {
      expect(b.marked_expr.get(), Type::boolean, "the board's 'marked:'");
      constant_only(b.marked_expr.get(), "the board's 'marked:'");
    }
    if (!b.zone.empty()) {
      auto z = s_.zones.find(b.zone);
      if (z == s_.zones.end()) unknown(b.zone_pos, "zone", b.zone, s_.zones);
      else if (rf_.zones[z->second].per_kind != b.kind || rf_.zones[z->second].per_player)
        d_.error(b.zone_pos, fmt::format("the board's zone must be one of each '{}' (per: {}), not a player's", b.kind, b.kind));
      else zone_used_[z->second] = true;
    }
    if (!b.label.empty() && !s_.properties.count(b.label)) unknown(b.label_pos, "card property", b.label, s_.properties);
    const auto& props = rf_.components[kind->second].properties;
    for (auto& c : b.coordinates)
      if (std::find(props.begin(), props.end(), c) == props.end())
        d_.error(b.coordinates_pos, fmt::format("the board's coordinates are properties of '{}', and '{}' is not one", b.kind, c));
  }

  // The board's turn is worked out for a seat's view, like a score for a seat: of the state
  // and the seat `viewer`.
  void check_board_turn() {
    if (!rf_.board || !rf_.board->turn_expr) return;
    scope_.clear();
    depth_ = 0;
    scope_.push_back({"viewer", {SymKind::bound, depth_++, 0}, Type::player});
    expect(rf_.board->turn_expr.get(), Type::integer, "the board's 'turn:'");
    scope_.clear();
    depth_ = 0;
  }

  void check_components() {
    check_board();
    for (auto& c : rf_.components) {
      if (!c.start_zone.empty()) {
        auto it = s_.zones.find(c.start_zone);
        if (it == s_.zones.end()) unknown(c.start_pos, "zone", c.start_zone, s_.zones);
        else {
          zone_used_[it->second] = true;
          if (!rf_.zones[it->second].per_kind.empty())
            d_.error(c.start_pos, fmt::format("zone '{}' belongs to each '{}' component; components start in a shared zone or a player's", c.start_zone, rf_.zones[it->second].per_kind));
          else if (rf_.zones[it->second].per_player && !c.per_player)
            d_.error(c.start_pos, fmt::format("zone '{}' belongs to each player, but '{}' components belong to nobody", c.start_zone, c.kind));
        }
      }
      check_label(c);
      check_template(c, c.name_template, c.name_pos, "name");
      check_template(c, c.title_template, c.title_pos, "title");
      for (const std::string& t : c.row_titles) check_template(c, t, c.pos, "title");
    }
  }

  // A name or title template's fields: {owner}, {kind}, {index}, a property of the kind,
  // and in a name {copy} (a title names copies alike: screens never tell them apart).
  void check_template(const ComponentDecl& c, const std::string& text, Pos pos, const char* what) {
    for (const TemplateField& t : template_fields(text)) {
      const std::string& f = t.name;
      bool name = std::string_view(what) == "name";
      if (f == "copy" && !name)
        d_.error(pos, "a title cannot use '{copy}': copies of a card look alike, and screens name them alike");
      else if (f != "owner" && f != "kind" && f != "index" && f != "copy" &&
               std::find(c.properties.begin(), c.properties.end(), f) == c.properties.end())
        d_.error(pos, fmt::format("the {} template uses '{{{}}}', which '{}' components do not have", what, f, c.kind));
    }
  }

  // ---- expressions ----
  // `names` is a map of the names there are, or a function that makes one: made only
  // when a suggestion is still worked out (see max_suggestions), since making it costs
  // as much as the file has names.
  template <typename Names>
  void unknown(Pos pos, const char* what, const std::string& name, const Names& names) {
    std::string near;
    if (d_.wants_suggestions()) {
      std::vector<std::string> list;
      auto add = [&](const auto& map) {
        for (auto& [k, v] : map) list.push_back(k);
      };
      if constexpr (std::is_invocable_v<Names>) add(names());
      else add(names);
      near = closest_name(name, list);
    }
    d_.error(pos, fmt::format("unknown {} '{}'{}", what, name,
                              near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
  }

  Type expect(Expr* e, Type want, const char* what) {
    if (!e) return Type::error;
    Type t = check(*e);
    if (!compatible(t, want) && !(e->kind == ExprKind::none && (want == Type::player || want == Type::card)))
      d_.error(e->pos, fmt::format("{} must be {}, but this is {}", what, type_name(want), type_name(t)));
    return t;
  }

  Type expect_list(Expr* e, const char* what) {
    if (!e) return Type::error;
    Type t = check(*e);
    if (t != Type::error && !is_list(t))
      d_.error(e->pos, fmt::format("{} must be a list (players, a zone, a range), but this is {}", what, type_name(t)));
    return is_list(t) ? t : Type::error;
  }

  Type check(Expr& e) {
    if (!enter(e.pos)) return e.type = Type::error;
    e.type = check_kind(e);
    --nest_;
    return e.type;
  }

  // One level deeper, counted through calls (max_total_depth); false, after an error (one
  // for each text checked), where it is too deep to go on.
  bool enter(Pos pos) {
    if (nest_ >= max_total_depth) {
      if (!deep_reported_)
        d_.error(pos, fmt::format("nested more than {} levels deep here, counting the levels of the functions and "
                                  "procedures called on the way",
                                  max_total_depth));
      deep_reported_ = true;
      return false;
    }
    if (nest_ == 0) deep_reported_ = false;
    peak_ = std::max(peak_, ++nest_);
    return true;
  }

  // A call of a function or procedure already checked, `height` levels deep: as deep as if
  // its body were checked here.
  bool reach(Pos pos, int height) {
    int saved = nest_;
    nest_ += height - 1;
    bool ok = enter(pos);
    nest_ = saved;
    return ok;
  }

  // The cases that are not on the path of a deep chain are kept out of line: under
  // AddressSanitizer each inlined local widens every level's frame (8.7 KB a level, when
  // they were inlined, overflowed the stack at 1000 levels).
  Type check_kind(Expr& e) {
    switch (e.kind) {
      case ExprKind::integer: return Type::integer;
      case ExprKind::boolean: return Type::boolean;
      case ExprKind::none: return Type::player;
      case ExprKind::name: return name(e);
      case ExprKind::member: return member(e);
      case ExprKind::call: return call(e);
      case ExprKind::unary:
        if (e.op == "-") return expect(e.args[0].get(), Type::integer, "the operand of '-'"), Type::integer;
        return expect(e.args[0].get(), Type::boolean, "the operand of 'not'"), Type::boolean;
      case ExprKind::binary: return binary(e);
      case ExprKind::conditional: {
        expect(e.args[0].get(), Type::boolean, "the condition of 'if'");
        Type a = check(*e.args[1]);
        Type b = check(*e.args[2]);
        if (!compatible(a, b) && e.args[1]->kind != ExprKind::none && e.args[2]->kind != ExprKind::none)
          d_.error(e.args[2]->pos, fmt::format("both branches of 'if' must have one type: {} and {}", type_name(a), type_name(b)));
        return a == Type::error || e.args[1]->kind == ExprKind::none ? b : a;
      }
      case ExprKind::aggregate: return aggregate(e);
      case ExprKind::range:
        expect(e.args[0].get(), Type::integer, "the start of a range");
        expect(e.args[1].get(), Type::integer, "the end of a range");
        return Type::int_list;
      case ExprKind::from:
        expect(e.args[0].get(), Type::player_list, "the list before 'from'");
        expect(e.args[1].get(), Type::player, "the player after 'from'");
        return Type::player_list;
      case ExprKind::walk: return walk(e);
    }
    return Type::error;
  }

  [[gnu::noinline]] Type name(Expr& e) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->name == e.name) {
        e.sym = it->sym;
        return it->type;
      }
    if (auto it = s_.globals.find(e.name); it != s_.globals.end()) {
      if (in_initial_) d_.error(e.pos, "an initial value may use options, not variables");
      e.sym = {SymKind::global, it->second, 0};
      return var_type(e.name);
    }
    if (auto it = s_.options.find(e.name); it != s_.options.end()) {
      e.sym = {SymKind::option, it->second, 0};
      return s_.option_types[it->second];
    }
    if (auto it = s_.zones.find(e.name); it != s_.zones.end()) {
      zone_used_[it->second] = true;
      const ZoneDecl& z = rf_.zones[it->second];
      if (!z.per_kind.empty())
        d_.error(e.pos, fmt::format("each '{1}' has a zone '{0}': write c.{0}{2} for {1} c", e.name, z.per_kind, z.per_player ? "(p)" : ""));
      else if (z.per_player)
        d_.error(e.pos, fmt::format("each player has a zone '{0}': write p.{0} for player p", e.name));
      e.sym = {SymKind::zone, it->second, 0};
      return Type::zone;
    }
    if (e.name == "players" || e.name == "all_players") {
      e.sym = {SymKind::builtin, e.name == "players" ? 0 : 1, 0};
      return Type::player_list;
    }
    if (e.name == "player_count") {
      e.sym = {SymKind::builtin, 2, 0};
      return Type::integer;
    }
    if (auto it = s_.symbol_index.find(e.name); it != s_.symbol_index.end()) {
      e.sym = {SymKind::constant, -1, 1000000 + it->second};
      return Type::integer;
    }
    if (int seat = seat_named(e.name); seat > 0) {
      e.sym = {SymKind::constant, -1, seat - 1};
      return Type::player;
    }
    if (s_.player_vars.count(e.name))
      d_.error(e.pos, fmt::format("'{0}' belongs to each player: write p.{0} for player p", e.name));
    else if (auto v = s_.card_vars.find(e.name); v != s_.card_vars.end())
      d_.error(e.pos, fmt::format("'{0}' belongs to each '{1}': write c.{0} for {1} c", e.name, var_decl(e.name)->per_kind));
    else if (s_.functions.count(e.name) || s_.procedures.count(e.name))
      d_.error(e.pos, fmt::format("'{}' needs its arguments in parentheses", e.name));
    else
      unknown(e.pos, "name", e.name, [&] { return all_names(); });
    return Type::error;
  }

  std::map<std::string, int> all_names() const {
    std::map<std::string, int> names;
    for (auto& b : scope_) names[b.name] = 0;
    for (auto* m : {&s_.globals, &s_.options, &s_.zones, &s_.symbol_index})
      for (auto& [k, v] : *m) names[k] = 0;
    names["players"] = names["all_players"] = names["player_count"] = 0;
    return names;
  }

  static Type type_of(VarType t) {
    switch (t) {
      case VarType::boolean: return Type::boolean;
      case VarType::player: return Type::player;
      case VarType::card: return Type::card;
      case VarType::integer: break;
    }
    return Type::integer;
  }

  const VarDecl* var_decl(const std::string& name) const {
    for (auto& v : rf_.variables)
      if (v.name == name) return &v;
    return nullptr;
  }

  Type var_type(const std::string& name) const {
    const VarDecl* v = var_decl(name);
    return v ? type_of(v->type) : Type::error;
  }

  // `c.name` or `c.name(p)`: a variable or zone that each component of a kind has (for
  // each player, when it also says per_player). The argument is checked here.
  Type component_member(Expr& e, bool per_player, Type result) {
    bool has_arg = e.args.size() > 1;
    if (per_player && !has_arg) {
      d_.error(e.pos, fmt::format("each player has one: write c.{}(p) for player p", e.name));
      return Type::error;
    }
    if (!per_player && has_arg) {
      d_.error(e.args[1]->pos, fmt::format("'.{}' takes no player; write c.{}", e.name, e.name));
      return Type::error;
    }
    if (has_arg)
      expect(e.args[1].get(), Type::player, fmt::format("the argument of '.{}'", e.name).c_str());
    return result;
  }

  [[gnu::noinline]] Type member(Expr& e) {
    Type t = check(*e.args[0]);
    if (t == Type::error) return Type::error;
    if (e.args.size() > 1 && t != Type::card) {
      d_.error(e.args[1]->pos, fmt::format("'.{}' takes no argument", e.name));
      return Type::error;
    }
    if (t == Type::player) {
      if (auto it = s_.player_vars.find(e.name); it != s_.player_vars.end()) {
        if (in_initial_) d_.error(e.pos, "an initial value may use options, not variables");
        e.sym = {SymKind::player_var, it->second, 0};
        return var_type(e.name);
      }
      if (auto it = s_.zones.find(e.name);
          it != s_.zones.end() && rf_.zones[it->second].per_player && rf_.zones[it->second].per_kind.empty()) {
        zone_used_[it->second] = true;
        e.sym = {SymKind::zone, it->second, 0};
        return Type::zone;
      }
      unknown(e.pos, "player variable or zone", e.name, [&] {
        std::map<std::string, int> names = s_.player_vars;
        for (auto& z : rf_.zones)
          if (z.per_player && z.per_kind.empty()) names[z.name] = 0;
        return names;
      });
      return Type::error;
    }
    if (t == Type::card) {
      bool has_arg = e.args.size() > 1;
      if (e.name == "owner" && !has_arg) {
        e.sym = {SymKind::builtin, 0, 0};
        return Type::player;
      }
      if (auto it = s_.properties.find(e.name); it != s_.properties.end() && !has_arg) {
        e.sym = {SymKind::property, it->second, 0};
        return Type::integer;
      }
      if (auto it = s_.card_vars.find(e.name); it != s_.card_vars.end()) {
        if (in_initial_) d_.error(e.pos, "an initial value may use options, not variables");
        e.sym = {SymKind::card_var, it->second, 0};
        return component_member(e, var_decl(e.name)->per_player, var_type(e.name));
      }
      if (auto it = s_.zones.find(e.name); it != s_.zones.end() && !rf_.zones[it->second].per_kind.empty()) {
        zone_used_[it->second] = true;
        e.sym = {SymKind::card_zone, it->second, 0};
        return component_member(e, rf_.zones[it->second].per_player, Type::zone);
      }
      unknown(e.pos, has_arg ? "component variable or zone" : "card property", e.name, [&] {
        std::map<std::string, int> names = s_.properties;
        names["owner"] = 0;
        for (auto& [k, v] : s_.card_vars) names[k] = 0;
        for (auto& z : rf_.zones)
          if (!z.per_kind.empty()) names[z.name] = 0;
        return names;
      });
      return Type::error;
    }
    d_.error(e.pos, fmt::format("'.{}' needs a player or a card before it, but this is {}", e.name, type_name(t)));
    return Type::error;
  }

  Type binary(Expr& e) {
    const std::string& op = e.op;
    if (op == "and" || op == "or") {
      expect(e.args[0].get(), Type::boolean, fmt::format("the operand of '{}'", op).c_str());
      expect(e.args[1].get(), Type::boolean, fmt::format("the operand of '{}'", op).c_str());
      return Type::boolean;
    }
    if (op == "==" || op == "!=") {
      Type a = check(*e.args[0]);
      Type b = check(*e.args[1]);
      if ((is_list(a) && a != Type::zone) || (is_list(b) && b != Type::zone)) {
        d_.error(e.pos, fmt::format("'{}' compares single values; lists cannot be compared", op));
        return Type::boolean;
      }
      bool none = e.args[0]->kind == ExprKind::none || e.args[1]->kind == ExprKind::none;
      if (!compatible(a, b) && !none)
        d_.error(e.pos, fmt::format("'{}' compares {} with {}", op, type_name(a), type_name(b)));
      return Type::boolean;
    }
    std::string what = fmt::format("the operand of '{}'", op);
    int errors = d_.error_count();
    expect(e.args[0].get(), Type::integer, what.c_str());
    expect(e.args[1].get(), Type::integer, what.c_str());
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return Type::boolean;
    // A wrong operand was reported; an unknown result keeps it from being reported again.
    return d_.error_count() > errors ? Type::error : Type::integer;
  }

  [[gnu::noinline]] Type aggregate(Expr& e) {
    Type list = expect_list(e.args[0].get(), fmt::format("the list of '{}'", e.op).c_str());
    Type elem = element(list);
    scope_.push_back({e.name, {SymKind::bound, depth_, 0}, elem});
    e.sym = {SymKind::bound, depth_, 0};
    ++depth_;
    max_depth_ = std::max(max_depth_, depth_);
    if (e.args[1]) expect(e.args[1].get(), Type::boolean, "the condition after 'where'");
    Type result = Type::integer;
    if (e.op == "count" || e.op == "find") {
      if (e.args[2])
        d_.error(e.args[2]->pos, e.op == "count" ? "'count' counts the elements that pass 'where': write count(x in LIST where CONDITION)"
                                                 : "'find' gives the first element that passes 'where': write find(x in LIST where CONDITION)");
      if (e.op == "find") result = elem;
    } else if (e.op == "any" || e.op == "all") {
      if (e.args[2]) expect(e.args[2].get(), Type::boolean, fmt::format("the value of '{}'", e.op).c_str());
      result = Type::boolean;
    } else {
      if (!e.args[2]) d_.error(e.pos, fmt::format("'{0}' needs a value: {0}(VALUE for x in LIST)", e.op));
      else expect(e.args[2].get(), Type::integer, fmt::format("the value of '{}'", e.op).c_str());
      if (e.op == "best" || e.op == "worst") result = elem;
    }
    --depth_;
    scope_.pop_back();
    return result;
  }

  [[gnu::noinline]] Type walk(Expr& e) {
    expect(e.args[0].get(), Type::card, "where 'walk' starts");
    expect(e.args[1].get(), Type::integer, "the steps of 'walk'");
    scope_.push_back({e.name, {SymKind::bound, depth_, 0}, Type::card});
    e.sym = {SymKind::bound, depth_, 0};
    ++depth_;
    max_depth_ = std::max(max_depth_, depth_);
    if (e.args[2]) expect(e.args[2].get(), Type::boolean, "the condition after 'where'");
    --depth_;
    scope_.pop_back();
    return Type::card_list;
  }

  // A set keeps its cards in card order, whatever order they came in (so that a hidden
  // card's place tells nothing): it has no positions to put a card at, and no order to
  // shuffle.
  void unordered(const Expr& zone, const std::string& lacks) {
    if (zone.sym.kind != SymKind::zone && zone.sym.kind != SymKind::card_zone) return;
    const ZoneDecl& z = rf_.zones.at(zone.sym.index);
    if (z.order == ZoneOrder::set)
      d_.error(zone.pos, fmt::format("'{}' is a set, which has {}: its cards are kept in card order; declare it with "
                                     "order: stack or row to use one", z.name, lacks));
  }

  // `min(a, b, ...)` and `max(a, b, ...)`: the lowest or highest of two or more numbers
  // (the parser makes this call only with two or more).
  Type extreme(Expr& e) {
    e.sym = {SymKind::builtin, -1, 0};
    for (size_t k = 0; k < e.args.size(); ++k)
      expect(e.args[k].get(), Type::integer, fmt::format("argument {} of '{}'", k + 1, e.name).c_str());
    return Type::integer;
  }

  [[gnu::noinline]] Type call(Expr& e) {
    if (is_extreme(e.name)) return extreme(e);
    if (e.name == "values" && !s_.functions.count(e.name)) return property_values(e);
    for (size_t i = 0; i < builtins().size(); ++i) {
      const Builtin& b = builtins()[i];
      if (e.name != b.name) continue;
      e.sym = {SymKind::builtin, static_cast<int>(i), 0};
      // The game then remembers the position of each decision (runtime/positions.cpp).
      if (std::string_view(b.name) == "repetitions") rf_.remembers_positions = true;
      if (e.args.size() != b.params.size()) {
        d_.error(e.pos, fmt::format("'{}' takes {} argument{}, not {}", b.name, b.params.size(),
                                    b.params.size() == 1 ? "" : "s", e.args.size()));
        return b.result;
      }
      for (size_t k = 0; k < e.args.size(); ++k)
        expect(e.args[k].get(), b.params[k], fmt::format("argument {} of '{}'", k + 1, b.name).c_str());
      return b.result;
    }
    if (auto it = s_.functions.find(e.name); it != s_.functions.end()) {
      int f = it->second;
      e.sym = {SymKind::function, f, depth_};
      auto& decl = rf_.functions[f];
      if (e.args.size() != decl.params.size()) {
        d_.error(e.pos, fmt::format("'{}' takes {} argument{}, not {}", e.name, decl.params.size(),
                                    decl.params.size() == 1 ? "" : "s", e.args.size()));
        return Type::error;
      }
      std::vector<Type> types;
      for (auto& a : e.args) types.push_back(check(*a));
      if (func_state_[f] == 1) {
        d_.error(e.pos, fmt::format("function '{}' calls itself; recursion is not allowed", e.name));
        return Type::error;
      }
      if (func_state_[f] == 0) {
        if (active_functions_ >= max_call_depth) {
          d_.error(e.pos, fmt::format("functions call functions more than {} deep here", max_call_depth));
          return Type::error;
        }
        check_function(f, types);
      } else if (!reach(e.pos, func_height_[f])) {
        return Type::error;
      }
      chain_ = std::max(chain_, func_chain_[f]);
      auto& want = s_.function_params[f];
      for (size_t k = 0; k < types.size(); ++k)
        if (!compatible(types[k], want[k]))
          d_.error(e.args[k]->pos, fmt::format("argument {} of '{}' must be {}, as at its first use, but this is {}",
                                               k + 1, e.name, type_name(want[k]), type_name(types[k])));
      return s_.function_types[f];
    }
    if (auto it = s_.kinds.find(e.name); it != s_.kinds.end()) return card_lookup(e, it->second);
    if (s_.procedures.count(e.name)) {
      d_.error(e.pos, fmt::format("'{}' is a procedure: it has effects and gives no value", e.name));
      return Type::error;
    }
    unknown(e.pos, "function", e.name, [&] {
      std::map<std::string, int> names = s_.functions;
      for (auto& b : builtins()) names[b.name] = 0;
      return names;
    });
    for (auto& a : e.args) check(*a);
    return Type::error;
  }

  // `cell(3, 2)`: the card of a kind whose first properties, in the order declared, have
  // these values (or none); the compiler checks that they name one card each.
  [[gnu::noinline]] Type card_lookup(Expr& e, int k) {
    const ComponentDecl& c = rf_.components[k];
    e.sym = {SymKind::kind, k, 0};
    size_t most = std::min<size_t>(3, c.properties.size());
    if (c.per_player) {
      d_.error(e.pos, fmt::format("'{0}' has a copy for each seat, so values do not name one card; '{0}(...)' looks up "
                                  "a kind that is not per_player", e.name));
    } else if (e.args.empty() || e.args.size() > most) {
      std::string first;
      for (size_t i = 0; i < most; ++i) first += (i ? ", " : "") + c.properties[i];
      if (most == 0)
        d_.error(e.pos, fmt::format("'{}' has no properties to look its cards up by", e.name));
      else
        d_.error(e.pos, fmt::format("'{}(...)' takes 1 to {} values, of its first properties ({}), not {}", e.name, most,
                                    first, e.args.size()));
    }
    for (size_t i = 0; i < e.args.size(); ++i)
      expect(e.args[i].get(), Type::integer, fmt::format("argument {} of '{}'", i + 1, e.name).c_str());
    return Type::card;
  }

  // `values(clan)`: the values a property takes, as a list (a parameter's choices).
  Type property_values(Expr& e) {
    if (e.args.size() != 1 || e.args[0]->kind != ExprKind::name) {
      d_.error(e.pos, "'values' takes the name of a card property: values(rank)");
      return Type::int_list;
    }
    auto it = s_.properties.find(e.args[0]->name);
    if (it == s_.properties.end()) {
      unknown(e.args[0]->pos, "card property", e.args[0]->name, s_.properties);
      return Type::int_list;
    }
    e.sym = {SymKind::property, it->second, 0};
    return Type::int_list;
  }

  // A function's body is checked once, in a scope of its own, its parameters at the
  // bottom of a fresh evaluation frame.
  void check_function(int f, const std::vector<Type>& types) {
    auto& decl = rf_.functions[f];
    func_state_[f] = 1;
    s_.function_params[f] = types;
    auto saved_scope = std::move(scope_);
    int saved_depth = depth_, saved_max = max_depth_;
    scope_.clear();
    depth_ = 0;
    for (size_t i = 0; i < decl.params.size(); ++i)
      scope_.push_back({decl.params[i], {SymKind::bound, depth_++, 0}, types[i]});
    max_depth_ = depth_;
    int saved_chain = chain_, saved_peak = peak_;
    chain_ = 0;
    peak_ = nest_;
    ++active_functions_;
    if (decl.expr) s_.function_types[f] = check(*decl.expr);
    else if (decl.computed && !decl.broken) s_.function_types[f] = check_computed(decl);
    --active_functions_;
    func_height_[f] = peak_ - nest_;
    peak_ = std::max(peak_, saved_peak);
    // The longest chain of calls from here down, this call included: what the compiler's
    // and the evaluator's recursion follows.
    func_chain_[f] = chain_ + 1;
    if (func_chain_[f] == max_call_depth + 1)
      d_.error(decl.pos, fmt::format("function '{}' calls functions that call functions more than {} deep", decl.name, max_call_depth));
    chain_ = saved_chain;
    scope_ = std::move(saved_scope);
    depth_ = saved_depth;
    max_depth_ = saved_max;
    func_state_[f] = 2;
  }

  // A function computed by statements (`do:`): `let`, assignments to its own names (its
  // parameters and `let`s), `if` and loops, then `return VALUE` last. Its names are frame
  // slots, as an aggregate's variable is: nothing of the state is written.
  Type check_computed(RoutineDecl& decl) {
    Block& b = decl.block;
    if (b.empty() || b.back()->kind != StmtKind::return_)
      d_.error(b.empty() ? decl.body.pos : b.back()->pos,
               fmt::format("function '{}' computed by statements must end with 'return VALUE', its value", decl.name));
    size_t mark = scope_.size();
    int saved_depth = depth_;
    bool saved = in_function_body_;
    in_function_body_ = true;
    Type result = Type::error;
    for (size_t i = 0; i < b.size(); ++i) {
      Stmt& s = *b[i];
      if (s.kind == StmtKind::return_ && i + 1 == b.size()) {
        result = check(*s.exprs[0]);
        if (is_list(result))
          d_.error(s.exprs[0]->pos, fmt::format("a function returns one value, not {}", type_name(result)));
      } else {
        check_stmt(s);
      }
    }
    in_function_body_ = saved;
    scope_.resize(mark);
    depth_ = saved_depth;
    return result;
  }

  // The statements a computed function's `do:` may hold (besides its last `return`).
  static bool computes(StmtKind k) {
    return k == StmtKind::let || k == StmtKind::assign || k == StmtKind::if_ || k == StmtKind::for_ ||
           k == StmtKind::repeat_times || k == StmtKind::repeat_until || k == StmtKind::while_;
  }

  // A name of a computed function's frame, from the current depth.
  Resolved bind_frame_name(const std::string& name, Type t) {
    Resolved r{SymKind::bound, depth_, 0};
    scope_.push_back({name, r, t});
    ++depth_;
    max_depth_ = std::max(max_depth_, depth_);
    return r;
  }

  // ---- statements ----
  int new_local(Type t) {
    s_.local_types.push_back(t);
    return s_.local_count++;
  }

  void check_block(Block& block) {
    size_t mark = scope_.size();
    int depth = depth_;  // a computed function's `let`s end with their block
    for (auto& s : block) check_stmt(*s);
    scope_.resize(mark);
    depth_ = depth;
  }

  void check_stmt(Stmt& s) {
    if (!enter(s.pos)) return;
    check_stmt_kind(s);
    --nest_;
  }

  void check_stmt_kind(Stmt& s) {
    if (s.kind == StmtKind::return_) {
      check(*s.exprs[0]);
      d_.error(s.pos, in_function_body_ ? "'return' is the last statement of a function's 'do:': compute the value "
                                          "in a name, and return it at the end"
                                        : "'return' gives the value of a function computed by statements ('do:'); "
                                          "a procedure, phase or action returns nothing");
      return;
    }
    // A computed function's statements are checked as others, but change nothing: their
    // names are frame slots, and effects are refused.
    if (in_function_body_ && !computes(s.kind)) {
      d_.error(s.pos, "a function changes nothing: its 'do:' may hold 'let', assignments to its own names, 'if', "
                      "loops and a last 'return'; effects belong in a procedure");
      return;
    }
    switch (s.kind) {
      case StmtKind::let: {
        Type t = check(*s.exprs[0]);
        if (is_list(t) && t != Type::zone)
          d_.error(s.exprs[0]->pos, "a 'let' holds one value, not a list");
        if (in_function_body_) {
          s.sym = bind_frame_name(s.name, t);
          return;
        }
        int id = new_local(t);
        s.sym = {SymKind::local, id, 0};
        scope_.push_back({s.name, s.sym, t});
        return;
      }
      case StmtKind::assign: return assign(s);
      case StmtKind::call: return call_procedure(s);
      case StmtKind::if_:
        expect(s.exprs[0].get(), Type::boolean, "the condition of 'if'");
        check_block(s.body);
        check_block(s.orelse);
        return;
      case StmtKind::for_: {
        Type list = expect_list(s.exprs[0].get(), "the list of 'for'");
        size_t mark = scope_.size();
        int depth = depth_;
        if (in_function_body_) {
          s.sym = bind_frame_name(s.name, element(list));
        } else {
          s.sym = {SymKind::local, new_local(element(list)), 0};
          scope_.push_back({s.name, s.sym, element(list)});
        }
        if (s.exprs.size() > 1) expect(s.exprs[1].get(), Type::boolean, "the condition after 'where'");
        check_block(s.body);
        scope_.resize(mark);
        depth_ = depth;
        return;
      }
      case StmtKind::repeat_times:
        expect(s.exprs[0].get(), Type::integer, "the count of 'repeat'");
        // The statement keeps its count in a local; a computed function's loop in the evaluator.
        if (!in_function_body_) s.sym = {SymKind::local, new_local(Type::integer), 0};
        check_block(s.body);
        return;
      case StmtKind::repeat_until:
      case StmtKind::while_:
        expect(s.exprs[0].get(), Type::boolean, "the condition of the loop");
        check_block(s.body);
        return;
      case StmtKind::move:
        expect(s.exprs[0].get(), Type::card, "what 'move' moves");
        expect(s.exprs[1].get(), Type::zone, "where 'move' moves to");
        if (s.exprs.size() > 2) expect(s.exprs[2].get(), Type::integer, "the position");
        if (s.exprs.size() > 2 || s.bottom) unordered(*s.exprs[1], "no positions");
        return;
      case StmtKind::move_all: {
        Type t = check(*s.exprs[0]);
        if (!compatible(t, Type::zone) && !compatible(t, Type::card_list))
          d_.error(s.exprs[0]->pos, fmt::format("'move all' moves the cards of a zone, but this is {}", type_name(t)));
        if (s.exprs.size() > 2) d_.error(s.exprs[2]->pos, "'move all' puts the cards on top or 'at bottom', not at a position");
        expect(s.exprs[1].get(), Type::zone, "where 'move' moves to");
        if (s.bottom) unordered(*s.exprs[1], "no positions");
        return;
      }
      case StmtKind::shuffle:
        expect(s.exprs[0].get(), Type::zone, "what 'shuffle' shuffles");
        unordered(*s.exprs[0], "no order to shuffle");
        return;
      case StmtKind::flip: expect(s.exprs[0].get(), Type::card, "what 'flip' turns"); return;
      case StmtKind::reveal: expect(s.exprs[0].get(), Type::card, "what 'reveal' shows"); return;
      case StmtKind::look:
        expect(s.exprs[0].get(), Type::player, "who looks");
        expect(s.exprs[1].get(), Type::card, "what is looked at");
        return;
      case StmtKind::eliminate: expect(s.exprs[0].get(), Type::player, "who is eliminated"); return;
      case StmtKind::win: {
        Type t = check(*s.exprs[0]);
        if (!compatible(t, Type::player) && t != Type::player_list)
          d_.error(s.exprs[0]->pos, fmt::format("'win' needs a player or a list of players, but this is {}", type_name(t)));
        return;
      }
      case StmtKind::choose: {
        expect(s.exprs[0].get(), Type::player, "who chooses");
        size_t next = 1;  // the values given to the actions follow the chooser
        for (size_t i = 0; i < s.names.size(); ++i) {
          size_t given = i < s.arg_counts.size() ? static_cast<size_t>(s.arg_counts[i]) : 0;
          std::vector<std::pair<Expr*, Type>> values;
          for (size_t k = 0; k < given && next < s.exprs.size(); ++k, ++next)
            values.push_back({s.exprs[next].get(), check(*s.exprs[next])});
          auto it = s_.actions.find(s.names[i]);
          if (it == s_.actions.end()) {
            unknown(s.name_pos[i], "action", s.names[i], s_.actions);
            continue;
          }
          int a = it->second;
          if (given > 0 && std::count(s.names.begin(), s.names.end(), s.names[i]) > 1)
            d_.error(s.name_pos[i], fmt::format("'{}' is offered twice in one 'choose'; give it values once, or "
                                                "widen a 'when' instead",
                                                s.names[i]));
          const auto& params = rf_.actions[a].params;
          if (given > params.size()) {
            std::vector<std::string> names;
            for (const auto& p : params) names.push_back(p.name);
            d_.error(s.name_pos[i],
                     params.empty()
                         ? fmt::format("'{}' has no parameters: it takes no values", s.names[i])
                         : fmt::format("'{}' has {} parameter{} ({}): {} values are too many", s.names[i], params.size(),
                                       params.size() == 1 ? "" : "s", fmt::join(names, ", "), given));
          } else {
            for (size_t k = 0; k < values.size(); ++k) given_values_.push_back({values[k].first, values[k].second, a, k});
          }
          s.action_ids.push_back(a);
          action_used_[a] = true;
          edges_[node_].push_back(a);
        }
        return;
      }
      case StmtKind::phase: {
        auto it = s_.phases.find(s.name);
        if (it == s_.phases.end()) {
          unknown(s.name_pos[0], "phase", s.name, s_.phases);
          return;
        }
        s.sym = {SymKind::procedure, it->second, 0};
        phase_used_[it->second] = true;
        edges_[node_].push_back(phase_node(it->second));
        return;
      }
      case StmtKind::end_game: return;
      case StmtKind::return_: return;  // (refused above)
      case StmtKind::say: {
        size_t values = s.exprs.size() - (s.name == "to" ? 1 : 0);
        for (size_t i = 0; i < values; ++i) {
          Type t = check(*s.exprs[i]);
          if (is_list(t) && t != Type::zone)
            d_.error(s.exprs[i]->pos, fmt::format("a message says one value, not {}", type_name(t)));
        }
        if (s.name == "to") expect(s.exprs.back().get(), Type::player, "whom 'say to' tells");
        return;
      }
    }
  }

  void assign(Stmt& s) {
    Expr& target = *s.exprs[0];
    Type t = Type::error;
    bool ok = false;
    if (target.kind == ExprKind::name) {
      t = check(target);
      ok = target.sym.kind == SymKind::global || target.sym.kind == SymKind::local || t == Type::error ||
           (in_function_body_ && target.sym.kind == SymKind::bound);
    } else if (target.kind == ExprKind::member) {
      t = check(target);
      ok = target.sym.kind == SymKind::player_var || target.sym.kind == SymKind::card_var || t == Type::error;
    }
    if (!ok) {
      d_.error(target.pos, "only a variable can be assigned to");
      return;
    }
    if (in_function_body_ && target.sym.kind != SymKind::bound && t != Type::error) {
      d_.error(target.pos, "a function changes nothing: it assigns only its own names (its parameters and 'let's)");
      return;
    }
    if (target.sym.kind == SymKind::global || target.sym.kind == SymKind::player_var || target.sym.kind == SymKind::card_var)
      for (const VarDecl& v : rf_.variables)
        if (v.constant && v.name == target.name) {
          d_.error(target.pos, fmt::format("'{}' is a constant (constant: true): it keeps its initial value{}", v.name,
                                           v.per_player ? "s" : ""));
          break;
        }
    if (s.name != "=" && !compatible(t, Type::integer))
      d_.error(s.pos, fmt::format("'{}' needs a number variable", s.name));
    expect(s.exprs[1].get(), t, "the assigned value");
  }

  void call_procedure(Stmt& s) {
    Expr& c = *s.exprs[0];
    if (c.kind != ExprKind::call) {
      d_.error(c.pos, "expected a statement: an assignment, a procedure call or an effect");
      return;
    }
    auto it = s_.procedures.find(c.name);
    if (it == s_.procedures.end()) {
      if (s_.functions.count(c.name) || std::any_of(builtins().begin(), builtins().end(), [&](auto& b) { return c.name == b.name; }))
        d_.error(c.pos, fmt::format("'{}' gives a value; a statement must do something with it", c.name));
      else
        unknown(c.pos, "procedure", c.name, s_.procedures);
      return;
    }
    int p = it->second;
    auto& decl = rf_.procedures[p];
    c.sym = {SymKind::procedure, p, 0};
    edges_[node_].push_back(proc_node(p));
    if (c.args.size() != decl.params.size()) {
      d_.error(c.pos, fmt::format("'{}' takes {} argument{}, not {}", c.name, decl.params.size(),
                                  decl.params.size() == 1 ? "" : "s", c.args.size()));
      return;
    }
    std::vector<Type> types;
    for (auto& a : c.args) types.push_back(check(*a));
    if (proc_state_[p] == 0) {
      if (active_procedures_ >= max_call_depth) {
        d_.error(c.pos, fmt::format("procedures call procedures more than {} deep here", max_call_depth));
        return;
      }
      ++active_procedures_;
      check_procedure(p, types);
      --active_procedures_;
    } else if (!reach(c.pos, proc_height_[p])) {
      return;
    }
    auto& want = s_.procedure_params[p];
    for (size_t k = 0; k < types.size() && k < want.size(); ++k)
      if (!compatible(types[k], want[k]))
        d_.error(c.args[k]->pos, fmt::format("argument {} of '{}' must be {}, as at its first use, but this is {}",
                                             k + 1, c.name, type_name(want[k]), type_name(types[k])));
  }

  void check_procedure(int p, std::vector<Type> types) {
    auto& decl = rf_.procedures[p];
    proc_state_[p] = 1;
    if (types.empty() && !decl.params.empty()) {
      // After an error (a syntax error in the text that calls it), "never used" is its echo.
      if (own(decl.pos) && !d_.has_errors())
        d_.warning(decl.pos, fmt::format("procedure '{}' is never used", decl.name));
      types.assign(decl.params.size(), Type::error);
    }
    s_.procedure_params[p] = types;
    auto saved_scope = std::move(scope_);
    int saved_node = node_;
    scope_.clear();
    node_ = proc_node(p);
    for (size_t i = 0; i < decl.params.size(); ++i) {
      int id = new_local(types[i]);
      s_.procedure_param_locals[p].push_back(id);
      scope_.push_back({decl.params[i], {SymKind::local, id, 0}, types[i]});
    }
    int saved_peak = peak_;
    peak_ = nest_;
    check_block(decl.block);
    proc_height_[p] = peak_ - nest_;
    peak_ = std::max(peak_, saved_peak);
    scope_ = std::move(saved_scope);
    node_ = saved_node;
    proc_state_[p] = 2;
  }

  // `choose p: jump(c)`: each value has its parameter's type, known once the actions are
  // checked (a choose may come before the action it offers).
  void check_given_values() {
    for (const GivenValue& v : given_values_) {
      const auto& decl = rf_.actions[v.action];
      if (v.action >= static_cast<int>(s_.action_param_locals.size()) || v.param >= s_.action_param_locals[v.action].size())
        continue;
      Type want = s_.local_types[s_.action_param_locals[v.action][v.param]];
      bool none_ok = v.expr->kind == ExprKind::none && (want == Type::player || want == Type::card);
      if (!compatible(v.type, want) && !none_ok)
        d_.error(v.expr->pos, fmt::format("value {} of '{}' is its parameter '{}', {}, but this is {}", v.param + 1,
                                          decl.name, decl.params[v.param].name, type_name(want), type_name(v.type)));
    }
  }

  void check_action(int a) {
    auto& decl = rf_.actions[a];
    scope_.clear();
    node_ = a;
    int me = new_local(Type::player);
    s_.action_player_local.push_back(me);
    scope_.push_back({"player", {SymKind::local, me, 0}, Type::player});
    std::vector<int> params;
    for (auto& p : decl.params) {
      Type list = p.domain_expr ? expect_list(p.domain_expr.get(), fmt::format("the choices of '{}'", p.name).c_str())
                                : Type::error;
      int id = new_local(element(list));
      params.push_back(id);
      scope_.push_back({p.name, {SymKind::local, id, 0}, element(list)});
    }
    s_.action_param_locals.push_back(params);
    if (decl.params.size() > 4) d_.error(decl.pos, "an action takes at most 4 parameters");
    else legal_count(decl);
    for (auto& w : decl.when_exprs) expect(w.get(), Type::boolean, "a 'when' condition");
    check_block(decl.body);
    scope_.clear();
  }

  // The legal decisions an action offers at most, where its parameters' lists are known
  // now: ranges of numbers written out (`1..2048`) and the players. Other lists count one
  // here, and the listing counts them when the game is played.
  void legal_count(const ActionDecl& decl) {
    int64_t total = 1;
    for (auto& p : decl.params) {
      const Expr* e = p.domain_expr.get();
      int64_t n = 1;
      if (e && e->kind == ExprKind::range) {
        auto literal = [](const Expr& x, int64_t& v) {
          bool neg = x.kind == ExprKind::unary && x.op == "-";
          const Expr& y = neg ? *x.args[0] : x;
          if (y.kind != ExprKind::integer) return false;
          v = neg ? -y.value : y.value;
          return true;
        };
        int64_t lo = 0, hi = 0;
        if (literal(*e->args[0], lo) && literal(*e->args[1], hi)) n = std::max<int64_t>(hi - lo + 1, 1);
      } else if (e && e->kind == ExprKind::name && e->sym.kind == SymKind::builtin && e->type == Type::player_list) {
        n = rf_.max_players;
      }
      total *= n;  // at most 4 lists of at most 2^32 each: no overflow
      if (total > max_legal_decisions) {
        d_.error(decl.pos, fmt::format("action '{}' offers more than {} decisions at once (its parameters' lists multiplied)", decl.name, max_legal_decisions));
        return;
      }
    }
  }

  void check_scoring() {
    auto& sc = rf_.scoring;
    scope_.clear();
    depth_ = 0;
    // Notes speak of the whole game: no `p`.
    for (auto& n : sc.notes) expect(n.when_expr.get(), Type::boolean, "a note's condition");
    scope_.push_back({"p", {SymKind::bound, depth_++, 0}, Type::player});
    if (sc.score_expr) expect(sc.score_expr.get(), Type::integer, "a score");
    for (auto& part : sc.parts) expect(part.expr.get(), Type::integer, "a part of the score");
    for (auto& t : sc.tiebreak_exprs) expect(t.get(), Type::integer, "a tiebreak");
    scope_.clear();
    depth_ = 0;
  }

  // Depth-first, with a stack of its own: a file may declare many thousands of actions,
  // procedures and phases, calling each other in one long line.
  void find_recursion() {
    std::vector<int> state(edges_.size(), 0);
    std::vector<std::pair<int, size_t>> stack;  // a node and the next of its edges to follow
    for (size_t start = 0; start < edges_.size(); ++start) {
      if (state[start] != 0) continue;
      stack.push_back({static_cast<int>(start), 0});
      state[start] = 1;
      while (!stack.empty()) {
        auto& [n, next] = stack.back();
        if (next == edges_[n].size()) {
          state[n] = 2;
          stack.pop_back();
          continue;
        }
        int m = edges_[n][next++];
        if (state[m] == 1) return report_cycle(m);
        if (state[m] == 0) {
          state[m] = 1;
          stack.push_back({m, 0});
        }
      }
    }
  }

  void report_cycle(int n) {
    int a = static_cast<int>(rf_.actions.size()), p = static_cast<int>(rf_.procedures.size());
    if (n < a)
      d_.error(rf_.actions[n].pos, fmt::format("action '{}' can be chosen again while it runs; recursion is not allowed", rf_.actions[n].name));
    else if (n < a + p)
      d_.error(rf_.procedures[n - a].pos, fmt::format("procedure '{}' calls itself; recursion is not allowed", rf_.procedures[n - a].name));
    else
      d_.error(rf_.phases[n - a - p].pos, fmt::format("phase '{}' enters itself; recursion is not allowed", rf_.phases[n - a - p].name));
  }

  // Whether a declaration is the file's own, not imported: a library piece a game does not
  // use is no mistake of the game's.
  bool own(Pos p) const { return p.file == rf_.file; }

  void warn_unused() {
    for (size_t i = 0; i < rf_.zones.size(); ++i)
      if (!zone_used_[i] && own(rf_.zones[i].pos)) d_.warning(rf_.zones[i].pos, fmt::format("zone '{}' is never used", rf_.zones[i].name));
    for (size_t i = 0; i < rf_.phases.size(); ++i)
      if (!phase_used_[i] && own(rf_.phases[i].pos)) d_.warning(rf_.phases[i].pos, fmt::format("phase '{}' can never be reached: no 'phase {}' enters it", rf_.phases[i].name, rf_.phases[i].name));
    for (size_t i = 0; i < rf_.actions.size(); ++i)
      if (!action_used_[i] && own(rf_.actions[i].pos)) d_.warning(rf_.actions[i].pos, fmt::format("action '{}' is never offered by a 'choose'", rf_.actions[i].name));
  }

  RuleFile& rf_;
  Symbols& s_;
  Diagnostics& d_;
  std::vector<Binding> scope_;
  int depth_ = 0;
  int max_depth_ = 0;
  bool in_initial_ = false;
  bool in_function_body_ = false;  // checking a computed function's `do:`
  int node_ = 0;
  std::map<std::string, std::pair<Pos, const char*>> declared_;
  std::vector<int> func_state_, proc_state_;
  std::vector<int> func_chain_;  // per function checked: the longest chain of calls it starts
  // Levels of the text being checked, counted through calls (enter()), the most reached,
  // and per function and procedure checked, the levels of its body counted so.
  int nest_ = 0, peak_ = 0;
  bool deep_reported_ = false;
  std::vector<int> func_height_, proc_height_;
  int chain_ = 0;                // in the function being checked: the longest chain it calls
  int active_functions_ = 0;     // function bodies being checked, one inside another's call
  int active_procedures_ = 0;    // the same for procedures
  std::vector<std::vector<int>> edges_;
  std::vector<bool> zone_used_, phase_used_, action_used_;
  // A value a `choose` gives an action's parameter, to check against its type.
  struct GivenValue {
    Expr* expr;
    Type type;
    int action;
    size_t param;
  };
  std::vector<GivenValue> given_values_;
};

}  // namespace

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const Builtin& b : builtins()) out.push_back(b.name);
  out.insert(out.end(), {"min", "max", "values", "walk"});
  return out;
}

bool check_rules(RuleFile& rf, Symbols& out, Diagnostics& diags) {
  int before = diags.error_count();
  Checker(rf, out, diags).run();
  return diags.error_count() == before;
}

}  // namespace kata
