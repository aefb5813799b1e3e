// kata simulate's report and kata merge. The JSON carries, under "counts", the raw counts
// every figure is worked out from (SimulationStats), so that merging shards is exact.
#include "report.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "agents/balance.hpp"
#include "commands.hpp"
#include "report_html.hpp"
#include "syntax/diagnostics.hpp"
#include "syntax/source.hpp"

namespace kata::cli {

namespace {


std::string agent_of(const RunInfo& run, int p) {
  return run.agents.empty() ? std::string("random") : run.agents[p];
}

nlohmann::json counts_json(const Counts& c) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& [value, n] : c) out.push_back({value, n});
  return out;
}

// Count, mean, spread and the five numbers of a distribution.
nlohmann::json distribution_json(const Counts& c) {
  return {{"count", total(c)},       {"mean", mean(c)},         {"stdev", stdev(c)},
          {"min", quantile(c, 0)},   {"q1", quantile(c, 0.25)}, {"median", quantile(c, 0.5)},
          {"q3", quantile(c, 0.75)}, {"max", quantile(c, 1)}};
}

nlohmann::json share_json(int64_t chosen, int64_t legal) {
  return legal ? nlohmann::json(static_cast<double>(chosen) / static_cast<double>(legal))
               : nlohmann::json();
}

// A named row of the actions or components: summed over the names' entries, in the order
// of each name's first entry.
struct Use {
  std::string name;
  int64_t chosen = 0, legal = 0;
};

std::vector<Use> uses(const std::vector<std::string>& names, const std::vector<int64_t>& chosen,
                      const std::vector<int64_t>& legal) {
  std::vector<Use> out;
  std::map<std::string, size_t> row;
  for (size_t i = 0; i < names.size() && i < chosen.size() && i < legal.size(); ++i) {
    auto [at, fresh] = row.emplace(names[i], out.size());
    if (fresh) out.push_back({names[i]});
    out[at->second].chosen += chosen[i];
    out[at->second].legal += legal[i];
  }
  return out;
}

// The cards of the components some card of which was ever a legal parameter (the others,
// such as counters no action takes, are left out), grouped by name.
std::vector<Use> component_uses(const RunInfo& run, const SimulationStats& st) {
  std::set<int> kinds;
  for (size_t c = 0; c < run.card_kinds.size() && c < st.card_legal.size(); ++c)
    if (st.card_legal[c]) kinds.insert(run.card_kinds[c]);
  std::vector<std::string> names;
  std::vector<int64_t> chosen, legal;
  for (size_t c = 0;
       c < run.card_kinds.size() && c < st.card_legal.size() && c < run.card_names.size(); ++c)
    if (kinds.count(run.card_kinds[c]))
      names.push_back(run.card_names[c]), chosen.push_back(st.card_chosen[c]),
          legal.push_back(st.card_legal[c]);
  return uses(names, chosen, legal);
}

// Actions never legal, components never legal or never chosen: the "dead rules".
std::vector<std::string> warnings(const RunInfo& run, const SimulationStats& st) {
  std::vector<std::string> out;
  int done = st.games - st.errors;
  if (!done || !run.per_decision) return out;
  for (const Use& u : uses(run.action_names, st.action_chosen, st.action_legal))
    if (!u.legal)
      out.push_back(fmt::format("action '{}' was never legal in {} games", u.name, done));
  for (const Use& u : component_uses(run, st))
    if (!u.legal)
      out.push_back(
          fmt::format("component '{}' was never legal as a parameter in {} games", u.name, done));
    else if (!u.chosen)
      out.push_back(fmt::format("component '{}' was never chosen in {} games (legal {} times)",
                                u.name, done, u.legal));
  return out;
}

}  // namespace

std::string rules_fingerprint(const Game& g) {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&](unsigned char c) { h = (h ^ c) * 0x100000001b3ULL; };
  if (g.sources)
    for (int i = 0; i < g.sources->size(); ++i) {
      for (char c : g.sources->at(i).text) mix(static_cast<unsigned char>(c));
      mix(0);
    }
  return fmt::format("{:016x}", h);
}

nlohmann::json simulation_json(const RunInfo& run, const SimulationStats& st) {
  int players = run.players, done = st.games - st.errors;
  nlohmann::json seats = nlohmann::json::array();
  for (int p = 0; p < players; ++p) {
    Interval ci = wilson_interval(st.wins[p], done);
    seats.push_back({{"seat", seat_name(p)},
                     {"agent", agent_of(run, p)},
                     {"wins", st.wins[p]},
                     {"win_rate", done ? st.wins[p] / done : 0},
                     {"win_rate_95", {ci.low, ci.high}},
                     {"outright_wins", st.outright_wins[p]},
                     {"score",
                      {{"mean", st.score_mean[p]},
                       {"stdev", st.score_stdev[p]},
                       {"min", st.score_min[p]},
                       {"max", st.score_max[p]}}}});
  }
  nlohmann::json hist = nlohmann::json::array();  // in score order
  for (auto& [score, count] : st.score_histogram)
    hist.push_back({{"score", score}, {"count", count}});
  nlohmann::json options = nlohmann::json::object();
  for (auto& [name, value] : run.options) options[name] = value;
  nlohmann::json out = {
      {"game", run.game},
      {"games", st.games},
      {"players", players},
      {"seed", run.seed},
      {"seats", seats},
      {"score_histogram", hist},
      {"length", {{"mean", st.length_mean}, {"min", st.length_min}, {"max", st.length_max}}},
      {"errors", st.errors},
      {"error_messages", st.error_messages}};
  ChiSquare order = equal_shares(st.wins);
  out["seat_order"] =
      order.valid
          ? nlohmann::json{{"chi_square", order.statistic}, {"df", order.df}, {"p_value", order.p}}
          : nlohmann::json();
  out["margin"] = distribution_json(st.margins);
  nlohmann::json length = distribution_json(st.lengths);
  length["min"] = st.length_min;  // as before: numbers with a fraction
  length["max"] = st.length_max;
  length["mean"] = st.length_mean;
  length["histogram"] = counts_json(st.lengths);
  out["length"] = length;
  nlohmann::json actions = nlohmann::json::array(), components = nlohmann::json::array();
  for (const Use& u : uses(run.action_names, st.action_chosen, st.action_legal))
    if (run.per_decision)
      actions.push_back({{"action", u.name},
                         {"chosen", u.chosen},
                         {"legal", u.legal},
                         {"share", share_json(u.chosen, u.legal)}});
  for (const Use& u : component_uses(run, st))
    if (run.per_decision)
      components.push_back({{"component", u.name},
                            {"chosen", u.chosen},
                            {"legal", u.legal},
                            {"share", share_json(u.chosen, u.legal)}});
  out["actions"] = actions;
  out["components"] = components;
  out["warnings"] = warnings(run, st);
  if (run.scored && run.per_decision) {
    Interval ci = wilson_interval(static_cast<double>(st.midgame_leader_wins),
                                  static_cast<double>(st.midgame_leader_games));
    out["lead"] = {
        {"changes", distribution_json(st.lead_changes)},
        {"midgame_leader_games", st.midgame_leader_games},
        {"midgame_leader_wins", st.midgame_leader_wins},
        {"midgame_leader_win_rate", share_json(st.midgame_leader_wins, st.midgame_leader_games)},
        {"midgame_leader_win_rate_95", {ci.low, ci.high}}};
  } else {
    out["lead"] = nullptr;
  }
  out["rules"] = run.rules;
  out["options"] = options;
  out["agents"] = run.agents;
  out["check_invariants"] = run.check_invariants;
  out["decision_stats"] = run.per_decision;
  if (run.shards > 1)
    out["shard"] = {{"index", run.shard + 1}, {"count", run.shards}, {"run_games", run.run_games}};
  nlohmann::json scores = nlohmann::json::array(), errors = nlohmann::json::array();
  for (const Counts& c : st.scores) scores.push_back(counts_json(c));
  for (auto& [i, message] : st.first_errors)
    errors.push_back({{"game", i + 1}, {"message", message}});
  out["counts"] = {{"wins_by_winners", st.wins_by_winners},
                   {"scores", scores},
                   {"lengths", counts_json(st.lengths)},
                   {"first_errors", errors},
                   {"margins", counts_json(st.margins)},
                   {"scored", run.scored},
                   {"action_names", run.action_names},
                   {"action_chosen", st.action_chosen},
                   {"action_legal", st.action_legal},
                   {"card_names", run.card_names},
                   {"card_kinds", run.card_kinds},
                   {"card_chosen", st.card_chosen},
                   {"card_legal", st.card_legal},
                   {"lead_changes", counts_json(st.lead_changes)},
                   {"midgame_leader_games", st.midgame_leader_games},
                   {"midgame_leader_wins", st.midgame_leader_wins}};
  return out;
}

std::string simulation_text(const RunInfo& run, const SimulationStats& st) {
  int players = run.players;
  std::string out;
  if (run.shards > 1)
    out += fmt::format("{}: shard {}/{} of {} games ({} played), {}, seed {}\n", run.game,
                       run.shard + 1, run.shards, run.run_games, st.games, players_text(players, players), run.seed);
  else
    out +=
        fmt::format("{}: {} game{}, {}, seed {}\n", run.game, st.games, st.games == 1 ? "" : "s", players_text(players, players), run.seed);
  if (!run.agents.empty()) {
    std::string seated;
    for (int p = 0; p < players; ++p)
      seated += fmt::format("{}{} {}", p ? ", " : "", seat_name(p), run.agents[p]);
    out += "agents: " + seated + '\n';
  }
  out += "seat   wins    win%  outright   score mean  stdev   min   max   win% 95% interval\n";
  int done = st.games - st.errors;
  for (int p = 0; p < players; ++p) {
    Interval ci = wilson_interval(st.wins[p], done);
    out += fmt::format(
        "{:<5} {:>7.1f} {:>6.2f}% {:>8}   {:>10.2f} {:>6.2f} {:>5} {:>5}   [{:.1f}%, {:.1f}%]\n",
        seat_name(p), st.wins[p], done ? 100.0 * st.wins[p] / done : 0.0, st.outright_wins[p],
        st.score_mean[p], st.score_stdev[p], st.score_min[p], st.score_max[p], 100 * ci.low,
        100 * ci.high);
  }
  if (ChiSquare order = equal_shares(st.wins); order.valid)
    out += fmt::format("seat order: chi-square {:.2f} ({} df), p = {:.3g}: {}\n", order.statistic,
                       order.df, order.p,
                       order.p < 0.05 ? "the seats' win rates differ (5% level)"
                                      : "no evidence that seat order matters (5% level)");
  if (!st.margins.empty())
    out += fmt::format(
        "winner's margin: mean {:.2f}, stdev {:.2f}, min {}, quartiles {} {} {}, max {} ({} "
        "games)\n",
        mean(st.margins), stdev(st.margins), quantile(st.margins, 0), quantile(st.margins, 0.25),
        quantile(st.margins, 0.5), quantile(st.margins, 0.75), quantile(st.margins, 1),
        total(st.margins));
  out += fmt::format("game length: {:.1f} decisions on average (min {}, max {})\n", st.length_mean,
                     st.length_min, st.length_max);
  if (!st.lengths.empty()) {
    const Counts& c = st.lengths;
    out += fmt::format("  stdev {:.2f}, quartiles {} {} {}\n", stdev(c), quantile(c, 0.25),
                       quantile(c, 0.5), quantile(c, 0.75));
    // At most 10 bins of equal width, from the shortest game.
    int64_t low = c.begin()->first, high = c.rbegin()->first, width = (high - low) / 10 + 1;
    std::map<int64_t, int64_t> bins;
    for (auto& [length, n] : c) bins[(length - low) / width] += n;
    int64_t most = 0;
    for (auto& [bin, n] : bins) most = std::max(most, n);
    for (int64_t b = 0; b <= (high - low) / width; ++b) {
      int64_t n = bins.count(b) ? bins[b] : 0, from = low + b * width, to = from + width - 1;
      std::string range = width == 1 ? fmt::format("{}", from) : fmt::format("{}-{}", from, to);
      out += fmt::format("  {:>11} {:<40} {}\n", range,
                         std::string(static_cast<size_t>(n * 40 / most), '#'), n);
    }
  }
  if (run.scored && run.per_decision && !st.lead_changes.empty()) {
    const Counts& c = st.lead_changes;
    out += fmt::format("lead changes per game: mean {:.2f}, min {}, quartiles {} {} {}, max {}\n",
                       mean(c), quantile(c, 0), quantile(c, 0.25), quantile(c, 0.5),
                       quantile(c, 0.75), quantile(c, 1));
    if (st.midgame_leader_games) {
      Interval ci = wilson_interval(static_cast<double>(st.midgame_leader_wins),
                                    static_cast<double>(st.midgame_leader_games));
      out += fmt::format(
          "the leader at mid-game won {:.1f}% of the {} games with one [{:.1f}%, {:.1f}%]\n",
          100.0 * static_cast<double>(st.midgame_leader_wins) /
              static_cast<double>(st.midgame_leader_games),
          st.midgame_leader_games, 100 * ci.low, 100 * ci.high);
    }
  }
  auto table = [&](const char* title, const std::vector<Use>& rows) {
    if (rows.empty() || !done || !run.per_decision) return;
    size_t width = 10;
    for (const Use& u : rows) width = std::max(width, u.name.size());
    out += fmt::format("{:<{}}  chosen / legal decisions\n", title, width + 2);
    for (const Use& u : rows)
      out += fmt::format("  {:<{}} {:>7} {:>10} / {}\n", u.name, width,
                         u.legal ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(u.chosen) /
                                                              static_cast<double>(u.legal))
                                 : "-",
                         u.chosen, u.legal);
  };
  table("actions", uses(run.action_names, st.action_chosen, st.action_legal));
  table("components", component_uses(run, st));
  for (const std::string& w : warnings(run, st)) out += "warning: " + w + '\n';
  out += fmt::format("errors: {}\n", st.errors);
  for (auto& m : st.error_messages) out += "  " + m + '\n';
  return out;
}

namespace {

// A file merge cannot use: what is wrong, said once, with the file's name.
struct Refused {
  std::string why;
};

// The largest file kata merge reads (docs/language.md §7): a shard's JSON is a few hundred
// KiB even for a game of thousands of cards.
constexpr size_t max_merge_size = 16 << 20;
// What kata simulate takes (-g, --shard): a shard claiming more is not one of its outputs.
constexpr int max_games = 100000000, max_shards = 1000000;
// A count in a shard's JSON is at most 2^43, so that adding up a million shards (the most
// --shard makes) cannot overflow 64 bits.
constexpr int64_t max_count = int64_t{1} << 43;

int64_t checked_count(int64_t n) {
  if (n < 0) throw Refused{"a negative count"};
  if (n > max_count) throw Refused{"a count larger than 2^43"};
  return n;
}

std::vector<int64_t> read_count_list(const nlohmann::json& j) {
  auto list = j.get<std::vector<int64_t>>();
  for (int64_t n : list) checked_count(n);
  return list;
}

Counts read_counts(const nlohmann::json& j) {
  Counts c;
  for (const auto& pair : j.get<std::vector<std::pair<int64_t, int64_t>>>()) {
    if (pair.first < -max_count || pair.first > max_count) throw Refused{"a value larger than 2^43"};
    c[pair.first] = checked_count(c[pair.first] + checked_count(pair.second));
  }
  return c;
}

struct Part {
  std::string file;
  RunInfo run;
  SimulationStats stats;
};

// Reads one result of kata simulate --json; throws Refused.
Part read_part(const std::string& file, const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (auto colon = what.find("] "); colon != std::string::npos) what = what.substr(colon + 2);
    throw Refused{"it is not JSON: " + what};
  }
  Part part;
  part.file = file;
  RunInfo& run = part.run;
  SimulationStats& st = part.stats;
  try {
    if (!j.is_object() || !j.contains("counts") || !j.contains("rules"))
      throw Refused{
          "it is not the output of kata simulate --json (it has no \"counts\" and \"rules\")"};
    run.game = j.at("game").get<std::string>();
    run.rules = j.at("rules").get<std::string>();
    run.players = j.at("players").get<int>();
    run.seed = j.at("seed").get<uint64_t>();
    for (auto& [name, value] : j.at("options").items())
      run.options.emplace_back(name, value.get<int64_t>());
    run.agents = j.at("agents").get<std::vector<std::string>>();
    run.check_invariants = j.at("check_invariants").get<bool>();
    run.per_decision = j.at("decision_stats").get<bool>();
    st.games = j.at("games").get<int>();
    st.errors = j.at("errors").get<int>();
    st.players = run.players;
    if (st.games < 0 || st.games > max_games) throw Refused{fmt::format("its number of games is not from 0 to {}", max_games)};
    if (run.players < 1 || run.players > 32)
      throw Refused{fmt::format("{} players is not a player count", run.players)};
    if (!run.agents.empty() && static_cast<int>(run.agents.size()) != run.players)
      throw Refused{"its agents are not one per seat"};
    run.run_games = st.games;
    if (j.contains("shard")) {
      const auto& s = j.at("shard");
      run.shard = s.at("index").get<int>() - 1;
      run.shards = s.at("count").get<int>();
      run.run_games = s.at("run_games").get<int>();
      // Checked before by_shard (merge) is sized by it.
      if (run.shards < 1 || run.shard < 0 || run.shard >= run.shards || run.shards > max_shards)
        throw Refused{fmt::format("its shard is not I/N with 1 <= I <= N <= {}", max_shards)};
      if (run.run_games < 0 || run.run_games > max_games)
        throw Refused{fmt::format("its number of games is not from 0 to {}", max_games)};
    }
    if (st.games != shard_games(run.run_games, run.shard, run.shards) || st.errors < 0 ||
        st.errors > st.games)
      throw Refused{"its counts of games do not add up"};
    const auto& counts = j.at("counts");
    for (const auto& w : counts.at("wins_by_winners")) st.wins_by_winners.push_back(read_count_list(w));
    for (const auto& s : counts.at("scores")) st.scores.push_back(read_counts(s));
    st.lengths = read_counts(counts.at("lengths"));
    for (const auto& e : counts.at("first_errors")) {
      int game = e.at("game").get<int>();
      if (game < 1 || game > max_games) throw Refused{"its first errors are not in games of the run"};
      st.first_errors.emplace_back(game - 1, e.at("message").get<std::string>());
    }
    if (static_cast<int>(st.wins_by_winners.size()) != run.players ||
        static_cast<int>(st.scores.size()) != run.players)
      throw Refused{"its counts are not one per seat"};
    st.margins = read_counts(counts.at("margins"));
    run.scored = counts.at("scored").get<bool>();
    run.action_names = counts.at("action_names").get<std::vector<std::string>>();
    st.action_chosen = read_count_list(counts.at("action_chosen"));
    st.action_legal = read_count_list(counts.at("action_legal"));
    run.card_names = counts.at("card_names").get<std::vector<std::string>>();
    run.card_kinds = counts.at("card_kinds").get<std::vector<int>>();
    st.card_chosen = read_count_list(counts.at("card_chosen"));
    st.card_legal = read_count_list(counts.at("card_legal"));
    st.lead_changes = read_counts(counts.at("lead_changes"));
    st.midgame_leader_games = checked_count(counts.at("midgame_leader_games").get<int64_t>());
    st.midgame_leader_wins = checked_count(counts.at("midgame_leader_wins").get<int64_t>());
    if (st.action_chosen.size() != run.action_names.size() ||
        st.action_legal.size() != run.action_names.size() ||
        st.card_chosen.size() != run.card_names.size() ||
        st.card_legal.size() != run.card_names.size() ||
        run.card_kinds.size() != run.card_names.size())
      throw Refused{"its counts of actions and components are not one per name"};
    if (total(st.lengths) != st.games - st.errors)
      throw Refused{"its counts of games do not add up"};
  } catch (const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (auto colon = what.find("] "); colon != std::string::npos) what = what.substr(colon + 2);
    throw Refused{"it is not the output of kata simulate --json: " + what};
  }
  summarize(st);
  return part;
}

// What differs between two parts that should be of the same run ("" if nothing does).
std::string difference(const RunInfo& a, const RunInfo& b) {
  if (a.rules != b.rules || a.game != b.game) return "rule files";
  if (a.players != b.players) return "player counts";
  if (a.seed != b.seed) return "seeds";
  if (a.options != b.options) return "options";
  if (a.agents != b.agents) return "agents";
  if (a.check_invariants != b.check_invariants) return "--check-invariants settings";
  if (a.per_decision != b.per_decision) return "--no-decision-stats settings";
  if (a.run_games != b.run_games) return "numbers of games";
  if (a.shards != b.shards) return "numbers of shards";
  return "";
}

}  // namespace

int merge(const MergeArgs& a) {
  std::vector<Part> parts;
  ReportFile report;
  if (!a.report.empty() && !report.open(a.report)) return usage_error;
  try {
    for (const std::string& file : a.files) {
      std::string text, why;
      if (!read_source(file, text, why, max_merge_size)) {
        std::cerr << "kata: error: " << printable(why) << '\n';
        return usage_error;
      }
      try {
        parts.push_back(read_part(file, text));
      } catch (Refused& r) {
        r.why = fmt::format("{}: {}", file, r.why);
        throw;
      }
    }
    const Part& first = parts.at(0);
    std::vector<const Part*> by_shard(first.run.shards, nullptr);
    for (const Part& p : parts) {
      if (std::string what = difference(first.run, p.run); !what.empty())
        throw Refused{fmt::format("{} and {} are not shards of one run: their {} differ",
                                  first.file, p.file, what)};
      if (const Part* twice = by_shard[p.run.shard])
        throw Refused{fmt::format("{} and {} are the same shard ({}/{})", twice->file, p.file,
                                  p.run.shard + 1, p.run.shards)};
      by_shard[p.run.shard] = &p;
    }
    std::string missing;
    int absent = 0;
    for (int i = 0; i < first.run.shards; ++i)
      if (!by_shard[i] && ++absent <= 10)
        missing += fmt::format("{}{}/{}", absent > 1 ? ", " : "", i + 1, first.run.shards);
    if (absent)
      throw Refused{fmt::format("{} shard{} of the run {} missing: {}{}", absent,
                                absent > 1 ? "s" : "", absent > 1 ? "are" : "is", missing,
                                absent > 10 ? ", ..." : "")};
  } catch (const Refused& r) {
    std::cerr << "kata: error: " << r.why << '\n';
    return input_error;
  }
  RunInfo run = parts[0].run;
  run.shard = 0;
  run.shards = 1;
  SimulationStats st;
  st.players = run.players;
  st.wins_by_winners.assign(run.players, {});
  st.scores.assign(run.players, {});
  for (const Part& p : parts) merge_stats(st, p.stats);
  nlohmann::json result = simulation_json(run, st);
  if (a.json)
    std::cout << json_text(result) << '\n';
  else
    std::cout << simulation_text(run, st);
  if (!a.report.empty() && !report.write(result, {"kata merge", "", "", a.files})) return usage_error;
  return st.errors ? input_error : ok;
}

}  // namespace kata::cli
