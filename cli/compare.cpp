// kata compare: a game played two ways (two rule files, or one file with two sets of
// options) on the same seeds, and each statistic of kata simulate side by side with the
// difference, its 95% interval and whether it is significant. The games are played and
// the paired statistics made by kata::compare (agents/runner); this file sets the two
// sides up and prints.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "agents/balance.hpp"
#include "commands.hpp"
#include "report.hpp"
#include "report_html.hpp"

namespace kata::cli {

namespace {


// One side of the comparison: its setup and how the user named it.
struct Side {
  std::string label;  // "A" or "B"
  std::string file;
  std::vector<std::string> specs;  // its NAME=VALUE options, both sides' first
  Setup setup;
  RunInfo run;
};

std::string options_text(const std::vector<std::string>& specs) {
  std::string out;
  for (const std::string& s : specs) out += " -o " + s;
  return out;
}

// "A (FILE -o x=1)": a side as the user wrote it.
std::string described(const Side& s) {
  return fmt::format("{} ({}{})", s.label, s.file, options_text(s.specs));
}

// What simulation_json needs to know of a side's run.
RunInfo run_info(const Setup& setup, uint64_t seed, const std::vector<std::string>& agents,
                 int games) {
  const Game& g = *setup.game;
  RunInfo run;
  run.game = g.name;
  run.rules = rules_fingerprint(g);
  run.players = setup.players;
  run.seed = seed;
  for (size_t i = 0; i < g.options.size(); ++i)
    run.options.emplace_back(g.options[i].name, setup.options.at(i));
  run.agents = agents;
  run.scored = g.score_node >= 0;
  for (const Action& action : g.program.actions) run.action_names.push_back(action.name);
  run.card_names = g.card_plain_names;
  run.card_kinds.assign(g.card_kind.begin(), g.card_kind.end());
  run.run_games = games;
  return run;
}

// Loads both sides (one file is loaded once) and sets their options and player count.
// Returns 0, or the exit status to return (a message printed).
int set_up(const CompareArgs& a, Side& sa, Side& sb) {
  int players = a.players;
  if (int status = prepare(sa.file, players, sa.specs, sa.setup)) {
    if (status == usage_error) std::cerr << "kata: note: setting up " << described(sa) << '\n';
    return status;
  }
  if (a.files.size() == 1) {
    sb.setup.sources = sa.setup.sources;
    sb.setup.game = sa.setup.game;
    sb.setup.players = players;
    if (!game_setup(*sb.setup.game, sb.setup.players, sb.specs, sb.setup.options)) {
      std::cerr << "kata: note: setting up " << described(sb) << '\n';
      return usage_error;
    }
  } else if (int status = prepare(sb.file, players, sb.specs, sb.setup)) {
    if (status == usage_error) std::cerr << "kata: note: setting up " << described(sb) << '\n';
    return status;
  }
  if (sa.setup.players == sb.setup.players) return ok;
  // Without --players each side took the fewest its game allows, and they differ.
  const Game &ga = *sa.setup.game, &gb = *sb.setup.game;
  int low = std::max(ga.min_players, gb.min_players),
      high = std::min(ga.max_players, gb.max_players);
  auto counts = [](int from, int to) {
    return from == to ? std::to_string(from) : fmt::format("{} to {}", from, to);
  };
  std::cerr << fmt::format(
      "kata: error: A ({}) is for {} and B ({}) for {}: {}\n", ga.name,
      players_text(ga.min_players, ga.max_players), gb.name, players_text(gb.min_players, gb.max_players),
      low <= high
          ? fmt::format("choose a player count both allow with --players ({})", counts(low, high))
          : std::string("no player count is allowed by both, and games are compared with "
                        "the same players"));
  return usage_error;
}

// One row of the report: a statistic on each side and their difference.
struct Row {
  std::string key;   // the statistic in JSON: win_rate, score, length, ...
  std::string seat;  // its seat, or ""
  std::string label;
  bool percent = false;  // a rate or a share, printed as a percentage
  bool has_a = true, has_b = true;
  double a = 0, b = 0;
  Difference d;
  int64_t pairs = 0;
  std::string method;  // "paired_t" or "paired_share"
  // A share's counts over the pairs: the decisions that chose it and those where it was
  // legal, on A and on B (what each side's share is out of).
  bool counted = false;
  int64_t chosen_a = 0, legal_a = 0, chosen_b = 0, legal_b = 0;
};

Row paired_row(std::string key, std::string seat, std::string label, bool percent,
               const Paired& p) {
  Row r;
  r.key = std::move(key);
  r.seat = std::move(seat);
  r.label = std::move(label);
  r.percent = percent;
  r.has_a = r.has_b = p.n > 0;
  r.a = p.mean_a();
  r.b = p.mean_b();
  r.d = p.difference();
  r.pairs = p.n;
  r.method = "paired_t";
  return r;
}

Row share_row(const ComparisonStats::Row& row) {
  Row r;
  r.key = "share";
  r.label = row.name;
  r.percent = true;
  r.has_a = row.share.legal_a();
  r.has_b = row.share.legal_b();
  r.a = row.share.share_a();
  r.b = row.share.share_b();
  r.d = row.share.difference();
  r.pairs = row.share.n;
  r.method = "paired_share";
  r.counted = true;
  r.chosen_a = row.share.chosen_a(), r.legal_a = row.share.times_legal_a();
  r.chosen_b = row.share.chosen_b(), r.legal_b = row.share.times_legal_b();
  return r;
}

std::vector<Row> statistic_rows(const ComparisonStats& st, bool scored, int players) {
  std::vector<Row> rows;
  for (int p = 0; p < players; ++p)
    rows.push_back(
        paired_row("win_rate", seat_name(p), seat_name(p) + " win rate", true, st.win[p]));
  if (scored)
    for (int p = 0; p < players; ++p)
      rows.push_back(
          paired_row("score", seat_name(p), seat_name(p) + " score mean", false, st.score[p]));
  rows.push_back(paired_row("length", "", "game length (decisions)", false, st.length));
  if (st.margin.n) rows.push_back(paired_row("margin", "", "winner's margin", false, st.margin));
  if (scored) {
    rows.push_back(paired_row("lead_changes", "", "lead changes per game", false, st.lead_changes));
    rows.push_back(
        paired_row("midgame_leader_won", "", "mid-game leader wins", true, st.midgame_leader_won));
  }
  return rows;
}

// The rows of actions and of the cards legal as a parameter on either side.
std::vector<Row> share_rows(const std::vector<ComparisonStats::Row>& rows, bool only_legal) {
  std::vector<Row> out;
  for (const auto& row : rows)
    if (!only_legal || row.share.legal_a() || row.share.legal_b()) out.push_back(share_row(row));
  return out;
}

nlohmann::json number_or_null(bool has, double v) {
  return has ? nlohmann::json(v) : nlohmann::json();
}

nlohmann::json row_json(const Row& r, const char* name_key) {
  nlohmann::json j;
  if (name_key)
    j[name_key] = r.label;
  else {
    j["statistic"] = r.key;
    j["seat"] = r.seat.empty() ? nlohmann::json() : nlohmann::json(r.seat);
  }
  j["a"] = number_or_null(r.has_a, r.a);
  j["b"] = number_or_null(r.has_b, r.b);
  j["difference"] = number_or_null(r.has_a && r.has_b, r.d.estimate);
  j["difference_95"] = r.d.tested ? nlohmann::json{r.d.low, r.d.high} : nlohmann::json();
  j["p_value"] = r.d.tested ? nlohmann::json(r.d.p) : nlohmann::json();
  j["significant"] = r.d.significant();
  j["pairs"] = r.pairs;
  j["method"] = r.method;
  if (r.counted) {
    j["chosen_a"] = r.chosen_a, j["legal_a"] = r.legal_a;
    j["chosen_b"] = r.chosen_b, j["legal_b"] = r.legal_b;
  }
  return j;
}

nlohmann::json seat_order_json(const SimulationStats& st) {
  ChiSquare t = equal_shares(st.wins);
  if (!t.valid) return nullptr;
  return {{"chi_square", t.statistic}, {"df", t.df}, {"p_value", t.p}};
}

nlohmann::json side_json(const Side& s) {
  nlohmann::json options = nlohmann::json::object();
  for (auto& [name, value] : s.run.options) options[name] = value;
  return {{"file", s.file},
          {"game", s.run.game},
          {"rules", s.run.rules},
          {"options", options},
          {"option_arguments", s.specs}};
}

std::string value_text(const Row& r, bool has, double v) {
  if (!has) return "-";
  return r.percent ? fmt::format("{:.2f}%", 100 * v) : fmt::format("{:.2f}", v);
}

// With its sign; what rounds to zero is +0.00 (a difference of exactly 0 has an interval
// whose ends may be a rounding error away from it).
std::string signed_text(const Row& r, double v) {
  std::string text = r.percent ? fmt::format("{:+.2f}%", 100 * v) : fmt::format("{:+.2f}", v);
  if (text.find_first_not_of("-0.%") == std::string::npos) text[0] = '+';
  return text;
}

std::string p_text(double p) { return p < 1e-16 ? "<1e-16" : fmt::format("{:.3g}", p); }

void print_rows(std::string& out, const std::vector<Row>& rows, size_t width, const char* indent) {
  for (const Row& r : rows) {
    std::string interval =
        r.d.tested ? fmt::format("[{}, {}]", signed_text(r, r.d.low), signed_text(r, r.d.high))
                   : "-";
    std::string p = r.d.tested ? p_text(r.d.p) : "-";
    out += fmt::format("{}{:<{}} {:>10} {:>10} {:>9}  {:<22} {:>8}{}\n", indent, r.label, width,
                       value_text(r, r.has_a, r.a), value_text(r, r.has_b, r.b),
                       r.has_a && r.has_b ? signed_text(r, r.d.estimate) : "-", interval, p,
                       r.d.significant() ? "  *" : "");
  }
}

std::string seat_order_text(const SimulationStats& st) {
  ChiSquare t = equal_shares(st.wins);
  return t.valid ? p_text(t.p) : "-";
}

std::string comparison_text(const CompareArgs& a, const Side& sa, const Side& sb,
                            const ComparisonStats& st, const std::vector<Row>& stats,
                            const std::vector<Row>& actions, const std::vector<Row>& cards) {
  std::string out;
  out += fmt::format("A: {}{} ({})\nB: {}{} ({})\n", sa.file, options_text(sa.specs), sa.run.game,
                     sb.file, options_text(sb.specs), sb.run.game);
  out += fmt::format(
      "{} games on each side, {}, seed {}, {}; game i of A and of B on the same seed\n",
      a.games, players_text(sa.setup.players, sa.setup.players), a.seed,
      sa.run.agents.empty() ? std::string("random bots") : "agents " + agent_list(sa.run.agents));
  // The options that differ, when both sides have them.
  std::string differ;
  for (auto& [name, value] : sa.run.options)
    for (auto& [other, value_b] : sb.run.options)
      if (name == other && value != value_b)
        differ += fmt::format("{}{} {} -> {}", differ.empty() ? "" : ", ", name, value, value_b);
  if (!differ.empty()) out += "options that differ: " + differ + '\n';
  out += fmt::format(
      "{} pairs of games without an error; differences are B - A, 95% intervals paired\n",
      st.pairs);
  size_t width = 26;
  for (const auto* rows : {&stats, &actions, &cards})
    for (const Row& r : *rows) width = std::max(width, r.label.size() + 2);
  out += fmt::format("{:<{}} {:>10} {:>10} {:>9}  {:<22} {:>8}\n", "", width, "A", "B", "B - A",
                     "95% interval", "p");
  print_rows(out, stats, width, "");
  out += fmt::format("{:<{}} {:>10} {:>10}\n", "seat order p (chi-square)", width,
                     seat_order_text(st.a), seat_order_text(st.b));
  if (!actions.empty()) {
    out += "actions: share of the decisions where legal\n";
    print_rows(out, actions, width - 2, "  ");
  }
  if (!cards.empty()) {
    out += "components: share of the decisions where legal\n";
    print_rows(out, cards, width - 2, "  ");
  }
  int significant = 0, tested = 0;
  for (const auto* rows : {&stats, &actions, &cards})
    for (const Row& r : *rows) tested += r.d.tested, significant += r.d.significant();
  out += fmt::format(
      "{} of {} differences significant at the 5% level (*: the interval leaves out 0)\n",
      significant, tested);
  out += fmt::format("errors: A {}, B {}\n", st.a.errors, st.b.errors);
  for (auto& m : st.a.error_messages) out += "  A " + m + '\n';
  for (auto& m : st.b.error_messages) out += "  B " + m + '\n';
  return out;
}

nlohmann::json comparison_json(const CompareArgs& a, const Side& sa, const Side& sb,
                               const ComparisonStats& st, const std::vector<Row>& stats,
                               const std::vector<Row>& actions, const std::vector<Row>& cards) {
  nlohmann::json rows = nlohmann::json::array(), action_rows = nlohmann::json::array(),
                 card_rows = nlohmann::json::array();
  for (const Row& r : stats) rows.push_back(row_json(r, nullptr));
  for (const Row& r : actions) action_rows.push_back(row_json(r, "action"));
  for (const Row& r : cards) card_rows.push_back(row_json(r, "component"));
  return {{"a", side_json(sa)},
          {"b", side_json(sb)},
          {"games", a.games},
          {"players", sa.setup.players},
          {"seed", a.seed},
          {"agents", sa.run.agents},
          {"pairs", st.pairs},
          {"statistics", rows},
          {"seat_order", {{"a", seat_order_json(st.a)}, {"b", seat_order_json(st.b)}}},
          {"actions", action_rows},
          {"components", card_rows},
          {"errors", {{"a", st.a.errors}, {"b", st.b.errors}}},
          {"simulations",
           {{"a", simulation_json(sa.run, st.a)}, {"b", simulation_json(sb.run, st.b)}}}};
}

}  // namespace

int compare(const CompareArgs& a) {
  if (a.files.empty() || a.files.size() > 2) {
    std::cerr << "kata: error: kata compare takes one rule file (with --a and --b options) or two "
                 "(see kata compare --help)\n";
    return usage_error;
  }
  Side sa, sb;
  sa.label = "A", sb.label = "B";
  sa.file = a.files[0], sb.file = a.files.back();
  sa.specs = sb.specs = a.options;
  sa.specs.insert(sa.specs.end(), a.options_a.begin(), a.options_a.end());
  sb.specs.insert(sb.specs.end(), a.options_b.begin(), a.options_b.end());
  if (int status = set_up(a, sa, sb)) return status;
  int players = sa.setup.players;
  std::vector<std::string> agents = a.agents;
  if (!seat_agents(agents, players)) return usage_error;
  if (!agents.empty() && (!check_bots("compare", *sa.setup.game, agents) ||
                          !check_bots("compare", *sb.setup.game, agents)))
    return usage_error;
  sa.run = run_info(sa.setup, a.seed, agents, a.games);
  sb.run = run_info(sb.setup, a.seed, agents, a.games);
  ReportFile report;
  if (!a.report.empty() && !report.open(a.report)) return usage_error;
  AgentMaker make_a, make_b;
  if (!agents.empty()) make_a = agent_maker(*sa.setup.game), make_b = agent_maker(*sb.setup.game);
  ComparisonStats st;
  try {
    st = kata::compare(*sa.setup.game, sa.setup.options, *sb.setup.game, sb.setup.options, a.games, players,
                       a.seed, a.jobs, progress_bar(a.games, true), agents, make_a, make_b);
  } catch (const ThreadsError& e) {
    std::cerr << "kata: error: " << e.what() << '\n';
    return usage_error;
  }
  bool scored = sa.run.scored && sb.run.scored;
  std::vector<Row> stats = statistic_rows(st, scored, players);
  std::vector<Row> actions = share_rows(st.actions, false), cards = share_rows(st.cards, true);
  nlohmann::json result;
  if (a.json || !a.report.empty()) result = comparison_json(a, sa, sb, st, stats, actions, cards);
  if (a.json)
    std::cout << json_text(result) << '\n';
  else
    std::cout << comparison_text(a, sa, sb, st, stats, actions, cards);
  if (!a.report.empty() && !report.write(comparison_html(result))) return usage_error;
  return st.a.errors || st.b.errors ? input_error : ok;
}

}  // namespace kata::cli
