// kata simulate's report and kata merge. The JSON carries, under "counts", the raw counts
// every figure is worked out from (SimulationStats), so that merging shards is exact.
#include "report.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "syntax/diagnostics.hpp"

namespace kata::cli {

namespace {

constexpr int ok = 0, input_error = 1, usage_error = 2;

std::string agent_of(const RunInfo& run, int p) {
  return run.agents.empty() ? std::string("random") : run.agents[p];
}

nlohmann::json counts_json(const Counts& c) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& [value, n] : c) out.push_back({value, n});
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
  out["rules"] = run.rules;
  out["options"] = options;
  out["agents"] = run.agents;
  out["check_invariants"] = run.check_invariants;
  if (run.shards > 1)
    out["shard"] = {{"index", run.shard + 1}, {"count", run.shards}, {"run_games", run.run_games}};
  nlohmann::json scores = nlohmann::json::array(), errors = nlohmann::json::array();
  for (const Counts& c : st.scores) scores.push_back(counts_json(c));
  for (auto& [i, message] : st.first_errors)
    errors.push_back({{"game", i + 1}, {"message", message}});
  out["counts"] = {{"wins_by_winners", st.wins_by_winners},
                   {"scores", scores},
                   {"lengths", counts_json(st.lengths)},
                   {"first_errors", errors}};
  return out;
}

std::string simulation_text(const RunInfo& run, const SimulationStats& st) {
  int players = run.players;
  std::string out;
  if (run.shards > 1)
    out += fmt::format("{}: shard {}/{} of {} games ({} played), {} players, seed {}\n", run.game,
                       run.shard + 1, run.shards, run.run_games, st.games, players, run.seed);
  else
    out +=
        fmt::format("{}: {} games, {} players, seed {}\n", run.game, st.games, players, run.seed);
  if (!run.agents.empty()) {
    std::string seated;
    for (int p = 0; p < players; ++p)
      seated += fmt::format("{}{} {}", p ? ", " : "", seat_name(p), run.agents[p]);
    out += "agents: " + seated + '\n';
  }
  out += "seat   wins    win%  outright   score mean  stdev   min   max\n";
  int done = st.games - st.errors;
  for (int p = 0; p < players; ++p)
    out += fmt::format("{:<5} {:>7.1f} {:>6.2f}% {:>8}   {:>10.2f} {:>6.2f} {:>5} {:>5}\n",
                       seat_name(p), st.wins[p], done ? 100.0 * st.wins[p] / done : 0.0,
                       st.outright_wins[p], st.score_mean[p], st.score_stdev[p], st.score_min[p],
                       st.score_max[p]);
  out += fmt::format("game length: {:.1f} decisions on average (min {}, max {})\n", st.length_mean,
                     st.length_min, st.length_max);
  out += fmt::format("errors: {}\n", st.errors);
  for (auto& m : st.error_messages) out += "  " + m + '\n';
  return out;
}

namespace {

// A file merge cannot use: what is wrong, said once, with the file's name.
struct Refused {
  std::string why;
};

Counts read_counts(const nlohmann::json& j) {
  Counts c;
  for (const auto& pair : j.get<std::vector<std::pair<int64_t, int64_t>>>()) {
    if (pair.second < 0) throw Refused{"a negative count"};
    c[pair.first] += pair.second;
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
    st.games = j.at("games").get<int>();
    st.errors = j.at("errors").get<int>();
    st.players = run.players;
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
      if (run.shards < 1 || run.shard < 0 || run.shard >= run.shards || run.run_games < 0)
        throw Refused{"its shard is not I/N with 1 <= I <= N"};
    }
    if (st.games != shard_games(run.run_games, run.shard, run.shards) || st.errors < 0 ||
        st.errors > st.games)
      throw Refused{"its counts of games do not add up"};
    const auto& counts = j.at("counts");
    st.wins_by_winners = counts.at("wins_by_winners").get<std::vector<std::vector<int64_t>>>();
    for (const auto& s : counts.at("scores")) st.scores.push_back(read_counts(s));
    st.lengths = read_counts(counts.at("lengths"));
    for (const auto& e : counts.at("first_errors"))
      st.first_errors.emplace_back(e.at("game").get<int>() - 1, e.at("message").get<std::string>());
    if (static_cast<int>(st.wins_by_winners.size()) != run.players ||
        static_cast<int>(st.scores.size()) != run.players)
      throw Refused{"its counts are not one per seat"};
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
  if (a.run_games != b.run_games) return "numbers of games";
  if (a.shards != b.shards) return "numbers of shards";
  return "";
}

}  // namespace

int merge(const MergeArgs& a) {
  std::vector<Part> parts;
  try {
    for (const std::string& file : a.files) {
      std::error_code ec;
      std::ifstream in(file, std::ios::binary);
      if (!std::filesystem::is_regular_file(file, ec) || !in) {
        std::cerr << fmt::format("kata: error: cannot read '{}'\n", file);
        return usage_error;
      }
      std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
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
  if (a.json)
    std::cout << json_text(simulation_json(run, st)) << '\n';
  else
    std::cout << simulation_text(run, st);
  return st.errors ? input_error : ok;
}

}  // namespace kata::cli
