// Drawings of a board (`board:` in a rule file), made from a view so that they show only
// what its viewer may see: as text for the terminal, and as SVG. Points stand where the
// rule file says, turned as the view says; the top card of each point's zone is drawn on
// it. Both drawings label the points' coordinates the same way (see `Drawing`) and end with
// a legend; the SVG also has a caption: whose turn it is, or the result.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <map>
#include <numeric>

#include "runtime/view.hpp"
#include "runtime/wrap.hpp"

namespace kata {

namespace {

// The card on each point as the view shows it: -1 none, -2 hidden, else the card.
std::vector<int32_t> board_cards(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  std::vector<int32_t> out(b.x.size(), -1);
  if (b.zone < 0) return out;
  std::map<int, const ZoneView*> by_instance;
  for (const ZoneView& z : v.zones) by_instance[z.instance] = &z;
  for (size_t i = 0; i < b.x.size(); ++i) {
    auto it = by_instance.find(g.zones[b.zone].first_instance + static_cast<int>(i));
    if (it == by_instance.end() || it->second->cards.empty()) continue;
    int32_t c = it->second->cards.back().card;
    out[i] = c < 0 ? -2 : c;
  }
  return out;
}

std::string property_text(const Game& g, int32_t property, int32_t card) {
  int64_t value = g.card_props[property * g.card_count + card];
  return g.properties[property].symbolic ? g.symbol_name(value) : std::to_string(value);
}

// The mark `seats:` gives the owner of card c, or empty.
std::string seat_mark(const Game& g, int32_t c) {
  int owner = g.card_owner[c];
  return owner >= 0 && owner < static_cast<int>(g.board.seats.size()) ? g.board.seats[owner] : "";
}

// "1P": the owner's seat number, or its mark (`seats:`), or '#' for a card nobody owns,
// and the first letter of the label property's value (or of the card's name); with
// `seats:` and no `label:`, the seat's mark alone ("X").
std::string piece_label(const Game& g, int32_t c) {
  if (c == -2) return "??";
  std::string mark = seat_mark(g, c);
  if (!mark.empty() && g.board.label < 0) return mark;
  std::string seat = !mark.empty() ? mark : g.card_owner[c] >= 0 ? std::to_string(g.card_owner[c] + 1) : "#";
  std::string word = g.board.label >= 0 ? g.symbol_name(g.card_props[g.board.label * g.card_count + c]) : g.card_names[c];
  return seat + (word.empty() ? "?" : word.substr(0, 1));
}

// What the SVG writes inside a piece, whose colour gives the seat: the initial, or the
// seat's mark when it stands alone.
std::string piece_inside(const Game& g, int32_t c) {
  if (c >= 0 && g.board.label < 0 && !seat_mark(g, c).empty()) return seat_mark(g, c);
  return piece_label(g, c).substr(1);
}

// What the pieces' initials stand for, from the rule file (not the view): "K King,
// p pawn" — each initial with the `name` property of the cards that bear it, or their
// kind. Empty without a `label:`.
std::string initials(const Game& g) {
  const BoardInfo& b = g.board;
  if (b.label < 0) return "";
  int32_t name = -1;
  for (size_t p = 0; p < g.properties.size(); ++p)
    if (g.properties[p].name == "name") name = static_cast<int32_t>(p);
  std::vector<std::pair<std::string, std::string>> seen;
  for (int32_t c = 0; c < g.card_count; ++c) {
    if (g.card_kind[c] == b.kind) continue;
    std::string word = g.symbol_name(g.card_props[b.label * g.card_count + c]);
    if (word.empty()) continue;
    bool named = name >= 0 && g.card_props[name * g.card_count + c] != 0;
    std::string meaning = named ? property_text(g, name, c) : g.kinds[g.card_kind[c]].name;
    std::pair<std::string, std::string> entry{word.substr(0, 1), meaning};
    if (std::find(seen.begin(), seen.end(), entry) == seen.end()) seen.push_back(entry);
  }
  std::string out;
  for (size_t i = 0; i < seen.size(); ++i) {
    bool same = i > 0 && seen[i - 1].first == seen[i].first;
    out += same ? "/" + seen[i].second : (i ? ", " : "") + seen[i].first + " " + seen[i].second;
  }
  return out;
}

// The legend's line for the pieces: "a piece: its player's number and initial (K King)",
// "a piece: X for P1's, O for P2's" (`seats:`).
std::string pieces_legend(const Game& g) {
  std::string meanings = initials(g), seats;
  for (size_t p = 0; p < g.board.seats.size(); ++p)
    seats += fmt::format("{}{} for {}'s", p ? ", " : "", g.board.seats[p], seat_name(static_cast<int>(p)));
  if (seats.empty()) return "a piece: its player's number and initial" + (meanings.empty() ? "" : " (" + meanings + ")");
  if (g.board.label < 0) return "a piece: " + seats;
  return "a piece: its player's mark (" + seats + ") and initial" + (meanings.empty() ? "" : " (" + meanings + ")");
}

// The greatest common divisor of the differences between values: the grid's unit.
int32_t unit(const std::vector<int32_t>& values) {
  int32_t low = *std::min_element(values.begin(), values.end()), step = 0;
  for (int32_t x : values) step = std::gcd(step, x - low);
  return step == 0 ? 1 : step;
}

const char* seat_colour(int seat) {
  static const char* colours[] = {"#c8102e", "#1f5fbf", "#2e8b2e", "#d98c00", "#7b3fa0", "#008b8b"};
  return seat < 0 ? "#555555" : colours[seat % 6];
}

// How a coordinate is labelled: at the left of each row when it is the same along every
// row (a square grid's y, a hexagonal board's rows); above and below each column when it is the same down
// every column (a square grid's x); else its values are listed at the end of each row, in
// the order the row shows its points (a hexagonal board's slanted lines).
enum class Axis { rows, columns, listed };

// The text drawing's grid, shared by the SVG so that both label the same way: the points
// turned as the view says, a row of text for each distinct y, columns in units of x wide
// enough that two points of a row are at least three characters apart (a label is two).
struct Drawing {
  std::vector<int32_t> x, y;  // each point, turned
  std::vector<int> row, col;
  int rows = 0, width = 0;
  std::vector<Axis> axes;                  // of each coordinate (BoardInfo::coordinates)
  std::vector<std::string> row_labels;     // each row's coordinates of kind rows
  std::vector<std::string> listed;         // each row's listed coordinates
  // Each point's listed coordinate, when one alone is listed and every value is at most
  // two characters, as a piece's mark: a free point is drawn as it ("-4"), so that its
  // name is read off the board itself (the row's label, and the value on the point).
  // Else empty.
  std::vector<std::string> on_point;
  std::map<int, std::string> column_labels;  // text column -> its coordinates of kind columns

  bool any(Axis a) const { return std::find(axes.begin(), axes.end(), a) != axes.end(); }
};

// Clockwise on the page, where y grows downwards.
void turn(int degrees, int32_t& x, int32_t& y) {
  int32_t x0 = x, y0 = y;
  if (degrees == 90) x = -y0, y = x0;
  if (degrees == 180) x = -x0, y = -y0;
  if (degrees == 270) x = y0, y = -x0;
}

// The units of the triangular lattice the points lie on about the origin, drawn in rows,
// or {0, 0}: x in units of a and y in units of h, h between 1.5 and 2 times a (a true
// lattice has √3) and x/a + y/h even, as when x = a·(2q + r) and y = h·r for whole q and
// r. A board may use only some of the lattice's points, so its own units (ux, dy: the
// greatest common divisors) may be whole multiples of the lattice's.
std::pair<int32_t, int32_t> triangular(const std::vector<int32_t>& x, const std::vector<int32_t>& y, int32_t ux, int32_t dy) {
  for (int32_t m = 1; m <= 12; ++m)
    for (int32_t n = 1; n <= 12; ++n) {
      if (ux % m || dy % n) continue;
      int32_t a = ux / m, h = dy / n;
      if (2 * h < 3 * a || h > 2 * a) continue;
      bool fits = true;
      for (size_t i = 0; i < x.size() && fits; ++i) fits = !(x[i] % a) && !(y[i] % h) && !((x[i] / a + y[i] / h) % 2);
      if (fits) return {a, h};
    }
  return {0, 0};
}

// Turns every point by `degrees`, clockwise on the page: a multiple of 90 on any board, of
// 60 on a triangular lattice (in lattice units a sixth of a turn is exact: u' = (u - 3r)/2,
// r' = (u + r)/2). Any other angle is rounded down to one of those (the view gives a
// multiple of 30 from 0 to 330).
void turn_points(int degrees, std::vector<int32_t>& x, std::vector<int32_t>& y) {
  // Far from the origin a turned point could pass 32 bits: such a board is drawn as it is.
  for (size_t i = 0; i < x.size(); ++i)
    if (std::abs(int64_t{x[i]}) > (1 << 28) || std::abs(int64_t{y[i]}) > (1 << 28)) return;
  auto [ux, dy] = degrees % 90 ? triangular(x, y, unit(x), unit(y)) : std::pair<int32_t, int32_t>{0, 0};
  if (!ux || degrees < 60) {
    for (size_t i = 0; i < x.size(); ++i) turn(degrees / 90 * 90, x[i], y[i]);
    return;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t u = x[i] / ux, r = y[i] / dy;
    for (int k = 0; k < degrees / 60; ++k) {
      int64_t u1 = (u - 3 * r) / 2, r1 = (u + r) / 2;
      u = u1, r = r1;
    }
    x[i] = static_cast<int32_t>(u * ux);
    y[i] = static_cast<int32_t>(r * dy);
  }
}

// Whether the coordinate takes one value among the points of each group.
bool constant_by(const Game& g, int32_t property, const std::vector<int>& group) {
  const BoardInfo& b = g.board;
  int first = g.kinds[b.kind].first_card;
  std::map<int, int64_t> value;
  for (size_t i = 0; i < group.size(); ++i) {
    int64_t v = g.card_props[property * g.card_count + first + static_cast<int>(i)];
    auto [it, fresh] = value.emplace(group[i], v);
    if (!fresh && it->second != v) return false;
  }
  return true;
}

void label_coordinates(const Game& g, Drawing& l) {
  const BoardInfo& b = g.board;
  int first = g.kinds[b.kind].first_card;
  size_t n = b.x.size();
  std::vector<std::vector<size_t>> by_row(l.rows);
  for (size_t i = 0; i < n; ++i) by_row[l.row[i]].push_back(i);
  for (auto& r : by_row) std::sort(r.begin(), r.end(), [&](size_t a, size_t c) { return l.col[a] < l.col[c]; });
  l.row_labels.assign(l.rows, "");
  l.listed.assign(l.rows, "");
  for (int32_t p : b.coordinates)
    l.axes.push_back(constant_by(g, p, l.row) ? Axis::rows : constant_by(g, p, l.col) ? Axis::columns : Axis::listed);
  // The listed coordinates of a point: "x/y" where more than one is listed, as a point is
  // named; all of a row's points, each as wide as the widest.
  auto listed_text = [&](size_t i) {
    std::string out;
    for (size_t k = 0; k < b.coordinates.size(); ++k)
      if (l.axes[k] == Axis::listed) {
        // Appended in two steps: `"/" + text` trips GCC 12's -Wrestrict at -O3 (PR 105329).
        if (!out.empty()) out += '/';
        out += property_text(g, b.coordinates[k], first + static_cast<int>(i));
      }
    return out;
  };
  size_t wide = 0;
  for (size_t i = 0; i < n; ++i) wide = std::max(wide, listed_text(i).size());
  if (std::count(l.axes.begin(), l.axes.end(), Axis::listed) == 1 && wide <= 2)
    for (size_t i = 0; i < n; ++i) l.on_point.push_back(fmt::format("{:>2}", listed_text(i)));
  for (int r = 0; r < l.rows; ++r) {
    for (size_t k = 0; k < b.coordinates.size(); ++k)
      if (l.axes[k] == Axis::rows) {
        if (!l.row_labels[r].empty()) l.row_labels[r] += ' ';
        l.row_labels[r] += property_text(g, b.coordinates[k], first + static_cast<int>(by_row[r][0]));
      }
    if (l.any(Axis::listed))
      for (size_t k = 0; k < by_row[r].size(); ++k) l.listed[r] += fmt::format("{}{:>{}}", k ? " " : "", listed_text(by_row[r][k]), wide);
  }
  for (size_t k = 0; k < b.coordinates.size(); ++k) {
    if (l.axes[k] != Axis::columns) continue;
    std::map<int, std::string> values;
    for (size_t i = 0; i < n; ++i) values[l.col[i]] = property_text(g, b.coordinates[k], first + static_cast<int>(i));
    for (auto& [col, text] : values) l.column_labels[col] += (l.column_labels[col].empty() ? "" : " ") + text;
  }
}

Drawing drawing(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  Drawing l;
  l.x = b.x;
  l.y = b.y;
  turn_points(v.board_turn, l.x, l.y);
  std::vector<int32_t> ys = l.y;
  std::sort(ys.begin(), ys.end());
  ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
  int32_t ux = unit(l.x), minx = *std::min_element(l.x.begin(), l.x.end()), closest = INT32_MAX;
  for (size_t i = 0; i < l.x.size(); ++i)
    for (size_t j = i + 1; j < l.x.size(); ++j)
      if (l.y[i] == l.y[j] && l.x[i] != l.x[j]) closest = std::min(closest, std::abs(l.x[i] - l.x[j]) / ux);
  int step = closest == INT32_MAX ? 1 : (3 + closest - 1) / closest;
  for (size_t i = 0; i < l.x.size(); ++i) {
    l.col.push_back((l.x[i] - minx) / ux * step);
    l.row.push_back(static_cast<int>(std::lower_bound(ys.begin(), ys.end(), l.y[i]) - ys.begin()));
    l.width = std::max(l.width, l.col.back() + 2);
  }
  l.rows = static_cast<int>(ys.size());
  label_coordinates(g, l);
  return l;
}

std::string joined_names(const Game& g, const Drawing& l, Axis a) {
  std::string out;
  for (size_t k = 0; k < l.axes.size(); ++k)
    if (l.axes[k] == a) out += (out.empty() ? "" : a == Axis::listed ? "/" : " ") + g.properties[g.board.coordinates[k]].name;
  return out;
}

// ". a free point" (or the rule file's `empty_name:`), and what a marked point is; where
// free points are drawn as their listed coordinate, "-4 a free point, drawn as its x",
// and a line on how a point is named: "a point is named x/y: y at the row's left, every x
// of a row, pieces' too, at the row's right".
std::string legend_of_points(const Game& g, const Drawing& l) {
  const BoardInfo& b = g.board;
  std::string empty = b.empty_name.empty() ? std::string("a free point") : b.empty_name;
  std::string how;  // how a point is named, on a line of its own
  if (!l.on_point.empty()) {
    std::string named;
    for (int32_t p : b.coordinates) named += (named.empty() ? "" : "/") + g.properties[p].name;
    size_t k = std::find(l.axes.begin(), l.axes.end(), Axis::listed) - l.axes.begin();
    std::string eg = l.on_point[0].substr(l.on_point[0].find_first_not_of(' '));
    const std::string& x = g.properties[b.coordinates[k]].name;
    // Where to read each coordinate: a piece hides the x drawn on its point, so the row's
    // list at the right gives them all.
    std::string rows;
    for (size_t r = 0; r < l.axes.size(); ++r)
      if (l.axes[r] == Axis::rows) rows += (rows.empty() ? "" : "/") + g.properties[b.coordinates[r]].name;
    how = fmt::format("\n    a point is named {}: {}every {} of a row, pieces' too, at the row's right", named,
                      rows.empty() ? "" : rows + " at the row's left, ", x);
    empty = fmt::format("{} {}, drawn as its {}", eg, empty, x);
  } else {
    empty = ". " + empty;
  }
  if (!std::count(b.marked.begin(), b.marked.end(), true)) return empty + how;
  return empty + ", * " + (b.marked_name.empty() ? std::string("a marked one") : b.marked_name) + how;
}

std::string xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

// "P1 to play", or the result: "winner: P2; scores: P1 3, P2 5", the scores only where the
// game scored (scores_shown: as the end of a screen shows them).
std::string caption(const Game& g, const PlayerView& v) {
  std::string who = v.viewer >= 0 ? " (as " + seat_name(v.viewer) + " sees it)" : "";
  if (v.status != Status::over)
    return g.name + ": " + (v.chooser >= 0 ? seat_name(v.chooser) + " to play" : "under way") + who;
  std::string w;
  int n = static_cast<int>(v.eliminated.size());
  for (int p = 0; p < n; ++p)
    if (v.winners & (1u << p)) w += (w.empty() ? "" : ", ") + seat_name(p);
  std::string out = fmt::format("{}: over, winner{} {}", g.name, std::popcount(v.winners) == 1 ? "" : "s", w.empty() ? "none" : w);
  if (scores_shown(g, v.end))
    for (size_t p = 0; p < v.end.scores.size(); ++p)
      out += fmt::format("{}{} {}", p ? ", " : "; scores: ", seat_name(static_cast<int>(p)), v.end.scores[p]);
  return out + who;
}

// Why the game ended, in the rule file's words: the `notes:` of its scoring that held at
// the end, one after the other; empty while it goes on.
std::string reason(const Game& g, const PlayerView& v) {
  std::string out;
  if (v.status != Status::over) return out;
  for (int32_t i : v.end.notes) out += (out.empty() ? "" : " ") + g.score_notes[i].text;
  return out;
}

// The links of the text drawing (`lines:`): a line of text between two rows of points,
// each link drawn when it is straight in the grid of characters (along a row with '-',
// down a column with '|', or at 45 degrees with '/' or a backslash) and crosses no point;
// crossing links meet at 'X' or '+'. `left_out` counts the links that cannot be drawn so.
struct Lines {
  bool drawn = false;
  int left_out = 0;
  std::vector<std::string> grid;  // two text lines for each row of points but the last
};

Lines draw_links(const Game& g, const Drawing& l) {
  const BoardInfo& b = g.board;
  Lines out;
  if (g.link_start.empty()) return out;
  int first = g.kinds[b.kind].first_card;
  std::vector<std::pair<size_t, size_t>> links;
  for (size_t i = 0; i < l.x.size(); ++i)
    for (int k = g.link_start[first + static_cast<int>(i)]; k < g.link_start[first + static_cast<int>(i) + 1]; ++k) {
      size_t j = static_cast<size_t>(g.link_to[k] - first);
      if (j > i && j < l.x.size()) links.emplace_back(i, j);
    }
  if (links.empty()) return out;
  if (!b.lines) {
    out.left_out = static_cast<int>(links.size());
    return out;
  }
  out.drawn = true;
  int drawn = 0;
  out.grid.assign(2 * (l.rows - 1) + 1, std::string(l.width + 1, ' '));
  // The cells a point's mark may take: its column and the next (a piece is "1P").
  std::vector<std::vector<bool>> taken(out.grid.size(), std::vector<bool>(l.width + 1, false));
  for (size_t i = 0; i < l.x.size(); ++i)
    for (int c = l.col[i]; c <= l.col[i] + 1 && c <= l.width; ++c) taken[2 * l.row[i]][c] = true;
  auto meet = [](char a, char c) -> char {
    if (a == ' ' || a == c) return c;
    if ((a == '/' && c == '\\') || (a == '\\' && c == '/') || a == 'X') return (c == '/' || c == '\\') ? 'X' : 0;
    if ((a == '|' && c == '-') || (a == '-' && c == '|') || a == '+') return (c == '|' || c == '-') ? '+' : 0;
    return 0;
  };
  for (auto [i, j] : links) {
    int l1 = 2 * l.row[i], c1 = l.col[i], l2 = 2 * l.row[j], c2 = l.col[j];
    if (l1 > l2 || (l1 == l2 && c1 > c2)) std::swap(l1, l2), std::swap(c1, c2);
    int dl = l2 - l1, dc = c2 - c1, steps = std::max(dl, std::abs(dc));
    char ch = dl == 0 ? '-' : dc == 0 ? '|' : dc > 0 ? '\\' : '/';
    bool straight = dl == 0 || dc == 0 || std::abs(dc) == dl;
    std::vector<std::pair<int, int>> cells;
    for (int t = 1; straight && t < steps; ++t)
      cells.emplace_back(l1 + (dl ? t : 0), c1 + (dc ? (dc > 0 ? t : -t) : 0));
    // Along a row, the first cell is the second character of the first point's mark: the
    // line is drawn there, under a piece's label.
    bool fits = straight && cells.size() > (dl == 0 ? 1u : 0u);
    for (size_t t = 0; t < cells.size(); ++t) {
      auto [line, col] = cells[t];
      fits = fits && (!taken[line][col] || (dl == 0 && t == 0)) && meet(out.grid[line][col], ch);
    }
    if (!fits) {
      ++out.left_out;
      continue;
    }
    for (auto [line, col] : cells) out.grid[line][col] = meet(out.grid[line][col], ch);
    ++drawn;
  }
  // None straight: the rows stay close together.
  if (!drawn) out.drawn = false, out.grid.clear();
  return out;
}

}  // namespace

std::string draw_board(const Game& g, const PlayerView& v) { return plain(draw_board_units(g, v)); }

std::string draw_board_units(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  if (b.kind < 0 || b.x.empty()) return "";
  Drawing l = drawing(g, v);
  size_t margin = 0;
  for (auto& s : l.row_labels) margin = std::max(margin, s.size());
  std::string rows_name = joined_names(g, l, Axis::rows), listed_name = joined_names(g, l, Axis::listed);
  margin = margin ? std::max(margin, rows_name.size()) + 2 : 0;
  Lines links = draw_links(g, l);
  int spread = links.drawn ? 2 : 1;  // text lines from one row of points to the next
  std::vector<std::string> grid(spread * (l.rows - 1) + 1, std::string(l.width + 1, ' '));
  if (links.drawn) grid = links.grid;
  std::vector<int32_t> cards = board_cards(g, v);
  for (size_t i = 0; i < b.x.size(); ++i) {
    std::string mark = cards[i] != -1 ? piece_label(g, cards[i]) : b.marked[i] ? "*" : l.on_point.empty() ? "." : l.on_point[i];
    grid[spread * l.row[i]].replace(l.col[i], mark.size(), mark);
  }
  // A line of the drawing is one unit: wrapped, it would no longer be a drawing.
  auto line = [](std::string s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return unbroken("    " + s) + "\n";
  };
  std::string columns;
  if (l.any(Axis::columns)) {
    columns = std::string(margin + l.width + 2, ' ');
    for (auto& [col, text] : l.column_labels)
      if (columns.substr(margin + col, text.size() + 1).find_first_not_of(' ') == std::string::npos)
        columns.replace(margin + col, text.size(), text);
    columns = line(columns + joined_names(g, l, Axis::columns));
  }
  // Row labels are right-aligned in the margin, two spaces from the board.
  auto left = [&](const std::string& s) { return margin ? std::string(margin - 2 - s.size(), ' ') + s + "  " : ""; };
  // With free points drawn as their values, the list at the rows' ends stands further off,
  // so that it does not read as more points.
  size_t gap = l.on_point.empty() ? 1 : 4;
  std::string out;
  if (!rows_name.empty() || !listed_name.empty())
    out += line(left(rows_name) + std::string(l.width + 1 + gap, ' ') + listed_name);
  out += columns;
  for (size_t t = 0; t < grid.size(); ++t) {
    if (t % spread) out += line(left("") + grid[t]);
    else out += line(left(l.row_labels[t / spread]) + grid[t] + std::string(gap, ' ') + l.listed[t / spread]);
  }
  out += columns;
  out += "    " + pieces_legend(g) + "\n";
  out += "    " + legend_of_points(g, l) + "\n";
  std::string used;  // the characters the links are drawn with, "/ \\ |"
  for (char c : std::string("-|/\\"))
    if (std::any_of(links.grid.begin(), links.grid.end(), [&](const std::string& s) { return s.find(c) != std::string::npos; }))
      used += used.empty() ? std::string(1, c) : std::string{' ', c};
  if (links.drawn)
    out += "    " + used + " a link between two points" +
           (links.left_out ? "; some links cannot be drawn in text (the SVG, --svg, shows them all)" : "") + "\n";
  else if (links.left_out)
    out += "    the links between points are not drawn in text (the SVG, --svg, shows them)\n";
  return out;
}

std::string board_svg(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  if (b.kind < 0 || b.x.empty()) return "";
  int first = g.kinds[b.kind].first_card;
  Drawing l = drawing(g, v);
  // One unit of the rule file's coordinates is drawn so that the closest points are 40
  // pixels apart. Around the board: the caption and column labels above, row labels to
  // the left, listed coordinates to the right, column labels and the legend below.
  double closest = 1e18;
  for (size_t i = 0; i < l.x.size(); ++i)
    for (size_t j = i + 1; j < l.x.size(); ++j) {
      double dx = l.x[i] - l.x[j], dy = l.y[i] - l.y[j];
      if (dx * dx + dy * dy > 0) closest = std::min(closest, dx * dx + dy * dy);
    }
  double scale = closest < 1e18 ? 40.0 / std::sqrt(closest) : 40.0;
  size_t left_chars = 0, right_chars = 0;
  for (int r = 0; r < l.rows; ++r) left_chars = std::max(left_chars, l.row_labels[r].size()), right_chars = std::max(right_chars, l.listed[r].size());
  double left = 30 + 9.0 * static_cast<double>(left_chars), top = 60 + (l.any(Axis::columns) ? 20 : 0);
  int32_t minx = *std::min_element(l.x.begin(), l.x.end()), miny = *std::min_element(l.y.begin(), l.y.end());
  int32_t maxx = *std::max_element(l.x.begin(), l.x.end()), maxy = *std::max_element(l.y.begin(), l.y.end());
  auto px = [&](size_t i) { return left + (l.x[i] - minx) * scale; };
  auto py = [&](size_t i) { return top + (l.y[i] - miny) * scale; };
  double right = left + (maxx - minx) * scale, bottom = top + (maxy - miny) * scale;
  std::string cap = caption(g, v), why = reason(g, v), meanings = initials(g);
  int seats = static_cast<int>(v.eliminated.size());
  double legend_top = bottom + 30 + (l.any(Axis::columns) ? 20 : 0);
  double width = std::max({right + 30 + 9.0 * static_cast<double>(right_chars), 20 + 8.0 * static_cast<double>(cap.size()),
                           20 + 7.0 * static_cast<double>(why.size()),
                           20 + 8.0 * static_cast<double>(meanings.size() + 12), 40.0 + 60 * seats});
  double height = legend_top + 3 * 24 + 10;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" font-family=\"sans-serif\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f4ecd8\"/>\n"
      "<text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{}</text>\n",
      width, height, xml(g.name), xml(cap));
  // The reason under the caption, above the column labels (top leaves it room).
  if (!why.empty()) out += fmt::format("<text x=\"10\" y=\"44\" font-size=\"13\">{}</text>\n", xml(why));
  for (size_t i = 0; i < l.x.size(); ++i) {
    int c = first + static_cast<int>(i);
    if (g.link_start.empty()) break;
    for (int k = g.link_start[c]; k < g.link_start[c + 1]; ++k) {
      size_t j = static_cast<size_t>(g.link_to[k] - first);
      if (j <= i || j >= l.x.size()) continue;
      out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#8a7f6a\" stroke-width=\"2\"/>\n",
                         px(i), py(i), px(j), py(j));
    }
  }
  // The coordinates, as the text drawing labels them.
  std::vector<double> row_y(l.rows), col_x(l.width + 1, -1);
  for (size_t i = 0; i < l.x.size(); ++i) row_y[l.row[i]] = py(i), col_x[l.col[i]] = px(i);
  // Spaces kept and equally wide, so that a row's listed values stand as in the text.
  const char* label =
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" font-family=\"monospace\" fill=\"#5a5040\" text-anchor=\"{}\" "
      "xml:space=\"preserve\">{}</text>\n";
  for (int r = 0; r < l.rows; ++r) {
    if (!l.row_labels[r].empty()) out += fmt::format(fmt::runtime(label), left - 22, row_y[r] + 4, "end", xml(l.row_labels[r]));
    if (!l.listed[r].empty()) out += fmt::format(fmt::runtime(label), right + 25, row_y[r] + 4, "start", xml(l.listed[r]));
  }
  for (auto& [col, text] : l.column_labels)
    for (double y : {top - 24, bottom + 32}) out += fmt::format(fmt::runtime(label), col_x[col], y, "middle", xml(text));
  std::vector<int32_t> cards = board_cards(g, v);
  for (size_t i = 0; i < l.x.size(); ++i) {
    std::string name = xml(g.card_names[first + static_cast<int>(i)]);
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\" stroke=\"#3b3529\"><title>{}</title></circle>\n",
                       px(i), py(i), b.marked[i] ? 13 : 5, b.marked[i] ? "#e8c547" : "#3b3529", name);
    if (cards[i] == -1) continue;
    std::string title = cards[i] >= 0 ? xml(g.card_plain_names[cards[i]]) : "a hidden card";
    int owner = cards[i] >= 0 ? g.card_owner[cards[i]] : -1;
    out += fmt::format(
        "<g><title>{} on {}</title><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"15\" fill=\"{}\" stroke=\"#222\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"15\" text-anchor=\"middle\" fill=\"white\">{}</text></g>\n",
        title, name, px(i), py(i), seat_colour(owner), px(i), py(i) + 5, xml(piece_inside(g, cards[i])));
  }
  // The legend: the seats' colours, what a marked point is, what the initials stand for.
  out += "<g font-size=\"13\">\n";
  for (int p = 0; p < seats; ++p)
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"8\" fill=\"{}\"/><text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                       20.0 + 60 * p, legend_top, seat_colour(p), 32.0 + 60 * p, legend_top + 5, seat_name(p));
  std::string points = legend_of_points(g, l);
  points = points.substr(0, points.find('\n'));  // the SVG labels the coordinates itself
  if (std::count(b.marked.begin(), b.marked.end(), true))
    out += fmt::format("<circle cx=\"20\" cy=\"{:.1f}\" r=\"8\" fill=\"#e8c547\" stroke=\"#3b3529\"/><text x=\"32\" y=\"{:.1f}\">{}</text>\n",
                       legend_top + 24, legend_top + 29, xml(points.substr(points.find('*') + 2)));
  if (!meanings.empty()) out += fmt::format("<text x=\"12\" y=\"{:.1f}\">letters: {}</text>\n", legend_top + 53, xml(meanings));
  return out + "</g>\n</svg>\n";
}

}  // namespace kata
