// The HTML report: the page's sections in reading order (header, summary, wins, scores,
// length, actions and components, dead rules, lead, errors), each drawn by one of a few
// chart kinds (bars with intervals, shares, histograms, spreads). Numbers are printed
// with fmt's fixed formats, which do not depend on the locale, and coordinates with one
// decimal, so the same JSON always gives the same bytes.
#include "report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <utility>

namespace kata::cli {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          out += "\xEF\xBF\xBD";  // U+FFFD
        else
          out += c;
    }
  }
  return out;
}

namespace {

using json = nlohmann::json;

// ---- Reading the result: a missing or mistyped field reads as null, 0 or "".

const json& field(const json& j, const char* key) {
  static const json none;
  return j.is_object() && j.contains(key) ? j.at(key) : none;
}

double number(const json& j, double otherwise = 0) {
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

// ---- Numbers as text.

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "–";
  std::string s = fmt::format("{:.{}f}", v, digits);
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);  // no "-0.0"
  return s;
}

std::string percent(double share, int digits = 1) { return fixed(100 * share, digits) + "%"; }

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

// ---- Bars with 95% intervals (win rates): a bar to the rate, whiskers to the interval's
// ends, and a dashed line at the equal share.

struct IntervalRow {
  std::string label;
  double value = 0, low = 0, high = 0;
  std::string value_text, tip;
};

std::string interval_chart(const std::vector<IntervalRow>& rows, double reference,
                           const std::string& reference_text, const std::string& title,
                           const std::string& desc) {
  std::vector<std::string> labels;
  double most = reference;
  for (const auto& r : rows) labels.push_back(r.label), most = std::max(most, r.high);
  double left = label_width(labels), right = 190, row = 28, top = 24;
  double x0 = left, x1 = chart_width - right, bottom = top + row * static_cast<double>(rows.size());
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a = nice_axis(0, std::min(1.0, std::max(0.05, most * 1.1)));
  a.high = std::min(a.high, 1.0);
  x_axis(svg, a, x0, x1, top - 4, bottom, true);
  for (size_t i = 0; i < rows.size(); ++i) {
    const IntervalRow& r = rows[i];
    double y = top + row * static_cast<double>(i), mid = y + row / 2;
    svg.label(x0 - 8, mid + 4, cut(r.label, label_chars), "end", "t", r.label);
    svg.rect(x0, y + 6, a.at(r.value, x0, x1) - x0, row - 12, "bar", r.tip);
    double lo = a.at(r.low, x0, x1), hi = a.at(r.high, x0, x1);
    svg.line(lo, mid, hi, mid, "whisker");
    svg.line(lo, mid - 6, lo, mid + 6, "whisker");
    svg.line(hi, mid - 6, hi, mid + 6, "whisker");
    svg.label(x1 + 10, mid + 4, r.value_text, "start");
  }
  double xr = a.at(reference, x0, x1);
  svg.line(xr, top - 6, xr, bottom, "reference");
  svg.label(xr, top - 10, reference_text, "middle", "t small reftext");
  return svg.done();
}

// ---- Shares (actions, components): one bar per row on a 0-100% scale, sorted from the
// most chosen; rows never legal come last, marked.

struct ShareRow {
  std::string label;
  bool legal = false;  // legal at some decision (share is then chosen / legal)
  double share = 0;
  int64_t chosen = 0, times_legal = 0;
};

std::string share_chart(std::vector<ShareRow> rows, const std::string& title,
                        const std::string& desc) {
  std::stable_sort(rows.begin(), rows.end(), [](const ShareRow& a, const ShareRow& b) {
    return a.legal != b.legal ? a.legal : a.share > b.share;
  });
  std::vector<std::string> labels;
  for (const auto& r : rows) labels.push_back(r.label);
  double left = label_width(labels), right = 210, row = 22, top = 10;
  double x0 = left, x1 = chart_width - right, bottom = top + row * static_cast<double>(rows.size());
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a{0, 1, 0.25};
  x_axis(svg, a, x0, x1, top, bottom, true);
  for (size_t i = 0; i < rows.size(); ++i) {
    const ShareRow& r = rows[i];
    double y = top + row * static_cast<double>(i), mid = y + row / 2;
    svg.label(x0 - 8, mid + 4, cut(r.label, label_chars), "end", r.chosen ? "t" : "t warn",
              r.label);
    if (!r.legal) {
      svg.label(x0 + 6, mid + 4, "never legal", "start", "t warn");
      continue;
    }
    std::string counts = grouped(r.chosen) + " / " + grouped(r.times_legal);
    svg.rect(x0, y + 4, a.at(r.share, x0, x1) - x0, row - 8, r.chosen ? "bar" : "bar warnbar",
             fmt::format("{}: chosen at {} of the {} decisions where it was legal ({})", r.label,
                         grouped(r.chosen), grouped(r.times_legal), percent(r.share)));
    svg.label(x1 + 10, mid + 4, percent(r.share), "start");
    svg.label(chart_width - 6, mid + 4, counts, "end", "t small muted");
  }
  return svg.done();
}

// ---- Histograms: the counts [[value, n], ...] in at most 40 columns of equal width, with
// vertical lines at marked values (quartiles, mean).

struct Marker {
  double value;
  std::string name;
  const char* cls;
};

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

// ---- Spreads: per row a thin line from the least to the most, a box (the quartiles, or
// the mean ± one standard deviation), a tick at its middle and a dot at the mean.

struct SpreadRow {
  std::string label;
  double min = 0, box_low = 0, mid = 0, box_high = 0, max = 0, mean = 0;
  std::string value_text, tip;
};

std::string spread_chart(const std::vector<SpreadRow>& rows, const std::string& title,
                         const std::string& desc) {
  std::vector<std::string> labels;
  double least = 0, most = 1;
  for (size_t i = 0; i < rows.size(); ++i) {
    labels.push_back(rows[i].label);
    least = i ? std::min(least, rows[i].min) : rows[i].min;
    most = i ? std::max(most, rows[i].max) : rows[i].max;
  }
  double left = label_width(labels), right = 220, row = 30, top = 10;
  double x0 = left, x1 = chart_width - right, bottom = top + row * static_cast<double>(rows.size());
  Svg svg(chart_width, bottom + 24, title, desc);
  Axis a = nice_axis(std::min(least, 0.0), most);
  x_axis(svg, a, x0, x1, top, bottom, false);
  for (size_t i = 0; i < rows.size(); ++i) {
    const SpreadRow& r = rows[i];
    double y = top + row * static_cast<double>(i), mid = y + row / 2;
    auto x = [&](double v) { return a.at(std::clamp(v, r.min, r.max), x0, x1); };
    svg.label(x0 - 8, mid + 4, cut(r.label, label_chars), "end", "t", r.label);
    svg.line(x(r.min), mid, x(r.max), mid, "whisker");
    svg.line(x(r.min), mid - 5, x(r.min), mid + 5, "whisker");
    svg.line(x(r.max), mid - 5, x(r.max), mid + 5, "whisker");
    svg.rect(x(r.box_low), y + 7, x(r.box_high) - x(r.box_low), row - 14, "box", r.tip);
    svg.line(x(r.mid), y + 7, x(r.mid), y + row - 7, "median");
    svg.circle(x(r.mean), mid, 3.5, "mean", r.tip);
    svg.label(x1 + 10, mid + 4, r.value_text, "start");
  }
  return svg.done();
}

// ---- The page.

const char* const style = R"(
:root{color-scheme:light dark;--fg:#1c2430;--muted:#5b6675;--bg:#fbfbfa;--card:#fff;--line:#d9dde3;
--bar:#3f6fb0;--box:#a9c6ea;--ref:#b8322a;--warn:#a15c00;--warnbg:#fff4e0}
@media (prefers-color-scheme:dark){:root{--fg:#e4e7eb;--muted:#9aa4b1;--bg:#15181c;--card:#1d2127;
--line:#39404a;--bar:#6f9ee0;--box:#37577f;--ref:#ef6a5f;--warn:#f0a640;--warnbg:#33280f}}
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

struct Page {
  const json& r;
  const ReportOrigin& origin;
  int players = 0;
  int64_t games = 0, done = 0;  // played, and ended without error
  std::string out;

  void fact(const std::string& name, const std::string& value_html) {
    out += "<dt>" + html_escape(name) + "</dt><dd>" + value_html + "</dd>\n";
  }
  void open(const char* id, const std::string& heading) {
    out += fmt::format("<section id=\"{}\" aria-labelledby=\"{}-h\"><h2 id=\"{}-h\">{}</h2>\n", id,
                       id, id, html_escape(heading));
  }
  void close() { out += "</section>\n"; }
  void para(const std::string& s, const char* cls = "") {
    out += std::string(*cls ? fmt::format("<p class=\"{}\">", cls) : "<p>") + html_escape(s) +
           "</p>\n";
  }
};

std::string agents_text(const json& r) {
  const json& agents = field(r, "agents");
  if (!agents.is_array() || agents.empty()) return "random on every seat (the fast path)";
  std::string out;
  for (size_t p = 0; p < agents.size(); ++p)
    out += fmt::format("{}P{} {}", p ? ", " : "", p + 1, text(agents[p]));
  return out;
}

void header(Page& pg) {
  const json& r = pg.r;
  std::string game = text(field(r, "game"));
  pg.out += "<header>\n<h1>" + html_escape(game) + "</h1>\n";
  pg.out += "<p class=\"sub\">" +
            html_escape(fmt::format("Simulation report: {} games, {} players", grouped(pg.games),
                                    pg.players)) +
            "</p>\n";
  if (!pg.origin.doc.empty()) pg.out += "<p class=\"doc\">" + html_escape(pg.origin.doc) + "</p>\n";
  pg.out += "<dl class=\"facts\">\n";
  pg.fact("Rule file",
          pg.origin.rule_file.empty()
              ? html_escape("not named (kata merge knows the rule file by its fingerprint)")
              : "<code>" + html_escape(pg.origin.rule_file) + "</code>");
  pg.fact("Rules fingerprint", "<code>" + html_escape(text(field(r, "rules"))) + "</code>");
  std::string games = grouped(pg.games);
  if (const json& s = field(r, "shard"); s.is_object())
    games += fmt::format(" (shard {} of {} of a run of {} games)", integer(field(s, "index")),
                         integer(field(s, "count")), grouped(integer(field(s, "run_games"))));
  if (int64_t errors = integer(field(r, "errors")))
    games += fmt::format("; {} stopped with an error", grouped(errors));
  pg.fact("Games", html_escape(games));
  pg.fact("Players", html_escape(std::to_string(pg.players)));
  pg.fact("Agents", html_escape(agents_text(r)));
  std::string options;
  for (auto& [name, value] : field(r, "options").items())
    options += (options.empty() ? "" : ", ") + name + " = " + value.dump();
  pg.fact("Options", html_escape(options.empty() ? "none" : options));
  uint64_t seed = field(r, "seed").is_number_unsigned() ? field(r, "seed").get<uint64_t>() : 0;
  pg.fact("Seeds", html_escape(fmt::format(
                       "--seed {}: game i plays with the seed derived from {} and i", seed, seed)));
  std::string how =
      field(r, "decision_stats").is_boolean() && !field(r, "decision_stats").get<bool>()
          ? "left out (--no-decision-stats)"
          : "gathered";
  pg.fact("Decision statistics", html_escape(how));
  pg.fact(
      "Invariants checked",
      html_escape(field(r, "check_invariants") == json(true) ? "yes, after every decision" : "no"));
  if (!pg.origin.merged.empty()) {
    std::string files;
    for (size_t i = 0; i < pg.origin.merged.size() && i < 10; ++i)
      files +=
          (i ? ", " : "") + std::string("<code>") + html_escape(pg.origin.merged[i]) + "</code>";
    if (pg.origin.merged.size() > 10)
      files += html_escape(fmt::format(" and {} more", pg.origin.merged.size() - 10));
    pg.fact(fmt::format("Merged from {} files", pg.origin.merged.size()), files);
  }
  pg.fact("Made by", html_escape(pg.origin.command + ", kata " + KATA_VERSION));
  pg.out += "</dl>\n</header>\n";
}

void contents(Page& pg) {
  pg.out += "<nav aria-label=\"Sections\"><ul>";
  for (auto [id, name] : {std::pair{"summary", "At a glance"},
                          {"wins", "Wins"},
                          {"scores", "Scores"},
                          {"length", "Game length"},
                          {"actions", "Actions"},
                          {"components", "Components"},
                          {"dead", "Dead rules"},
                          {"lead", "Lead"},
                          {"errors", "Errors"}})
    pg.out += fmt::format("<li><a href=\"#{}\">{}</a></li>", id, name);
  pg.out += "</ul></nav>\n";
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

void summary(Page& pg) {
  const json& r = pg.r;
  pg.open("summary", "At a glance");
  pg.out += "<ul>\n";
  auto item = [&](const std::string& s) { pg.out += "<li>" + html_escape(s) + "</li>\n"; };
  const json& seats = field(r, "seats");
  if (seats.is_array() && !seats.empty() && pg.done) {
    size_t best = 0, worst = 0;
    for (size_t p = 0; p < seats.size(); ++p) {
      double rate = number(field(seats[p], "win_rate"));
      if (rate > number(field(seats[best], "win_rate"))) best = p;
      if (rate < number(field(seats[worst], "win_rate"))) worst = p;
    }
    if (number(field(seats[best], "win_rate")) == number(field(seats[worst], "win_rate")))
      item(fmt::format("Every seat wins as often as the others ({}).",
                       percent(number(field(seats[best], "win_rate")))));
    else
      item(fmt::format(
          "{} wins most often ({}), {} least ({}); an equal share is {}.",
          text(field(seats[best], "seat")), percent(number(field(seats[best], "win_rate"))),
          text(field(seats[worst], "seat")), percent(number(field(seats[worst], "win_rate"))),
          percent(1.0 / pg.players)));
  }
  item(order_verdict(field(r, "seat_order")));
  const json& length = field(r, "length");
  if (integer(field(length, "count")))
    item(fmt::format("A game takes {} decisions at the median (half of them {} to {}).",
                     integer(field(length, "median")), integer(field(length, "q1")),
                     integer(field(length, "q3"))));
  const json& margin = field(r, "margin");
  if (integer(field(margin, "count")))
    item(fmt::format("The winner's margin is {} points at the median.",
                     integer(field(margin, "median"))));
  const json& warnings = field(r, "warnings");
  size_t dead = warnings.is_array() ? warnings.size() : 0;
  item(dead ? fmt::format("{} dead rule{} (see below).", dead, dead > 1 ? "s" : "")
            : std::string("No dead rules."));
  const json& lead = field(r, "lead");
  if (integer(field(lead, "midgame_leader_games")))
    item(fmt::format("The leader at mid-game goes on to win {} of the games that have one.",
                     percent(number(field(lead, "midgame_leader_win_rate")))));
  item(fmt::format("{} game{} stopped with an error.", grouped(integer(field(r, "errors"))),
                   integer(field(r, "errors")) == 1 ? "" : "s"));
  pg.out += "</ul>\n";
  pg.close();
}

void wins(Page& pg) {
  const json& seats = field(pg.r, "seats");
  pg.open("wins", "Win rate by seat");
  std::vector<IntervalRow> rows;
  std::string table =
      "<div class=\"table\"><table><thead><tr><th scope=\"col\">seat</th><th "
      "scope=\"col\">agent</th>"
      "<th scope=\"col\">wins</th><th scope=\"col\">win rate</th><th scope=\"col\">95% "
      "interval</th>"
      "<th scope=\"col\">outright wins</th></tr></thead><tbody>\n";
  for (const json& s : seats.is_array() ? seats : json::array()) {
    const json& ci = field(s, "win_rate_95");
    double rate = number(field(s, "win_rate")),
           low = ci.is_array() && ci.size() == 2 ? number(ci[0]) : 0,
           high = ci.is_array() && ci.size() == 2 ? number(ci[1], 1) : 1;
    std::string interval = fmt::format("[{}, {}]", percent(low), percent(high));
    std::string seat = text(field(s, "seat"));
    rows.push_back(
        {seat, rate, low, high, percent(rate) + "  " + interval,
         fmt::format("{} ({}): {} wins, {}; 95% interval {}", seat, text(field(s, "agent")),
                     amount(number(field(s, "wins"))), percent(rate), interval)});
    table += "<tr><th scope=\"row\">" + html_escape(seat) + "</th><td>" +
             html_escape(text(field(s, "agent"))) + "</td><td>" + amount(number(field(s, "wins"))) +
             "</td><td>" + percent(rate) + "</td><td>" + interval + "</td><td>" +
             grouped(integer(field(s, "outright_wins"))) + "</td></tr>\n";
  }
  table += "</tbody></table></div>\n";
  double equal = pg.players ? 1.0 / pg.players : 0;
  if (!pg.done)
    pg.para("No game ended without error.", "note");
  else if (!rows.empty())
    pg.out += interval_chart(
        rows, equal, "equal share " + percent(equal), "Win rate by seat, with 95% intervals",
        fmt::format(
            "Each seat's share of the {} games without error (a shared win split), with its "
            "95% Wilson interval; the dashed line is an equal share, {}.",
            grouped(pg.done), percent(equal)));
  pg.para(order_verdict(field(pg.r, "seat_order")), "verdict");
  pg.para(
      "A bar is the seat's win rate (a win shared by k seats counts 1/k); the whiskers are its "
      "95% Wilson interval. The seat-order test is Pearson's chi-square test that all seats win "
      "equal shares.",
      "note");
  pg.out += table;
  pg.close();
}

std::string spread_text(const json& d) {
  return fmt::format("min {}, quartiles {} {} {}, max {}; mean {}, stdev {}",
                     amount(number(field(d, "min"))), amount(number(field(d, "q1"))),
                     amount(number(field(d, "median"))), amount(number(field(d, "q3"))),
                     amount(number(field(d, "max"))), fixed(number(field(d, "mean")), 2),
                     fixed(number(field(d, "stdev")), 2));
}

// A one-row spread chart of a distribution as the JSON gives it (quartiles and mean).
std::string distribution_chart(const std::string& label, const json& d, const std::string& title,
                               const std::string& desc) {
  SpreadRow row{label,
                number(field(d, "min")),
                number(field(d, "q1")),
                number(field(d, "median")),
                number(field(d, "q3")),
                number(field(d, "max")),
                number(field(d, "mean")),
                fmt::format("median {}, mean {}", integer(field(d, "median")),
                            fixed(number(field(d, "mean")), 2)),
                spread_text(d)};
  return spread_chart({row}, title, desc);
}

std::vector<Marker> quartile_markers(const json& d) {
  return {{number(field(d, "q1")), "Q1", "quartile"},
          {number(field(d, "median")), "median", "quartile"},
          {number(field(d, "q3")), "Q3", "quartile"},
          {number(field(d, "mean")), "mean", "meanline"}};
}

// Each seat's final score: its extremes, its mean and one standard deviation either side.
void seat_scores(Page& pg) {
  const json& seats = field(pg.r, "seats");
  std::vector<SpreadRow> rows;
  for (const json& s : seats.is_array() ? seats : json::array()) {
    const json& sc = field(s, "score");
    double m = number(field(sc, "mean")), sd = number(field(sc, "stdev"));
    std::string seat = text(field(s, "seat")), low = amount(number(field(sc, "min"))),
                high = amount(number(field(sc, "max")));
    rows.push_back({seat, number(field(sc, "min")), m - sd, m, m + sd, number(field(sc, "max")), m,
                    fmt::format("{} ± {} ({} to {})", fixed(m, 2), fixed(sd, 2), low, high),
                    fmt::format("{}: mean {}, stdev {}, min {}, max {}", seat, fixed(m, 2),
                                fixed(sd, 2), low, high)});
  }
  if (rows.empty()) return;
  pg.out += "<h3>Final score by seat</h3>\n";
  pg.out += spread_chart(rows, "Final score by seat",
                         "For each seat: the line runs from its lowest to its highest final score, "
                         "the box spans the mean plus and minus one standard deviation, and the "
                         "dot is the mean.");
  pg.para(
      "The line runs from the lowest score to the highest; the box is the mean ± one standard "
      "deviation; the dot is the mean.",
      "note");
}

void all_scores(Page& pg) {
  const json& list = field(pg.r, "score_histogram");
  std::vector<std::pair<int64_t, int64_t>> hist;
  for (const json& h : list.is_array() ? list : json::array())
    hist.emplace_back(integer(field(h, "score")), integer(field(h, "count")));
  if (hist.empty()) return;
  pg.out += "<h3>All final scores</h3>\n";
  pg.out += histogram_chart(hist, {}, "final score", "Final scores of all seats",
                            "How many times a seat ended a game with each final score, over all "
                            "seats and all games without error.");
}

void winners_margin(Page& pg) {
  const json& margin = field(pg.r, "margin");
  pg.out += "<h3>The winner's margin</h3>\n";
  if (!integer(field(margin, "count"))) {
    pg.para("No game had both winners and others.", "note");
    return;
  }
  pg.para(
      fmt::format("Over {} games: {}. The margin is the best score among the winners minus "
                  "the best among the others.",
                  grouped(integer(field(margin, "count"))), spread_text(margin)));
  pg.out += distribution_chart("margin", margin, "The winner's margin: quartiles and mean",
                               "The box spans the quartiles of the winner's margin, the line its "
                               "extremes, the tick its median and the dot its mean.");
  auto counts = pairs(field(field(pg.r, "counts"), "margins"));
  if (!counts.empty())
    pg.out += histogram_chart(counts, quartile_markers(margin), "winner's margin (points)",
                              "The winner's margin, game by game",
                              "How many games were won by each margin, with the quartiles and "
                              "the mean marked.");
}

void scores(Page& pg) {
  pg.open("scores", "Scores");
  if (!pg.done) {
    pg.para("No game ended without error.", "note");
  } else if (field(field(pg.r, "counts"), "scored") == json(false)) {
    pg.para("The game has no scoring section: every final score is 0.", "note");
  } else {
    seat_scores(pg);
    all_scores(pg);
    winners_margin(pg);
  }
  pg.close();
}

void length(Page& pg) {
  const json& d = field(pg.r, "length");
  pg.open("length", "Game length");
  auto counts = pairs(field(d, "histogram"));
  if (counts.empty()) {
    pg.para("No game ended without error.", "note");
  } else {
    pg.para(fmt::format("Decisions per game over {} games: {}.",
                        grouped(integer(field(d, "count"))), spread_text(d)));
    pg.out += histogram_chart(counts, quartile_markers(d), "decisions in a game",
                              "Game length in decisions",
                              "How many games took each number of decisions, with the quartiles "
                              "and the mean marked.");
  }
  pg.close();
}

std::vector<ShareRow> share_rows(const json& list, const char* name_key) {
  std::vector<ShareRow> rows;
  for (const json& u : list.is_array() ? list : json::array())
    rows.push_back({text(field(u, name_key)), field(u, "share").is_number(),
                    number(field(u, "share")), integer(field(u, "chosen")),
                    integer(field(u, "legal"))});
  return rows;
}

void uses(Page& pg, const char* id, const char* heading, const char* key, const std::string& what) {
  pg.open(id, heading);
  auto rows = share_rows(field(pg.r, id), key);
  if (field(pg.r, "decision_stats") == json(false)) {
    pg.para("Left out of this run (--no-decision-stats).", "note");
  } else if (!pg.done) {
    pg.para("No game ended without error.", "note");
  } else if (rows.empty()) {
    pg.para("None to show.", "note");
  } else {
    pg.para(fmt::format("How often each {} was chosen, as a share of the decisions at which it was "
                        "legal; the most chosen first.",
                        what),
            "note");
    pg.out += share_chart(rows, std::string(heading) + ": chosen when legal",
                          "For each " + what +
                              ", the share of the decisions where it was legal at which it was "
                              "chosen, sorted from the most chosen; those never legal come last.");
  }
  pg.close();
}

void dead_rules(Page& pg) {
  const json& warnings = field(pg.r, "warnings");
  pg.open("dead", "Dead rules");
  if (!warnings.is_array() || warnings.empty()) {
    pg.para(field(pg.r, "decision_stats") == json(false)
                ? "Not looked for in this run (--no-decision-stats)."
                : "None: every action was legal at some decision, and every component listed was "
                  "chosen.",
            "note");
  } else {
    pg.out += "<ul class=\"warnings\">\n";
    for (const json& w : warnings) pg.out += "<li>warning: " + html_escape(text(w)) + "</li>\n";
    pg.out += "</ul>\n";
  }
  pg.close();
}

void lead(Page& pg) {
  const json& l = field(pg.r, "lead");
  pg.open("lead", "Lead changes and the mid-game leader");
  if (!l.is_object()) {
    pg.para(field(pg.r, "decision_stats") == json(false)
                ? "Left out of this run (--no-decision-stats)."
                : "The game has no scoring section, so there is no leader to follow.",
            "note");
    pg.close();
    return;
  }
  const json& changes = field(l, "changes");
  if (integer(field(changes, "count"))) {
    pg.para(fmt::format("Lead changes per game: {}.", spread_text(changes)));
    auto counts = pairs(field(field(pg.r, "counts"), "lead_changes"));
    if (!counts.empty())
      pg.out += histogram_chart(counts, quartile_markers(changes), "lead changes in a game",
                                "Lead changes per game",
                                "How many games had each number of lead changes, with the "
                                "quartiles and the mean marked.");
  }
  int64_t with = integer(field(l, "midgame_leader_games")),
          won = integer(field(l, "midgame_leader_wins"));
  pg.out += "<h3>Does the leader at mid-game win?</h3>\n";
  if (!with) {
    pg.para("No game had a single leader at mid-game.", "note");
  } else {
    const json& ci = field(l, "midgame_leader_win_rate_95");
    double rate = number(field(l, "midgame_leader_win_rate")),
           low = ci.is_array() && ci.size() == 2 ? number(ci[0]) : 0,
           high = ci.is_array() && ci.size() == 2 ? number(ci[1], 1) : 1;
    std::string interval = fmt::format("[{}, {}]", percent(low), percent(high));
    double equal = pg.players ? 1.0 / pg.players : 0;
    pg.out += interval_chart(
        {{"mid-game leader", rate, low, high, percent(rate) + "  " + interval,
          fmt::format("won {} of {} games", grouped(won), grouped(with))}},
        equal, "equal share " + percent(equal), "How often the leader at mid-game wins",
        fmt::format("The leader at mid-game won {} of the {} games that had one ({}, 95% interval "
                    "{}); the dashed line is an equal share, {}.",
                    grouped(won), grouped(with), percent(rate), interval, percent(equal)));
    pg.para(
        fmt::format("The leader after half the game's decisions won {} of the {} games that had "
                    "one. Near the equal share, the game stays open; near 100%, an early lead "
                    "decides it.",
                    grouped(won), grouped(with)),
        "note");
  }
  pg.close();
}

void errors(Page& pg) {
  const json& messages = field(pg.r, "error_messages");
  int64_t n = integer(field(pg.r, "errors"));
  pg.open("errors", "Errors");
  if (!n) {
    pg.para("Every game ended without error.", "note");
  } else {
    pg.para(fmt::format("{} game{} stopped with an error; the first are:", grouped(n),
                        n == 1 ? "" : "s"));
    pg.out += "<ul class=\"errors\">\n";
    for (const json& m : messages.is_array() ? messages : json::array())
      pg.out += "<li>" + html_escape(text(m)) + "</li>\n";
    pg.out += "</ul>\n";
  }
  pg.close();
}

}  // namespace

std::string simulation_html(const nlohmann::json& result, const ReportOrigin& origin) {
  Page pg{result, origin, 0, 0, 0, {}};
  pg.players = static_cast<int>(integer(field(result, "players")));
  pg.games = integer(field(result, "games"));
  pg.done = pg.games - integer(field(result, "errors"));
  std::string game = text(field(result, "game"));
  pg.out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"kata " KATA_VERSION "\">\n<title>" +
      html_escape(game) + " – simulation report</title>\n<style>" + style +
      "</style>\n</head>\n<body>\n<main>\n";
  header(pg);
  contents(pg);
  pg.out += "<!-- statistics -->\n";
  summary(pg);
  wins(pg);
  scores(pg);
  length(pg);
  uses(pg, "actions", "Actions", "action", "action");
  uses(pg, "components", "Components", "component", "component (its copies counted together)");
  dead_rules(pg);
  lead(pg);
  errors(pg);
  pg.out += "<footer><p>" +
            html_escape(fmt::format("Made by kata {}. Every figure is the one kata simulate --json "
                                    "prints for this run; docs/cli.md defines them.",
                                    KATA_VERSION)) +
            "</p></footer>\n</main>\n</body>\n</html>\n";
  return pg.out;
}

bool ReportFile::open(const std::string& path) {
  path_ = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::cerr << fmt::format("kata: error: cannot write the report '{}': it is a directory\n",
                             path);
    return false;
  }
  out_.open(path, std::ios::binary | std::ios::trunc);
  if (!out_) {
    std::cerr << fmt::format("kata: error: cannot write the report '{}': {}\n", path,
                             std::strerror(errno));
    return false;
  }
  return true;
}

bool ReportFile::write(const nlohmann::json& result, const ReportOrigin& origin) {
  out_ << simulation_html(result, origin);
  out_.close();
  if (!out_) {
    std::cerr << fmt::format("kata: error: cannot write the report '{}'\n", path_);
    return false;
  }
  return true;
}

}  // namespace kata::cli
