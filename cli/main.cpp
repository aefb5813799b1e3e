// `kata`: check, play, simulate, compare, merge, arena, replay, test, perft and explain (rules)
// rule files. Argument parsing with CLI11 (a well-kept library for exactly this: subcommands,
// --help for each, typed options); every command's work is in commands.cpp.
#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "agents/perft.hpp"
#include "agents/runner.hpp"
#include "commands.hpp"
#include "report.hpp"

namespace {

constexpr const char* exit_codes =
    "Exit status: 0 success; 1 the input has errors (rule file, log, scenario, or the game "
    "stopped with an error); 2 the command line is wrong.";

constexpr const char* command_names =
    "check, play, simulate, arena, replay, test, perft, rules, merge, compare, lsp";

// A seed is an unsigned number: "-5" must be refused, not read as 2^64 - 5, and a number
// past 2^64 - 1 refused rather than saturated (strtoull's ERANGE). The description is empty
// so that --help keeps showing the option as UINT.
const CLI::Validator unsigned_number(
    [](std::string& text) {
      uint64_t value = 0;
      const char* end = text.data() + text.size();
      bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
      bool fits = digits && std::from_chars(text.data(), end, value).ec == std::errc();
      return fits ? std::string() : "'" + text + "' is not a number from 0 to " + std::to_string(UINT64_MAX);
    },
    "");

// Every other whole-number option: decimal digits only, in [lo, hi]. CLI::Range alone would
// let CLI11 read "0x10" as 16 and "0b11" as 3 (while --seed refuses them) and call "1e3"
// out of range; one spelling for every number on the command line. The description is the
// one CLI::Range shows in --help.
CLI::Validator whole_number(int64_t lo, int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) {
        int64_t value = 0;
        const char* end = text.data() + text.size();
        bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        bool fits = digits && std::from_chars(text.data(), end, value).ec == std::errc() && lo <= value &&
                    value <= hi;
        return fits ? std::string()
                    : "'" + text + "' is not a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

// The first argument, unless it is an option, is the command: a missing or unknown one is
// reported with the list of commands, rather than as CLI11's "A subcommand is required".
bool bad_command(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "kata: error: a command is required: " << command_names << " (see kata --help)\n";
    return true;
  }
  if (argv[1][0] == '-') return false;
  std::string command = argv[1];
  for (const char* c : {"check", "play", "simulate", "compare", "arena", "replay", "test", "perft",
                        "rules", "merge", "lsp"})
    if (command == c) return false;
  std::cerr << "kata: error: unknown command '" << command << "'; the commands are " << command_names
            << " (see kata --help)\n";
  return true;
}

// `-o a=1 b=2`: the NAME=VALUE words after an -o are all options, up to the first word
// without '=' (the rule file, say) or the next option. CLI11 gives one value to each -o
// (so that `-o a=1 FILE` leaves FILE to the positional argument); each word of such a
// list gets an -o of its own before CLI11 reads the arguments.
std::vector<std::string> spread_options(int argc, char** argv) {
  std::vector<std::string> out;
  bool in_list = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      out.insert(out.end(), argv + i, argv + argc);
      break;
    }
    bool option = arg == "-o" || arg == "--option",
         joined = arg.rfind("--option=", 0) == 0 || (arg.rfind("-o", 0) == 0 && arg.size() > 2);
    if (in_list && arg[0] != '-' && arg.find('=') != std::string::npos) {
      out.push_back("-o");
    } else if (!option) {
      in_list = false;
    }
    out.push_back(arg);
    if (option && i + 1 < argc) out.push_back(argv[++i]);
    if (option || joined) in_list = true;
  }
  return out;
}

// kata compare's `--a -o x=1 --b -o x=2`: after `--a`, each -o (of the list spread_options
// made) becomes --a-option, after `--b` --b-option; an -o before both is both sides'.
// CLI11 reads options in any order, so the order is resolved here, and `--a`, `--b` are
// taken out.
std::vector<std::string> sided_options(std::vector<std::string> args) {
  if (args.size() < 2 || args[1] != "compare") return args;
  std::vector<std::string> out;
  std::string side;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.insert(out.end(), args.begin() + static_cast<long>(i), args.end());
      break;
    }
    if (arg == "--a" || arg == "--b") {
      side = arg.substr(2);
      continue;
    }
    std::string name = side.empty() ? "" : "--" + side + "-option";
    if (name.empty())
      out.push_back(arg);
    else if (arg == "-o" || arg == "--option")
      out.push_back(name);
    else if (arg.rfind("--option=", 0) == 0)
      out.push_back(name + arg.substr(8));
    else if (arg.rfind("-o", 0) == 0 && arg.size() > 2 && arg[2] != '-')
      out.push_back(name + "=" + arg.substr(2));
    else
      out.push_back(arg);
  }
  return out;
}

// "a,b,c" -> {a, b, c}; an empty part stays (and is refused as an agent with no name).
std::vector<std::string> split_agents(const std::string& text) {
  std::vector<std::string> out;
  for (size_t start = 0; !text.empty() && start <= text.size();) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// "I/N" with 1 <= I <= N <= 1000000 -> shard I-1 of N; false if it is not one.
bool parse_shard(const std::string& text, int& shard, int& shards) {
  auto slash = text.find('/');
  auto number = [](const std::string& t, int& out) {
    if (t.empty() || t.size() > 7 || t.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoi(t);
    return true;
  };
  int i = 0, n = 0;
  if (slash == std::string::npos || !number(text.substr(0, slash), i) || !number(text.substr(slash + 1), n) ||
      i < 1 || n < 1 || i > n || n > 1000000)
    return false;
  shard = i - 1;
  shards = n;
  return true;
}

// An option as the user wrote it: `--seed`, or `FILE` for a positional argument.
std::string shown(const CLI::Option* o) {
  std::string name = o->get_name();
  if (o->get_positional())
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// What CLI11 reports in its own terms ("file excludes --resume", "--depth: At Most 1
// required but received 2", "--depth: 1 required INT:INT in [0 - 12] missing"), said in
// kata's; any other error as CLI11 words it.
std::string parse_message(const CLI::App& command, const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::ExcludesError*>(&e))
    for (const CLI::Option* o : command.get_options())
      for (const CLI::Option* other : o->get_excludes())
        if (o->count() && other->count())
          return shown(o) + " and " + shown(other) + " cannot be used together";
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    // CLI11 lists them last first, in its own words.
    std::vector<std::string> extra = command.remaining();
    if (!extra.empty()) {
      std::string list;
      for (const std::string& x : extra) list += (list.empty() ? "'" : ", '") + x + "'";
      return (extra.size() == 1 ? "unexpected argument " : "unexpected arguments ") + list;
    }
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e))
    for (const CLI::Option* o : command.get_options())
      if (o->get_positional() && o->get_required() && o->count() == 0)
        return o->get_name() == "log" ? "no log given" : "no rule file given";
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    // Its message starts with the option's name.
    std::string what = e.what();
    if (const CLI::Option* o = command.get_option_no_throw(what.substr(0, what.find(':')))) {
      if (o->count() > 1) return shown(o) + " is given more than once";
      if (what.ends_with(" missing")) return shown(o) + " needs a value";
    }
  }
  return e.what();
}

// CLI11's own parse errors, in kata's form; the help to read is the command's.
int parse_error(const CLI::App& app, const CLI::ParseError& e) {
  std::string where = "kata";
  const CLI::App* command = &app;
  for (const CLI::App* sub : app.get_subcommands()) {
    where += " " + sub->get_name();
    command = sub;
  }
  std::cerr << "kata: error: " << parse_message(*command, e) << " (see " << where << " --help)\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kata::cli;
  CLI::App app{
      "kata: check, play, simulate, compare variants, pit bots against each other (arena), "
      "replay, test, count the "
      "moves of and explain tabletop games "
      "written as rule files."};
  app.footer(exit_codes);
  app.set_version_flag("--version", std::string("kata ") + KATA_VERSION);
  app.require_subcommand(1);

  CheckArgs ca;
  auto* check_cmd = app.add_subcommand("check", "Check rule files and report every error and warning.");
  check_cmd->add_option("files", ca.files, "Rule files (.yaml)")->required();
  check_cmd->add_flag("--json", ca.json, "Print the diagnostics as JSON");
  check_cmd->add_option("--max-errors", ca.max_errors, "Show at most N errors and N warnings per file (default 50; 0: all)")
      ->check(whole_number(0, 1000000000));
  check_cmd
      ->add_option("--against", ca.against,
                   "List what changed in the structure of the rule file since OLD (actions, "
                   "options, components and cards, zones, variables, phases, ...)")
      ->option_text("OLD");
  check_cmd->footer(exit_codes);

  PlayArgs pa;
  auto* play_cmd = app.add_subcommand("play", "Play a game: people at the terminal, bots, or scripts.");
  auto* play_file =
      play_cmd->add_option("file", pa.file, "Rule file (not with --resume: the log names it)");
  play_cmd->add_option("-p,--players", pa.players, "Number of players (default: the fewest the game allows)")->check(whole_number(1, 16));
  auto* play_seed =
      play_cmd
          ->add_option(
              "-s,--seed", pa.seed,
              "Seed of the chance outcomes (default: a fresh one, printed on standard error)")
          ->check(unsigned_number);
  // One value per occurrence, so `-o x=1 FILE` leaves FILE to the positional argument.
  std::string agents;
  play_cmd->add_option(
      "-a,--agents", agents,
      "Who plays each seat: human, " + kata::bot_names() +
          " (comma-separated; one name for all seats). Default: human for P1, " +
          default_opponent + " for the others");
  play_cmd
      ->add_option("-o,--option", pa.options,
                   "Set rule options: NAME=VALUE; several may follow one -o (-o a=1 b=2), and -o "
                   "may be repeated")
      ->allow_extra_args(false);
  play_cmd->add_option("-l,--log", pa.log, "Write the game's log (JSON Lines) to this file");
  play_cmd->add_flag("-q,--quiet", pa.quiet, "Print only the result when no human plays");
  play_cmd->add_flag("--no-clear", pa.no_clear, "Do not clear the screen between human players");
  play_cmd->add_flag("--compiled", pa.compiled,
                     "Bots search on the rule file compiled to machine code (see simulate --compiled)");
  play_cmd->add_option("--svg", pa.svg, "Write the board at the end as an SVG picture (games with a 'board:')");
  // The rule file, the player count, the seed and the options come from the log.
  play_cmd
      ->add_option(
          "--resume", pa.resume,
          "Go on with the game of this log, which stopped before its end; the whole game is "
          "written back to it (or to --log)")
      ->excludes(play_file)
      ->excludes("--players")
      ->excludes(play_seed)
      ->excludes("--option");
  play_cmd->footer(exit_codes);

  SimulateArgs sa;
  auto* sim_cmd = app.add_subcommand(
      "simulate", "Play many games with random bots (or --agents) and report statistics.");
  sim_cmd->add_option("file", sa.file, "Rule file")->required();
  sim_cmd->add_option("-g,--games", sa.games, "Number of games")->required()->check(whole_number(1, 100000000));
  sim_cmd->add_option("-p,--players", sa.players, "Number of players (default: the fewest the game allows)")->check(whole_number(1, 16));
  sim_cmd->add_option("-s,--seed", sa.seed, "Seed (default 1); the same seed gives the same result for any --jobs")->check(unsigned_number);
  sim_cmd->add_option("-j,--jobs", sa.jobs, "Threads (default 1)")->check(whole_number(1, kata::max_jobs));
  sim_cmd
      ->add_option("-o,--option", sa.options,
                   "Set rule options: NAME=VALUE; several may follow one -o (-o a=1 b=2), and -o "
                   "may be repeated")
      ->allow_extra_args(false);
  std::string sim_agents;
  sim_cmd->add_option(
      "-a,--agents", sim_agents,
      "Bots for the seats, comma-separated (one name for all seats): random, script:FILE, ... "
      "(not human). Default: random, on a faster path");
  sim_cmd->add_flag("--json", sa.json,
                    "Print the statistics as JSON (with the raw counts kata merge adds up)");
  sim_cmd->add_option("--report", sa.report,
                      "Also write the statistics as one self-contained HTML page with charts to "
                      "this file");
  sim_cmd->add_flag("--no-decision-stats", sa.no_decision_stats,
                    "Leave out the statistics of each decision (action and component uses, dead "
                    "rules, lead changes): faster, much faster with --compiled");
  std::string shard;
  sim_cmd->add_option("--shard", shard,
                      "Play only part I of N of the run (I from 1): games I, I+N, I+2N, ... of the "
                      "-g games, each with its seed in the whole run; kata merge adds up the parts' "
                      "--json");
  sim_cmd->add_flag("--check-invariants", sa.check_invariants, "Check the file's invariants after every decision");
  sim_cmd->add_flag("--compiled", sa.compiled,
                    "Translate the rule file to C++ and compile it with the system's compiler first (cached; "
                    "same games, several times faster; KATA_CXX picks the compiler)");
  sim_cmd->footer(exit_codes);

  CompareArgs ka;
  std::string compare_agents;
  auto* compare_cmd = app.add_subcommand(
      "compare",
      "Play a game two ways on the same seeds and report each statistic of simulate for A and "
      "B, the difference B - A, its 95% interval and whether it is significant. Two rule files "
      "(kata compare A.yaml B.yaml -g N), or one with two sets of options (kata compare "
      "FILE -g N --a -o x=1 --b -o x=2).");
  compare_cmd->add_option("files", ka.files, "A.yaml B.yaml, or one rule file played both ways")
      ->required();
  compare_cmd->add_option("-g,--games", ka.games, "Number of games on each side")
      ->required()
      ->check(whole_number(1, 100000000));
  compare_cmd
      ->add_option("-p,--players", ka.players,
                   "Number of players (default: the fewest the games allow, which must agree)")
      ->check(whole_number(1, 16));
  compare_cmd
      ->add_option("-s,--seed", ka.seed,
                   "Seed (default 1): game i of A and of B are played on the same seed, derived "
                   "from it and i")
      ->check(unsigned_number);
  compare_cmd->add_option("-j,--jobs", ka.jobs, "Threads (default 1)")->check(whole_number(1, kata::max_jobs));
  compare_cmd
      ->add_option("-o,--option", ka.options,
                   "Set rule options of both sides: NAME=VALUE (before --a and --b); after --a "
                   "it sets A's only, after --b B's only (-o a=1 b=2, and -o may be repeated)")
      ->allow_extra_args(false);
  compare_cmd
      ->add_option("--a-option", ka.options_a, "Set a rule option of A only (as --a -o NAME=VALUE)")
      ->allow_extra_args(false);
  compare_cmd
      ->add_option("--b-option", ka.options_b, "Set a rule option of B only (as --b -o NAME=VALUE)")
      ->allow_extra_args(false);
  compare_cmd->add_option(
      "-a,--agents", compare_agents,
      "Bots for the seats, the same on both sides, comma-separated (one name for all seats): "
      "random, script:FILE, ... (not human). Default: random, on a faster path");
  compare_cmd->add_flag("--json", ka.json,
                        "Print the comparison as JSON (with each side's kata simulate --json)");
  compare_cmd->add_option("--report", ka.report,
                          "Also write the comparison as one self-contained HTML page with charts "
                          "of A and B side by side to this file");
  compare_cmd->footer(exit_codes);

  MergeArgs ma;
  auto* merge_cmd = app.add_subcommand(
      "merge",
      "Add up the --json results of the shards of one kata simulate run (--shard I/N): the "
      "report of the whole run, as kata simulate prints it.");
  merge_cmd->add_option("files", ma.files, "The shards' JSON files, one per shard, in any order")->required();
  merge_cmd->add_flag("--json", ma.json, "Print the result as JSON, as kata simulate --json does");
  merge_cmd->add_option("--report", ma.report,
                        "Also write the result as an HTML page, as kata simulate --report does");
  merge_cmd->footer(exit_codes);

  ArenaArgs aa;
  std::string arena_agents;
  auto* arena_cmd = app.add_subcommand("arena",
                                       "Play bots against each other and report each one's win "
                                       "rate (95% interval), mean score and speed.");
  arena_cmd->add_option("file", aa.file, "Rule file")->required();
  arena_cmd
      ->add_option("-a,--agents", arena_agents,
                   "The bots, one per seat, comma-separated: random, script:FILE, ... (not human); "
                   "the same name twice is two entries")
      ->required();
  arena_cmd->add_option("-g,--games", aa.games, "Number of games")
      ->required()
      ->check(whole_number(1, 100000000));
  arena_cmd
      ->add_option("-p,--players", aa.players,
                   "Number of players (default: as many as agents; must match them)")
      ->check(whole_number(1, 16));
  arena_cmd->add_flag(
      "--rotate", aa.rotate,
      "Game i seats the list of agents rotated by i, so that each plays each seat in turn");
  arena_cmd
      ->add_option("-s,--seed", aa.seed,
                   "Seed (default 1); the same seed gives the same result for any --jobs")
      ->check(unsigned_number);
  arena_cmd->add_option("-j,--jobs", aa.jobs, "Threads (default 1)")->check(whole_number(1, kata::max_jobs));
  arena_cmd
      ->add_option("-o,--option", aa.options,
                   "Set rule options: NAME=VALUE; several may follow one -o (-o a=1 b=2), and -o "
                   "may be repeated")
      ->allow_extra_args(false);
  arena_cmd->add_flag("--json", aa.json, "Print the statistics as JSON");
  arena_cmd->add_flag("-q,--quiet", aa.quiet, "No progress bar");
  arena_cmd->add_flag("--no-timing", aa.no_timing,
                      "Leave out the seconds and decisions per second (the only figures that "
                      "differ from run to run)");
  arena_cmd->add_flag("--compiled", aa.compiled,
                      "Run the rule file compiled to machine code (see simulate --compiled)");
  arena_cmd->footer(exit_codes);

  ReplayArgs ra;
  auto* replay_cmd = app.add_subcommand("replay", "Re-run a log, verify it, and show the game as a player saw it.");
  replay_cmd->add_option("log", ra.log, "Log file written by 'kata play --log'")->required();
  auto* as_option = replay_cmd->add_option("--as", ra.as, "Show the game as this player saw it (P1, P2, ...); default: everything");
  replay_cmd->add_flag("-q,--quiet", ra.quiet, "Only verify; print the verdict");
  replay_cmd->add_option("--svg", ra.svg, "Write the board at the end, as --as saw it, as an SVG picture");
  replay_cmd->footer(exit_codes);

  TestArgs ta;
  auto* test_cmd = app.add_subcommand("test", "Run scenario tests (files, or directories of *.yaml).");
  test_cmd->add_option("files", ta.files, "Scenario files or directories")->required();
  test_cmd->add_flag("-v,--verbose", ta.verbose, "List passing scenarios too");
  test_cmd->footer(exit_codes);

  PerftArgs fa;
  auto* perft_cmd = app.add_subcommand("perft", "Count the sequences of legal decisions from the start, to each depth.");
  perft_cmd->add_option("file", fa.file, "Rule file")->required();
  perft_cmd->add_option("-d,--depth", fa.depth, "How many decisions (or turns, with --turns) deep (default 1)")->check(whole_number(0, kata::max_perft_depth));
  perft_cmd->add_option("-p,--players", fa.players, "Number of players (default: the fewest the game allows)")->check(whole_number(1, 16));
  perft_cmd->add_option("-s,--seed", fa.seed, "Seed of the chance outcomes before the first decision (default 1)")->check(unsigned_number);
  perft_cmd
      ->add_option("-o,--option", fa.options,
                   "Set rule options: NAME=VALUE; several may follow one -o (-o a=1 b=2), and -o "
                   "may be repeated")
      ->allow_extra_args(false);
  perft_cmd->add_flag("--json", fa.json, "Print the counts as JSON");
  perft_cmd->add_flag("--compiled", fa.compiled, "Run the rule file compiled to machine code (see simulate --compiled)");
  perft_cmd->add_flag("--turns", fa.turns,
                      "Count turns, not decisions: a turn is the decisions one seat makes in a row (a multi-jump made "
                      "one jump at a time is one turn)");
  perft_cmd->footer(exit_codes);

  RulesArgs ua;
  auto* rules_cmd = app.add_subcommand(
      "rules",
      "Print a game's reference from its rule file's doc: texts: the game, its players, options, "
      "components and their cards, zones and who sees them, variables, actions and phases.");
  rules_cmd->add_option("file", ua.file, "Rule file")->required();
  auto* markdown = rules_cmd->add_flag("--markdown", ua.markdown, "Print it as Markdown");
  rules_cmd->add_flag("--json", ua.json, "Print it as JSON")->excludes(markdown);
  rules_cmd->footer(exit_codes);

  auto* lsp_cmd = app.add_subcommand(
      "lsp",
      "Serve the Language Server Protocol on standard input and output, for editors: each open "
      "rule file is checked as you type, its errors and warnings shown where they are (docs/editors.md).");
  lsp_cmd->footer("Exit status: 0 after the client's shutdown and exit; 1 otherwise (exit without shutdown, "
                  "the input ended, or a message that breaks the framing).");

  if (bad_command(argc, argv)) return 2;
  std::vector<std::string> args = sided_options(spread_options(argc, argv));
  std::vector<char*> arg_pointers;
  for (auto& arg : args) arg_pointers.push_back(arg.data());
  try {
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return parse_error(app, e);
  }
  if (check_cmd->parsed()) return check(ca);
  if (play_cmd->parsed()) {
    if (play_file->count() == 0 && play_cmd->get_option("--resume")->count() == 0) {
      std::cerr << "kata: error: no rule file given (see kata play --help)\n";
      return 2;
    }
    pa.agents = split_agents(agents);
    pa.seed_given = play_seed->count() > 0;
    pa.command_line.assign(argv + 1, argv + argc);
    return play(pa);
  }
  if (sim_cmd->parsed()) {
    sa.agents = split_agents(sim_agents);
    if (!shard.empty() && !parse_shard(shard, sa.shard, sa.shards)) {
      std::cerr << "kata: error: --shard '" << shard
                << "' is not I/N with 1 <= I <= N <= 1000000 (see kata simulate --help)\n";
      return 2;
    }
    return simulate(sa);
  }
  if (compare_cmd->parsed()) {
    ka.agents = split_agents(compare_agents);
    return compare(ka);
  }
  if (merge_cmd->parsed()) return merge(ma);
  if (arena_cmd->parsed()) {
    aa.agents = split_agents(arena_agents);
    return arena(aa);
  }
  if (replay_cmd->parsed()) {
    ra.as_given = as_option->count() > 0;  // `--as ''` is a wrong seat, not no seat
    return replay(ra);
  }
  if (test_cmd->parsed()) return test(ta);
  if (perft_cmd->parsed()) return perft(fa);
  if (rules_cmd->parsed()) return rules(ua);
  if (lsp_cmd->parsed()) return lsp();
  return 2;
}
