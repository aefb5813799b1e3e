// The HTML report of a simulation: the page's sections in reading order (header, summary,
// wins, scores, length, actions and components, dead rules, lead, errors), each drawn with
// the charts of html_page.hpp; and the file a --report is written to.
#include "report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <utility>

#include "html_page.hpp"
#include "runtime/engine.hpp"

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

using namespace html;

struct SimulationPage : Page {
  SimulationPage(const json& result, const ReportOrigin& from) : r(result), origin(from) {}
  const json& r;
  const ReportOrigin& origin;
  int players = 0;
  int64_t games = 0, done = 0;  // played, and ended without error
};

void header(SimulationPage& pg) {
  const json& r = pg.r;
  std::string game = text(field(r, "game"));
  pg.out += "<header>\n<h1>" + html_escape(game) + "</h1>\n";
  pg.out += "<p class=\"sub\">" +
            html_escape(fmt::format("Simulation report: {} games, {}", grouped(pg.games),
                                    players_text(pg.players, pg.players))) +
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
  pg.fact("Agents", html_escape(agents_text(field(r, "agents"))));
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

void summary(SimulationPage& pg) {
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

void wins(SimulationPage& pg) {
  const json& seats = field(pg.r, "seats");
  pg.open("wins", "Win rate by seat");
  std::vector<IntervalRow> rows;
  std::string table =
      "<div class=\"table\"><table><thead><tr><th scope=\"col\">seat</th><th "
      "scope=\"col\">agent</th>"
      "<th scope=\"col\">wins</th><th scope=\"col\">win rate</th><th scope=\"col\">95% "
      "interval</th>"
      "<th scope=\"col\">outright wins</th></tr></thead><tbody>\n";
  for (const json& s : list(seats)) {
    IntervalRow row = seat_win_row(s, "");
    std::string interval = interval_text(field(s, "win_rate_95"));
    table += "<tr><th scope=\"row\">" + html_escape(row.label) + "</th><td>" +
             html_escape(text(field(s, "agent"))) + "</td><td>" + amount(number(field(s, "wins"))) +
             "</td><td>" + percent(row.value) + "</td><td>" + interval + "</td><td>" +
             grouped(integer(field(s, "outright_wins"))) + "</td></tr>\n";
    rows.push_back(std::move(row));
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

// A one-row spread chart of a distribution as the JSON gives it (quartiles and mean).
std::string distribution_chart(const std::string& label, const json& d, const std::string& title,
                               const std::string& desc) {
  return spread_chart({distribution_row(label, d, "")}, title, desc);
}

std::vector<Marker> quartile_markers(const json& d) {
  return {{number(field(d, "q1")), "Q1", "quartile"},
          {number(field(d, "median")), "median", "quartile"},
          {number(field(d, "q3")), "Q3", "quartile"},
          {number(field(d, "mean")), "mean", "meanline"}};
}

// Each seat's final score: its extremes, its mean and one standard deviation either side.
void seat_scores(SimulationPage& pg) {
  const json& seats = field(pg.r, "seats");
  std::vector<SpreadRow> rows;
  for (const json& s : list(seats)) rows.push_back(seat_score_row(s, ""));
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

void all_scores(SimulationPage& pg) {
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

void winners_margin(SimulationPage& pg) {
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

void scores(SimulationPage& pg) {
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

void length(SimulationPage& pg) {
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
                    integer(field(u, "legal")), true, ""});
  return rows;
}

void uses(SimulationPage& pg, const char* id, const char* heading, const char* key,
          const std::string& what) {
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
    pg.out += share_chart(rows, true, std::string(heading) + ": chosen when legal",
                          "For each " + what +
                              ", the share of the decisions where it was legal at which it was "
                              "chosen, sorted from the most chosen; those never legal come last.");
  }
  pg.close();
}

void dead_rules(SimulationPage& pg) {
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

void lead(SimulationPage& pg) {
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
    double rate = number(field(l, "midgame_leader_win_rate"));
    std::string interval = interval_text(ci);
    double equal = pg.players ? 1.0 / pg.players : 0;
    pg.out += interval_chart(
        {rate_row("mid-game leader", rate, ci,
                  fmt::format("won {} of {} games", grouped(won), grouped(with)), "")},
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

void errors(SimulationPage& pg) {
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
  SimulationPage pg(result, origin);
  pg.players = static_cast<int>(integer(field(result, "players")));
  pg.games = integer(field(result, "games"));
  pg.done = pg.games - integer(field(result, "errors"));
  std::string game = text(field(result, "game"));
  pg.out = page_start(game + " – simulation report");
  header(pg);
  pg.contents({{"summary", "At a glance"},
               {"wins", "Wins"},
               {"scores", "Scores"},
               {"length", "Game length"},
               {"actions", "Actions"},
               {"components", "Components"},
               {"dead", "Dead rules"},
               {"lead", "Lead"},
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
  errors(pg);
  pg.out += page_end(fmt::format(
      "Made by kata {}. Every figure is the one kata simulate --json prints for this run; "
      "docs/cli.md defines them.",
      KATA_VERSION));
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
  return write(simulation_html(result, origin));
}

bool ReportFile::write(const std::string& page) {
  out_ << page;
  out_.close();
  if (!out_) {
    std::cerr << fmt::format("kata: error: cannot write the report '{}'\n", path_);
    return false;
  }
  return true;
}

}  // namespace kata::cli
