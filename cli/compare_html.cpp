// The HTML report of a comparison (kata compare --report): A and B side by side, section by
// section as the simulation report has them (wins, scores, length, actions, components,
// dead rules, lead, errors). Each section draws both sides' own figures next to each other
// (A in one colour, B in another, from `simulations`) and the paired differences B - A
// with their 95% intervals (from `statistics`, `actions`, `components`), and ends with
// the table of every difference, as the text report prints it.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "html_page.hpp"
#include "runtime/engine.hpp"
#include "report_html.hpp"

namespace kata::cli {

namespace {

using namespace html;

struct ComparisonPage : Page {
  explicit ComparisonPage(const json& comparison) : r(comparison) {}
  const json& r;
  const json& a() const { return field(field(r, "simulations"), "a"); }
  const json& b() const { return field(field(r, "simulations"), "b"); }
  int players = 0;
  int64_t pairs = 0;  // games without an error on either side
};

const char* const sides[] = {"A", "B"};

// ---- A row of differences: the statistic, both sides and B - A as the JSON has them.

bool is_significant(const json& row) { return field(row, "significant") == json(true); }

// "+1.23%", "-0.40": a difference with its sign; what rounds to zero is "+0.00".
std::string signed_text(double v, bool as_percent) {
  std::string s = as_percent ? fmt::format("{:+.2f}%", 100 * v) : fmt::format("{:+.2f}", v);
  if (s.find_first_not_of("-0.%") == std::string::npos) s[0] = '+';
  return s;
}

std::string value_text(const json& v, bool as_percent) {
  if (!v.is_number()) return "–";
  return as_percent ? fixed(100 * number(v), 2) + "%" : fixed(number(v), 2);
}

bool has_interval(const json& row) {
  const json& ci = field(row, "difference_95");
  return ci.is_array() && ci.size() == 2 && ci[0].is_number() && ci[1].is_number();
}

std::string difference_interval(const json& row, bool as_percent) {
  if (!has_interval(row)) return "–";
  const json& ci = field(row, "difference_95");
  return fmt::format("[{}, {}]", signed_text(number(ci[0]), as_percent),
                     signed_text(number(ci[1]), as_percent));
}

std::string p_text(const json& p) {
  if (!p.is_number()) return "–";
  return number(p) < 1e-16 ? "<1e-16" : fmt::format("{:.3g}", number(p));
}

// What the text report calls a row of `statistics`, and whether it is a share.
const std::map<std::string, std::pair<const char*, bool>>& statistic_names() {
  static const std::map<std::string, std::pair<const char*, bool>> names = {
      {"win_rate", {"win rate", true}},
      {"score", {"score mean", false}},
      {"length", {"game length (decisions)", false}},
      {"margin", {"winner's margin", false}},
      {"lead_changes", {"lead changes per game", false}},
      {"midgame_leader_won", {"mid-game leader wins", true}}};
  return names;
}

std::string statistic_label(const json& row) {
  std::string name = text(field(row, "statistic"));
  auto known = statistic_names().find(name);
  std::string label = known == statistic_names().end() ? name : known->second.first;
  return field(row, "seat").is_string() ? text(field(row, "seat")) + " " + label : label;
}

bool statistic_percent(const json& row) {
  auto known = statistic_names().find(text(field(row, "statistic")));
  return known != statistic_names().end() && known->second.second;
}

DifferenceRow difference_row(const std::string& label, const json& row, bool as_percent) {
  DifferenceRow d;
  d.label = label;
  d.has = field(row, "difference").is_number();
  d.estimate = number(field(row, "difference"));
  d.tested = d.has && has_interval(row);
  if (d.tested) d.low = number(field(row, "difference_95")[0]);
  if (d.tested) d.high = number(field(row, "difference_95")[1]);
  d.significant = d.tested && is_significant(row);
  d.value_text = signed_text(d.estimate, as_percent) + "  " + difference_interval(row, as_percent) +
                 (d.significant ? "  *" : "");
  d.tip =
      fmt::format("{}: A {}, B {}, B - A {}, 95% interval {}, p = {}, over {} pairs", label,
                  value_text(field(row, "a"), as_percent), value_text(field(row, "b"), as_percent),
                  signed_text(d.estimate, as_percent), difference_interval(row, as_percent),
                  p_text(field(row, "p_value")), grouped(integer(field(row, "pairs"))));
  return d;
}

// The rows of `statistics` about `name` (one per seat, or one).
std::vector<const json*> statistic(const ComparisonPage& pg, const char* name) {
  std::vector<const json*> out;
  for (const json& row : list(field(pg.r, "statistics")))
    if (text(field(row, "statistic")) == name) out.push_back(&row);
  return out;
}

// A difference chart of the rows of `statistics` about `name`, labelled by seat or `label`.
std::string differences(const ComparisonPage& pg, const char* name, const std::string& label,
                        bool as_percent, const std::string& title, const std::string& desc) {
  std::vector<DifferenceRow> rows;
  for (const json* row : statistic(pg, name))
    rows.push_back(difference_row(
        field(*row, "seat").is_string() ? text(field(*row, "seat")) : label, *row, as_percent));
  return rows.empty() ? std::string() : difference_chart(rows, as_percent, title, desc);
}

const char* const difference_note =
    "A dot is the difference B - A over the pairs of games played on the same seed; the line "
    "is its paired 95% interval. An interval that leaves out zero (in red, marked *) is a "
    "significant difference at the 5% level.";

// ---- The header: what was compared.

std::string side_text(const json& side) {
  std::string out = text(field(side, "file"));
  for (const json& o : list(field(side, "option_arguments"))) out += " -o " + text(o);
  return out;
}

// j, or an empty object when j is not an object.
const json& object(const json& j) {
  static const json none = json::object();
  return j.is_object() ? j : none;
}

std::string options_text(const json& options) {
  std::string out;
  for (auto& [name, value] : object(options).items())
    out += (out.empty() ? "" : ", ") + name + " = " + value.dump();
  return out.empty() ? "none" : out;
}

// The options whose values differ, and those of one side only.
std::string options_differ(const json& a, const json& b) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  const json& oa = field(a, "options");
  const json& ob = field(b, "options");
  for (auto& [name, value] : object(oa).items()) {
    if (!ob.is_object() || !ob.contains(name))
      add(fmt::format("{} (A only, {})", name, value.dump()));
    else if (ob.at(name) != value)
      add(fmt::format("{} {} -> {}", name, value.dump(), ob.at(name).dump()));
  }
  for (auto& [name, value] : object(ob).items())
    if (!oa.is_object() || !oa.contains(name))
      add(fmt::format("{} (B only, {})", name, value.dump()));
  return out.empty() ? "none" : out;
}

std::string key(const char* side) {
  return fmt::format("<span class=\"key {}\" aria-hidden=\"true\"></span>",
                     side[0] == 'A' ? "a" : "b");
}

void header(ComparisonPage& pg) {
  const json &a = field(pg.r, "a"), &b = field(pg.r, "b");
  std::string ga = text(field(a, "game")), gb = text(field(b, "game"));
  pg.out += "<header>\n<h1>" + html_escape(ga == gb ? ga : ga + " / " + gb) + "</h1>\n";
  pg.out += "<p class=\"sub\">" +
            html_escape(fmt::format("Comparison report: A and B, {} games each, {}",
                                    grouped(integer(field(pg.r, "games"))), players_text(pg.players, pg.players))) +
            "</p>\n<dl class=\"facts\">\n";
  for (const char* side : sides) {
    const json& s = side[0] == 'A' ? a : b;
    pg.fact(side, key(side) + "<code>" + html_escape(side_text(s)) + "</code> (" +
                      html_escape(text(field(s, "game"))) + ")");
  }
  pg.fact("Options that differ", html_escape(options_differ(a, b)));
  for (const char* side : sides)
    pg.fact(std::string("Options of ") + side,
            html_escape(options_text(field(side[0] == 'A' ? a : b, "options"))));
  std::string ra = text(field(a, "rules")), rb = text(field(b, "rules"));
  pg.fact("Rules fingerprints", ra == rb ? "the same, <code>" + html_escape(ra) + "</code>"
                                         : "A <code>" + html_escape(ra) + "</code>, B <code>" +
                                               html_escape(rb) + "</code>");
  const json& errors = field(pg.r, "errors");
  pg.fact("Games",
          html_escape(fmt::format("{} on each side; {} pairs without an error (errors: A {}, B {})",
                                  grouped(integer(field(pg.r, "games"))), grouped(pg.pairs),
                                  grouped(integer(field(errors, "a"))),
                                  grouped(integer(field(errors, "b"))))));
  pg.fact("Players", html_escape(std::to_string(pg.players)));
  pg.fact("Agents", html_escape(agents_text(field(pg.r, "agents")) + ", the same on both sides"));
  uint64_t seed =
      field(pg.r, "seed").is_number_unsigned() ? field(pg.r, "seed").get<uint64_t>() : 0;
  pg.fact("Seeds", html_escape(fmt::format("--seed {}: game i of A and game i of B are played on "
                                           "the same seed, derived from {} and i",
                                           seed, seed)));
  pg.fact("Made by", html_escape(std::string("kata compare, kata ") + KATA_VERSION));
  pg.out += "</dl>\n<p class=\"sub legend\">" + key("A") + "A &#160; " + key("B") +
            "B &#160; differences are B - A, with paired 95% intervals</p>\n</header>\n";
}

// ---- The sections.

void summary(ComparisonPage& pg) {
  pg.open("summary", "At a glance");
  pg.out += "<ul>\n";
  auto item = [&](const std::string& s) { pg.out += "<li>" + html_escape(s) + "</li>\n"; };
  int tested = 0, significant = 0;
  for (const char* part : {"statistics", "actions", "components"})
    for (const json& row : list(field(pg.r, part)))
      tested += has_interval(row), significant += is_significant(row);
  item(fmt::format("{} of {} differences are significant at the 5% level.", significant, tested));
  int shown = 0;
  for (const json& row : list(field(pg.r, "statistics"))) {
    if (!is_significant(row)) continue;
    bool as_percent = statistic_percent(row);
    std::string name = statistic_label(row);
    item(fmt::format("{}: A {}, B {}, B - A {} {}.", name, value_text(field(row, "a"), as_percent),
                     value_text(field(row, "b"), as_percent),
                     signed_text(number(field(row, "difference")), as_percent),
                     difference_interval(row, as_percent)));
    ++shown;
  }
  if (!shown) item("No win rate, score, length, margin or lead statistic differs significantly.");
  for (const char* part : {"actions", "components"}) {
    int n = 0;
    for (const json& row : list(field(pg.r, part))) n += is_significant(row);
    if (n)
      item(fmt::format("{} {} share{} of use differ{} significantly (see below).", n,
                       part[0] == 'a' ? "action" : "component", n == 1 ? "" : "s",
                       n == 1 ? "s" : ""));
  }
  item(fmt::format("Dead rules: A {}, B {}.", list(field(pg.a(), "warnings")).size(),
                   list(field(pg.b(), "warnings")).size()));
  const json& errors = field(pg.r, "errors");
  item(fmt::format("Games stopped with an error: A {}, B {}.", grouped(integer(field(errors, "a"))),
                   grouped(integer(field(errors, "b")))));
  pg.out += "</ul>\n";
  pg.close();
}

// Rows of A and B alternating, seat by seat: `make` gives side `side`'s row of a seat.
template <class Row, class Make>
std::vector<Row> by_seat(const ComparisonPage& pg, Make make) {
  const json &sa = list(field(pg.a(), "seats")), &sb = list(field(pg.b(), "seats"));
  std::vector<Row> rows;
  for (size_t p = 0; p < std::max(sa.size(), sb.size()); ++p) {
    if (p < sa.size()) rows.push_back(make(sa[p], "A"));
    if (p < sb.size()) rows.push_back(make(sb[p], "B"));
  }
  return rows;
}

std::string table_head(const char* first) {
  return fmt::format(
      "<div class=\"table\"><table><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">A</th>"
      "<th scope=\"col\">B</th><th scope=\"col\">B - A</th><th scope=\"col\">95% interval</th>"
      "<th scope=\"col\">p</th><th scope=\"col\"></th></tr></thead><tbody>\n",
      first);
}

std::string table_row(const std::string& label, const json& row, bool as_percent) {
  bool sig = is_significant(row);
  return "<tr><th scope=\"row\">" + html_escape(label) + "</th><td>" +
         value_text(field(row, "a"), as_percent) + "</td><td>" +
         value_text(field(row, "b"), as_percent) + "</td><td" + (sig ? " class=\"sig\">" : ">") +
         (field(row, "difference").is_number()
              ? signed_text(number(field(row, "difference")), as_percent)
              : "–") +
         "</td><td>" + difference_interval(row, as_percent) + "</td><td>" +
         html_escape(p_text(field(row, "p_value"))) + "</td><td" +
         (sig ? " class=\"sig\">*" : ">") + "</td></tr>\n";
}

void wins(ComparisonPage& pg) {
  pg.open("wins", "Win rate by seat");
  auto rows = by_seat<IntervalRow>(pg, seat_win_row);
  double equal = pg.players > 0 ? 1.0 / pg.players : 0;
  if (rows.empty()) {
    pg.para("No seat's win rate is known on either side.", "note");
  } else {
    pg.out += interval_chart(
        rows, equal, "equal share " + percent(equal), "Win rate by seat, A and B",
        fmt::format("Each seat's win rate on A and on B, each over its own games without error, "
                    "with its 95% Wilson interval; the dashed line is an equal share, {}.",
                    percent(equal)));
    pg.para(
        "A bar is the seat's win rate on that side (a win shared by k seats counts 1/k); the "
        "whiskers are its 95% Wilson interval.",
        "note");
  }
  pg.out += "<h3>The difference, B - A</h3>\n";
  std::string chart = differences(pg, "win_rate", "", true, "Win rate difference by seat",
                                  "For each seat, its win rate on B minus its win rate on A, "
                                  "with the paired 95% interval; zero is no difference.");
  if (chart.empty()) {
    pg.para("No pair of games ended without error on both sides.", "note");
  } else {
    pg.out += chart;
    pg.para(difference_note, "note");
    pg.out += table_head("seat");
    for (const json* row : statistic(pg, "win_rate"))
      pg.out += table_row(text(field(*row, "seat")), *row, true);
    pg.out += "</tbody></table></div>\n";
  }
  for (const char* side : sides)
    pg.para(std::string(side) + ": " +
                order_verdict(field(field(pg.r, "seat_order"), side[0] == 'A' ? "a" : "b")),
            "verdict");
  pg.close();
}

// A distribution of A and of B (each side's own, quartiles) and the paired difference of
// its means.
void distribution(ComparisonPage& pg, const char* key, const char* statistic_name,
                  const std::string& label, const std::string& what) {
  std::vector<SpreadRow> rows;
  for (const char* side : sides) {
    const json& d = field(side[0] == 'A' ? pg.a() : pg.b(), key);
    if (integer(field(d, "count"))) rows.push_back(distribution_row(label, d, side));
  }
  if (!rows.empty())
    pg.out += spread_chart(rows, "The " + what + " on A and B",
                           "For A and for B: the line runs from the least to the most, the box "
                           "spans the quartiles, the tick is the median and the dot the mean.");
  pg.out += differences(pg, statistic_name, label, false, "The " + what + ": B - A",
                        "The mean " + what +
                            " on B minus that on A, with the paired 95% "
                            "interval; zero is no difference.");
}

void scores(ComparisonPage& pg) {
  pg.open("scores", "Scores");
  if (statistic(pg, "score").empty()) {
    pg.para(
        "The scores are not compared: a side has no scoring section, or no pair of games "
        "ended without error.",
        "note");
    pg.close();
    return;
  }
  pg.out += "<h3>Final score by seat</h3>\n";
  pg.out += spread_chart(by_seat<SpreadRow>(pg, seat_score_row), "Final score by seat, A and B",
                         "For each seat on A and on B: the line runs from its lowest to its "
                         "highest final score, the box spans the mean plus and minus one "
                         "standard deviation, and the dot is the mean.");
  pg.out += differences(pg, "score", "", false, "Mean final score difference by seat",
                        "For each seat, its mean final score on B minus that on A, with the "
                        "paired 95% interval; zero is no difference.");
  pg.para(difference_note, "note");
  pg.out += "<h3>The winner's margin</h3>\n";
  distribution(pg, "margin", "margin", "margin", "winner's margin");
  pg.out += table_head("statistic");
  for (const json* row : statistic(pg, "score"))
    pg.out += table_row(statistic_label(*row), *row, false);
  for (const json* row : statistic(pg, "margin"))
    pg.out += table_row(statistic_label(*row), *row, false);
  pg.out += "</tbody></table></div>\n";
  pg.close();
}

void length(ComparisonPage& pg) {
  pg.open("length", "Game length");
  if (statistic(pg, "length").empty() && !integer(field(field(pg.a(), "length"), "count"))) {
    pg.para("No game ended without error.", "note");
  } else {
    distribution(pg, "length", "length", "decisions", "game length in decisions");
    pg.out += table_head("statistic");
    for (const json* row : statistic(pg, "length"))
      pg.out += table_row(statistic_label(*row), *row, false);
    pg.out += "</tbody></table></div>\n";
  }
  pg.close();
}

void uses(ComparisonPage& pg, const char* id, const char* heading, const char* key,
          const std::string& what) {
  pg.open(id, heading);
  const json& rows = list(field(pg.r, id));
  if (rows.empty()) {
    pg.para("None to compare.", "note");
    pg.close();
    return;
  }
  std::vector<ShareRow> shares;
  std::vector<DifferenceRow> diffs;
  for (const json& row : rows) {
    std::string name = text(field(row, key));
    for (const char* side : sides) {
      bool on_a = side[0] == 'A';
      const json& v = field(row, on_a ? "a" : "b");
      // Each side's counts over the pairs: how many decisions the share is out of.
      const json& chosen = field(row, on_a ? "chosen_a" : "chosen_b");
      const json& legal = field(row, on_a ? "legal_a" : "legal_b");
      bool counted = chosen.is_number() && legal.is_number();
      int64_t times = counted ? integer(chosen) : number(v) > 0 ? 1 : 0;
      shares.push_back(
          {name, v.is_number(), number(v), times, counted ? integer(legal) : 0, counted, side});
    }
    diffs.push_back(difference_row(name, row, true));
  }
  pg.para(fmt::format("How often each {} was chosen, as a share of the decisions at which it was "
                      "legal, on A and on B (over the pairs of games; at the right, the decisions "
                      "that chose it and those where it was legal), then the difference.",
                      what),
          "note");
  pg.out += share_chart(shares, false, std::string(heading) + ": chosen when legal, A and B",
                        "For each " + what +
                            ", the share of the decisions where it was legal at which it was "
                            "chosen, on A and on B.");
  pg.out += difference_chart(diffs, true, std::string(heading) + ": B - A",
                             "For each " + what +
                                 ", its share on B minus its share on A, with the paired 95% "
                                 "interval; zero is no difference.");
  pg.para(
      "Every interval is at 95%, one at a time: among many rows with no real difference, one "
      "in twenty is expected to be marked by chance.",
      "note");
  pg.close();
}

void dead_rules(ComparisonPage& pg) {
  pg.open("dead", "Dead rules");
  // Each warning once, with the sides that give it, A's first.
  std::vector<std::pair<std::string, std::string>> all;
  for (const char* side : sides)
    for (const json& w : list(field(side[0] == 'A' ? pg.a() : pg.b(), "warnings"))) {
      auto at = std::find_if(all.begin(), all.end(), [&](auto& e) { return e.first == text(w); });
      if (at == all.end())
        all.emplace_back(text(w), side);
      else
        at->second += " and " + std::string(side);
    }
  if (all.empty()) {
    pg.para("None on either side.", "note");
  } else {
    pg.out += "<ul class=\"warnings\">\n";
    for (auto& [w, who] : all)
      pg.out +=
          "<li><strong>" + html_escape(who) + ":</strong> warning: " + html_escape(w) + "</li>\n";
    pg.out += "</ul>\n";
  }
  pg.close();
}

void lead(ComparisonPage& pg) {
  pg.open("lead", "Lead changes and the mid-game leader");
  if (statistic(pg, "lead_changes").empty()) {
    pg.para(
        "Not compared: a side has no scoring section (no leader to follow), or no pair of "
        "games ended without error.",
        "note");
    pg.close();
    return;
  }
  pg.out += "<h3>Lead changes per game</h3>\n";
  std::vector<SpreadRow> rows;
  for (const char* side : sides) {
    const json& changes = field(field(side[0] == 'A' ? pg.a() : pg.b(), "lead"), "changes");
    if (integer(field(changes, "count")))
      rows.push_back(distribution_row("lead changes", changes, side));
  }
  if (!rows.empty())
    pg.out += spread_chart(rows, "Lead changes per game on A and B",
                           "For A and for B: the line runs from the fewest lead changes in a "
                           "game to the most, the box spans the quartiles, the tick is the "
                           "median and the dot the mean.");
  pg.out += differences(pg, "lead_changes", "lead changes", false, "Lead changes per game: B - A",
                        "The mean number of lead changes per game on B minus that on A, with "
                        "the paired 95% interval.");
  pg.out += "<h3>Does the leader at mid-game win?</h3>\n";
  std::vector<IntervalRow> rates;
  for (const char* side : sides) {
    const json& l = field(side[0] == 'A' ? pg.a() : pg.b(), "lead");
    int64_t with = integer(field(l, "midgame_leader_games"));
    if (with)
      rates.push_back(
          rate_row("mid-game leader", number(field(l, "midgame_leader_win_rate")),
                   field(l, "midgame_leader_win_rate_95"),
                   fmt::format("{}: won {} of {} games", side,
                               grouped(integer(field(l, "midgame_leader_wins"))), grouped(with)),
                   side));
  }
  double equal = pg.players > 0 ? 1.0 / pg.players : 0;
  if (!rates.empty())
    pg.out += interval_chart(rates, equal, "equal share " + percent(equal),
                             "How often the leader at mid-game wins, A and B",
                             "On A and on B, the share of the games with one leader at mid-game "
                             "that this leader won, with its 95% Wilson interval.");
  pg.out += differences(pg, "midgame_leader_won", "mid-game leader wins", true,
                        "The mid-game leader's wins: B - A",
                        "How much more often the leader at mid-game wins on B than on A, over "
                        "the pairs where both games have one, with the paired 95% interval.");
  pg.para(
      "Near the equal share, the game stays open; near 100%, an early lead decides it. The "
      "difference counts only the pairs where both games have a leader at mid-game.",
      "note");
  pg.out += table_head("statistic");
  for (const json* row : statistic(pg, "lead_changes"))
    pg.out += table_row(statistic_label(*row), *row, false);
  for (const json* row : statistic(pg, "midgame_leader_won"))
    pg.out += table_row(statistic_label(*row), *row, true);
  pg.out += "</tbody></table></div>\n";
  pg.close();
}

void every_difference(ComparisonPage& pg) {
  pg.open("all", "Every difference");
  pg.para(
      "The table kata compare prints: each statistic on A and on B (over the pairs), B - A, "
      "its paired 95% interval and p-value; * marks a significant difference.",
      "note");
  pg.out += table_head("statistic");
  for (const json& row : list(field(pg.r, "statistics")))
    pg.out += table_row(statistic_label(row), row, statistic_percent(row));
  for (auto [part, key] : {std::pair{"actions", "action"}, {"components", "component"}}) {
    if (list(field(pg.r, part)).empty()) continue;
    pg.out += fmt::format(
        "<tr><th scope=\"rowgroup\" colspan=\"7\">{}: share of the decisions "
        "where legal</th></tr>\n",
        part);
    for (const json& row : list(field(pg.r, part)))
      pg.out += table_row(text(field(row, key)), row, true);
  }
  pg.out += "</tbody></table></div>\n";
  pg.close();
}

void errors(ComparisonPage& pg) {
  pg.open("errors", "Errors");
  const json& counts = field(pg.r, "errors");
  for (const char* side : sides) {
    int64_t n = integer(field(counts, side[0] == 'A' ? "a" : "b"));
    if (!n) {
      pg.para(std::string(side) + ": every game ended without error.", "note");
      continue;
    }
    pg.para(fmt::format("{}: {} game{} stopped with an error; the first are:", side, grouped(n),
                        n == 1 ? "" : "s"));
    pg.out += "<ul class=\"errors\">\n";
    for (const json& m : list(field(side[0] == 'A' ? pg.a() : pg.b(), "error_messages")))
      pg.out += "<li>" + html_escape(text(m)) + "</li>\n";
    pg.out += "</ul>\n";
  }
  pg.close();
}

}  // namespace

std::string comparison_html(const nlohmann::json& comparison) {
  ComparisonPage pg(comparison);
  pg.players = static_cast<int>(integer(field(comparison, "players")));
  pg.pairs = integer(field(comparison, "pairs"));
  const json &a = field(comparison, "a"), &b = field(comparison, "b");
  std::string ga = text(field(a, "game")), gb = text(field(b, "game"));
  pg.out = page_start((ga == gb ? ga : ga + " / " + gb) + " – comparison report");
  header(pg);
  pg.contents({{"summary", "At a glance"},
               {"wins", "Wins"},
               {"scores", "Scores"},
               {"length", "Game length"},
               {"actions", "Actions"},
               {"components", "Components"},
               {"dead", "Dead rules"},
               {"lead", "Lead"},
               {"all", "Every difference"},
               {"errors", "Errors"}});
  pg.out += "<!-- statistics -->\n";
  summary(pg);
  wins(pg);
  scores(pg);
  length(pg);
  uses(pg, "actions", "Actions", "action", "action");
  uses(pg, "components", "Components", "component", "component (its copies counted together)");
  dead_rules(pg);
  lead(pg);
  every_difference(pg);
  errors(pg);
  pg.out += page_end(fmt::format(
      "Made by kata {}. Every figure is the one kata compare --json prints for this run; "
      "docs/cli.md defines them.",
      KATA_VERSION));
  return pg.out;
}

}  // namespace kata::cli
