// Drawings of a board (`board:` in a rule file), made from a view so that they show only
// what its viewer may see: as text for the terminal, and as SVG. Points stand where the
// rule file says; the top card of each point's zone is drawn on it.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <numeric>

#include "runtime/view.hpp"

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

// "1P": the owner's seat number (or '#' for a card nobody owns) and the first letter of
// the label property's value (or of the card's name).
std::string piece_label(const Game& g, int32_t c) {
  if (c == -2) return "??";
  std::string seat = g.card_owner[c] >= 0 ? std::to_string(g.card_owner[c] + 1) : "#";
  std::string word = g.board.label >= 0 ? g.symbol_name(g.card_props[g.board.label * g.card_count + c]) : g.card_names[c];
  return seat + (word.empty() ? "?" : word.substr(0, 1));
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

}  // namespace

std::string draw_board(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  if (b.kind < 0 || b.x.empty()) return "";
  // A row for each distinct y; columns in units of x, wide enough that two points of a
  // row are at least three characters apart (a label is two).
  std::vector<int32_t> ys = b.y;
  std::sort(ys.begin(), ys.end());
  ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
  int32_t ux = unit(b.x), minx = *std::min_element(b.x.begin(), b.x.end());
  int32_t maxx = *std::max_element(b.x.begin(), b.x.end()), closest = INT32_MAX;
  for (size_t i = 0; i < b.x.size(); ++i)
    for (size_t j = i + 1; j < b.x.size(); ++j)
      if (b.y[i] == b.y[j] && b.x[i] != b.x[j]) closest = std::min(closest, std::abs(b.x[i] - b.x[j]) / ux);
  int width = closest == INT32_MAX ? 1 : (3 + closest - 1) / closest;
  std::vector<std::string> grid(ys.size(), std::string((maxx - minx) / ux * width + 3, ' '));
  std::vector<int32_t> cards = board_cards(g, v);
  for (size_t i = 0; i < b.x.size(); ++i) {
    int col = (b.x[i] - minx) / ux * width;
    int row = static_cast<int>(std::lower_bound(ys.begin(), ys.end(), b.y[i]) - ys.begin());
    std::string mark = cards[i] != -1 ? piece_label(g, cards[i]) : b.marked[i] ? "*" : ".";
    grid[row].replace(col, mark.size(), mark);
  }
  std::string out;
  for (auto& line : grid) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += "    " + line + "\n";
  }
  out += "    (a piece: its player's number and initial; . a free point";
  out += std::count(b.marked.begin(), b.marked.end(), true) ? ", * a marked one)\n" : ")\n";
  return out;
}

std::string board_svg(const Game& g, const PlayerView& v) {
  const BoardInfo& b = g.board;
  if (b.kind < 0 || b.x.empty()) return "";
  int first = g.kinds[b.kind].first_card;
  // One unit of the rule file's coordinates is drawn so that the closest points are 40
  // pixels apart.
  double closest = 1e18;
  for (size_t i = 0; i < b.x.size(); ++i)
    for (size_t j = i + 1; j < b.x.size(); ++j) {
      double dx = b.x[i] - b.x[j], dy = b.y[i] - b.y[j];
      if (dx * dx + dy * dy > 0) closest = std::min(closest, dx * dx + dy * dy);
    }
  double scale = closest < 1e18 ? 40.0 / std::sqrt(closest) : 40.0, margin = 30;
  int32_t minx = *std::min_element(b.x.begin(), b.x.end()), miny = *std::min_element(b.y.begin(), b.y.end());
  int32_t maxx = *std::max_element(b.x.begin(), b.x.end()), maxy = *std::max_element(b.y.begin(), b.y.end());
  auto px = [&](size_t i) { return margin + (b.x[i] - minx) * scale; };
  auto py = [&](size_t i) { return margin + (b.y[i] - miny) * scale; };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" font-family=\"sans-serif\">\n"
      "<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#f4ecd8\"/>\n",
      2 * margin + (maxx - minx) * scale, 2 * margin + (maxy - miny) * scale, g.name);
  for (size_t i = 0; i < b.x.size(); ++i) {
    int c = first + static_cast<int>(i);
    if (g.link_start.empty()) break;
    for (int k = g.link_start[c]; k < g.link_start[c + 1]; ++k) {
      size_t j = static_cast<size_t>(g.link_to[k] - first);
      if (j <= i || j >= b.x.size()) continue;
      out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#8a7f6a\" stroke-width=\"2\"/>\n",
                         px(i), py(i), px(j), py(j));
    }
  }
  std::vector<int32_t> cards = board_cards(g, v);
  for (size_t i = 0; i < b.x.size(); ++i) {
    std::string name = g.card_names[first + static_cast<int>(i)];
    out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" fill=\"{}\" stroke=\"#3b3529\"><title>{}</title></circle>\n",
                       px(i), py(i), b.marked[i] ? 13 : 5, b.marked[i] ? "#e8c547" : "#3b3529", name);
    if (cards[i] == -1) continue;
    std::string label = piece_label(g, cards[i]);
    std::string title = cards[i] >= 0 ? g.card_names[cards[i]] : "a hidden card";
    int owner = cards[i] >= 0 ? g.card_owner[cards[i]] : -1;
    out += fmt::format(
        "<g><title>{} on {}</title><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"15\" fill=\"{}\" stroke=\"#222\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"15\" text-anchor=\"middle\" fill=\"white\">{}</text></g>\n",
        title, name, px(i), py(i), seat_colour(owner), px(i), py(i) + 5, label.substr(1));
  }
  return out + "</svg>\n";
}

}  // namespace kata
