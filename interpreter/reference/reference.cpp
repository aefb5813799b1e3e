// Building a game's reference from Game, then writing it as text, Markdown or JSON. The
// building half decides every word shown; the three writers only lay the words out, so
// the three formats cannot say different things.
#include "reference/reference.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/engine.hpp"
#include "runtime/wrap.hpp"

namespace kata {

namespace {

// Kinds with more different cards than this are summed up by ranges, not tabled.
constexpr size_t most_rows = 24;

// ---- building ----

// A `doc:` text on one line: YAML's line breaks and indentation are layout, not meaning.
std::string one_line(const std::string& text) {
  std::istringstream in(text);
  std::string word, out;
  while (in >> word) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::string option_value(const Game& g, const OptionInfo& o, int64_t v) {
  if (o.is_bool) return v ? "true" : "false";
  return g.symbol_name(v);
}

std::string option_values(const Game& g, const OptionInfo& o) {
  if (o.is_bool) return "true, false";
  if (!o.choices.empty()) {
    std::vector<std::string> names;
    for (auto c : o.choices) names.push_back(g.symbol_name(c));
    return fmt::format("{}", fmt::join(names, ", "));
  }
  std::string high = o.max_is_players ? "the number of players" : std::to_string(o.max);
  if (o.min == INT32_MIN && o.max == INT32_MAX) return "any number";
  if (o.max == INT32_MAX && !o.max_is_players) return fmt::format("{} or more", o.min);
  if (o.min == INT32_MIN) return fmt::format("at most {}", high);
  return fmt::format("{} to {}", o.min, high);
}

GameReference::Option option(const Game& g, const OptionInfo& o) {
  std::string players;
  if (o.min_players > g.min_players || o.max_players < g.max_players)
    players = o.min_players == o.max_players
                  ? std::to_string(o.min_players)
                  : fmt::format("{} to {}", o.min_players, o.max_players);
  return {o.name, option_value(g, o, o.default_value), option_values(g, o), players, o.doc};
}

// The properties a player reads: the kind's, in its order, less its bookkeeping ones
// (`show: {hx: false}`).
std::vector<int> read_properties(const KindInfo& k) {
  std::vector<int> out;
  for (int p : k.properties)
    if (std::find(k.bookkeeping.begin(), k.bookkeeping.end(), p) == k.bookkeeping.end()) out.push_back(p);
  return out;
}

// The words of one card's properties, in the kind's order.
std::vector<std::string> card_row(const Game& g, const KindInfo& k, int card) {
  std::vector<std::string> row;
  for (int p : read_properties(k))
    row.push_back(g.symbol_name(g.card_props[static_cast<size_t>(p) * g.card_count + card]));
  return row;
}

// "x: -8 to 8" for numbers, "suit: hearts, spades" for symbols, in order of first use.
std::vector<std::string> property_ranges(const Game& g, const KindInfo& k, int cards) {
  std::vector<std::string> out;
  for (int p : read_properties(k)) {
    std::vector<int64_t> values;
    for (int c = k.first_card; c < k.first_card + cards; ++c) {
      int64_t v = g.card_props[static_cast<size_t>(p) * g.card_count + c];
      if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    }
    if (g.properties[p].symbolic) {
      std::vector<std::string> names;
      for (auto v : values) names.push_back(g.symbol_name(v));
      out.push_back(fmt::format("{}: {}", g.properties[p].name, fmt::join(names, ", ")));
    } else {
      auto [low, high] = std::minmax_element(values.begin(), values.end());
      out.push_back(fmt::format("{}: {} to {}", g.properties[p].name, *low, *high));
    }
  }
  return out;
}

// Whether the kind's `cards` first cards, `rows` different ones, are one of each
// combination of their properties' values (an `each:` product: a deck of four suits by
// thirteen ranks): then `out` says so in a line a property ("one of each suit and rank:",
// "suit: Sun, Moon", "rank: 1 to 13"), which a table of every row would not say better.
bool every_combination(const Game& g, const KindInfo& k, int cards, const std::vector<int>& properties, size_t rows,
                       std::vector<std::string>& out) {
  std::vector<std::vector<int64_t>> values(properties.size());
  size_t product = 1;
  for (size_t i = 0; i < properties.size(); ++i) {
    for (int c = k.first_card; c < k.first_card + cards; ++c) {
      int64_t v = g.card_props[static_cast<size_t>(properties[i]) * g.card_count + c];
      if (std::find(values[i].begin(), values[i].end(), v) == values[i].end()) values[i].push_back(v);
    }
    product *= values[i].size();
  }
  if (product != rows) return false;
  std::vector<std::string> names;
  for (int p : properties) names.push_back(g.properties[p].name);
  std::string last = names.back();
  names.pop_back();
  out.push_back(fmt::format("one of each {} and {}:", fmt::join(names, ", "), last));
  for (size_t i = 0; i < properties.size(); ++i) {
    const std::vector<int64_t>& vs = values[i];
    auto [low, high] = std::minmax_element(vs.begin(), vs.end());
    bool run = !g.properties[properties[i]].symbolic && *high - *low + 1 == static_cast<int64_t>(vs.size());
    std::vector<std::string> words;
    for (int64_t v : vs) words.push_back(g.symbol_name(v));
    out.push_back(run && vs.size() > 2 ? fmt::format("  {}: {} to {}", g.properties[properties[i]].name, *low, *high)
                                       : fmt::format("  {}: {}", g.properties[properties[i]].name, fmt::join(words, ", ")));
  }
  return true;
}

// One row for each different card (the first of each owner's set, for a kind per player),
// with how many there are of it, and what it does when the rule file says so.
void card_table(const Game& g, const KindInfo& k, GameReference::Kind& out) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> docs;
  std::vector<int> counts;
  std::vector<std::string> titles;
  for (int c = k.first_card; c < k.first_card + out.count; ++c) {
    auto row = card_row(g, k, c);
    size_t i = static_cast<size_t>(c - k.first_card);
    std::string doc = i < k.card_docs.size() ? k.card_docs[i] : "";
    size_t at = 0;
    while (at < rows.size() && !(rows[at] == row && docs[at] == doc)) ++at;
    if (at < rows.size()) {
      ++counts[at];
    } else {
      rows.push_back(row);
      docs.push_back(doc);
      counts.push_back(1);
      titles.push_back(g.card_plain_names[c]);
    }
  }
  std::vector<int> properties = read_properties(k);
  if (properties.empty()) return;
  bool described = !k.card_docs.empty();
  bool repeated = std::any_of(counts.begin(), counts.end(), [](int n) { return n > 1; });
  if (!described && !repeated && properties.size() > 1 && every_combination(g, k, out.count, properties, rows.size(), out.ranges))
    return;
  if (rows.size() > most_rows && !described) {
    out.ranges = property_ranges(g, k, out.count);
    return;
  }
  if (properties.size() == 1 && !described) {
    std::vector<std::string> items;
    for (size_t i = 0; i < rows.size(); ++i)
      items.push_back(rows[i][0] + (counts[i] > 1 ? fmt::format(" (x{})", counts[i]) : ""));
    out.columns = {g.properties[properties[0]].name};
    out.list = fmt::format("{}", fmt::join(items, ", "));
    return;
  }
  for (int p : properties) out.columns.push_back(g.properties[p].name);
  if (repeated) out.columns.push_back("count");
  // A titled kind's `name` column holds its cards' titles, as screens name them ("Gold
  // Mine" for GoldMine); the other properties are as they are.
  auto name_column = std::find(out.columns.begin(), out.columns.end(), "name");
  for (size_t i = 0; i < rows.size(); ++i) {
    if (repeated) rows[i].push_back(std::to_string(counts[i]));
    if (k.titled && name_column != out.columns.end()) rows[i][static_cast<size_t>(name_column - out.columns.begin())] = titles[i];
    out.rows.push_back(rows[i]);
  }
  if (described) out.docs = docs;
  if (k.titled) out.titles = titles;
}

GameReference::Kind kind(const Game& g, const KindInfo& k) {
  GameReference::Kind out;
  out.name = k.name;
  out.per_player = k.per_player;
  out.count = k.per_player ? k.card_count / g.max_players : k.card_count;
  out.noun = out.count == 1 ? k.noun_one : k.noun_many;
  out.doc = k.doc;
  if (k.start_zone >= 0) {
    const ZoneInfo& z = g.zones[k.start_zone];
    out.start = z.per_player ? (k.per_player ? "its owner's " : "each player's ") + z.name : z.name;
  }
  card_table(g, k, out);
  return out;
}

// "x from -8 to 8": the values a coordinate takes on the board.
std::string coordinate_range(const Game& g, int32_t property) {
  const KindInfo& k = g.kinds[g.board.kind];
  int64_t low = INT64_MAX, high = INT64_MIN;
  for (int c = k.first_card; c < k.first_card + k.card_count; ++c) {
    int64_t v = g.card_props[static_cast<size_t>(property) * g.card_count + c];
    low = std::min(low, v), high = std::max(high, v);
  }
  return fmt::format("{} from {} to {}", g.properties[property].name, g.symbol_name(low), g.symbol_name(high));
}

// The board as players see it: its points counted by rows (a row is a line of the
// drawing: the points with one y), how a point is named, and the marked points. The
// points' coordinates are geometry: they appear only as the names of points.
GameReference::Board board(const Game& g) {
  const BoardInfo& b = g.board;
  const KindInfo& k = g.kinds[b.kind];
  GameReference::Board out;
  std::map<int32_t, int> rows;
  for (int32_t y : b.y) ++rows[y];
  int fewest = INT32_MAX, most = 0;
  for (auto& [y, n] : rows) fewest = std::min(fewest, n), most = std::max(most, n);
  bool linked = false;
  for (int c = k.first_card; c < k.first_card + k.card_count && !linked; ++c)
    linked = g.link_start.size() > static_cast<size_t>(c) + 1 && g.link_start[c + 1] > g.link_start[c];
  out.shape = fmt::format("{} point{} in {} row{}{}{}", k.card_count, k.card_count == 1 ? "" : "s", rows.size(),
                          rows.size() == 1 ? "" : "s",
                          rows.size() > 1 ? fewest == most ? fmt::format(" of {}", most) : fmt::format(" of {} to {}", fewest, most) : "",
                          linked ? ", joined by lines" : "");
  std::vector<std::string> ranges;
  for (int32_t p : b.coordinates) ranges.push_back(coordinate_range(g, p));
  if (!ranges.empty() && k.card_count > 0)
    out.naming = fmt::format("A point is named by its coordinates ({}), as in {}.", fmt::join(ranges, ", "),
                             g.card_names[k.first_card + k.card_count / 2]);
  std::string what = b.marked_name.empty() ? "marked" : b.marked_name;
  for (size_t i = 0; i < b.marked.size(); ++i)
    if (b.marked[i]) out.marked.push_back(fmt::format("{}: {}", what, g.card_names[k.first_card + static_cast<int>(i)]));
  out.doc = k.doc;
  return out;
}

std::string each(const Game& g, bool per_player, int32_t kind) {
  std::string of = kind >= 0 ? g.kinds[kind].name : "";
  if (per_player) return of.empty() ? "player" : of + " and player";
  return of;
}

GameReference::Zone zone(const Game& g, const ZoneInfo& z) {
  const char* order = z.order == ZoneOrder::stack ? "stack"
                      : z.order == ZoneOrder::row ? "row"
                                                  : "set";
  // "nobody" alone reads wrong to a player who sees their own face-down cards there and
  // everyone's face-up ones (language.md 4.4): the words say when it holds.
  std::string seen, nobody = "nobody while face down (a card seen before stays known)";
  switch (z.visibility) {
    case Visibility::everyone: seen = "everyone"; break;
    case Visibility::owner: seen = z.per_player ? "its owner" : nobody; break;
    case Visibility::nobody: seen = nobody; break;
    case Visibility::top: seen = "everyone, its top card only"; break;
  }
  std::string label;
  for (const ZoneInfo::LabelPiece& piece : z.label)
    switch (piece.what) {
      case ZoneInfo::LabelPiece::What::text: label += piece.text; break;
      case ZoneInfo::LabelPiece::What::owner: label += "{player}"; break;
      case ZoneInfo::LabelPiece::What::holder: label += "{" + z.per_kind + "}"; break;
    }
  return {z.name, each(g, z.per_player, z.kind), order, seen, z.doc, label, z.show == Show::never};
}

GameReference::Variable variable(const Game& g, const VarInfo& v) {
  std::string type;
  switch (v.type) {
    case VarType::integer: type = "number"; break;
    case VarType::boolean: type = "true or false"; break;
    case VarType::player: type = "player"; break;
    case VarType::card: type = "card"; break;
  }
  return {v.name, each(g, v.per_player, v.kind), type, v.doc, v.show == Show::never, v.label};
}

template <class T>
void normalise(std::vector<T>& items) {
  for (auto& item : items) item.doc = one_line(item.doc);
}

void normalise(std::vector<GameReference::Kind>& kinds) {
  for (auto& k : kinds) {
    k.doc = one_line(k.doc);
    for (auto& d : k.docs) d = one_line(d);
  }
}

void normalise_docs(GameReference& r) {
  r.doc = one_line(r.doc);
  normalise(r.options);
  normalise(r.kinds);
  normalise(r.zones);
  normalise(r.variables);
  normalise(r.actions);
  normalise(r.phases);
  if (r.board) r.board->doc = one_line(r.board->doc);
  for (auto& a : r.actions)
    for (auto& p : a.params) {
      p.domain = one_line(p.domain);
      p.doc = one_line(p.doc);
    }
}

}  // namespace

GameReference make_reference(const Game& g) {
  GameReference r;
  r.name = g.name;
  r.doc = g.doc;
  r.min_players = g.min_players;
  r.max_players = g.max_players;
  for (auto& o : g.options) r.options.push_back(option(g, o));
  for (size_t k = 0; k < g.kinds.size(); ++k)
    if (static_cast<int32_t>(k) != g.board.kind && !g.kinds[k].unshown) r.kinds.push_back(kind(g, g.kinds[k]));
  if (g.board.kind >= 0) r.board = board(g);
  for (auto& z : g.zones) r.zones.push_back(zone(g, z));
  for (auto* vars : {&g.globals, &g.player_vars, &g.card_vars})
    for (auto& v : *vars) r.variables.push_back(variable(g, v));
  for (auto& a : g.program.actions) {
    GameReference::Action action{a.name, {}, a.doc};
    for (auto& p : a.params) action.params.push_back({p.name, p.domain_text, p.doc});
    r.actions.push_back(action);
  }
  for (size_t i = 0; i < g.phases.size(); ++i)
    r.phases.push_back({g.phases[i], i < g.phase_docs.size() ? g.phase_docs[i] : ""});
  normalise_docs(r);
  return r;
}

namespace {

// ---- writing ----

// Words wrapped to the text width, each line indented.
std::string wrapped(const std::string& text, size_t indent, size_t text_width) {
  std::istringstream in(text);
  std::string word, out, line;
  while (in >> word) {
    if (!line.empty() && indent + line.size() + 1 + word.size() > text_width) {
      out += std::string(indent, ' ') + line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + '\n';
  return out;
}

// The same with the lines after the first indented further.
std::string hanging(const std::string& text, size_t indent, size_t rest, size_t text_width) {
  std::istringstream in(text);
  std::string word, out, line;
  size_t at = indent;
  while (in >> word) {
    if (!line.empty() && at + line.size() + 1 + word.size() > text_width) {
      out += std::string(at, ' ') + line + '\n';
      line.clear();
      at = rest;
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += std::string(at, ' ') + line + '\n';
  return out;
}

std::string option_text(const GameReference::Option& o) {
  return fmt::format(
      "{} = {} ({}{})", o.name, o.default_value, o.values,
      o.players.empty() ? "" : fmt::format("; any but the default needs {} players", o.players));
}

std::string kind_text(const GameReference::Kind& k) {
  std::string text = fmt::format("{}: {} {}{}", k.name, k.count, k.noun, k.per_player ? " for each player" : "");
  return text + (k.start.empty() ? ", out of play at the start" : ", in " + k.start);
}

// A zone or variable by the words screens name it by, where it has a label, then its
// name: "the draw pile (deck)", "first player (first)"; by its name otherwise.
std::string called_as(const std::string& name, const std::string& label) {
  return label.empty() || label == name ? name : fmt::format("{} ({})", label, name);
}

std::string zone_text(const GameReference::Zone& z) {
  return fmt::format("{}: a {}, {}; seen by {}", called_as(z.name, z.label), z.order,
                     z.each.empty() ? "shared" : "one for each " + z.each, z.seen_by);
}

std::string variable_text(const GameReference::Variable& v) {
  return fmt::format("{}: {}{}", called_as(v.name, v.label), v.type == "true or false" ? v.type : "a " + v.type,
                     v.each.empty() ? "" : " for each " + v.each);
}

std::string notation(const GameReference::Action& a) {
  std::string out = a.name;
  for (auto& p : a.params) out += " " + p.name;
  return out;
}

std::string params_text(const GameReference::Action& a) {
  std::vector<std::string> parts;
  // A parameter's description follows its list; descriptions may hold commas, so the
  // parameters of an action that has one are parted by semicolons.
  bool described = false;
  // A parameter with a `doc:` is told by it, in the game's words; without one, by the
  // expression it is chosen from (the JSON gives both).
  for (auto& p : a.params) {
    parts.push_back(p.doc.empty() ? p.name + " in " + p.domain : p.name + ": " + p.doc);
    described |= !p.doc.empty();
  }
  return fmt::format("{}", fmt::join(parts, described ? "; " : ", "));
}

// Columns padded to their widest cell.
std::string table_text(const std::vector<std::string>& columns,
                       const std::vector<std::vector<std::string>>& rows, size_t indent) {
  std::vector<size_t> width;
  for (auto& c : columns) width.push_back(c.size());
  for (auto& row : rows)
    for (size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out(indent, ' ');
    for (size_t i = 0; i < cells.size(); ++i)
      out += i + 1 < cells.size() ? fmt::format("{:<{}}  ", cells[i], width[i]) : cells[i];
    return out + '\n';
  };
  std::string out = line(columns);
  for (auto& row : rows) out += line(row);
  return out;
}

// A heading, then each entry's line with its doc beneath.
template <class T, class Line>
std::string section_text(const std::string& heading, const std::vector<T>& items, Line line, size_t width) {
  std::string out;
  for (auto& item : items) {
    if constexpr (requires { item.bookkeeping; })
      if (item.bookkeeping) continue;
    out += "  " + line(item) + "\n";
    out += wrapped(item.doc, 6, width);
  }
  return out.empty() ? "" : "\n" + heading + "\n" + out;
}

// A card of a row as people read it: its title where the kind has titles ("Gold Mine"),
// else its first property (its name).
std::string card_called(const GameReference::Kind& k, size_t i) {
  return i < k.titles.size() ? k.titles[i] : k.rows[i].empty() ? std::string() : k.rows[i][0];
}

std::string kinds_text(const GameReference& r, size_t width) {
  if (r.kinds.empty()) return "";
  std::string out = "\nComponents\n";
  for (auto& k : r.kinds) {
    out += "  " + kind_text(k) + "\n" + wrapped(k.doc, 6, width);
    if (!k.list.empty()) out += wrapped(k.columns[0] + ": " + k.list, 6, width);
    for (auto& range : k.ranges) out += "      " + range + "\n";
    if (!k.rows.empty()) out += table_text(k.columns, k.rows, 6);
    // Then what each card does, its name first, the lines after the first indented.
    for (size_t i = 0; i < k.docs.size() && i < k.rows.size(); ++i)
      if (!k.docs[i].empty()) out += hanging(card_called(k, i) + ": " + k.docs[i], 6, 8, width);
  }
  return out;
}

std::string board_text(const GameReference& r, size_t width) {
  if (!r.board) return "";
  const GameReference::Board& b = *r.board;
  std::string out = "\nBoard\n  " + b.shape + "\n" + wrapped(b.doc, 6, width) + wrapped(b.naming, 6, width);
  for (auto& m : b.marked) out += wrapped(m, 6, width);
  return out;
}

std::string write_text(const GameReference& r, size_t width) {
  std::string out = fmt::format("{}: {}\n", r.name, players_text(r.min_players, r.max_players));
  if (!r.doc.empty()) out += "\n" + wrapped(r.doc, 0, width);
  out += section_text("Options (kata play FILE -o NAME=VALUE)", r.options, option_text, width);
  out += kinds_text(r, width);
  out += board_text(r, width);
  out += section_text("Zones", r.zones, zone_text, width);
  out += section_text("Variables", r.variables, variable_text, width);
  out += section_text("Actions", r.actions, [](const GameReference::Action& a) {
    return a.params.empty() ? notation(a) : fmt::format("{}  ({})", notation(a), params_text(a));
  }, width);
  out += section_text("Phases, in order", r.phases, [](const GameReference::Phase& p) { return p.name; }, width);
  return out;
}


// "Guard (card, 4 for each player; rank: 2, suit: red): what it does": a row of a kind's
// table, with how many there are when more than one (for each player, for a kind per
// player).
std::string card_entry(const GameReference::Kind& k, size_t i, size_t width) {
  const std::vector<std::string>& row = k.rows[i];
  std::vector<std::string> properties;
  std::string count;
  for (size_t j = 1; j < row.size() && j < k.columns.size(); ++j) {
    if (j + 1 == k.columns.size() && k.columns[j] == "count") {
      if (row[j] != "1") count = k.per_player ? fmt::format(", {} for each player", row[j]) : fmt::format(", {} of them", row[j]);
      continue;
    }
    properties.push_back(k.columns[j] + ": " + row[j]);
  }
  std::string text =
      fmt::format("{} ({}{}{})", card_called(k, i), k.name, count,
                  properties.empty() ? "" : fmt::format("; {}", fmt::join(properties, ", ")));
  if (i < k.docs.size() && !k.docs[i].empty()) text += ": " + k.docs[i];
  return hanging(text, 2, 6, width);
}

}  // namespace

std::string reference_entry(const GameReference& r, const std::string& name, size_t width) {
  std::string want = squashed(name), unseated = want;
  // "p1 guard": a player's card, named with its seat as the screens name it.
  if (size_t digits = unseated.find_first_not_of("0123456789", 1);
      unseated.size() > 1 && unseated[0] == 'p' && digits != 1 && digits != std::string::npos)
    unseated.erase(0, digits);
  auto called = [&](const std::string& n) { return squashed(n) == want; };
  std::string out;
  for (auto& o : r.options)
    if (called(o.name)) out += "  " + option_text(o) + "\n" + wrapped(o.doc, 6, width);
  for (auto& k : r.kinds) {
    if (called(k.name)) out += "  " + kind_text(k) + "\n" + wrapped(k.doc, 6, width);
    for (size_t i = 0; i < k.rows.size(); ++i)
      if (!k.rows[i].empty() && (called(k.rows[i][0]) || squashed(k.rows[i][0]) == unseated || called(card_called(k, i))))
        out += card_entry(k, i, width);
  }
  for (auto& z : r.zones)
    if (called(z.name)) out += "  " + zone_text(z) + "\n" + wrapped(z.doc, 6, width);
  for (auto& v : r.variables)
    if (called(v.name)) out += "  " + variable_text(v) + "\n" + wrapped(v.doc, 6, width);
  for (auto& a : r.actions)
    if (called(a.name))
      out +=
          "  " +
          (a.params.empty() ? notation(a) : fmt::format("{}  ({})", notation(a), params_text(a))) +
          "\n" + wrapped(a.doc, 6, width);
  return out;
}

namespace {

// A Markdown table cell: one line, with '|' escaped.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : one_line(text)) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string code(const std::string& text) { return text.empty() ? "" : "`" + text + "`"; }

std::string table_markdown(const std::vector<std::string>& columns,
                           const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  for (auto& c : columns) out += " " + cell(c) + " |";
  out += "\n|";
  for (size_t i = 0; i < columns.size(); ++i) out += "---|";
  out += "\n";
  for (auto& row : rows) {
    out += "|";
    for (auto& c : row) out += " " + c + " |";
    out += "\n";
  }
  return out;
}

std::string options_markdown(const GameReference& r) {
  if (r.options.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (auto& o : r.options)
    rows.push_back(
        {code(o.name), cell(o.values), code(o.default_value), cell(o.players), cell(o.doc)});
  return "\n## Options\n\nSet with `kata play FILE -o NAME=VALUE`. An option with player counts "
         "takes its other "
         "values only with those counts.\n\n" +
         table_markdown({"option", "values", "default", "players", "description"}, rows);
}

std::string kinds_markdown(const GameReference& r) {
  if (r.kinds.empty()) return "";
  std::string out = "\n## Components\n";
  for (auto& k : r.kinds) {
    out += "\n### " + k.name + "\n\n" + cell(kind_text(k).substr(k.name.size() + 2)) + ".\n";
    if (!k.doc.empty()) out += "\n" + k.doc + "\n";
    if (!k.list.empty()) out += "\n" + k.columns[0] + ": " + k.list + "\n";
    if (!k.ranges.empty()) out += "\n" + fmt::format("{}", fmt::join(k.ranges, "; ")) + "\n";
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < k.rows.size(); ++i) {
      rows.emplace_back();
      for (auto& c : k.rows[i]) rows.back().push_back(cell(c));
      if (!k.docs.empty()) rows.back().push_back(cell(i < k.docs.size() ? k.docs[i] : ""));
    }
    std::vector<std::string> columns = k.columns;
    if (!k.docs.empty()) columns.push_back("description");
    if (!rows.empty()) out += "\n" + table_markdown(columns, rows);
  }
  return out;
}

std::string write_markdown(const GameReference& r) {
  std::string out = "# " + r.name + "\n\n" + players_text(r.min_players, r.max_players) + ".\n";
  if (!r.doc.empty()) out += "\n" + r.doc + "\n";
  out += options_markdown(r);
  out += kinds_markdown(r);
  if (r.board) {
    out += "\n## Board\n\n" + r.board->shape + ".\n";
    if (!r.board->doc.empty()) out += "\n" + r.board->doc + "\n";
    if (!r.board->naming.empty()) out += "\n" + r.board->naming + "\n";
    for (auto& m : r.board->marked) out += "\n- " + m + "\n";
  }
  std::vector<std::vector<std::string>> rows;
  for (auto& z : r.zones)
    if (!z.bookkeeping)
      rows.push_back({code(z.name), z.each.empty() ? "shared" : "each " + z.each, z.order, z.seen_by,
                    cell(z.label.empty() ? z.doc : "Shown as \"" + z.label + "\"." + (z.doc.empty() ? "" : " " + z.doc))});
  if (!rows.empty())
    out += "\n## Zones\n\n" +
           table_markdown({"zone", "one for", "order", "seen by", "description"}, rows);
  rows.clear();
  for (auto& v : r.variables)
    if (!v.bookkeeping)
      rows.push_back(
        {code(v.name), v.each.empty() ? "the game" : "each " + v.each, v.type, cell(v.doc)});
  if (!rows.empty())
    out +=
        "\n## Variables\n\n" + table_markdown({"variable", "one for", "type", "description"}, rows);
  rows.clear();
  for (auto& a : r.actions) rows.push_back({code(notation(a)), cell(params_text(a)), cell(a.doc)});
  if (!rows.empty())
    out += "\n## Actions\n\n" + table_markdown({"action", "parameters", "description"}, rows);
  rows.clear();
  for (auto& p : r.phases) rows.push_back({code(p.name), cell(p.doc)});
  if (!rows.empty()) out += "\n## Phases\n\n" + table_markdown({"phase", "description"}, rows);
  return out;
}

std::string write_json(const GameReference& r) {
  using nlohmann::json;
  json options = json::array(), kinds = json::array(), zones = json::array(),
       variables = json::array(), actions = json::array(), phases = json::array();
  for (auto& o : r.options)
    options.push_back({{"name", o.name},
                       {"default", o.default_value},
                       {"values", o.values},
                       {"players", o.players},
                       {"doc", o.doc}});
  for (auto& k : r.kinds)
    kinds.push_back({{"name", k.name},
                     {"count", k.count},
                     {"noun", k.noun},
                     {"per_player", k.per_player},
                     {"start", k.start},
                     {"doc", k.doc},
                     {"columns", k.columns},
                     {"rows", k.rows},
                     {"docs", k.docs},
                     {"list", k.list},
                     {"ranges", k.ranges}});
  for (auto& z : r.zones)
    zones.push_back({{"name", z.name},
                     {"each", z.each},
                     {"order", z.order},
                     {"seen_by", z.seen_by},
                     {"label", z.label},
                     {"doc", z.doc},
                     {"bookkeeping", z.bookkeeping}});
  for (auto& v : r.variables)
    variables.push_back({{"name", v.name}, {"each", v.each}, {"type", v.type}, {"doc", v.doc}, {"bookkeeping", v.bookkeeping}, {"label", v.label}});
  for (auto& a : r.actions) {
    json params = json::array();
    for (auto& p : a.params) params.push_back({{"name", p.name}, {"domain", p.domain}, {"doc", p.doc}});
    actions.push_back({{"name", a.name}, {"params", params}, {"doc", a.doc}});
  }
  for (auto& p : r.phases) phases.push_back({{"name", p.name}, {"doc", p.doc}});
  json out = {{"game", r.name},
              {"doc", r.doc},
              {"min_players", r.min_players},
              {"max_players", r.max_players},
              {"options", options},
              {"components", kinds},
              {"board", r.board ? json{{"shape", r.board->shape},
                                       {"naming", r.board->naming},
                                       {"marked", r.board->marked},
                                       {"doc", r.board->doc}}
                                : json(nullptr)},
              {"zones", zones},
              {"variables", variables},
              {"actions", actions},
              {"phases", phases}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string write_reference(const GameReference& r, ReferenceFormat format, size_t width) {
  switch (format) {
    case ReferenceFormat::text: {
      // The lines the descriptions are not part of (a long action's parameters) are wrapped
      // as a screen is.
      return wrap_text(write_text(r, width), width);
    }
    case ReferenceFormat::markdown: return write_markdown(r);
    case ReferenceFormat::json: return write_json(r);
  }
  return {};
}

}  // namespace kata
