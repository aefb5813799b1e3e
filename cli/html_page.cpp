// The drawing kit: the rows of a chart are laid out once (row_places), then each kind of
// chart draws its marks at them. Numbers are printed with fmt's fixed formats, which do not
// depend on the locale, and coordinates with one decimal.
#include "html_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "report_html.hpp"

namespace kata::cli::html {

// ---- Reading the result: a missing or mistyped field reads as null, 0 or "".

const json& field(const json& j, const char* key) {
  static const json none;
  return j.is_object() && j.contains(key) ? j.at(key) : none;
}

double number(const json& j, double otherwise) {
  return j.is_number() ? j.get<double>() : otherwise;
}

int64_t integer(const json& j) {
  if (j.is_number_integer()) return j.get<int64_t>();
  double v = number(j);
  return std::fabs(v) < 9e18 ? std::llround(v) : 0;
}

std::string text(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

// [[value, count], ...] as the JSON's raw counts hold them.
std::vector<std::pair<int64_t, int64_t>> pairs(const json& j) {
  std::vector<std::pair<int64_t, int64_t>> out;
  if (!j.is_array()) return out;
  for (const json& p : j)
    if (p.is_array() && p.size() == 2 && p[0].is_number_integer() && p[1].is_number_integer())
      out.emplace_back(p[0].get<int64_t>(), p[1].get<int64_t>());
  return out;
}

const json& list(const json& j) {
  static const json none = json::array();
  return j.is_array() ? j : none;
}

// ---- Numbers as text.

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "–";
  std::string s = fmt::format("{:.{}f}", v, digits);
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // no "-0.0"
  return s;
}

std::string percent(double share, int digits) { return fixed(100 * share, digits) + "%"; }

// 1234567 -> "1,234,567".
std::string grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// A number that may have a fraction (a shared win counts 1/k): as an integer when it is one.
std::string amount(double v) {
  return v == std::floor(v) && std::fabs(v) < 1e15 ? grouped(static_cast<int64_t>(v)) : fixed(v, 1);
}

namespace {

// ---- Text in charts: labels are cut to fit, the whole name stays in the tooltip.

size_t code_points(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string cut(const std::string& s, size_t most) {
  if (code_points(s) <= most) return s;
  size_t kept = 0, i = 0;
  for (; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && ++kept > most - 1) break;
  return s.substr(0, i) + "…";
}

constexpr double char_width = 7.0;  // a 12px sans-serif character, on average, rounded up
constexpr size_t label_chars = 26;  // longer labels are cut

double label_width(const std::vector<std::string>& labels) {
  size_t most = 4;
  for (const auto& l : labels) most = std::max(most, std::min(code_points(l), label_chars));
  return 12 + char_width * static_cast<double>(most);
}

// ---- Axes: ticks at 1, 2 or 5 times a power of ten, at most about 6 of them.

struct Axis {
  double low = 0, high = 1, step = 1;
  double at(double v, double x0, double x1) const {
    return high > low ? x0 + (v - low) / (high - low) * (x1 - x0) : x0;
  }
};

double nice_step(double span) {
  if (!(span > 0)) return 1;
  double raw = span / 6, power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

Axis nice_axis(double low, double high, bool whole = false) {
  if (!(high > low)) high = low + 1;
  double step = nice_step(high - low);
  if (whole) step = std::max(1.0, std::round(step));
  return {std::floor(low / step) * step, std::ceil(high / step) * step, step};
}

// Tick values of an axis (its ends included), as they are written.
std::vector<std::pair<double, std::string>> ticks(const Axis& a, bool as_percent) {
  std::vector<std::pair<double, std::string>> out;
  int digits = a.step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(a.step) - 1e-9));
  int count = static_cast<int>(std::llround((a.high - a.low) / a.step));
  for (int i = 0; i <= count && i <= 50; ++i) {
    double v = a.low + i * a.step;
    out.emplace_back(v, as_percent ? percent(v, std::max(0, digits - 2)) : fixed(v, digits));
  }
  return out;
}

// ---- SVG: one picture with a title (its accessible name) and a description.

std::string c(double v) { return fixed(v, 1); }  // a coordinate

// "Win rate by seat" -> "win-rate-by-seat": an id made of a chart's title (titles differ).
std::string slug(const std::string& title) {
  std::string out;
  for (char ch : title)
    if (std::isalnum(static_cast<unsigned char>(ch)) && static_cast<unsigned char>(ch) < 0x80)
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

class Svg {
 public:
  Svg(double width, double height, const std::string& title, const std::string& desc)
      : width_(width), height_(height) {
    std::string id = slug(title);
    out_ = fmt::format(
        "<svg class=\"chart\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{}-t {}-d\">"
        "<title id=\"{}-t\">{}</title><desc id=\"{}-d\">{}</desc>\n",
        c(width), c(height), id, id, id, html_escape(title), id, html_escape(desc));
  }

  void rect(double x, double y, double w, double h, const char* cls, const std::string& tip = "") {
    out_ += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">", cls,
                        c(x), c(y), c(std::max(0.0, w)), c(std::max(0.0, h)));
    out_ += (tip.empty() ? "" : "<title>" + html_escape(tip) + "</title>") + "</rect>\n";
  }
  void line(double x1, double y1, double x2, double y2, const char* cls) {
    out_ += fmt::format("<line class=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", cls,
                        c(x1), c(y1), c(x2), c(y2));
  }
  void circle(double x, double y, double r, const char* cls, const std::string& tip = "") {
    out_ +=
        fmt::format("<circle class=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\">", cls, c(x), c(y), c(r));
    out_ += (tip.empty() ? "" : "<title>" + html_escape(tip) + "</title>") + "</circle>\n";
  }
  // `anchor`: start, middle or end.
  void label(double x, double y, const std::string& s, const char* anchor, const char* cls = "t",
             const std::string& tip = "") {
    out_ += fmt::format("<text class=\"{}\" x=\"{}\" y=\"{}\" text-anchor=\"{}\">", cls, c(x), c(y),
                        anchor);
    out_ += (tip.empty() ? "" : "<title>" + html_escape(tip) + "</title>") + html_escape(s) +
            "</text>\n";
  }
  std::string done() { return "<div class=\"figure\">" + out_ + "</svg></div>\n"; }
  double width() const { return width_; }
  double height() const { return height_; }

 private:
  double width_, height_;
  std::string out_;
};

constexpr double chart_width = 720;

// A horizontal axis along y from x0 to x1, with its ticks as grid lines up to `top`.
void x_axis(Svg& svg, const Axis& a, double x0, double x1, double top, double y, bool as_percent) {
  for (auto& [v, name] : ticks(a, as_percent)) {
    double x = a.at(v, x0, x1);
    svg.line(x, top, x, y, "grid");
    svg.label(x, y + 14, name, "middle", "t small");
  }
  svg.line(x0, y, x1, y, "axis");
}

// ---- Rows: where each row of a chart goes, and its label.

using Names = std::vector<std::pair<std::string, std::string>>;  // label and side of each row

template <class Row>
Names names_of(const std::vector<Row>& rows) {
  Names out;
  for (const Row& r : rows) out.emplace_back(r.label, r.side);
  return out;
}

bool sided(const Names& names) {
  return std::any_of(names.begin(), names.end(), [](auto& n) { return !n.second.empty(); });
}

// A row starts a group unless it continues its predecessor's label in a comparison.
bool starts_group(const Names& names, size_t i) {
  return i == 0 || names[i].second.empty() || names[i].first != names[i - 1].first;
}

struct Places {
  std::vector<double> top;  // of each row
  double bottom = 0;        // below the last
  double left = 0;          // where the bars start: the labels' column is left of it
};

Places row_places(const Names& names, double first, double height) {
  Places at;
  std::vector<std::string> labels;
  double y = first;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i && starts_group(names, i) && sided(names)) y += 8;
    at.top.push_back(y);
    y += height;
    labels.push_back(names[i].first);
  }
  at.bottom = y;
  at.left = label_width(labels) + (sided(names) ? 18 : 0);
  return at;
}

// Each group's label once, at its middle (in the warning colour when every row of it is
// `warn`), and each row's side beside the axis.
void row_labels(Svg& svg, const Names& names, const Places& at, double height,
                const std::vector<bool>& warn = {}) {
  bool two = sided(names);
  for (size_t i = 0, end; i < names.size(); i = end) {
    bool all_warn = !warn.empty();
    for (end = i; end < names.size() && (end == i || !starts_group(names, end)); ++end)
      all_warn = all_warn && warn[end];
    double mid = (at.top[i] + at.top[end - 1] + height) / 2;
    const std::string& label = names[i].first;
    svg.label(at.left - 8 - (two ? 16 : 0), mid + 4, cut(label, label_chars), "end",
              all_warn ? "t warn" : "t", label);
  }
  if (two)
    for (size_t i = 0; i < names.size(); ++i)
      svg.label(at.left - 6, at.top[i] + height / 2 + 4, names[i].second, "end",
                names[i].second == "B" ? "t small tag-b" : "t small tag-a");
}

bool side_b(const std::string& side) { return side == "B"; }

}  // namespace

// ---- Bars with 95% intervals.

std::string interval_chart(const std::vector<IntervalRow>& rows, double reference,
                           const std::string& reference_text, const std::string& title,
                           const std::string& desc) {
  Names names = names_of(rows);
  double most = reference;
  for (const auto& r : rows) most = std::max(most, r.high);
  double right = 190, row = sided(names) ? 22 : 28, top = 24;
  Places at = row_places(names, top, row);
  double x0 = at.left, x1 = chart_width - right, bottom = at.bottom;
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a = nice_axis(0, std::min(1.0, std::max(0.05, most * 1.1)));
  a.high = std::min(a.high, 1.0);
  x_axis(svg, a, x0, x1, top - 4, bottom, true);
  row_labels(svg, names, at, row);
  double cap = row / 2 - 8;
  for (size_t i = 0; i < rows.size(); ++i) {
    const IntervalRow& r = rows[i];
    double y = at.top[i], mid = y + row / 2;
    svg.rect(x0, y + 6, a.at(r.value, x0, x1) - x0, row - 12, side_b(r.side) ? "bar bbar" : "bar",
             r.tip);
    double lo = a.at(r.low, x0, x1), hi = a.at(r.high, x0, x1);
    svg.line(lo, mid, hi, mid, "whisker");
    svg.line(lo, mid - cap, lo, mid + cap, "whisker");
    svg.line(hi, mid - cap, hi, mid + cap, "whisker");
    svg.label(x1 + 10, mid + 4, r.value_text, "start");
  }
  double xr = a.at(reference, x0, x1);
  svg.line(xr, top - 6, xr, bottom, "reference");
  svg.label(xr, top - 10, reference_text, "middle", "t small reftext");
  return svg.done();
}

// ---- Shares.

std::string share_chart(std::vector<ShareRow> rows, bool sorted, const std::string& title,
                        const std::string& desc) {
  if (sorted)
    std::stable_sort(rows.begin(), rows.end(), [](const ShareRow& a, const ShareRow& b) {
      return a.legal != b.legal ? a.legal : a.share > b.share;
    });
  Names names = names_of(rows);
  std::vector<bool> warn;
  for (const auto& r : rows) warn.push_back(!r.chosen);
  double right = 210, row = 22, top = 10;
  Places at = row_places(names, top, row);
  double x0 = at.left, x1 = chart_width - right, bottom = at.bottom;
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a{0, 1, 0.25};
  x_axis(svg, a, x0, x1, top, bottom, true);
  row_labels(svg, names, at, row, warn);
  for (size_t i = 0; i < rows.size(); ++i) {
    const ShareRow& r = rows[i];
    double y = at.top[i], mid = y + row / 2;
    if (!r.legal) {
      svg.label(x0 + 6, mid + 4, "never legal", "start", "t warn");
      continue;
    }
    std::string who = r.side.empty() ? r.label : r.label + " (" + r.side + ")";
    std::string tip =
        r.counted ? fmt::format("{}: chosen at {} of the {} decisions where it was legal ({})", who,
                                grouped(r.chosen), grouped(r.times_legal), percent(r.share))
                  : fmt::format("{}: chosen at {} of the decisions where it was legal", who,
                                percent(r.share));
    svg.rect(x0, y + 4, a.at(r.share, x0, x1) - x0, row - 8,
             !r.chosen        ? "bar warnbar"
             : side_b(r.side) ? "bar bbar"
                              : "bar",
             tip);
    svg.label(x1 + 10, mid + 4, percent(r.share), "start");
    if (r.counted)
      svg.label(chart_width - 6, mid + 4, grouped(r.chosen) + " / " + grouped(r.times_legal), "end",
                "t small muted");
  }
  return svg.done();
}

// ---- Histograms: the counts [[value, n], ...] in at most 40 columns of equal width, with
// vertical lines at marked values (quartiles, mean).

std::string histogram_chart(const std::vector<std::pair<int64_t, int64_t>>& counts,
                            const std::vector<Marker>& markers, const std::string& what,
                            const std::string& title, const std::string& desc) {
  int64_t low = counts.front().first, high = counts.back().first;
  int64_t width = (high - low) / 40 + 1, columns = (high - low) / width + 1;
  std::map<int64_t, int64_t> bins;
  for (auto& [v, n] : counts) bins[(v - low) / width] += n;
  int64_t most = 1;
  for (auto& [b, n] : bins) most = std::max(most, n);
  double left = 12 + char_width * static_cast<double>(grouped(most).size() + 1), top = 40;
  double x0 = left, x1 = chart_width - 16, y1 = 230,
         column = (x1 - x0) / static_cast<double>(columns);
  Svg svg(chart_width, y1 + 42, title, desc);
  Axis a = nice_axis(0, static_cast<double>(most), true);
  for (auto& [v, name] : ticks(a, false)) {
    double y = a.at(v, y1, top);
    svg.line(x0, y, x1, y, "grid");
    svg.label(x0 - 6, y + 4, grouped(static_cast<int64_t>(v)), "end", "t small");
  }
  auto range = [&](int64_t b) {
    int64_t from = low + b * width;
    return width == 1 ? grouped(from) : grouped(from) + "–" + grouped(from + width - 1);
  };
  for (auto& [b, n] : bins) {
    double x = x0 + column * static_cast<double>(b);
    svg.rect(x + (column > 4 ? 1 : 0), a.at(static_cast<double>(n), y1, top),
             column - (column > 4 ? 2 : 0), y1 - a.at(static_cast<double>(n), y1, top), "bar",
             fmt::format("{} {}: {} games", what, range(b), grouped(n)));
  }
  svg.line(x0, y1, x1, y1, "axis");
  // About 8 labels under the columns, each at its column's middle.
  int64_t every = std::max<int64_t>(1, (columns + 7) / 8);
  for (int64_t b = 0; b < columns; b += every)
    svg.label(x0 + column * (static_cast<double>(b) + 0.5), y1 + 14, range(b), "middle", "t small");
  svg.label((x0 + x1) / 2, y1 + 34, what, "middle", "t small muted");
  // A value v lies at the middle of its own column when the columns are one value wide.
  // Markers at the same value share one line and one label ("Q1 = median").
  std::map<double, std::pair<std::string, const char*>> at;
  for (const Marker& m : markers) {
    auto& [name, cls] = at[m.value];
    name += (name.empty() ? "" : " = ") + m.name;
    if (!cls) cls = m.cls;
  }
  int row = 0;
  for (auto& [v, m] : at) {
    double place = (v - static_cast<double>(low) + 0.5) / static_cast<double>(width);
    double x = x0 + column * std::clamp(place, 0.0, static_cast<double>(columns));
    double y = 14 + 13 * (row++ % 2);
    svg.line(x, 32, x, y1, m.second);
    svg.label(
        x, y, m.first, "middle",
        std::string_view(m.second) == "meanline" ? "t small marker reftext" : "t small marker");
  }
  return svg.done();
}

// ---- Spreads.

std::string spread_chart(const std::vector<SpreadRow>& rows, const std::string& title,
                         const std::string& desc) {
  Names names = names_of(rows);
  double least = 0, most = 1;
  for (size_t i = 0; i < rows.size(); ++i) {
    least = i ? std::min(least, rows[i].min) : rows[i].min;
    most = i ? std::max(most, rows[i].max) : rows[i].max;
  }
  double right = 220, row = sided(names) ? 24 : 30, top = 10;
  Places at = row_places(names, top, row);
  double x0 = at.left, x1 = chart_width - right, bottom = at.bottom;
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a = nice_axis(std::min(least, 0.0), most);
  x_axis(svg, a, x0, x1, top, bottom, false);
  row_labels(svg, names, at, row);
  double inset = sided(names) ? 5 : 7, cap = row / 2 - inset - 3;
  for (size_t i = 0; i < rows.size(); ++i) {
    const SpreadRow& r = rows[i];
    double y = at.top[i], mid = y + row / 2;
    auto x = [&](double v) { return a.at(std::clamp(v, r.min, r.max), x0, x1); };
    svg.line(x(r.min), mid, x(r.max), mid, "whisker");
    svg.line(x(r.min), mid - cap, x(r.min), mid + cap, "whisker");
    svg.line(x(r.max), mid - cap, x(r.max), mid + cap, "whisker");
    svg.rect(x(r.box_low), y + inset, x(r.box_high) - x(r.box_low), row - 2 * inset,
             side_b(r.side) ? "box bbox" : "box", r.tip);
    svg.line(x(r.mid), y + inset, x(r.mid), y + row - inset, "median");
    svg.circle(x(r.mean), mid, 3.5, "mean", r.tip);
    svg.label(x1 + 10, mid + 4, r.value_text, "start");
  }
  return svg.done();
}

// ---- Differences.

std::string difference_chart(const std::vector<DifferenceRow>& rows, bool as_percent,
                             const std::string& title, const std::string& desc) {
  double least = 0, most = 0;
  for (const DifferenceRow& r : rows)
    if (r.has) {
      least = std::min({least, r.estimate, r.tested ? r.low : 0.0});
      most = std::max({most, r.estimate, r.tested ? r.high : 0.0});
    }
  if (!(most - least > 1e-12)) least = as_percent ? -0.01 : -1, most = -least;  // all 0
  Names names;
  for (const auto& r : rows) names.emplace_back(r.label, "");
  double right = 230, row = 26, top = 24;
  Places at = row_places(names, top, row);
  double x0 = at.left, x1 = chart_width - right, bottom = at.bottom;
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a = nice_axis(least, most);
  x_axis(svg, a, x0, x1, top - 4, bottom, as_percent);
  row_labels(svg, names, at, row);
  double zero = a.at(0, x0, x1);
  svg.line(zero, top - 6, zero, bottom, "zero");
  svg.label(zero, top - 10, "no difference", "middle", "t small muted");
  for (size_t i = 0; i < rows.size(); ++i) {
    const DifferenceRow& r = rows[i];
    double mid = at.top[i] + row / 2;
    if (!r.has) {
      svg.label(x0 + 6, mid + 4, "not on both sides", "start", "t muted");
      continue;
    }
    if (r.tested) {
      const char* cls = r.significant ? "whisker sig" : "whisker";
      double lo = a.at(r.low, x0, x1), hi = a.at(r.high, x0, x1);
      svg.line(lo, mid, hi, mid, cls);
      svg.line(lo, mid - 6, lo, mid + 6, cls);
      svg.line(hi, mid - 6, hi, mid + 6, cls);
    }
    svg.circle(a.at(r.estimate, x0, x1), mid, 4, r.significant ? "diff sig" : "diff", r.tip);
    svg.label(x1 + 10, mid + 4, r.value_text, "start", r.significant ? "t sigtext" : "t");
  }
  return svg.done();
}

// ---- Rows and sentences from kata simulate --json.

namespace {

std::pair<double, double> ends(const json& ci) {
  bool two = ci.is_array() && ci.size() == 2;
  return {two ? number(ci[0]) : 0, two ? number(ci[1], 1) : 1};
}

}  // namespace

std::string interval_text(const json& ci) {
  auto [low, high] = ends(ci);
  return fmt::format("[{}, {}]", percent(low), percent(high));
}

IntervalRow rate_row(const std::string& label, double rate, const json& ci, const std::string& tip,
                     const std::string& side) {
  auto [low, high] = ends(ci);
  return {label, rate, low, high, percent(rate) + "  " + interval_text(ci), tip, side};
}

IntervalRow seat_win_row(const json& seat, const std::string& side) {
  std::string name = text(field(seat, "seat"));
  double rate = number(field(seat, "win_rate"));
  const json& ci = field(seat, "win_rate_95");
  return rate_row(
      name, rate, ci,
      fmt::format("{}{} ({}): {} wins, {}; 95% interval {}", name, side.empty() ? "" : " " + side,
                  text(field(seat, "agent")), amount(number(field(seat, "wins"))), percent(rate),
                  interval_text(ci)),
      side);
}

SpreadRow seat_score_row(const json& seat, const std::string& side) {
  const json& sc = field(seat, "score");
  double m = number(field(sc, "mean")), sd = number(field(sc, "stdev"));
  std::string name = text(field(seat, "seat")), low = amount(number(field(sc, "min"))),
              high = amount(number(field(sc, "max")));
  return {name,
          number(field(sc, "min")),
          m - sd,
          m,
          m + sd,
          number(field(sc, "max")),
          m,
          fmt::format("{} ± {} ({} to {})", fixed(m, 2), fixed(sd, 2), low, high),
          fmt::format("{}{}: mean {}, stdev {}, min {}, max {}", name,
                      side.empty() ? "" : " " + side, fixed(m, 2), fixed(sd, 2), low, high),
          side};
}

std::string spread_text(const json& d) {
  return fmt::format("min {}, quartiles {} {} {}, max {}; mean {}, stdev {}",
                     amount(number(field(d, "min"))), amount(number(field(d, "q1"))),
                     amount(number(field(d, "median"))), amount(number(field(d, "q3"))),
                     amount(number(field(d, "max"))), fixed(number(field(d, "mean")), 2),
                     fixed(number(field(d, "stdev")), 2));
}

SpreadRow distribution_row(const std::string& label, const json& d, const std::string& side) {
  return {label,
          number(field(d, "min")),
          number(field(d, "q1")),
          number(field(d, "median")),
          number(field(d, "q3")),
          number(field(d, "max")),
          number(field(d, "mean")),
          fmt::format("median {}, mean {}", integer(field(d, "median")),
                      fixed(number(field(d, "mean")), 2)),
          (side.empty() ? "" : side + ": ") + spread_text(d),
          side};
}

std::string agents_text(const json& agents) {
  if (!agents.is_array() || agents.empty()) return "random on every seat (the fast path)";
  std::string out;
  for (size_t p = 0; p < agents.size(); ++p)
    out += fmt::format("{}P{} {}", p ? ", " : "", p + 1, text(agents[p]));
  return out;
}

std::string order_verdict(const json& order) {
  if (!order.is_object()) return "The seat-order test needs two seats and some wins.";
  double p = number(field(order, "p_value"), 1);
  return fmt::format("Seat order: chi-square {} ({} df), p = {}: {}.",
                     fixed(number(field(order, "chi_square")), 2), integer(field(order, "df")),
                     fmt::format("{:.3g}", p),
                     p < 0.05 ? "the seats' win rates differ (5% level)"
                              : "no evidence that seat order matters (5% level)");
}

// ---- The page.

namespace {

const char* const style = R"(
:root{color-scheme:light dark;--fg:#1c2430;--muted:#5b6675;--bg:#fbfbfa;--card:#fff;--line:#d9dde3;
--bar:#3f6fb0;--box:#a9c6ea;--ref:#b8322a;--warn:#a15c00;--warnbg:#fff4e0;--bside:#d9822b;--bbox:#f5cfa6}
@media (prefers-color-scheme:dark){:root{--fg:#e4e7eb;--muted:#9aa4b1;--bg:#15181c;--card:#1d2127;
--line:#39404a;--bar:#6f9ee0;--box:#37577f;--ref:#ef6a5f;--warn:#f0a640;--warnbg:#33280f;--bside:#f2a65a;
--bbox:#6b4a23}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
main{max-width:960px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:1.8em;margin:.2em 0 .1em;overflow-wrap:anywhere}
h2{font-size:1.3em;margin:0 0 .5em;padding-bottom:.2em;border-bottom:1px solid var(--line)}
h3{font-size:1.05em;margin:1.2em 0 .4em}
section,header{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 20px;margin:16px 0}
.sub{color:var(--muted);margin:0 0 1em}
.doc{white-space:pre-line;border-left:3px solid var(--line);padding-left:12px;color:var(--muted)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
@media (max-width:560px){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:6px}}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em}
nav ul{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;padding:0;margin:0}
nav a{color:var(--bar)}
.figure{overflow-x:auto}
svg.chart{display:block;width:100%;min-width:600px;height:auto}
svg .t{font-size:12px;fill:var(--fg)}svg .small{font-size:11px}svg .muted{fill:var(--muted)}
svg .warn{fill:var(--warn)}svg .marker{fill:var(--fg);font-weight:600}svg .reftext{fill:var(--ref)}
svg .bar{fill:var(--bar)}svg .warnbar{fill:var(--warn)}svg .box{fill:var(--box);stroke:var(--bar)}
svg .grid{stroke:var(--line);stroke-width:1}svg .axis{stroke:var(--muted);stroke-width:1}
svg .whisker{stroke:var(--fg);stroke-width:1.5}svg .median{stroke:var(--fg);stroke-width:2}
svg .mean{fill:var(--ref)}svg .reference{stroke:var(--ref);stroke-width:1.5;stroke-dasharray:5 4}
svg .quartile{stroke:var(--fg);stroke-width:1.5;stroke-dasharray:4 3}svg .meanline{stroke:var(--ref);stroke-width:1.5}
svg .bbar{fill:var(--bside)}svg .bbox{fill:var(--bbox);stroke:var(--bside)}
svg .tag-a{fill:var(--bar);font-weight:600}svg .tag-b{fill:var(--bside);font-weight:600}
svg .zero{stroke:var(--muted);stroke-width:1.5;stroke-dasharray:5 4}svg .diff{fill:var(--fg)}
svg .whisker.sig{stroke:var(--ref);stroke-width:2}svg .diff.sig{fill:var(--ref)}
svg .sigtext{fill:var(--ref);font-weight:600}
.key{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-.1em;margin-right:.35em}
.key.a{background:var(--bar)}.key.b{background:var(--bside)}
td.sig{color:var(--ref);font-weight:600}.legend{margin:.8em 0 0}
.table{overflow-x:auto}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.5em 0}
th,td{padding:3px 10px;text-align:right;border-bottom:1px solid var(--line);white-space:nowrap}
th:first-child,td:first-child{text-align:left}
.verdict{font-weight:600}.note{color:var(--muted);font-size:.92em}
ul.warnings{list-style:none;padding:0}
ul.warnings li{background:var(--warnbg);border-left:4px solid var(--warn);padding:4px 10px;margin:4px 0;overflow-wrap:anywhere}
ul.errors li{overflow-wrap:anywhere;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
footer{color:var(--muted);font-size:.9em;text-align:center}
)";

}  // namespace

void Page::fact(const std::string& name, const std::string& value_html) {
  out += "<dt>" + html_escape(name) + "</dt><dd>" + value_html + "</dd>\n";
}

void Page::open(const char* id, const std::string& heading) {
  out += fmt::format("<section id=\"{}\" aria-labelledby=\"{}-h\"><h2 id=\"{}-h\">{}</h2>\n", id,
                     id, id, html_escape(heading));
}

void Page::close() { out += "</section>\n"; }

void Page::para(const std::string& s, const char* cls) {
  out +=
      std::string(*cls ? fmt::format("<p class=\"{}\">", cls) : "<p>") + html_escape(s) + "</p>\n";
}

void Page::contents(const std::vector<std::pair<const char*, const char*>>& sections) {
  out += "<nav aria-label=\"Sections\"><ul>";
  for (auto [id, name] : sections) out += fmt::format("<li><a href=\"#{}\">{}</a></li>", id, name);
  out += "</ul></nav>\n";
}

std::string page_start(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"kata " KATA_VERSION "\">\n<title>" +
         html_escape(title) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n<main>\n";
}

std::string page_end(const std::string& note) {
  return "<footer><p>" + html_escape(note) + "</p></footer>\n</main>\n</body>\n</html>\n";
}

}  // namespace kata::cli::html
