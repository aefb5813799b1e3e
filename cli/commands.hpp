// The subcommands of `kata`. Each takes its parsed arguments and returns the process's
// exit status: 0 success, 1 the input has errors (rule file, log, scenario, game), 2 the
// command line itself is wrong. Printing happens here and nowhere below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agents/runner.hpp"
#include "syntax/diagnostics.hpp"

namespace kata::cli {

// The exit statuses (docs/cli.md).
inline constexpr int ok = 0, input_error = 1, usage_error = 2;

// Who plays the seats a person does not take in `kata play` without --agents (P1 is
// "human"). One constant, so that the default opponent changes in one place.
inline constexpr const char* default_opponent = "ismcts:200";

struct CheckArgs {
  std::vector<std::string> files;
  bool json = false;
  int max_errors = default_max_errors;  // errors (and warnings) shown per file; 0: all
  std::string against;  // --against OLD: list the structural changes from OLD to the file
};

struct PlayArgs {
  std::string file;
  int players = 0;
  uint64_t seed = 0;
  bool seed_given = false;                // without --seed, a fresh seed is drawn and printed
  std::vector<std::string> command_line;  // the arguments after `kata`, to echo with the seed
  std::vector<std::string> agents;
  std::vector<std::string> options;
  std::string log;
  bool quiet = false;
  bool no_clear = false;
  std::string svg;     // write the board at the end as SVG
  std::string resume;  // a log of a stopped game to go on with (then `file` is empty)
  bool compiled = false;  // bots search on the compiled game (the game itself logs its events)
};

struct SimulateArgs {
  std::string file;
  int games = 0;
  int players = 0;
  uint64_t seed = 1;
  int jobs = 1;
  bool json = false;
  std::vector<std::string> options;
  bool check_invariants = false;
  bool compiled = false;  // run the rule file compiled to machine code (native/)
  int shard = 0, shards = 1;
  bool no_decision_stats = false;  // leave out the statistics of each decision (faster)  // --shard I/N: shard I-1 of N (see kata::shard_games)
  std::vector<std::string>
      agents;  // one spec per seat (or one for all); none: the fast random path
  std::string report;  // --report: write the statistics as an HTML page to this file
};

struct ArenaArgs {
  std::string file;
  std::vector<std::string> agents;  // one spec per seat
  int games = 0;
  int players = 0;  // 0: as many as agents
  uint64_t seed = 1;
  int jobs = 1;
  bool rotate = false;
  bool json = false;
  bool quiet = false;  // no progress bar
  bool no_timing =
      false;  // leave out seconds and decisions per second (the only figures that vary)
  bool compiled = false;
  std::vector<std::string> options;
};

struct ReplayArgs {
  std::string log;
  std::string as;
  bool as_given = false;  // --as was on the command line, even as ''
  bool quiet = false;
  std::string svg;  // write the board at the end, as the viewer saw it, as SVG
};

struct PerftArgs {
  std::string file;
  int depth = 1;
  int players = 0;
  uint64_t seed = 1;
  std::vector<std::string> options;
  bool json = false;
  bool compiled = false;
  bool turns = false;
};

struct RulesArgs {
  std::string file;
  bool markdown = false;
  bool json = false;
};

struct TestArgs {
  std::vector<std::string> files;
  bool verbose = false;
};

struct CompareArgs {
  std::vector<std::string> files;  // A and B, or one file played both ways
  int games = 0;
  int players = 0;  // 0: the fewest the games allow (the same for both)
  uint64_t seed = 1;
  int jobs = 1;
  bool json = false;
  // -o before --a and --b: both sides'; after --a: A's only; after --b: B's only.
  std::vector<std::string> options, options_a, options_b;
  std::vector<std::string> agents;  // one spec per seat (or one for all); none: random
  std::string report;  // --report: write the comparison as an HTML page to this file
};

// Shared by the commands (commands.cpp, compare.cpp).

// What play, simulate, perft and compare start with: the rule file, the player count and
// the options.
struct Setup {
  std::shared_ptr<Sources> sources;
  std::shared_ptr<const Game> game;
  int players = 0;
  std::vector<int64_t> options;
};

// The player count (the fewest the game allows when not given) and the options, checked
// together: an option may be for some player counts only. False (and a message) if wrong.
bool game_setup(const Game& g, int& players, const std::vector<std::string>& specs,
                std::vector<int64_t>& options);

// Reads and loads `file` (printing its diagnostics) and sets up `players` (0: the fewest
// it allows) and the NAME=VALUE options `specs`. Returns 0 when the game can start, else
// the exit status to return (a message printed).
int prepare(const std::string& file, int players, const std::vector<std::string>& specs,
            Setup& out);

// A progress bar on standard error, shown when `show` and it is a terminal.
Progress progress_bar(int games, bool show);
// The maker of each game's agents, for `g` (kept by reference).
AgentMaker agent_maker(const Game& g);
// False (and a message) if one of `specs` (one per seat) cannot play in kata `command`
// with no one at the terminal.
bool check_bots(const std::string& command, const Game& g, const std::vector<std::string>& specs);
// "a, b, c"
std::string agent_list(const std::vector<std::string>& specs);
// `--agents` for `players` seats: one spec for every seat, or one per seat. False (and a
// message) when the count is neither.
bool seat_agents(std::vector<std::string>& specs, int players);

int check(const CheckArgs& a);
int check_against(const CheckArgs& a);  // check --against (changes.cpp)
int compare(const CompareArgs& a);
int play(const PlayArgs& a);
int simulate(const SimulateArgs& a);
int arena(const ArenaArgs& a);
int replay(const ReplayArgs& a);
int test(const TestArgs& a);
int perft(const PerftArgs& a);
int rules(const RulesArgs& a);
// kata lsp: a language server on standard input and output (cli/lsp.cpp).
int lsp();

}  // namespace kata::cli
