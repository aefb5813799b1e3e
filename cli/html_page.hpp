// The drawing kit of the HTML reports (kata simulate --report, kata compare --report): how
// a page reads its JSON (a missing or mistyped field reads as null, 0 or ""), how numbers
// are written, the page's frame and style, and the few kinds of SVG chart the pages are
// made of. It decides no statistic and no section: the pages (report_html.cpp,
// compare_html.cpp) choose what to draw and say. Everything here is a pure function of its
// arguments, formatted with fmt's locale-free fixed formats and one-decimal coordinates, so
// the same figures always give the same bytes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kata::cli::html {

using json = nlohmann::json;

// ---- Reading the JSON: never an exception.

// j[key], or null when j is not an object or lacks it.
const json& field(const json& j, const char* key);
// A number, or `otherwise` when j is not one.
double number(const json& j, double otherwise = 0);
// A number rounded to an integer (0 when it is not a number or too large).
int64_t integer(const json& j);
// A string, or "".
std::string text(const json& j);
// [[value, count], ...] as the JSON's raw counts hold them (other entries skipped).
std::vector<std::pair<int64_t, int64_t>> pairs(const json& j);
// An array's elements, or none when j is not an array.
const json& list(const json& j);

// ---- Numbers as text.

// `digits` decimals; "–" when not finite; never "-0.0".
std::string fixed(double v, int digits);
// A share as a percentage: 0.256 -> "25.6%".
std::string percent(double share, int digits = 1);
// 1234567 -> "1,234,567".
std::string grouped(int64_t n);
// A number that may have a fraction (a shared win counts 1/k): as an integer when it is one.
std::string amount(double v);

// ---- Charts. Each is an SVG picture in a <div class="figure">, with `title` as its
// accessible name (and its id: titles on one page must differ) and `desc` as its
// description. Rows may come in a comparison's pairs: a row's `side` is "A" or "B" there
// ("" in a simulation's charts); consecutive rows of one label are a group, whose label is
// written once, with a small A or B beside each row, and B's marks in B's colour.

// Bars with 95% intervals (win rates): a bar to the value, whiskers to the interval's
// ends, and a dashed line at `reference` (the equal share) labelled `reference_text`.
struct IntervalRow {
  std::string label;
  double value = 0, low = 0, high = 0;
  std::string value_text, tip;
  std::string side;
};
std::string interval_chart(const std::vector<IntervalRow>& rows, double reference,
                           const std::string& reference_text, const std::string& title,
                           const std::string& desc);

// Shares (actions, components): one bar per row on a 0-100% scale; rows never legal are
// marked. `sorted`: from the most chosen, those never legal last (groups are not sorted).
struct ShareRow {
  std::string label;
  bool legal = false;  // legal at some decision (share is then chosen / legal)
  double share = 0;
  int64_t chosen = 0, times_legal = 0;
  bool counted = true;  // the counts are known (and written at the right)
  std::string side;
};
std::string share_chart(std::vector<ShareRow> rows, bool sorted, const std::string& title,
                        const std::string& desc);

// Histograms: the counts [[value, n], ...] (at least one) in at most 40 columns of equal
// width, with vertical lines at marked values (quartiles, mean). `what` names the values.
struct Marker {
  double value;
  std::string name;
  const char* cls;  // "quartile" or "meanline"
};
std::string histogram_chart(const std::vector<std::pair<int64_t, int64_t>>& counts,
                            const std::vector<Marker>& markers, const std::string& what,
                            const std::string& title, const std::string& desc);

// Spreads: per row a thin line from the least to the most, a box (the quartiles, or the
// mean ± one standard deviation), a tick at its middle and a dot at the mean.
struct SpreadRow {
  std::string label;
  double min = 0, box_low = 0, mid = 0, box_high = 0, max = 0, mean = 0;
  std::string value_text, tip;
  std::string side;
};
std::string spread_chart(const std::vector<SpreadRow>& rows, const std::string& title,
                         const std::string& desc);

// Differences B - A with their 95% intervals: per row a dot at the difference and a line
// across its interval, on an axis with a line at zero; an interval that leaves zero out
// (significant) is drawn in the warning colour. All rows in one unit (`as_percent`: shares).
struct DifferenceRow {
  std::string label;
  bool has = false;     // both sides have the statistic
  bool tested = false;  // and there is an interval
  bool significant = false;
  double estimate = 0, low = 0, high = 0;
  std::string value_text, tip;
};
std::string difference_chart(const std::vector<DifferenceRow>& rows, bool as_percent,
                             const std::string& title, const std::string& desc);

// ---- Rows and sentences drawn from kata simulate --json (a simulation report's, or one
// side's of a comparison). `side` as in the rows above.

// A seat's win rate and its 95% Wilson interval, from one of `seats`.
IntervalRow seat_win_row(const json& seat, const std::string& side);
// A rate with its 95% interval `ci` ([low, high]; 0 to 1 when missing).
IntervalRow rate_row(const std::string& label, double rate, const json& ci, const std::string& tip,
                     const std::string& side);
// "[25.2%, 25.7%]": an interval of shares as the JSON gives it.
std::string interval_text(const json& ci);
// A seat's final score: its extremes, and a box at its mean ± one standard deviation.
SpreadRow seat_score_row(const json& seat, const std::string& side);
// A distribution ({min, q1, median, q3, max, mean, stdev}): a box at its quartiles.
SpreadRow distribution_row(const std::string& label, const json& d, const std::string& side);
// "min 1, quartiles 2 4 6, max 24; mean 4.44, stdev 3.25".
std::string spread_text(const json& d);
// The run's `agents`, seat by seat ("random on every seat" when there are none).
std::string agents_text(const json& agents);
// The seat-order test's verdict, from `seat_order` ({chi_square, df, p_value} or null).
std::string order_verdict(const json& order);

// ---- The page.

// A page's text, written in order: its sections, paragraphs and facts.
struct Page {
  std::string out;

  // One fact of the header's list: `name` (text) and its value (HTML, already escaped).
  void fact(const std::string& name, const std::string& value_html);
  // A <section id=ID> with its heading, up to close().
  void open(const char* id, const std::string& heading);
  void close();
  // A paragraph of text, with a class ("note", "verdict") or none.
  void para(const std::string& s, const char* cls = "");
  // The list of links to the sections, {id, name} each.
  void contents(const std::vector<std::pair<const char*, const char*>>& sections);
};

// The document up to the start of <main>: doctype, the Content Security Policy that
// forbids loading anything, the style, and `title` (text).
std::string page_start(const std::string& title);
// A footer with `note` (text), and the end of the document.
std::string page_end(const std::string& note);

}  // namespace kata::cli::html
