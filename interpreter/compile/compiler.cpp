// The compiler is one pass over the checked AST. Names were resolved by the checker, so
// each case below is a direct translation; the only decisions made here are the layout of
// the state and the slot of each local.
#include "compile/compiler.hpp"

#include "runtime/engine.hpp"
#include "runtime/wrap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace kata {

std::string seat_name(int seat) { return seat < 0 ? "nobody" : fmt::format("P{}", seat + 1); }

std::string Game::symbol_name(int64_t v) const {
  int64_t i = v - symbol_base;
  if (i >= 0 && i < static_cast<int64_t>(symbols.size())) return symbols[i];
  return std::to_string(v);
}

std::string Game::instance_name(int instance) const {
  if (instance < 0) return "out of play";
  const ZoneInfo& z = zones[instance_zone[instance]];
  if (z.kind >= 0) {
    std::string holder = card_names[instance_card[instance]];
    if (!z.per_player) return fmt::format("{}.{}", holder, z.name);
    return fmt::format("{}.{}({})", holder, z.name, seat_name(instance_owner[instance]));
  }
  if (!z.per_player) return z.name;
  return fmt::format("{}.{}", seat_name(instance_owner[instance]), z.name);
}

const std::string& Game::noun(int kind, bool many) const {
  static const std::string card = "card", cards = "cards";
  if (kind < 0 || kind >= static_cast<int>(kinds.size())) return many ? cards : card;
  return many ? kinds[kind].noun_many : kinds[kind].noun_one;
}

std::string Game::counted(size_t n, int kind) const {
  if (n != 1) return fmt::format("{} {}", n, noun(kind, true));
  const std::string& one = noun(kind, false);
  bool vowel = !one.empty() && std::string_view("aeioAEIO").find(one[0]) != std::string_view::npos;
  return fmt::format("{} {}", vowel ? "an" : "a", one);
}

std::string Game::place_name(int instance, bool units) const {
  if (instance >= 0 && board.zone >= 0 && instance_zone[instance] == board.zone && !zones[board.zone].per_player &&
      instance_card[instance] >= 0)
    return card_names[instance_card[instance]];
  if (instance < 0 || zones[instance_zone[instance]].label.empty()) return instance_name(instance);
  std::string out;
  using What = ZoneInfo::LabelPiece::What;
  for (const ZoneInfo::LabelPiece& piece : zones[instance_zone[instance]].label) {
    switch (piece.what) {
      case What::text: out += piece.text; break;
      case What::owner: out += seat_name(instance_owner[instance]); break;
      case What::holder: {
        int holder = instance_card[instance];
        const std::string& name = kinds[card_kind[holder]].titled ? card_plain_names[holder] : card_names[holder];
        out += units ? unbroken(name) : name;
        break;
      }
    }
  }
  return out;
}

namespace {

// An error found while working out a rule file's load-time constants (`where:`, `links:`,
// `board:`), reported as a diagnostic.
struct LoadTimeError {
  Pos pos;
  std::string message;
};

// What one game may hold, so that a small file cannot ask for gigabytes: checked before
// anything of that size is allocated (docs/language.md §7).
constexpr int64_t max_cards = 65536;               // components of all kinds, all owners
constexpr int64_t max_property_values = 1 << 22;   // card properties x cards
constexpr int64_t max_zone_instances = 1 << 20;    // zones x their owners
constexpr int64_t max_state_slots = 1 << 22;       // numbers in one game state

[[noreturn]] void too_big(Pos pos, const char* what, int64_t limit) {
  throw LoadTimeError{pos, fmt::format("the game is too large: {} (at most {})", what, limit)};
}

class Compiler {
 public:
  Compiler(RuleFile& rf, const Symbols& s, Game& g) : rf_(rf), s_(s), g_(g), p_(g.program) {}

  void run() {
    at_ = rf_.game_pos;
    declarations();
    layout();
    // Locals first get fixed slots; loops take more as the code is emitted.
    for (int i = 0; i < s_.local_count; ++i) local_slot_.push_back(alloc(1));
    // Flow at 0.
    p_.flow_entry = 0;
    block(rf_.flow_block);
    emit({Op::halt, 0, 0, 0, 0, 0, {}});
    for (size_t i = 0; i < rf_.procedures.size(); ++i) procedure(static_cast<int>(i));
    for (size_t i = 0; i < rf_.phases.size(); ++i) phase(static_cast<int>(i));
    for (size_t i = 0; i < rf_.actions.size(); ++i) action(static_cast<int>(i));
    no_inlining_ = true;
    for (size_t i = 0; i < rf_.functions.size(); ++i) {
      const RoutineDecl& decl = rf_.functions[i];
      Function f{decl.name, decl.expr ? expr(*decl.expr) : decl.computed ? computed(decl.block, decl.body.pos) : -1,
                 static_cast<int32_t>(decl.params.size())};
      p_.functions.push_back(f);
    }
    no_inlining_ = false;
    patch_calls();
    find_tellers();
    // The scenario runner reads an invariant's top node to show the sides of a failed
    // comparison, so invariants are compiled as written.
    no_inlining_ = true;
    for (auto& inv : rf_.invariants) {
      g_.invariants.push_back({inv.name, expr(*inv.expr), inv.pos});
      const Expr& e = *inv.expr;
      if (e.kind == ExprKind::binary && e.args.size() == 2)
        g_.invariants.back().left = e.args[0]->type, g_.invariants.back().right = e.args[1]->type;
    }
    no_inlining_ = false;
    scoring();
    if (rf_.board && rf_.board->turn_expr) g_.board.turn_node = expr(*rf_.board->turn_expr);
    g_.lowest_wins = rf_.scoring.lowest_wins;
    size_t k = 0;
    for (auto& v : rf_.variables) {
      auto& info = !v.per_kind.empty() ? g_.card_vars[card_var_index_[k]]
                   : v.per_player      ? g_.player_vars[pvar_index_[k]]
                                       : g_.globals[global_index_[k]];
      if (v.initial_expr) info.initial = expr(*v.initial_expr);
      for (const auto& e : v.seat_initial_exprs) info.seat_initial.push_back(expr(*e));
      info.constant = v.constant;
      info.in_position = v.in_position;
      if (v.show_if_expr) info.show_node = expr(*v.show_if_expr);
      ++k;
    }
    g_.layout.total = g_.layout.locals + locals_;
    positions();
    always_seen();
    build_xcode(g_);
    g_.kernel = make_kernel_tables(g_);
    g_.initial_slots = make_initial_slots(g_);
    static std::atomic<uint64_t> serials{0};
    g_.serial = ++serials;
  }

 private:
  // ---- declarations and layout ----
  void declarations() {
    g_.name = rf_.game;
    g_.doc = rf_.doc;
    g_.min_players = rf_.min_players;
    g_.max_players = rf_.max_players;
    g_.max_decisions = rf_.max_decisions;
    g_.max_steps = rf_.max_steps;
    g_.symbols = s_.symbols;
    for (auto& o : rf_.options) {
      OptionInfo info;
      info.name = o.name;
      info.doc = o.doc;
      info.is_symbol = o.default_value.is_symbol;
      info.is_bool = o.default_value.is_bool;
      info.default_value = value(o.default_value);
      for (auto& c : o.choices) info.choices.push_back(value(c));
      if (o.min) info.min = *o.min;
      if (o.max) info.max = *o.max;
      info.min_players = o.min_players;
      info.max_is_players = o.max_is_players;
      info.max_players = o.max_players;
      g_.options.push_back(info);
    }
    g_.properties.resize(s_.properties.size());
    for (auto& [name, i] : s_.properties) g_.properties[i] = {name, static_cast<bool>(s_.property_symbolic[i])};
    cards();
    links();
    board();
    for (auto& z : rf_.zones) {
      ZoneInfo info{z.name,  z.per_player, -1,
                    z.order, z.visibility, static_cast<int32_t>(g_.instance_zone.size()),
                    z.doc,   z.per_kind,   z.show, {}};
      int seats = z.per_player ? g_.max_players : 1;
      int first = 0, holders = 1;
      info.label = zone_label(z);
      if (!z.per_kind.empty()) {
        info.kind = s_.kinds.at(z.per_kind);
        first = g_.kinds[info.kind].first_card;
        holders = g_.kinds[info.kind].card_count;
      }
      if (static_cast<int64_t>(g_.instance_zone.size()) + static_cast<int64_t>(holders) * seats > max_zone_instances)
        too_big(z.pos, "zones times the players and cards that have one", max_zone_instances);
      for (int h = 0; h < holders; ++h)
        for (int i = 0; i < seats; ++i) {
          g_.instance_zone.push_back(static_cast<int32_t>(g_.zones.size()));
          g_.instance_owner.push_back(z.per_player ? i : -1);
          g_.instance_card.push_back(info.kind >= 0 ? first + h : -1);
          g_.instance_visibility.push_back(z.visibility);
          g_.instance_set.push_back(z.order == ZoneOrder::set);
        }
      g_.zones.push_back(info);
    }
    int card_var_slots = 0;
    for (auto& v : rf_.variables) {
      VarInfo info;
      info.name = v.name;
      info.per_player = v.per_player;
      info.type = v.type;
      info.doc = v.doc;
      info.show = v.show;
      info.label = v.label;
      if (!v.per_kind.empty()) {
        info.kind = s_.kinds.at(v.per_kind);
        info.base = card_var_slots;
        card_var_slots += g_.kinds[info.kind].card_count * (v.per_player ? g_.max_players : 1);
        if (card_var_slots > max_state_slots) too_big(v.pos, "the variables of each card, times the cards", max_state_slots);
        card_var_index_.push_back(static_cast<int>(g_.card_vars.size()));
        pvar_index_.push_back(-1);
        global_index_.push_back(-1);
        g_.card_vars.push_back(info);
      } else if (v.per_player) {
        card_var_index_.push_back(-1);
        pvar_index_.push_back(static_cast<int>(g_.player_vars.size()));
        global_index_.push_back(-1);
        g_.player_vars.push_back(info);
      } else {
        card_var_index_.push_back(-1);
        global_index_.push_back(static_cast<int>(g_.globals.size()));
        pvar_index_.push_back(-1);
        g_.globals.push_back(info);
      }
    }
    card_var_slots_ = card_var_slots;
    labels();
    for (auto& ph : rf_.phases) {
      g_.phases.push_back(ph.name);
      g_.phase_docs.push_back(ph.doc);
    }
  }

  // A zone's `label:`, cut into pieces at its fields (checked: {player} for a per-player
  // zone, {KIND} for a zone of each component of KIND).
  static std::vector<ZoneInfo::LabelPiece> zone_label(const ZoneDecl& z) {
    using What = ZoneInfo::LabelPiece::What;
    std::vector<ZoneInfo::LabelPiece> pieces;
    const std::string& text = z.label.text;
    size_t from = 0;
    for (const TemplateField& t : template_fields(text)) {
      if (t.begin > from) pieces.push_back({What::text, text.substr(from, t.begin - from)});
      pieces.push_back({z.per_player && t.name == "player" ? What::owner : What::holder, {}});
      from = t.end;
    }
    if (text.size() > from) pieces.push_back({What::text, text.substr(from)});
    return pieces;
  }

  // Each kind's `label:`, cut into pieces at its fields (checked: each is the name, a
  // property of the kind, or a variable of each component of it).
  void labels() {
    for (size_t k = 0; k < rf_.components.size(); ++k) {
      const ComponentDecl& c = rf_.components[k];
      auto& pieces = g_.kinds[k].label;
      size_t from = 0;
      using What = KindInfo::LabelPiece::What;
      auto text = [&](size_t to) {
        if (to > from) pieces.push_back({What::text, c.label.text.substr(from, to - from), -1});
      };
      for (const TemplateField& t : template_fields(c.label.text)) {
        text(t.begin);
        from = t.end;
        if (t.name == "name") {
          pieces.push_back({What::name, {}, -1});
        } else if (std::find(c.properties.begin(), c.properties.end(), t.name) != c.properties.end()) {
          pieces.push_back({What::property, {}, s_.properties.at(t.name)});
        } else {
          for (size_t i = 0; i < g_.card_vars.size(); ++i)
            if (g_.card_vars[i].name == t.name && g_.card_vars[i].kind == static_cast<int32_t>(k))
              pieces.push_back({What::variable, {}, static_cast<int32_t>(i)});
        }
      }
      text(c.label.text.size());
    }
  }

  int64_t value(const Value& v) const {
    if (!v.is_symbol) return v.number;
    return Game::symbol_base + s_.symbol_index.at(v.symbol);
  }

  void cards() {
    int np = static_cast<int>(g_.properties.size());
    std::vector<std::vector<int64_t>> props(np);
    for (auto& c : rf_.components) {
      KindInfo kind;
      kind.name = c.kind;
      kind.name_template = c.name_template;
      kind.per_player = c.per_player;
      kind.first_card = static_cast<int32_t>(g_.card_kind.size());
      kind.doc = c.doc;
      if (!c.noun_one.empty()) kind.noun_one = c.noun_one, kind.noun_many = c.noun_many;
      kind.unshown = c.unshown;
      kind.titled = !c.title_template.empty() || std::any_of(c.row_titles.begin(), c.row_titles.end(), [](auto& t) { return !t.empty(); });
      for (auto& p : c.properties) kind.properties.push_back(s_.properties.at(p));
      for (auto& p : c.shown) kind.shown.push_back(s_.properties.at(p));
      for (auto& p : c.bookkeeping) kind.bookkeeping.push_back(s_.properties.at(p));
      if (!c.start_zone.empty()) kind.start_zone = s_.zones.at(c.start_zone);
      if (kind.name_template.empty()) {
        bool has_name = std::find(c.properties.begin(), c.properties.end(), "name") != c.properties.end();
        kind.name_template = has_name ? "{name}"
                             : c.properties.size() == 1 ? "{" + c.properties[0] + "}"
                                                        : c.kind + " {index}";
        // Each owner has a copy of the kind: its owner tells the copies apart (§2.3).
        if (c.per_player) kind.name_template = "{owner} " + kind.name_template;
      }
      int owners = c.per_player ? g_.max_players : 1;
      bool described = std::any_of(c.row_docs.begin(), c.row_docs.end(), [](auto& d) { return !d.empty(); });
      // The rows `where:` keeps, worked out once for all owners.
      std::vector<bool> kept(c.rows.size(), true);
      if (c.where_expr) {
        LoadTime where(*this, *c.where_expr);
        for (size_t r = 0; r < c.rows.size(); ++r) {
          std::vector<int64_t> env;
          for (auto& v : c.rows[r]) env.push_back(value(v));
          kept[r] = where(env) != 0;
        }
      }
      for (int o = 0; o < owners; ++o) {
        int index = 0;
        size_t first_name = g_.card_names.size();
        std::vector<size_t> rows_named;  // the row of each card named from first_name on
        for (size_t r = 0; r < c.rows.size(); ++r) {
          const std::vector<Value>& row = c.rows[r];
          if (!kept[r]) continue;
          if (static_cast<int64_t>(g_.card_kind.size()) >= max_cards) too_big(c.pos, "more cards than that", max_cards);
          if (static_cast<int64_t>(g_.card_kind.size() + 1) * np > max_property_values)
            too_big(c.pos, "the card properties times the cards", max_property_values);
          g_.card_kind.push_back(static_cast<int32_t>(g_.kinds.size()));
          g_.card_owner.push_back(c.per_player ? o : -1);
          for (int p = 0; p < np; ++p) props[p].push_back(0);
          for (size_t k = 0; k < c.properties.size(); ++k)
            props[s_.properties.at(c.properties[k])].back() = value(row[k]);
          g_.card_names.push_back(card_name(kind.name_template, c, row, c.per_player ? o : -1, ++index));
          rows_named.push_back(r);
          if (described) kind.card_docs.push_back(r < c.row_docs.size() ? c.row_docs[r] : "");
        }
        number_copies(first_name, c, props);
        title_cards(first_name, c, rows_named);
      }
      kind.card_count = static_cast<int32_t>(g_.card_kind.size()) - kind.first_card;
      g_.kinds.push_back(kind);
    }
    g_.card_count = static_cast<int32_t>(g_.card_kind.size());
    // Names are the cards' notation (logs, decisions, scenarios): two cards of one name
    // would be told apart by nothing a player reads.
    std::map<std::string, int> named;
    for (int card = 0; card < g_.card_count; ++card) {
      auto [at, fresh] = named.emplace(g_.card_names[card], card);
      if (fresh) continue;
      const ComponentDecl& c = rf_.components[g_.card_kind[card]];
      int other = at->second;
      std::string owners = g_.card_owner[card] != g_.card_owner[other]
                               ? fmt::format(" (of {} and {})", seat_name(g_.card_owner[other]), seat_name(g_.card_owner[card]))
                               : "";
      throw LoadTimeError{c.name_template.empty() ? c.pos : c.name_pos,
                          fmt::format("a card of '{}' and a card of '{}'{} are both named '{}'; card names must differ "
                                      "(put {{owner}}, a property or {{copy}} in the name)",
                                      g_.kinds[g_.card_kind[other]].name, c.kind, owners, g_.card_names[card])};
    }
    for (auto& column : props) g_.card_props.insert(g_.card_props.end(), column.begin(), column.end());
  }

  // The board's graph: each pair of cards of a linked kind for which the condition holds
  // (either way round), worked out once here.
  void links() {
    std::vector<std::vector<int32_t>> adj(g_.card_count);
    for (auto& l : rf_.links) {
      if (!l.expr) continue;
      const KindInfo& k = g_.kinds[s_.kinds.at(l.kind)];
      LoadTime linked(*this, *l.expr);
      for (int a = k.first_card; a < k.first_card + k.card_count; ++a)
        for (int b = a + 1; b < k.first_card + k.card_count; ++b) {
          if (linked({a, b}) || linked({b, a})) {
            adj[a].push_back(b);
            adj[b].push_back(a);
          }
        }
    }
    g_.link_start.assign(1, 0);
    for (auto& list : adj) {
      std::sort(list.begin(), list.end());
      g_.link_to.insert(g_.link_to.end(), list.begin(), list.end());
      g_.link_start.push_back(static_cast<int32_t>(g_.link_to.size()));
    }
  }

  // Where each point of the board is drawn, worked out once here.
  void board() {
    if (!rf_.board) return;
    const BoardDecl& b = *rf_.board;
    int k = s_.kinds.at(b.kind);
    BoardInfo& info = g_.board;
    info.kind = k;
    if (!b.zone.empty()) info.zone = s_.zones.at(b.zone);
    if (!b.label.empty()) info.label = s_.properties.at(b.label);
    info.marked_name = b.marked_name;
    info.empty_name = b.empty_name;
    info.seats = b.seats;
    info.lines = b.lines.value_or(true);
    for (auto& c : b.coordinates) info.coordinates.push_back(s_.properties.at(c));
    const KindInfo& kind = g_.kinds[k];
    LoadTime x(*this, *b.x_expr), y(*this, *b.y_expr);
    std::optional<LoadTime> marked;
    if (b.marked_expr) marked.emplace(*this, *b.marked_expr);
    for (int c = kind.first_card; c < kind.first_card + kind.card_count; ++c) {
      std::vector<int64_t> env;
      for (auto& p : rf_.components[k].properties) env.push_back(g_.card_props[s_.properties.at(p) * g_.card_count + c]);
      info.x.push_back(static_cast<int32_t>(x(env)));
      info.y.push_back(static_cast<int32_t>(y(env)));
      info.marked.push_back(marked && (*marked)(env) != 0);
    }
  }

  // Everything worked out at load time (`where:`, `links:`, `board:`) together spends at
  // most this many of the evaluator's steps (one per expression worked out, one per round
  // of an aggregate), so a short file cannot keep the loader busy for minutes: 4096^3
  // rounds of nested aggregates, or links between 16 x 1024 cards, stop here with an error.
  static constexpr int64_t max_load_steps = 10'000'000;

  // A load-time expression is compiled to the nodes every game runs and worked out by the
  // runtime's evaluator (evaluate_at_load), so it means there what it means in play; its
  // nodes are taken off the program again when the value is known.
  class LoadTime {
   public:
    LoadTime(Compiler& c, const Expr& e)
        : c_(c), nodes_(c.p_.nodes.size()), kids_(c.p_.kids.size()), node_(c.expr(e)) {}
    ~LoadTime() {
      Program& p = c_.p_;
      p.nodes.erase(p.nodes.begin() + static_cast<std::ptrdiff_t>(nodes_), p.nodes.end());
      p.node_pos.erase(p.node_pos.begin() + static_cast<std::ptrdiff_t>(nodes_), p.node_pos.end());
      p.kids.erase(p.kids.begin() + static_cast<std::ptrdiff_t>(kids_), p.kids.end());
    }
    LoadTime(const LoadTime&) = delete;
    LoadTime& operator=(const LoadTime&) = delete;

    // The value with the frame's first names bound to `bound`; a RuntimeError becomes the
    // rule file's error at the node where it stood.
    int64_t operator()(const std::vector<int64_t>& bound) {
      try {
        return evaluate_at_load(c_.g_, node_, bound, c_.load_budget_);
      } catch (const RuntimeError& e) {
        if (c_.load_budget_ < 0)
          throw LoadTimeError{e.pos, fmt::format("working out load-time values (where:, links:, board:) takes more than {} steps", max_load_steps)};
        throw LoadTimeError{e.pos, e.what()};
      }
    }

   private:
    Compiler& c_;
    size_t nodes_, kids_;
    int node_;
  };

  // `{copy}` was written as a mark: cards named alike get 1, 2, ... in its place, a card
  // whose name is its own gets nothing. The plain name has nothing in its place. Cards of
  // one kind and owner named alike without `{copy}` get their number at the end if they
  // are identical (every property the same); if a player could tell them apart, the name
  // would not, and a log names cards: an error at the template.
  static constexpr char copy_mark = '\x01';
  void number_copies(size_t first, const ComponentDecl& c, const std::vector<std::vector<int64_t>>& props) {
    std::map<std::string, int> total, seen;
    std::map<std::string, size_t> first_named;
    for (size_t i = first; i < g_.card_names.size(); ++i) {
      const std::string& name = g_.card_names[i];
      if (++total[name] == 1) first_named[name] = i;
      if (total[name] == 1 || name.find(copy_mark) != std::string::npos) continue;
      size_t j = first_named[name];
      for (size_t p = 0; p < props.size(); ++p)
        if (props[p][i] != props[p][j])
          throw LoadTimeError{c.name_template.empty() ? c.pos : c.name_pos,
                              fmt::format("two cards of '{}' are both named '{}' but differ in '{}' ({} and {}); "
                                          "name them apart (a property in the name, or {{copy}})",
                                          c.kind, name, g_.properties[p].name, g_.symbol_name(props[p][j]), g_.symbol_name(props[p][i]))};
    }
    for (size_t i = first; i < g_.card_names.size(); ++i) {
      std::string& name = g_.card_names[i];
      std::string key = name;
      std::string plain = name;
      std::erase(plain, copy_mark);
      g_.card_plain_names.push_back(plain);
      std::string number = total[key] > 1 ? std::to_string(++seen[key]) : "";
      if (total[key] > 1 && name.find(copy_mark) == std::string::npos) name += copy_mark;
      for (size_t at; (at = name.find(copy_mark)) != std::string::npos;) name.replace(at, 1, number);
    }
  }

  // `title:` screens name the cards from `first` on (one owner's copy of kind `c`) by their
  // title instead of their plain name. Copies (one plain name) must be titled alike, and
  // cards a player tells apart titled apart (case and spaces aside, as a person types).
  void title_cards(size_t first, const ComponentDecl& c, const std::vector<size_t>& rows) {
    if (c.title_template.empty() && std::all_of(c.row_titles.begin(), c.row_titles.end(), [](auto& t) { return t.empty(); }))
      return;
    auto key = [](std::string s) {
      std::erase(s, ' ');
      for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      return s;
    };
    std::map<std::string, std::string> title_of_plain;  // plain name -> its copies' title
    std::map<std::string, std::string> plain_of_title;  // title (as typed) -> plain name
    for (size_t i = first; i < g_.card_names.size(); ++i) {
      size_t r = rows[i - first];
      const std::string& tmpl = r < c.row_titles.size() && !c.row_titles[r].empty() ? c.row_titles[r] : c.title_template;
      if (tmpl.empty()) continue;
      std::string title = card_name(tmpl, c, c.rows[r], g_.card_owner[i], static_cast<int>(i - first + 1));
      std::erase(title, copy_mark);
      Pos where = c.title_template.empty() ? c.pos : c.title_pos;
      const std::string& plain = g_.card_plain_names[i];
      auto [t, fresh] = title_of_plain.emplace(plain, title);
      if (!fresh && t->second != title)
        throw LoadTimeError{where, fmt::format("the copies of '{}' are titled '{}' and '{}'; copies look alike, so their title must be the same",
                                               plain, t->second, title)};
      auto [u, new_title] = plain_of_title.emplace(key(title), plain);
      if (!new_title && u->second != plain)
        throw LoadTimeError{where, fmt::format("'{}' and '{}' are both titled '{}'; cards a player tells apart need titles that differ (case and spaces aside)",
                                               u->second, plain, title)};
    }
    for (size_t i = first; i < g_.card_names.size(); ++i)
      if (auto t = title_of_plain.find(g_.card_plain_names[i]); t != title_of_plain.end()) g_.card_plain_names[i] = t->second;
  }

  std::string card_name(const std::string& tmpl, const ComponentDecl& c, const std::vector<Value>& row,
                        int owner, int index) const {
    std::string out;
    size_t last = 0;
    for (const TemplateField& t : template_fields(tmpl)) {
      out += tmpl.substr(last, t.begin - last);
      const std::string& f = t.name;
      if (f == "owner") out += seat_name(owner);
      else if (f == "kind") out += c.kind;
      else if (f == "index") out += std::to_string(index);
      else if (f == "copy") out += copy_mark;
      else
        for (size_t k = 0; k < c.properties.size(); ++k)
          if (c.properties[k] == f) out += row[k].is_symbol ? row[k].symbol : std::to_string(row[k].number);
      last = t.end;
    }
    return out + tmpl.substr(last);
  }

  void layout() {
    Layout& l = g_.layout;
    int mp = g_.max_players;
    int instances = static_cast<int>(g_.instance_zone.size());
    int64_t size = Layout::header + static_cast<int64_t>(g_.options.size() + g_.globals.size()) +
                   static_cast<int64_t>(g_.player_vars.size()) * mp + card_var_slots_ + mp +
                   static_cast<int64_t>(instances) * (g_.card_count + 1) + 3 * static_cast<int64_t>(g_.card_count);
    // Each zone holds a list as long as all the cards.
    if (size > max_state_slots) too_big(rf_.game_pos, "its zones times its cards", max_state_slots);
    l.options = Layout::header;
    l.globals = l.options + static_cast<int>(g_.options.size());
    l.player_vars = l.globals + static_cast<int>(g_.globals.size());
    l.card_vars = l.player_vars + static_cast<int>(g_.player_vars.size()) * mp;
    l.eliminated = l.card_vars + card_var_slots_;
    l.zone_size = l.eliminated + mp;
    l.zone_cards = l.zone_size + instances;
    l.card_zone = l.zone_cards + instances * g_.card_count;
    l.card_face = l.card_zone + g_.card_count;
    l.card_known = l.card_face + g_.card_count;
    l.history = l.card_known + g_.card_count;
    l.history_cap = rf_.remembers_positions ? static_cast<int32_t>(rf_.max_positions) : 0;
    l.locals = l.history + (l.history_cap ? 1 + 2 * l.history_cap : 0);
  }

  // What repetitions() compares (runtime/positions.cpp): each card as the first of its
  // copies (cards of one kind and owner whose plain names agree), and the variables'
  // slots, but those of `position: false`.
  void positions() {
    std::map<std::pair<int32_t, std::string>, int32_t> first;
    for (int c = 0; c < g_.card_count; ++c)
      g_.card_class.push_back(first.try_emplace({g_.card_kind[c], g_.card_plain_names[c]}, c).first->second);
    const Layout& l = g_.layout;
    int mp = g_.max_players;
    for (size_t i = 0; i < g_.globals.size(); ++i)
      if (g_.globals[i].in_position) g_.position_slots.push_back(l.globals + static_cast<int32_t>(i));
    for (size_t i = 0; i < g_.player_vars.size(); ++i)
      if (g_.player_vars[i].in_position)
        for (int p = 0; p < mp; ++p) g_.position_slots.push_back(l.player_vars + static_cast<int32_t>(i) * mp + p);
    for (const VarInfo& v : g_.card_vars) {
      if (!v.in_position) continue;
      int32_t n = g_.kinds[v.kind].card_count * (v.per_player ? mp : 1);
      for (int32_t k = 0; k < n; ++k) g_.position_slots.push_back(l.card_vars + v.base + k);
    }
  }

  // Game::cards_always_seen, Game::site_blind (which asks it), Game::site_plain and
  // Game::site_zone_pick.
  void always_seen() {
    bool seen = true;
    for (const ZoneInfo& z : g_.zones) seen = seen && z.visibility == Visibility::everyone;
    for (const Instr& i : g_.program.code) {
      if (i.op == Op::flip && i.c != 1) seen = false;
      if ((i.op == Op::move || i.op == Op::move_all) && i.c == 2) seen = false;
    }
    g_.cards_always_seen = seen;
    for (const ChoiceSite& site : g_.program.sites) {
      bool blind = false;
      for (int a : site.actions)
        for (const Param& p : g_.program.actions[a].params) blind = blind || may_pick_blind(g_, p);
      g_.site_blind.push_back(blind);
      bool plain = site.actions.size() <= Game::max_plain, whens = false;
      for (int a : site.actions) {
        plain = plain && g_.program.actions[a].params.empty();
        whens = whens || !g_.program.actions[a].when_nodes.empty();
      }
      g_.site_plain.push_back(!plain ? 0 : whens ? 1 : 2);
      bool zone_pick = site.actions.size() == 1 && !blind && site.given[0].empty();
      if (zone_pick) {
        const Action& act = g_.program.actions[site.actions[0]];
        zone_pick = act.params.size() == 1 && act.params[0].type == Type::card && act.when_nodes.empty();
        if (zone_pick) {
          NodeOp op = g_.program.nodes[act.params[0].domain_node].op;
          zone_pick = op == NodeOp::zone || op == NodeOp::zone_of_local || op == NodeOp::zone_of_arg;
        }
      }
      g_.site_zone_pick.push_back(zone_pick);
    }
  }

  int alloc(int n) {
    int at = locals_;
    if (static_cast<int64_t>(g_.layout.locals) + locals_ + n > max_state_slots)
      too_big(at_, "its locals and loops, each loop over cards holding a list as long as all the cards", max_state_slots);
    locals_ += n;
    return at;
  }

  // The score, its parts, tie-breaks and notes. Without `score:` the score is the parts'
  // sum, one addition node after another, so every reader of a node (the interpreter, the
  // C++ generator) adds them as it adds anything else.
  void scoring() {
    const ScoringDecl& sc = rf_.scoring;
    for (auto& part : sc.parts)
      if (part.expr) g_.score_parts.push_back({part.name, expr(*part.expr)});
    if (sc.score_expr) {
      g_.score_node = expr(*sc.score_expr);
    } else if (!g_.score_parts.empty()) {
      g_.score_is_sum = true;
      g_.score_node = g_.score_parts[0].node;
      for (size_t i = 1; i < g_.score_parts.size(); ++i)
        g_.score_node =
            node(NodeOp::add, sc.parts[i].pos, 0, 0, {g_.score_node, g_.score_parts[i].node});
    }
    for (auto& t : sc.tiebreak_exprs) g_.tiebreak_nodes.push_back(expr(*t));
    g_.tiebreak_names = sc.tiebreak_names;
    g_.tiebreak_names.resize(g_.tiebreak_nodes.size());
    for (auto& n : sc.notes)
      if (n.when_expr) g_.score_notes.push_back({n.text, expr(*n.when_expr)});
  }

  // ---- expressions ----
  int node(NodeOp op, Pos pos, int32_t a = 0, int32_t b = 0, std::initializer_list<int> kids = {}) {
    Node n{op, a, b, {-1, -1, -1}, static_cast<int32_t>(p_.kids.size()), static_cast<int32_t>(kids.size())};
    int i = 0;
    for (int k : kids) n.kid[i++] = k;
    p_.kids.insert(p_.kids.end(), kids.begin(), kids.end());
    p_.nodes.push_back(n);
    p_.node_pos.push_back(pos);
    return static_cast<int>(p_.nodes.size()) - 1;
  }

  int expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::integer:
      case ExprKind::boolean: return node(NodeOp::constant, e.pos, static_cast<int32_t>(e.value));
      case ExprKind::none: return node(NodeOp::constant, e.pos, -1);
      case ExprKind::name: return name(e);
      case ExprKind::member: {
        int obj = expr(*e.args[0]);
        switch (e.sym.kind) {
          case SymKind::player_var: return member(NodeOp::player_var, e.pos, e.sym.index, obj);
          case SymKind::zone: return member(NodeOp::zone_of, e.pos, e.sym.index, obj);
          case SymKind::property: return member(NodeOp::prop, e.pos, e.sym.index, obj);
          case SymKind::card_var:
          case SymKind::card_zone: {
            NodeOp op = e.sym.kind == SymKind::card_var ? NodeOp::card_var : NodeOp::card_zone_of;
            if (e.args.size() > 1) return node(op, e.pos, e.sym.index, 0, {obj, expr(*e.args[1])});
            if (op == NodeOp::card_var) return member(op, e.pos, e.sym.index, obj);
            return node(op, e.pos, e.sym.index, 0, {obj});
          }
          default: return node(NodeOp::card_owner, e.pos, 0, 0, {obj});
        }
      }
      case ExprKind::call: return call(e);
      case ExprKind::unary: {
        int x = expr(*e.args[0]);
        return node(e.op == "-" ? NodeOp::neg : NodeOp::not_, e.pos, 0, 0, {x});
      }
      case ExprKind::binary: {
        static const std::map<std::string, NodeOp> ops = {
            {"+", NodeOp::add}, {"-", NodeOp::sub}, {"*", NodeOp::mul}, {"/", NodeOp::div},
            {"%", NodeOp::mod}, {"==", NodeOp::eq}, {"!=", NodeOp::ne}, {"<", NodeOp::lt},
            {"<=", NodeOp::le}, {">", NodeOp::gt}, {">=", NodeOp::ge}, {"and", NodeOp::and_},
            {"or", NodeOp::or_}};
        int a = expr(*e.args[0]);
        int b = expr(*e.args[1]);
        return node(ops.at(e.op), e.pos, 0, 0, {a, b});
      }
      case ExprKind::conditional: {
        int c = expr(*e.args[0]), a = expr(*e.args[1]), b = expr(*e.args[2]);
        return node(NodeOp::cond, e.pos, 0, 0, {c, a, b});
      }
      case ExprKind::aggregate: {
        static const std::map<std::string, NodeOp> ops = {
            {"sum", NodeOp::sum}, {"count", NodeOp::count}, {"min", NodeOp::min}, {"max", NodeOp::max},
            {"any", NodeOp::any}, {"all", NodeOp::all}, {"best", NodeOp::best}, {"worst", NodeOp::worst},
            {"find", NodeOp::find}};
        int d = expr(*e.args[0]);
        int w = e.args[1] ? expr(*e.args[1]) : -1;
        int v = e.args[2] ? expr(*e.args[2]) : -1;
        return node(ops.at(e.op), e.pos, e.sym.index + frame_shift(), 0, {d, w, v});
      }
      case ExprKind::range: {
        int a = expr(*e.args[0]), b = expr(*e.args[1]);
        return node(NodeOp::list_range, e.pos, 0, 0, {a, b});
      }
      case ExprKind::from: {
        int a = expr(*e.args[0]), b = expr(*e.args[1]);
        return node(NodeOp::list_from, e.pos, 0, 0, {a, b});
      }
      case ExprKind::walk: {
        int start = expr(*e.args[0]), steps = expr(*e.args[1]);
        int cond = e.args[2] ? expr(*e.args[2]) : -1;
        return node(NodeOp::list_walk, e.pos, e.sym.index + frame_shift(), 0, {start, steps, cond});
      }
    }
    return node(NodeOp::constant, e.pos, 0);
  }

  // `p.var`, `p.zone`, `c.prop` or `c.var`; when p (or c) is read from a slot, the node
  // says which, so the evaluator reads it without evaluating a child.
  int member(NodeOp op, Pos pos, int index, int obj) {
    const Node& o = p_.nodes[obj];
    int from = o.op == NodeOp::local ? 0 : o.op == NodeOp::bound ? 1 : o.op == NodeOp::arg ? 2 : -1;
    if (from < 0) return node(op, pos, index, 0, {obj});
    if (op == NodeOp::player_var)
      return node(static_cast<NodeOp>(static_cast<int>(NodeOp::player_var_local) + from), pos, index, o.a, {obj});
    if (op == NodeOp::prop)
      return node(static_cast<NodeOp>(static_cast<int>(NodeOp::prop_local) + from), pos, index, o.a, {obj});
    if (op == NodeOp::card_var)
      return node(static_cast<NodeOp>(static_cast<int>(NodeOp::card_var_local) + from), pos, index, o.a, {obj});
    return node(static_cast<NodeOp>(static_cast<int>(NodeOp::zone_of_local) + from), pos,
                g_.zones[index].first_instance, o.a, {obj});
  }

  int name(const Expr& e) {
    const Resolved& r = e.sym;
    switch (r.kind) {
      case SymKind::option: return node(NodeOp::option, e.pos, r.index);
      case SymKind::global: return node(NodeOp::global, e.pos, r.index);
      case SymKind::local:
        if (auto it = as_arg_.find(r.index); it != as_arg_.end()) return node(NodeOp::arg, e.pos, it->second);
        return node(NodeOp::local, e.pos, local_slot_[r.index]);
      case SymKind::bound:
        if (inlined_ && r.index < static_cast<int>(inlined_->args.size())) return inlined_->args[r.index];
        return node(NodeOp::bound, e.pos, r.index + frame_shift());
      case SymKind::zone: return node(NodeOp::zone, e.pos, g_.zones[r.index].first_instance);
      case SymKind::constant: return node(NodeOp::constant, e.pos, static_cast<int32_t>(r.value));
      case SymKind::builtin:
        return node(r.index == 0 ? NodeOp::list_players : r.index == 1 ? NodeOp::list_all_players : NodeOp::player_count, e.pos);
      default: return node(NodeOp::constant, e.pos, 0);
    }
  }

  int call(const Expr& e) {
    if (e.sym.kind == SymKind::property) return property_values(e);
    if (e.sym.kind == SymKind::kind) return card_lookup(e);
    if (e.sym.kind == SymKind::function) {
      int depth = static_cast<int>(e.sym.value) + frame_shift();
      Node n{NodeOp::call, e.sym.index, depth, {-1, -1, -1}, 0, 0};
      std::vector<int> args;
      for (auto& a : e.args) args.push_back(expr(*a));
      if (can_inline(e.sym.index, depth, args)) return inline_call(e.sym.index, depth, std::move(args));
      n.first_kid = static_cast<int32_t>(p_.kids.size());
      n.kid_count = static_cast<int32_t>(args.size());
      p_.kids.insert(p_.kids.end(), args.begin(), args.end());
      p_.nodes.push_back(n);
      p_.node_pos.push_back(e.pos);
      return static_cast<int>(p_.nodes.size()) - 1;
    }
    if (e.name == "min" || e.name == "max") return extreme(e, e.name == "min" ? NodeOp::min_of : NodeOp::max_of, 0, e.args.size());
    static const std::map<std::string, NodeOp> ops = {
        {"top", NodeOp::top}, {"bottom", NodeOp::bottom}, {"size", NodeOp::size},
        {"next", NodeOp::next_player}, {"left", NodeOp::left}, {"right", NodeOp::right},
        {"alive", NodeOp::alive}, {"sees", NodeOp::sees}, {"face_up", NodeOp::face_up},
        {"owner", NodeOp::zone_owner}, {"zone_of", NodeOp::card_zone}, {"contains", NodeOp::contains},
        {"seat", NodeOp::seat}, {"holder", NodeOp::holder}, {"position", NodeOp::position},
        {"abs", NodeOp::abs}, {"linked", NodeOp::linked}, {"neighbours", NodeOp::list_neighbours}};
    if (e.name == "repetitions") return node(NodeOp::repetitions, e.pos);
    int a = e.args.size() > 0 ? expr(*e.args[0]) : -1;
    int b = e.args.size() > 1 ? expr(*e.args[1]) : -1;
    if (b >= 0) return node(ops.at(e.name), e.pos, 0, 0, {a, b});
    return node(ops.at(e.name), e.pos, 0, 0, {a});
  }

  // `min(a, b, ...)` of the values [from, to) of the call: a balanced tree of nodes of two
  // kids, so that a long list of values does not make a deep tree. Its leaves, read left
  // to right, are the values in order, as the evaluators read them.
  int extreme(const Expr& e, NodeOp op, size_t from, size_t to) {
    if (to - from == 1) return expr(*e.args[from]);
    size_t mid = from + (to - from) / 2;
    int a = extreme(e, op, from, mid);
    int b = extreme(e, op, mid, to);
    return node(op, e.pos, 0, 0, {a, b});
  }

  // `cell(3, 2)`: a table from the values of a kind's first properties to its cards, made
  // once for each kind and number of values. Values that two cards share are an error: a
  // lookup names one card.
  int card_lookup(const Expr& e) {
    int k = e.sym.index, dims = static_cast<int>(e.args.size());
    auto [it, made] = lookup_of_.try_emplace(k * 4 + dims, static_cast<int32_t>(p_.lookups.size()));
    if (made) p_.lookups.push_back(make_lookup(e, k, dims));
    return node(NodeOp::card_at, e.pos, it->second, 0,
                {expr(*e.args[0]), dims > 1 ? expr(*e.args[1]) : -1, dims > 2 ? expr(*e.args[2]) : -1});
  }

  CardLookup make_lookup(const Expr& e, int k, int dims) const {
    const KindInfo& kind = g_.kinds[k];
    CardLookup t;
    t.dims = dims;
    auto value = [&](int c, int d) { return g_.card_props[kind.properties[d] * g_.card_count + c]; };
    int64_t box = 1;
    for (int d = 0; d < dims; ++d) {
      for (int c = kind.first_card; c < kind.first_card + kind.card_count; ++c) {
        t.lo[d] = c == kind.first_card ? value(c, d) : std::min(t.lo[d], value(c, d));
        t.hi[d] = c == kind.first_card ? value(c, d) : std::max(t.hi[d], value(c, d));
      }
      box *= t.hi[d] - t.lo[d] + 1;  // at most 2^32 each: no overflow before the test below
      if (box > 4096 + 64 * int64_t{kind.card_count}) t.dense = false;
    }
    for (int c = kind.first_card; c < kind.first_card + kind.card_count; ++c) {
      std::array<int64_t, 3> key{0, 0, 0};
      for (int d = 0; d < dims; ++d) key[d] = value(c, d);
      t.keys.push_back({key, c});
    }
    std::sort(t.keys.begin(), t.keys.end());
    for (size_t i = 1; i < t.keys.size(); ++i) {
      if (t.keys[i].first != t.keys[i - 1].first) continue;
      std::string names, values;
      for (int d = 0; d < dims; ++d) {
        names += fmt::format("{}{}", d ? (d + 1 == dims ? " and " : ", ") : "", g_.properties[kind.properties[d]].name);
        values += fmt::format("{}{}", d ? ", " : "", t.keys[i].first[d]);
      }
      throw LoadTimeError{e.pos, fmt::format("'{}' and '{}' have the same {} ({}): '{}(...)' needs values that name one card",
                                             g_.card_names[t.keys[i - 1].second], g_.card_names[t.keys[i].second], names,
                                             values, kind.name)};
    }
    if (!t.dense) return t;
    if (kind.card_count > 0) t.table.assign(box, -1);
    for (auto& [key, c] : t.keys) {
      int64_t i = 0;
      for (int d = 0; d < dims; ++d) i = i * (t.hi[d] - t.lo[d] + 1) + (key[d] - t.lo[d]);
      t.table[i] = c;
    }
    t.keys.clear();
    return t;
  }

  // The distinct values of a property over the components of the kinds that declare it, in
  // the order they first appear, for `values(prop)`.
  int property_values(const Expr& e) {
    std::vector<int64_t> list;
    const std::string& name = e.args[0]->name;
    for (size_t k = 0; k < rf_.components.size(); ++k) {
      const auto& props = rf_.components[k].properties;
      if (std::find(props.begin(), props.end(), name) == props.end()) continue;
      for (int c = g_.kinds[k].first_card; c < g_.kinds[k].first_card + g_.kinds[k].card_count; ++c) {
        int64_t v = g_.card_props[e.sym.index * g_.card_count + c];
        if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
      }
    }
    p_.value_lists.push_back(list);
    return node(NodeOp::list_values, e.pos, static_cast<int32_t>(p_.value_lists.size()) - 1);
  }

  // ---- inlining ----
  // A call whose arguments are all leaves (constants, variables, parameters) is compiled as
  // the function's body, its parameters replaced by the arguments and its frame placed
  // where the call's would start: the same values, the same errors, no call at run time.
  // Only where the frame's depth is known (not in a body compiled on its own), and small
  // enough that the call could not have failed as nested too deeply. Inlined bodies add at
  // most about max_inlined_nodes nodes to the program: functions calling functions twice
  // would otherwise double it at each level (a chain of 40 makes 2^40); past it, calls
  // stay calls, which the evaluator's step budget bounds. And only a function whose body,
  // with all it could inline in turn, is at most max_inlined_body nodes: a chain of 32
  // functions of 200 terms, each calling the next, would otherwise be copied whole at each
  // call, 6400 terms deep, which compiled mode writes out as C++ at every use (and copies
  // once per level while writing it).
  struct Inlined {
    int shift;              // where the body's frame starts
    std::vector<int> args;  // the nodes standing for its parameters
  };

  int frame_shift() const { return inlined_ ? inlined_->shift : 0; }

  static constexpr size_t max_inlined_nodes = 100'000;
  size_t inlined_nodes() const { return inlined_nodes_ + (inlined_ ? p_.nodes.size() - inline_start_ : 0); }

  static constexpr size_t max_inlined_body = 1024;

  bool can_inline(int f, int depth, const std::vector<int>& args) {
    if (no_inlining_ || !rf_.functions[f].expr || inlined_nodes() > max_inlined_nodes) return false;
    if (inline_size(f) > max_inlined_body) return false;
    for (int a : args) {
      switch (p_.nodes[a].op) {
        case NodeOp::constant:
        case NodeOp::option:
        case NodeOp::global:
        case NodeOp::local:
        case NodeOp::bound:
        case NodeOp::arg:
        case NodeOp::zone: break;
        default: return false;
      }
    }
    return depth + frame_need(f) < Program::frame_size;
  }

  int inline_call(int f, int depth, std::vector<int> args) {
    Inlined here{depth, std::move(args)};
    const Inlined* saved = inlined_;
    if (!saved) inline_start_ = p_.nodes.size();
    inlined_ = &here;
    int body = expr(*rf_.functions[f].expr);
    inlined_ = saved;
    if (!saved) inlined_nodes_ += p_.nodes.size() - inline_start_;
    return body;
  }

  // The nodes of f's body with every call in it inlined (more than it may come to: an
  // upper bound), at most max_inlined_body + 1. Functions do not call themselves (the
  // checker refuses it), so the memo is filled bottom-up.
  size_t inline_size(int f) {
    if (inline_size_.empty()) inline_size_.assign(rf_.functions.size(), 0);
    if (inline_size_[f] == 0) {
      inline_size_[f] = max_inlined_body + 1;  // while it is worked out
      inline_size_[f] = expr_inline_size(*rf_.functions[f].expr);
    }
    return inline_size_[f];
  }

  size_t expr_inline_size(const Expr& e) {
    size_t size = 1;
    if (e.kind == ExprKind::call && e.sym.kind == SymKind::function && rf_.functions[e.sym.index].expr)
      size += inline_size(e.sym.index);
    for (auto& a : e.args)
      if (a && size <= max_inlined_body) size += expr_inline_size(*a);
    return std::min(size, max_inlined_body + 1);
  }

  // The frame slots a call of f uses from its start, the calls it makes included: more
  // than any check in the evaluator's `call` and `aggregate` compares with.
  int frame_need(int f) {
    if (frame_need_.empty()) frame_need_.assign(rf_.functions.size(), -1);
    if (frame_need_[f] >= 0) return frame_need_[f];
    int need = static_cast<int>(rf_.functions[f].params.size()) + 1;
    if (rf_.functions[f].expr) need = std::max(need, expr_frame_need(*rf_.functions[f].expr));
    if (rf_.functions[f].computed) need = std::max(need, block_frame_need(rf_.functions[f].block));
    return frame_need_[f] = need;
  }

  // A computed function's statements: their names' slots, and their expressions' needs.
  int block_frame_need(const Block& b) {
    int need = 0;
    for (const auto& s : b) {
      if (s->kind == StmtKind::let || s->kind == StmtKind::for_) need = std::max(need, s->sym.index + 1);
      for (const auto& e : s->exprs)
        if (e) need = std::max(need, expr_frame_need(*e));
      need = std::max({need, block_frame_need(s->body), block_frame_need(s->orelse)});
    }
    return need;
  }

  // How many elements a `for` over a list of type t may hold (the statement's, or a
  // computed function's): the seats, 64 numbers, or the cards.
  int loop_capacity(Type t) const {
    return t == Type::player_list ? g_.max_players : t == Type::int_list ? 64 : std::max(g_.card_count, 1);
  }

  // ---- functions computed by statements ----
  // The body of a function with `do:`: a block node of its statements, the value of its
  // last `return` last. Its names are frame slots (the checker bound them), so nothing of
  // the state is written.
  int computed(const Block& b, Pos pos) {
    std::vector<int> kids;
    for (const auto& s : b) kids.push_back(s->kind == StmtKind::return_ ? expr(*s->exprs[0]) : computed_stmt(*s));
    return block_node(kids, pos);
  }

  int block_node(const std::vector<int>& kids, Pos pos) {
    Node n{NodeOp::block, 0, 0, {-1, -1, -1}, static_cast<int32_t>(p_.kids.size()), static_cast<int32_t>(kids.size())};
    p_.kids.insert(p_.kids.end(), kids.begin(), kids.end());
    p_.nodes.push_back(n);
    p_.node_pos.push_back(pos);
    return static_cast<int>(p_.nodes.size()) - 1;
  }

  int computed_block(const Block& b, Pos pos) {
    std::vector<int> kids;
    for (const auto& s : b) kids.push_back(computed_stmt(*s));
    return block_node(kids, pos);
  }

  int computed_stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::let: return node(NodeOp::set_bound, s.pos, s.sym.index, 0, {expr(*s.exprs[0])});
      case StmtKind::assign: {
        const Expr& target = *s.exprs[0];
        int value = expr(*s.exprs[1]);
        if (s.name != "=") {
          int now = expr(target);
          value = node(s.name == "+=" ? NodeOp::add : NodeOp::sub, s.pos, 0, 0, {now, value});
        }
        return node(NodeOp::set_bound, s.pos, target.sym.index, 0, {value});
      }
      case StmtKind::if_:
        return node(NodeOp::cond, s.pos, 0, 0,
                    {expr(*s.exprs[0]), computed_block(s.body, s.pos), computed_block(s.orelse, s.pos)});
      case StmtKind::for_: {
        Type t = s.exprs[0]->type;
        int cap = loop_capacity(t);
        int list = expr(*s.exprs[0]);
        int where = s.exprs.size() > 1 ? expr(*s.exprs[1]) : -1;
        return node(NodeOp::loop_for, s.pos, s.sym.index, cap, {list, where, computed_block(s.body, s.pos)});
      }
      case StmtKind::repeat_times:
        return node(NodeOp::loop_times, s.pos, 0, 0, {expr(*s.exprs[0]), computed_block(s.body, s.pos)});
      case StmtKind::repeat_until:
      case StmtKind::while_: {
        int c = expr(*s.exprs[0]);
        if (s.kind == StmtKind::repeat_until) c = node(NodeOp::not_, s.exprs[0]->pos, 0, 0, {c});
        return node(NodeOp::loop_while, s.pos, 0, 0, {c, computed_block(s.body, s.pos)});
      }
      default: return node(NodeOp::constant, s.pos, 0);  // the checker refuses the others
    }
  }

  int expr_frame_need(const Expr& e) {
    int need = 0;
    if (e.kind == ExprKind::aggregate || e.kind == ExprKind::walk) need = e.sym.index + 1;
    if (e.kind == ExprKind::call && e.sym.kind == SymKind::function)
      need = static_cast<int>(e.sym.value) + frame_need(e.sym.index);
    for (auto& a : e.args)
      if (a) need = std::max(need, expr_frame_need(*a));
    return need;
  }

  // ---- statements ----
  int emit(Instr i) {
    p_.code.push_back(i);
    return static_cast<int>(p_.code.size()) - 1;
  }
  int here() const { return static_cast<int>(p_.code.size()); }

  void block(const Block& b) {
    for (auto& s : b) stmt(*s);
  }

  int face(Face f) const { return f == Face::up ? 1 : f == Face::down ? 2 : 0; }

  void stmt(const Stmt& s) {
    at_ = s.pos;
    switch (s.kind) {
      case StmtKind::let:
        emit({Op::assign, 2, local_slot_[s.sym.index], expr(*s.exprs[0]), 0, 0, s.pos});
        return;
      case StmtKind::assign: {
        const Expr& t = *s.exprs[0];
        int mode = s.name == "=" ? 0 : s.name == "+=" ? 1 : 2;
        int value = expr(*s.exprs[1]);
        if (t.sym.kind == SymKind::global) emit({Op::assign, 0, t.sym.index, value, 0, mode, s.pos});
        else if (t.sym.kind == SymKind::local) emit({Op::assign, 2, local_slot_[t.sym.index], value, 0, mode, s.pos});
        else if (t.sym.kind == SymKind::card_var) emit({Op::assign, 3, t.sym.index, value, expr(t), mode, s.pos});
        else emit({Op::assign, 1, t.sym.index, value, expr(*t.args[0]), mode, s.pos});
        return;
      }
      case StmtKind::call: {
        const Expr& c = *s.exprs[0];
        std::vector<int> args;
        for (auto& a : c.args) args.push_back(expr(*a));
        int first = static_cast<int>(p_.kids.size());
        p_.kids.insert(p_.kids.end(), args.begin(), args.end());
        calls_.push_back(emit({Op::call, c.sym.index, first, 0, 0, 0, s.pos}));
        return;
      }
      case StmtKind::if_: {
        int test = emit({Op::jump_if_not, expr(*s.exprs[0]), 0, 0, 0, 0, s.pos});
        block(s.body);
        if (s.orelse.empty()) {
          p_.code[test].b = here();
          return;
        }
        int skip = emit({Op::jump, 0, 0, 0, 0, 0, s.pos});
        p_.code[test].b = here();
        block(s.orelse);
        p_.code[skip].a = here();
        return;
      }
      case StmtKind::for_: {
        Type t = s.exprs[0]->type;
        int cap = loop_capacity(t);
        Loop loop{expr(*s.exprs[0]), s.exprs.size() > 1 ? expr(*s.exprs[1]) : -1, local_slot_[s.sym.index],
                  alloc(cap), alloc(1), alloc(1), cap};
        int id = static_cast<int>(p_.loops.size());
        p_.loops.push_back(loop);
        int init = emit({Op::for_init, id, 0, 0, 0, 0, s.pos});
        int top = emit({Op::for_next, id, 0, 0, 0, 0, s.pos});
        block(s.body);
        emit({Op::jump, top, 0, 0, 0, 0, s.pos});
        p_.code[init].b = p_.code[top].b = here();
        return;
      }
      case StmtKind::repeat_times: {
        int slot = local_slot_[s.sym.index];
        emit({Op::repeat_init, expr(*s.exprs[0]), slot, 0, 0, 0, s.pos});
        int top = emit({Op::repeat_next, slot, 0, 0, 0, 0, s.pos});
        block(s.body);
        emit({Op::jump, top, 0, 0, 0, 0, s.pos});
        p_.code[top].b = here();
        return;
      }
      case StmtKind::repeat_until:
      case StmtKind::while_: {
        int c = expr(*s.exprs[0]);
        if (s.kind == StmtKind::repeat_until) c = node(NodeOp::not_, s.exprs[0]->pos, 0, 0, {c});
        int top = emit({Op::jump_if_not, c, 0, 0, 0, 0, s.pos});
        block(s.body);
        emit({Op::jump, top, 0, 0, 0, 0, s.pos});
        p_.code[top].b = here();
        return;
      }
      case StmtKind::move:
      case StmtKind::move_all: {
        int card = expr(*s.exprs[0]), zone = expr(*s.exprs[1]);
        int at = s.exprs.size() > 2 ? expr(*s.exprs[2]) : -1;
        emit({s.kind == StmtKind::move ? Op::move : Op::move_all, card, zone, face(s.face),
              at >= 0 ? 2 : s.bottom ? 1 : 0, at, s.pos});
        return;
      }
      case StmtKind::shuffle: emit({Op::shuffle, expr(*s.exprs[0]), 0, 0, 0, 0, s.pos}); return;
      case StmtKind::flip: emit({Op::flip, expr(*s.exprs[0]), 0, face(s.face), 0, 0, s.pos}); return;
      case StmtKind::reveal: emit({Op::reveal, expr(*s.exprs[0]), 0, 0, 0, 0, s.pos}); return;
      case StmtKind::look: emit({Op::look, expr(*s.exprs[0]), expr(*s.exprs[1]), 0, 0, 0, s.pos}); return;
      case StmtKind::eliminate: emit({Op::eliminate, expr(*s.exprs[0]), 0, 0, 0, 0, s.pos}); return;
      case StmtKind::win:
        emit({Op::win, expr(*s.exprs[0]), s.exprs[0]->type == Type::player_list ? 1 : 0, 0, 0, 0, s.pos});
        return;
      case StmtKind::choose: {
        ChoiceSite site{s.pos, {}, {}};
        size_t next = 1;  // the values given to the actions follow the chooser
        for (size_t i = 0; i < s.action_ids.size(); ++i) {
          site.actions.push_back(s.action_ids[i]);
          std::vector<int32_t> given;
          for (int k = 0; k < s.arg_counts[i]; ++k) given.push_back(expr(*s.exprs[next++]));
          site.given.push_back(std::move(given));
        }
        p_.sites.push_back(site);
        emit({Op::choose, expr(*s.exprs[0]), static_cast<int32_t>(p_.sites.size()) - 1, 0, 0, 0, s.pos});
        return;
      }
      case StmtKind::phase:
        phase_calls_.push_back(emit({Op::phase, s.sym.index, s.sym.index, 0, 0, 0, s.pos}));
        return;
      case StmtKind::end_game: emit({Op::end_game, 0, 0, 0, 0, 0, s.pos}); return;
      case StmtKind::return_: return;  // only in a computed function (the checker refuses it here)
      case StmtKind::say: {
        Message m{s.text, {}, {}};
        size_t values = s.exprs.size() - (s.name == "to" ? 1 : 0);
        for (size_t i = 0; i < values; ++i) {
          m.nodes.push_back(expr(*s.exprs[i]));
          m.types.push_back(s.exprs[i]->type);
        }
        int to = s.name == "to" ? expr(*s.exprs.back()) : -1;
        p_.messages.push_back(std::move(m));
        emit({Op::say, static_cast<int32_t>(p_.messages.size()) - 1, to, 0, 0, 0, s.pos});
        return;
      }
    }
  }

  void procedure(int i) {
    auto& decl = rf_.procedures[i];
    Procedure p{decl.name, decl.pos, {}, here(), alloc(1), !decl.shown, false, {}};
    for (int id : s_.procedure_param_locals[i]) p.param_slots.push_back(local_slot_[id]);
    block(decl.block);
    // b = 2: the end of a bookkeeping call, which the events record (Event::quiet).
    proc_end_.push_back(emit({Op::ret, p.ret_slot, p.quiet ? 2 : 0, 0, 0, 0, decl.pos}));
    p_.procedures.push_back(p);
  }

  void phase(int i) {
    auto& decl = rf_.phases[i];
    Procedure p{decl.name, decl.pos, {}, here(), alloc(1), false, false, {}};
    block(decl.block);
    emit({Op::ret, p.ret_slot, 0, 0, 0, 0, decl.pos});
    phase_procs_.push_back(static_cast<int>(p_.procedures.size()));
    p_.procedures.push_back(p);
  }

  void action(int i) {
    auto& decl = rf_.actions[i];
    Action a;
    a.name = decl.name;
    a.doc = decl.doc;
    a.pos = decl.pos;
    a.player_slot = local_slot_[s_.action_player_local[i]];
    // Legality is decided before anything is written to the state: in the parameters'
    // choices and in `when`, the chooser and the parameters are arguments, not locals.
    as_arg_ = {{s_.action_player_local[i], 0}};
    for (size_t k = 0; k < decl.params.size(); ++k) {
      const auto& pd = decl.params[k];
      int id = s_.action_param_locals[i][k];
      a.params.push_back({pd.name, local_slot_[id], pd.domain_expr ? expr(*pd.domain_expr) : -1,
                          s_.local_types[id], pd.domain.text, pd.doc});
      as_arg_[id] = static_cast<int>(k) + 1;
    }
    for (size_t k = 0; k < decl.when_exprs.size(); ++k) {
      a.when_nodes.push_back(expr(*decl.when_exprs[k]));
      a.when_level.push_back(last_arg(a.when_nodes.back()));
      a.when_texts.push_back(decl.when[k].text);
      a.when_refusals.push_back(k < decl.refusals.size() ? decl.refusals[k].text : std::string());
      a.when_quotable.push_back(!calls_function(*decl.when_exprs[k]));
      a.when_cache.push_back(when_cache(a, a.when_nodes.back(), a.when_level.back()));
    }
    as_arg_.clear();
    a.entry = here();
    a.ret_slot = alloc(1);
    block(decl.body);
    // b = 1: the end of a decision's effect, which the events record (Event::done).
    emit({Op::ret, a.ret_slot, 1, 0, 0, 0, decl.pos});
    p_.actions.push_back(a);
  }

  // Where a `when` reading only the chooser and parameter `level` (a card or a player, not
  // the first) keeps its values while legal decisions are listed; -1 for any other.
  int32_t when_cache(const Action& a, int node, int32_t level) {
    if (level < 2 || args_read(node) != (1u << level)) return -1;
    Type t = a.params[level - 1].type;
    if (t != Type::card && t != Type::player) return -1;
    int32_t first = p_.when_cache_size;
    if (static_cast<int64_t>(first) + g_.card_count > max_state_slots)
      too_big(a.pos, "the conditions kept for each card while decisions are listed", max_state_slots);
    p_.when_cache_size += t == Type::card ? g_.card_count : g_.max_players;
    return first;
  }

  // The parameters a compiled condition reads, as a bit mask (bit k: parameter k; the
  // chooser, argument 0, left out).
  // Whether a condition calls a function of the rule file (calls may be inlined in the
  // compiled nodes, so the syntax tree is read).
  static bool calls_function(const Expr& e) {
    if (e.kind == ExprKind::call && e.sym.kind == SymKind::function) return true;
    return std::any_of(e.args.begin(), e.args.end(), [](const ExprPtr& a) { return a && calls_function(*a); });
  }

  uint32_t args_read(int node) const {
    const Node& n = p_.nodes[node];
    uint32_t read = n.op == NodeOp::arg && n.a > 0 ? 1u << n.a : 0;
    if (n.op == NodeOp::call || n.op == NodeOp::block) {
      for (int i = 0; i < n.kid_count; ++i) read |= args_read(p_.kids[n.first_kid + i]);
    } else {
      for (int k : n.kid)
        if (k >= 0) read |= args_read(k);
    }
    return read;
  }

  // The highest parameter a compiled condition reads (0: only the chooser, or none).
  int32_t last_arg(int node) const {
    const Node& n = p_.nodes[node];
    int32_t last = n.op == NodeOp::arg ? n.a : 0;
    if (n.op == NodeOp::call || n.op == NodeOp::block) {
      for (int i = 0; i < n.kid_count; ++i) last = std::max(last, last_arg(p_.kids[n.first_kid + i]));
    } else {
      for (int k : n.kid)
        if (k >= 0) last = std::max(last, last_arg(k));
    }
    return last;
  }

  // The procedures that only tell (Procedure::tells_only): their instructions, from the
  // entry to the return that ends them, only say, write the procedure's own variables
  // (and loops' and counters'), jump, and call procedures that only tell. Worked out for
  // all at once, each losing it when it does more or calls one that does, until none
  // changes; a cycle of calls is refused by the checker.
  void find_tellers() {
    size_t count = proc_end_.size();  // the procedures; phases follow them and never tell only
    std::vector<std::set<int32_t>> writes(count);
    std::vector<std::vector<int>> callees(count);
    std::vector<bool> tells(count, true);
    for (size_t i = 0; i < count; ++i) {
      const Procedure& proc = p_.procedures[i];
      std::set<int32_t>& w = writes[i];
      w.insert(proc.param_slots.begin(), proc.param_slots.end());
      w.insert(proc.ret_slot);
      for (int pc = proc.entry; pc <= proc_end_[i] && tells[i]; ++pc) {
        const Instr& in = p_.code[pc];
        switch (in.op) {
          case Op::assign:
            if (in.a == 2) w.insert(in.b);
            else tells[i] = false;
            break;
          case Op::for_init: {
            const Loop& l = p_.loops[in.a];
            for (int32_t slot : {l.var_slot, l.count_slot, l.index_slot}) w.insert(slot);
            for (int32_t k = 0; k < l.capacity; ++k) w.insert(l.buffer_slot + k);
            break;
          }
          case Op::repeat_init: w.insert(in.b); break;
          case Op::call:
            if (static_cast<size_t>(in.a) < count) callees[i].push_back(in.a);
            else tells[i] = false;
            break;
          case Op::jump:
          case Op::jump_if_not:
          case Op::for_next:
          case Op::repeat_next:
          case Op::say:
          case Op::ret: break;
          default: tells[i] = false;
        }
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < count; ++i)
        for (int c : callees[i])
          if (tells[i] && !tells[c]) tells[i] = false, changed = true;
    }
    for (size_t i = 0; i < count; ++i) {
      if (!tells[i]) continue;
      // The slots of every procedure it calls, and of theirs (no cycle: the checker).
      std::set<int32_t> all = writes[i];
      std::vector<int> todo = callees[i];
      std::set<int> seen;
      while (!todo.empty()) {
        int c = todo.back();
        todo.pop_back();
        if (!seen.insert(c).second) continue;
        all.insert(writes[c].begin(), writes[c].end());
        todo.insert(todo.end(), callees[c].begin(), callees[c].end());
      }
      Procedure& proc = p_.procedures[i];
      proc.tells_only = true;
      proc.tell_slots.assign(all.begin(), all.end());
    }
  }

  // Phases were numbered before their procedures existed: point each `phase` at its code.
  void patch_calls() {
    for (int at : phase_calls_) p_.code[at].a = phase_procs_[p_.code[at].b];
  }

  RuleFile& rf_;
  const Symbols& s_;
  Game& g_;
  Program& p_;
  std::vector<int> local_slot_;
  int locals_ = 0;
  Pos at_;  // the statement being compiled, for an error in alloc()
  std::vector<int> calls_, phase_calls_, phase_procs_;
  std::vector<int> proc_end_;  // per procedure (not phase): its last instruction, the return
  std::vector<int> pvar_index_, global_index_, card_var_index_;
  int card_var_slots_ = 0;
  std::map<int, int> as_arg_;  // local id -> argument index, while compiling legality
  std::map<int, int32_t> lookup_of_;  // kind * 4 + values -> index into Program::lookups
  const Inlined* inlined_ = nullptr;  // the call being inlined, if any
  bool no_inlining_ = false;  // in a body compiled on its own (its frame's depth is unknown), or an invariant
  std::vector<int> frame_need_;       // per function, -1 until known
  std::vector<size_t> inline_size_;   // per function, 0 until known
  int64_t load_budget_ = max_load_steps;  // what is left of the load-time steps
  size_t inlined_nodes_ = 0;          // nodes added by finished inlining: see max_inlined_nodes
  size_t inline_start_ = 0;           // the program's size when the outermost inlining began
};

}  // namespace

std::shared_ptr<const Game> compile_rules(RuleFile& rf, const Symbols& symbols,
                                          std::shared_ptr<const Sources> sources) {
  auto g = std::make_shared<Game>();
  Compiler(rf, symbols, *g).run();
  g->sources = std::move(sources);
  return g;
}

namespace {

std::shared_ptr<const Game> finish_load(std::unique_ptr<RuleFile> rf, std::shared_ptr<Sources>& sources,
                                        Diagnostics& diags, const std::function<bool(RuleFile&)>& amend = {}) {
  if (!rf) return nullptr;
  if (amend && !amend(*rf)) return nullptr;
  Symbols symbols;
  bool ok = !diags.has_errors();
  // A file whose YAML could not be read has nothing worth checking.
  if (!rf->game.empty() || ok) ok = check_rules(*rf, symbols, diags) && ok;
  diags.sort();
  if (!ok) return nullptr;
  std::shared_ptr<Game> game;
  try {
    game = std::const_pointer_cast<Game>(compile_rules(*rf, symbols, sources));
  } catch (const LoadTimeError& e) {
    diags.error(e.pos, e.message);
    diags.sort();
    return nullptr;
  }
  game->path = sources->at(rf->file).path;
  // The text a log's checksum covers: the rule file and every file it imported.
  game->text.clear();
  for (int i = rf->file; i < sources->size(); ++i) game->text += sources->at(i).name + "\n" + sources->at(i).text;
  return game;
}

}  // namespace

std::shared_ptr<const Game> load_game(const std::string& path, std::shared_ptr<Sources>& sources,
                                      Diagnostics& diags) {
  if (!sources) sources = std::make_shared<Sources>();
  return finish_load(load_rule_file(path, *sources, diags), sources, diags);
}

std::shared_ptr<const Game> load_game_text(const std::string& name, const std::string& text,
                                           std::shared_ptr<Sources>& sources, Diagnostics& diags,
                                           const std::function<bool(RuleFile&)>& amend) {
  if (!sources) sources = std::make_shared<Sources>();
  return finish_load(load_rule_text(name, text, *sources, diags), sources, diags, amend);
}

}  // namespace kata
