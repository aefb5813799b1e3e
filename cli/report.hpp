// What kata simulate reports, in text and JSON, and kata merge, which adds up the JSON of
// the shards of one run (kata simulate --shard) into the report of the whole run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "agents/runner.hpp"

namespace kata::cli {

// What makes a simulation the run it is: the shards of one run agree on all of it.
struct RunInfo {
  std::string game;   // its name
  std::string rules;  // a fingerprint of the rule file's text and its imports'
  int players = 0;
  uint64_t seed = 1;
  std::vector<std::pair<std::string, int64_t>> options;  // every option, by name
  std::vector<std::string> agents;                       // one per seat; none: the fast random path
  bool check_invariants = false;
  bool per_decision = true;  // the statistics of each decision were gathered
  bool scored = false;                    // the game has `scoring:` (lead changes are reported)
  std::vector<std::string> action_names;  // by action
  std::vector<std::string> card_names;    // by card: the name without its copy number
  std::vector<int> card_kinds;            // by card: its component (kind)
  int run_games = 0;                      // games in the whole run
  int shard = 0,
      shards = 1;  // this part: shard `shard` (from 0) of `shards`; 1 shard: the whole run
};

// The fingerprint of a game's sources: 16 hex digits of FNV-1a over each file's text.
std::string rules_fingerprint(const Game& g);

nlohmann::json simulation_json(const RunInfo& run, const SimulationStats& st);
std::string simulation_text(const RunInfo& run, const SimulationStats& st);

struct MergeArgs {
  std::vector<std::string> files;
  bool json = false;
  std::string report;  // --report: write the merged statistics as an HTML page to this file
};

int merge(const MergeArgs& a);

}  // namespace kata::cli
