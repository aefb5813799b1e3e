// What each subcommand prints. Games, logs and scenarios are loaded through kata_core;
// this file turns their results and diagnostics into text, JSON and exit statuses.
#include "commands.hpp"
#include "report.hpp"
#include "report_html.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "agents/agent.hpp"
#include "agents/perft.hpp"
#include "agents/runner.hpp"
#include "agents/typed.hpp"
#include "compile/compiler.hpp"
#include "log/log.hpp"
#include "native/native.hpp"
#include "reference/reference.hpp"
#include "runtime/view.hpp"
#include "runtime/wrap.hpp"
#include "scenario/scenario.hpp"

namespace kata::cli {

namespace {

// JSON for stdout. Every string in it went through printable() or was checked as UTF-8
// when its rule file was read; should one slip by, a byte that is not UTF-8 becomes
// U+FFFD rather than an exception.


bool color_stderr() { return isatty(STDERR_FILENO) && !std::getenv("NO_COLOR"); }

// The width screens are wrapped at (docs/cli.md, "Screen width"): COLUMNS when it is set
// (0: no wrapping), else the terminal's when standard output is one (80 if it does not
// say), else none: a file or a pipe is read by scripts. At least 20.
size_t screen_width() {
  constexpr size_t fewest = 20, fallback = 80;
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    char* end = nullptr;
    long n = std::strtol(columns, &end, 10);
    if (*end == '\0' && n >= 0) return n == 0 ? 0 : std::max<size_t>(fewest, std::min<long>(n, 10000));
  }
  if (!isatty(STDOUT_FILENO)) return 0;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return std::max<size_t>(fewest, ws.ws_col);
  return fallback;
}

void print_diags(const Sources& sources, const Diagnostics& diags, int max_errors = default_max_errors) {
  std::cerr << format_diagnostics(sources, diags, color_stderr(), max_errors);
}

bool readable(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && std::ifstream(path)) return true;
  std::cerr << fmt::format("kata: error: cannot read '{}'\n", path);
  return false;
}

// Loads a game, printing its diagnostics; null if it has errors.
std::shared_ptr<const Game> load(const std::string& path, std::shared_ptr<Sources>& sources) {
  Diagnostics diags;
  auto g = load_game(path, sources, diags);
  if (sources) print_diags(*sources, diags);
  return g;
}

// `--svg FILE`: the game must have a board to draw.
bool can_draw(const Game& g, const std::string& svg) {
  if (svg.empty() || g.board.kind >= 0) return true;
  std::cerr << fmt::format("kata: error: {} has no board to draw (a rule file declares one with 'board:')\n", g.name);
  return false;
}

bool write_svg(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  if (out << text) return true;
  std::cerr << fmt::format("kata: error: cannot write '{}'\n", path);
  return false;
}

int runtime_error(const Game& g, const RuntimeError& e) {
  Diagnostic d{e.pos, Severity::error, e.what(), {}};
  std::cerr << format_diagnostic(*g.sources, d, color_stderr());
  return input_error;
}

bool parse_options(const Game& g, const std::vector<std::string>& specs, std::vector<int64_t>& values) {
  values = default_options(g);
  for (const auto& spec : specs) {
    auto eq = spec.find('=');
    std::string why;
    if (eq == std::string::npos) why = fmt::format("'{}' is not NAME=VALUE", spec);
    else if (set_option(g, values, spec.substr(0, eq), spec.substr(eq + 1), why)) continue;
    std::cerr << "kata: error: " << why << '\n';
    return false;
  }
  return true;
}

}  // namespace

bool game_setup(const Game& g, int& players, const std::vector<std::string>& specs, std::vector<int64_t>& options) {
  if (players == 0) players = g.min_players;
  if (!parse_options(g, specs, options)) return false;
  std::string why = setup_error(g, players, options);
  if (why.empty()) return true;
  std::cerr << "kata: error: " << why << '\n';
  return false;
}

namespace {

// "P2" or "p2" -> 1; anything else (P0, '', P99999999999) -> -2, which is no seat.
int seat_index(const std::string& text) {
  constexpr int no_seat = -2, most_seats = 32;
  if (text.size() < 2 || text.size() > 3 || (text[0] != 'P' && text[0] != 'p') ||
      text.find_first_not_of("0123456789", 1) != std::string::npos)
    return no_seat;
  int n = std::stoi(text.substr(1));  // at most two digits
  return n >= 1 && n <= most_seats ? n - 1 : no_seat;
}

std::string seat_list(int players) {
  std::string out;
  for (int p = 0; p < players; ++p) out += (p ? ", " : "") + seat_name(p);
  return out;
}

}  // namespace

int prepare(const std::string& file, int players, const std::vector<std::string>& specs, Setup& out) {
  if (!readable(file)) return usage_error;
  out.game = load(file, out.sources);
  if (!out.game) return input_error;
  out.players = players;
  return game_setup(*out.game, out.players, specs, out.options) ? ok : usage_error;
}

namespace {

// Swaps the setup's game for its compiled twin; false (and a message) if it cannot be built.
bool compile(Setup& setup) {
  std::string error;
  // Compiling takes seconds the first time (later runs find it cached): say so on a
  // terminal, then erase the line.
  bool tty = isatty(STDERR_FILENO);
  if (tty) std::cerr << "compiling " << setup.game->name << " to machine code (cached for later runs)..." << std::flush;
  Pos where;
  auto native = compile_native(setup.game, error, &where);
  if (tty) std::cerr << "\r\033[K" << std::flush;
  if (!native && where.valid()) {
    std::cerr << format_diagnostic(*setup.game->sources, {where, Severity::error, error, {}}, color_stderr());
    return false;
  }
  if (!native) {
    std::cerr << "kata: error: cannot run compiled: " << error << '\n';
    return false;
  }
  setup.game = native;
  return true;
}

// A seed for `kata play` without --seed, from the system's source of entropy (never the
// clock alone: two games started in the same second must differ). 32 bits: short to type,
// and exact in every JSON reader of the log (JavaScript's numbers stop at 2^53).
bool fresh_seed(uint64_t& seed) {
  try {
    std::random_device entropy;
    seed = entropy();
    return true;
  } catch (const std::exception& e) {
    std::cerr << fmt::format("kata: error: cannot draw a seed ({}); give one with --seed\n",
                             e.what());
    return false;
  }
}

// An argument as a shell reads it back: quoted when it holds anything but safe characters.
std::string shell_word(const std::string& arg) {
  if (!arg.empty() &&
      arg.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,@%+-") ==
          std::string::npos)
    return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "seed 2841092211 (kata play FILE ... --seed 2841092211 replays these chances)"
std::string seed_line(const PlayArgs& a, uint64_t seed) {
  std::string command = "kata";
  // Appended in two steps: `" " + word` trips GCC 12's -Wrestrict at -O3 (GCC bug 105329).
  for (const auto& arg : a.command_line) command.append(" ").append(shell_word(arg));
  return fmt::format("seed {} ({} --seed {} replays these chances)\n", seed, command, seed);
}

std::string winners_text(const State& s) {
  std::string w;
  for (int p = 0; p < s.players(); ++p)
    if (winners(s) & (1u << p)) w += (w.empty() ? "" : ", ") + seat_name(p);
  return w.empty() ? "none" : w;
}

}  // namespace

int check(const CheckArgs& a) {
  if (!a.against.empty()) return check_against(a);
  int status = ok;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& file : a.files) {
    if (!readable(file)) {
      status = usage_error;
      continue;
    }
    std::shared_ptr<Sources> sources;
    Diagnostics diags;
    auto g = load_game(file, sources, diags);
    if (a.json) {
      for (auto& d : diagnostics_json(*sources, diags, file, a.max_errors)) out.push_back(std::move(d));
    } else {
      print_diags(*sources, diags, a.max_errors);
      if (!diags.has_errors())
        std::cout << fmt::format("{}: ok ({}, {}, {} warning{})\n", file, g->name,
                                 players_text(g->min_players, g->max_players), diags.warning_count(),
                                 diags.warning_count() == 1 ? "" : "s");
      else
        std::cerr << fmt::format("{}: {} error{}, {} warning{}\n", file, diags.error_count(), diags.error_count() == 1 ? "" : "s",
                                 diags.warning_count(), diags.warning_count() == 1 ? "" : "s");
    }
    if (diags.has_errors() && status == ok) status = input_error;
  }
  if (a.json) std::cout << json_text(out) << '\n';
  return status;
}

namespace {

// One agent per seat from their names: none given is human for P1 and default_opponent
// for the others, one name is every seat's.
int make_agents(const Game& g, std::vector<std::string>& specs, int players, uint64_t seed, Terminal& terminal,
                std::vector<std::unique_ptr<Agent>>& agents) {
  if (specs.empty()) {
    specs.assign(players, default_opponent);
    specs[0] = "human";
  } else if (specs.size() == 1) {
    specs.assign(players, specs[0]);
  }
  if (static_cast<int>(specs.size()) != players) {
    std::cerr << fmt::format("kata: error: {} agents for {} players\n", specs.size(), players);
    return usage_error;
  }
  for (int seat = 0; seat < players; ++seat) {
    std::string why;
    auto agent = make_agent(specs[seat], seat, seed, terminal, why, &g);
    if (!agent) {
      std::cerr << "kata: error: " << why << '\n';
      return usage_error;
    }
    agents.push_back(std::move(agent));
  }
  return ok;
}

// What a game stopped before its end (quit, Ctrl-D, a script run out, a signal) leaves the
// player to do: the command that goes on with it, from the log it was written to; without
// a log, how to keep one next time.
std::string how_to_go_on(const PlayArgs& a) {
  const std::string& log = a.log.empty() ? a.resume : a.log;
  if (!log.empty())
    return fmt::format("kata: to go on with this game: kata play --resume {}\n", shell_word(log));
  return "kata: this game was not logged, so it cannot be resumed; play with --log FILE to keep a "
         "game to go on with later (kata play --resume FILE)\n";
}

// Plays the game (or the rest of it) and prints how it ended.
int run_match(const PlayArgs& a, const Game& g, int players, uint64_t seed,
              const std::vector<int64_t>& options, std::vector<std::unique_ptr<Agent>>& agents,
              Terminal& terminal, LogWriter* log, const Resume* resume = nullptr) {
  try {
    MatchResult r = play_match(g, players, seed, options, agents, log, resume);
    if (!r.completed) {
      std::cerr << "kata: " << r.stopped_by << '\n' << how_to_go_on(a);
      if (log) log->error(r.stopped_by);
      return input_error;
    }
    if (terminal.humans == 0 && !a.quiet) print_screen(terminal.out, describe_screen(g, make_view(g, r.final, -1)));
    // Humans sharing the terminal each saw their own screen; the end is shown to all at once.
    if (terminal.humans > 1) print_screen(terminal.out, describe_public_view(g, r.final));
    // A picture for people at the table shows what they all may see; bots' games, all.
    if (!a.svg.empty() &&
        !write_svg(a.svg, board_svg(g, terminal.humans > 0 ? public_view(g, r.final)
                                                           : make_view(g, r.final, -1))))
      return usage_error;
    // The end's screen (the winners, the score table, the notes) says the result: a line
    // under it would say it again. Without a screen (-q), the result is that one line.
    bool end_shown = terminal.humans > 0 || !a.quiet;
    if (!end_shown) {
      auto sc = scores(g, r.final);
      std::string line;
      // A game without scores (won only by `win`), or one in which nothing was scored (a
      // variant's points, the variant off: "P1=0 P2=0" read as a result), says only who won.
      if (scores_shown(g, score_table(g, r.final)))
        for (size_t p = 0; p < sc.size(); ++p) line += fmt::format("{}{}={}", p ? " " : "", seat_name(static_cast<int>(p)), sc[p]);
      terminal.out << fmt::format("Result after {} decisions: {}winners: {}\n", r.final.decisions(),
                                  line.empty() ? "" : line + "; ", winners_text(r.final));
    }
    terminal.out << std::flush;
    // Several humans: the screen (and the seed line at its top) was cleared; say it again.
    if (!a.seed_given && terminal.humans > 1 && terminal.clear_screen)
      std::cerr << seed_line(a, seed);
  } catch (const RuntimeError& e) {
    if (log) log->error(e.what());
    return runtime_error(g, e);
  }
  return ok;
}

int resume(const PlayArgs& a);

}  // namespace

// SIGINT (Ctrl-C), SIGTERM and SIGHUP stop a game as `quit` does: the log, held while a
// person plays, is written with an error line saying so. No SA_RESTART: a read at the
// prompt returns at once. Standard input is closed too (close() may be called in a
// handler): a signal that comes just before a read begins must not leave it waiting.
static void stop_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = [](int sig) {
    stop_requested = sig;
    close(STDIN_FILENO);
  };
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
}

int play(const PlayArgs& args) {
  stop_on_signals();
  if (!args.resume.empty()) return resume(args);
  PlayArgs a = args;
  Setup setup;
  if (int status = prepare(a.file, a.players, a.options, setup)) return status;
  auto& [sources, g, players, options] = setup;
  if (!can_draw(*g, a.svg)) return usage_error;
  if (a.compiled && !compile(setup)) return usage_error;
  std::vector<std::string> specs = a.agents;
  WrappingStream screen(std::cout, screen_width());
  Terminal terminal{std::cin, screen};
  terminal.width = screen_width();
  terminal.clear_screen = !a.no_clear && isatty(STDOUT_FILENO);
  // The bots' generators are derived from the seed: draw it before making them.
  if (!a.seed_given && !fresh_seed(a.seed)) return usage_error;
  std::vector<std::unique_ptr<Agent>> agents;
  if (int status = make_agents(*g, specs, players, a.seed, terminal, agents)) return status;
  std::ofstream log_file;
  std::unique_ptr<LogWriter> log;
  if (!a.log.empty()) {
    log_file.open(a.log);
    if (!log_file) {
      std::cerr << fmt::format("kata: error: cannot write the log '{}'\n", a.log);
      return usage_error;
    }
    log = std::make_unique<LogWriter>(log_file);
    log->header(make_header(*g, players, a.seed, options, specs));
  }
  // On standard error, also with --quiet: without it a game could not be played again.
  if (!a.seed_given) std::cerr << seed_line(a, a.seed) << std::flush;
  return run_match(a, *g, players, a.seed, options, agents, terminal, log.get());
}

namespace {

// The log a resumed game is written to: LOG itself, through a file beside it that replaces
// it once the game ends or stops again (until then LOG still holds the stopped game, so
// a killed process loses nothing), or --log NEWLOG. It starts with LOG's lines up to its
// trailing `error` lines.
struct ResumedLog {
  std::string path, writing;
  std::ofstream out;

  bool open(const PlayArgs& a, int stop_line) {
    std::error_code ec;
    bool in_place = a.log.empty() || std::filesystem::equivalent(a.log, a.resume, ec);
    path = in_place ? a.resume : a.log;
    writing = in_place ? a.resume + ".partial" : a.log;
    // Read within the limits again: the log may have changed since it was replayed.
    std::vector<std::string> lines = read_log(a.resume).lines;
    if (lines.size() >= static_cast<size_t>(std::max(stop_line, 1))) lines.resize(std::max(stop_line, 1) - 1);
    while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos)
      lines.pop_back();
    out.open(writing);
    for (auto& line : lines) out << line << '\n';
    if (out) return true;
    std::cerr << fmt::format("kata: error: cannot write the log '{}'\n", writing);
    return false;
  }

  bool close() {
    out.close();
    std::error_code ec;
    if (writing != path) std::filesystem::rename(writing, path, ec);
    if (!out || ec) std::cerr << fmt::format("kata: error: cannot write the log '{}'\n", path);
    return out && !ec;
  }
};

// The agents recorded in the log play on, each script after the lines it already played
// (its seat's decisions since the log first names it for that seat).
void continue_scripts(const ReplayResult& r, std::vector<std::unique_ptr<Agent>>& agents) {
  for (size_t seat = 0; seat < agents.size(); ++seat) {
    auto* script = dynamic_cast<ScriptAgent*>(agents[seat].get());
    if (!script) continue;
    size_t played = 0;
    for (size_t i = static_cast<size_t>(r.agents_since.at(seat)); i < r.actions.size(); ++i)
      played += r.actions[i].first == static_cast<int>(seat);
    script->skip(played);
  }
}

int resume(const PlayArgs& args) {
  PlayArgs a = args;
  a.seed_given = true;  // the log holds it
  if (!readable(a.resume)) return usage_error;
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  ReplayResult r = replay_log(a.resume, -1, sources, diags, refusal_reason);
  if (sources) print_diags(*sources, diags);
  if (!r.ok) {
    std::cerr << "kata: cannot resume: replay failed: " << r.error << '\n';
    return input_error;
  }
  if (!r.stopped) {
    std::cerr << fmt::format(
        "kata: error: '{}' is the log of a finished game ({} decisions and its result): there is "
        "nothing to resume\n",
        a.resume, r.decisions);
    return usage_error;
  }
  if (r.forced) {
    std::cerr << fmt::format(
        "kata: error: the chance outcomes of '{}' were fixed (\"forced\"), not drawn from its "
        "seed: it cannot be played on\n",
        a.resume);
    return usage_error;
  }
  Setup compiled{sources, r.game, r.players, r.options};
  if (a.compiled && !compile(compiled)) return usage_error;
  const Game& g = *compiled.game;
  if (!can_draw(g, a.svg)) return usage_error;
  int players = r.players;
  bool recorded = a.agents.empty();
  std::vector<std::string> specs = recorded ? r.agents : a.agents;
  if (recorded && static_cast<int>(specs.size()) != players) {
    std::cerr << fmt::format(
        "kata: error: the log records {} agents for {} players; say who plays with --agents\n",
        specs.size(), players);
    return usage_error;
  }
  WrappingStream screen(std::cout, screen_width());
  Terminal terminal{std::cin, screen};
  terminal.width = screen_width();
  terminal.clear_screen = !a.no_clear && isatty(STDOUT_FILENO);
  std::vector<std::unique_ptr<Agent>> agents;
  if (int status = make_agents(g, specs, players, r.seed, terminal, agents)) return status;
  if (recorded) continue_scripts(r, agents);
  ResumedLog file;
  if (!file.open(a, r.stop_line)) return usage_error;
  LogWriter log(file.out);
  Resume from{r.actions, r.stop_reason, specs};
  std::cerr << fmt::format(
      "resuming {} after {} decisions (replayed from '{}' and verified); {} to decide\n", g.name,
      r.decisions, a.resume, seat_name(r.final.chooser()));
  int status = run_match(a, g, players, r.seed, r.options, agents, terminal, &log, &from);
  log.flush();  // held while a person plays (undo), and the file is closed next
  if (!file.close() && status == ok) status = usage_error;
  return status;
}

}  // namespace

// A progress bar on standard error when it is a terminal: its count only grows (see
// kata::simulate), it is drawn again at most a thousand times, and it is erased once every
// game is done, before the result is printed, so no stale line is left.
Progress progress_bar(int games, bool show) {
  if (!show || !isatty(STDERR_FILENO)) return {};
  return [games, shown = int64_t{-1}](int done) mutable {
    int width = 40, filled = static_cast<int>(static_cast<int64_t>(done) * width / games);
    int64_t permille = static_cast<int64_t>(done) * 1000 / games;
    if (done == games) std::cerr << "\r\033[K" << std::flush;
    if (done == games || permille == shown) return;
    shown = permille;
    std::cerr << fmt::format("\r[{}{}] {}/{} games", std::string(filled, '#'),
                             std::string(width - filled, '.'), done, games)
              << std::flush;
  };
}

// The maker of each game's agents, for `g`: the game that is played, compiled or not. It
// keeps a reference, so it is made once `g` is final (--compiled replaces the game).
AgentMaker agent_maker(const Game& g) {
  return [&g](const std::string& spec, int seat, uint64_t seed, std::string& error) {
    Terminal t{std::cin, std::cout};
    return make_agent(spec, seat, seed, t, error, &g);
  };
}

// The agents of a game no one watches (simulate --agents, arena), checked once before any
// game (and before compiling): each spec is made for its seat (a script's file is read),
// and `human` is refused, since no one is there to answer. False (and a message) if one
// cannot play.
bool check_bots(const std::string& command, const Game& g, const std::vector<std::string>& specs) {
  for (size_t seat = 0; seat < specs.size(); ++seat) {
    std::string why;
    Terminal t{std::cin, std::cout};
    std::unique_ptr<Agent> agent = specs[seat] == "human"
                                       ? nullptr
                                       : make_agent(specs[seat], static_cast<int>(seat), 1, t, why, &g);
    if (agent && agent->person()) agent = nullptr;
    if (agent) continue;
    if (why.empty() || specs[seat] == "human")
      why = fmt::format(
          "agent '{}' cannot play in kata {}: no one is at the terminal to answer it; the bots are "
          "{}",
          specs[seat], command, bot_names());
    else if (auto at = why.find("the agents are "); at != std::string::npos)
      why = why.substr(0, at) + "the bots are " + bot_names();
    std::cerr << "kata: error: " << why << '\n';
    return false;
  }
  return true;
}

std::string agent_list(const std::vector<std::string>& specs) {
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i) out += (i ? ", " : "") + specs[i];
  return out;
}

bool seat_agents(std::vector<std::string>& specs, int players) {
  if (specs.size() == 1) specs.assign(players, specs[0]);
  if (specs.empty() || static_cast<int>(specs.size()) == players) return true;
  std::cerr << fmt::format("kata: error: {} agents ({}) for {} players: give one per seat, or one for all\n",
                           specs.size(), agent_list(specs), players);
  return false;
}

int simulate(const SimulateArgs& a) {
  Setup setup;
  if (int status = prepare(a.file, a.players, a.options, setup)) return status;
  auto& [sources, g, players, options] = setup;
  std::vector<std::string> agents = a.agents;
  if (!seat_agents(agents, players)) return usage_error;
  if (!agents.empty() && a.check_invariants) {
    std::cerr << "kata: error: --check-invariants goes with the random bots of the fast path, not "
                 "with --agents\n";
    return usage_error;
  }
  if (!agents.empty() && !check_bots("simulate", *g, agents)) return usage_error;
  RunInfo run;
  run.game = g->name;
  run.rules = rules_fingerprint(*g);
  run.players = players;
  run.seed = a.seed;
  for (size_t i = 0; i < g->options.size(); ++i) run.options.emplace_back(g->options[i].name, options.at(i));
  run.agents = agents;
  run.check_invariants = a.check_invariants;
  run.scored = g->score_node >= 0;
  run.per_decision = !a.no_decision_stats;
  for (const Action& action : g->program.actions) run.action_names.push_back(action.name);
  run.card_names = g->card_plain_names;
  run.card_kinds.assign(g->card_kind.begin(), g->card_kind.end());
  run.run_games = a.games;
  run.shard = a.shard;
  run.shards = a.shards;
  ReportOrigin origin{"kata simulate", a.file, g->doc, {}};
  ReportFile report;
  if (!a.report.empty() && !report.open(a.report)) return usage_error;
  if (a.compiled && !compile(setup)) return usage_error;
  AgentMaker make;
  if (!agents.empty()) make = agent_maker(*g);
  SimulationStats st;
  try {
    st = simulate(*g, a.games, players, a.seed, options, a.jobs, a.check_invariants,
                  progress_bar(shard_games(a.games, a.shard, a.shards), true), agents, make, a.shard, a.shards,
                  run.per_decision);
  } catch (const ThreadsError& e) {
    std::cerr << "kata: error: " << e.what() << '\n';
    return usage_error;
  }
  nlohmann::json result = simulation_json(run, st);
  if (a.json) std::cout << json_text(result) << '\n';
  else std::cout << simulation_text(run, st);
  if (!a.report.empty() && !report.write(result, origin)) return usage_error;
  return st.errors ? input_error : ok;
}

namespace {

void print_arena_json(const Game& g, const ArenaArgs& a, const ArenaStats& st) {
  nlohmann::json agents = nlohmann::json::array();
  for (const ArenaEntry& e : st.entries) {
    Interval ci = wilson_interval(e.wins, e.games);
    nlohmann::json j = {{"agent", e.spec},
                        {"games", e.games},
                        {"wins", e.wins},
                        {"outright_wins", e.outright_wins},
                        {"win_rate", e.games ? e.wins / e.games : 0.0},
                        {"win_rate_95", {ci.low, ci.high}},
                        {"score",
                         {{"mean", e.score.mean()},
                          {"stdev", e.score.stdev()},
                          {"min", e.score.min},
                          {"max", e.score.max}}},
                        {"decisions", e.decisions},
                        {"samples",
                         {{"consistent", e.consistent}, {"fell_back", e.fell_back}}}};
    if (!a.no_timing) {
      j["seconds"] = e.seconds;
      j["decisions_per_second"] =
          e.seconds > 0 ? nlohmann::json(e.decisions / e.seconds) : nlohmann::json();
    }
    agents.push_back(std::move(j));
  }
  nlohmann::json out = {
      {"game", g.name},
      {"games", st.games},
      {"players", st.players},
      {"seed", a.seed},
      {"rotate", st.rotate},
      {"agents", agents},
      {"length", {{"mean", st.length.mean()}, {"min", st.length.min}, {"max", st.length.max}}},
      {"errors", st.errors},
      {"error_messages", st.error_messages}};
  std::cout << json_text(out) << '\n';
}

void print_arena(const Game& g, const ArenaArgs& a, const ArenaStats& st) {
  std::cout << fmt::format("{}: {} game{}, {}, seed {}, {}\n", g.name, st.games, st.games == 1 ? "" : "s", players_text(st.players, st.players),
                           a.seed, st.rotate ? "seats rotated" : "fixed seats");
  size_t width = 5;
  for (const ArenaEntry& e : st.entries) width = std::max(width, e.spec.size());
  std::string header =
      fmt::format("{:>2} {:<{}} {:>6} {:>8} {:>9}  {:<16} {:>10} {:>10}", "#", "agent", width,
                  "games", "wins", "win rate", "95% interval", "score mean", "decisions");
  std::cout << header << (a.no_timing ? "" : fmt::format(" {:>12}", "decisions/s")) << '\n';
  for (size_t i = 0; i < st.entries.size(); ++i) {
    const ArenaEntry& e = st.entries[i];
    Interval ci = wilson_interval(e.wins, e.games);
    std::string rate = e.games ? fmt::format("{:.1f}%", 100 * e.wins / e.games) : "-";
    std::string interval = fmt::format("[{:.1f}%, {:.1f}%]", 100 * ci.low, 100 * ci.high);
    std::string line =
        fmt::format("{:>2} {:<{}} {:>6} {:>8.1f} {:>9}  {:<16} {:>10.2f} {:>10}", i + 1, e.spec,
                    width, e.games, e.wins, rate, interval, e.score.mean(), e.decisions);
    if (!a.no_timing)
      line += e.seconds > 0 ? fmt::format(" {:>12.0f}", e.decisions / e.seconds)
                            : fmt::format(" {:>12}", "-");
    std::cout << line << '\n';
  }
  std::cout << fmt::format("game length: {:.1f} decisions on average (min {}, max {})\n",
                           st.length.mean(), st.length.min, st.length.max);
  std::cout << fmt::format("errors: {}\n", st.errors);
  for (auto& m : st.error_messages) std::cout << "  " << m << '\n';
}

}  // namespace

int arena(const ArenaArgs& a) {
  int players = a.players ? a.players : static_cast<int>(a.agents.size());
  if (static_cast<int>(a.agents.size()) != players) {
    std::cerr << fmt::format(
        "kata: error: {} agents ({}) for {} players: an arena takes one agent per seat\n",
        a.agents.size(), agent_list(a.agents), players);
    return usage_error;
  }
  Setup setup;
  if (int status = prepare(a.file, players, a.options, setup)) return status;
  auto& [sources, g, seats, options] = setup;
  if (!check_bots("arena", *g, a.agents)) return usage_error;
  if (a.compiled && !compile(setup)) return usage_error;
  AgentMaker make = agent_maker(*g);
  if (a.rotate && a.games % players)
    std::cerr << fmt::format(
        "kata: note: {} games are not a multiple of {} seats: each agent plays each seat {} or {} "
        "times\n",
        a.games, players, a.games / players, a.games / players + 1);
  ArenaStats st;
  try {
    st = arena(*g, a.games, a.seed, options, a.jobs, a.agents, a.rotate, make, progress_bar(a.games, !a.quiet));
  } catch (const ThreadsError& e) {
    std::cerr << "kata: error: " << e.what() << '\n';
    return usage_error;
  }
  if (a.json)
    print_arena_json(*g, a, st);
  else
    print_arena(*g, a, st);
  return st.errors ? input_error : ok;
}

int replay(const ReplayArgs& a) {
  if (!readable(a.log)) return usage_error;
  // Anything but a seat of the log's game is refused once the header says how many there
  // are: never read as "everything", which would show every hidden card.
  int viewer = a.as_given ? seat_index(a.as) : -1;
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  ReplayResult r = replay_log(a.log, viewer, sources, diags, refusal_reason);
  if (sources) print_diags(*sources, diags);
  if (a.as_given && (r.bad_viewer || viewer < 0)) {
    std::cerr << "kata: error: --as '" << a.as << "' is not a seat of this game; "
              << (r.players > 0 && r.players <= 32 ? fmt::format("the seats are {}", seat_list(r.players)) : std::string("--as takes a seat such as P1"))
              << '\n';
    return usage_error;
  }
  bool ran = r.game && !r.final.slots.empty();
  if (ran && !can_draw(*r.game, a.svg)) return usage_error;
  if (ran && !a.svg.empty() && !write_svg(a.svg, board_svg(*r.game, make_view(*r.game, r.final, viewer)))) return usage_error;
  if (!a.quiet) {
    WrappingStream screen(std::cout, screen_width());
    for (auto& line : r.shown) screen << line << '\n';
    if (ran) print_screen(screen, describe_screen(*r.game, make_view(*r.game, r.final, viewer)));
  }
  if (!r.ok) {
    std::cerr << "kata: replay failed: " << r.error << '\n';
    return input_error;
  }
  // A forced log supplies its own shuffles: the game is consistent with them, but nothing
  // ties them to the seed, so it is not "verified".
  std::string claim = r.forced ? "replay consistent" : "replay verified";
  std::string forced =
      r.forced ? fmt::format("; shuffles and picks forced by the log, not checked against seed {}", r.seed) : "";
  if (r.stopped)
    std::cout << fmt::format(
        "{} up to {}, where the game was stopped: {}{}\n", claim,
        r.decisions ? fmt::format("decision {}", r.decisions) : "the first decision",
        r.stop_reason, forced);
  else
    std::cout << fmt::format("{}: {} decisions; the result matches the log{}\n", claim,
                             r.decisions, forced);
  return ok;
}

int test(const TestArgs& a) {
  std::string error;
  auto files = scenario_files(a.files, error);
  if (!error.empty()) {
    std::cerr << "kata: error: " << error << '\n';
    return usage_error;
  }
  int passed = 0, failed = 0;
  for (const auto& f : files) {
    ScenarioResult r = run_scenario(f);
    if (r.passed) {
      ++passed;
      if (a.verbose) std::cout << fmt::format("PASS {} ({})\n", f, r.name);
    } else {
      ++failed;
      std::cout << fmt::format("FAIL {} ({})\n", f, r.name);
      if (r.sources) print_diags(*r.sources, r.diags);
    }
  }
  std::cout << fmt::format("{} passed, {} failed\n", passed, failed);
  return failed ? input_error : ok;
}

int perft(const PerftArgs& a) {
  Setup setup;
  if (int status = prepare(a.file, a.players, a.options, setup)) return status;
  if (a.compiled && !compile(setup)) return usage_error;
  auto& [sources, g, players, options] = setup;
  std::vector<uint64_t> counts;  // at depths 1..a.depth
  uint64_t count = 0;            // at a.depth: 1 at depth 0, the start itself
  try {
    State s = new_game(*g, players, a.seed, options);
    count = kata::perft(*g, s, a.depth, &counts, a.turns ? PerftUnit::turn : PerftUnit::decision);
  } catch (const RuntimeError& e) {
    return runtime_error(*g, e);
  }
  if (a.json) {
    nlohmann::json out = {{"game", g->name},  {"players", players},
                          {"seed", a.seed},   {"unit", a.turns ? "turn" : "decision"},
                          {"depth", a.depth}, {"count", count},
                          {"counts", counts}};
    std::cout << json_text(out) << '\n';
    return ok;
  }
  std::cout << fmt::format("{}: {}, seed {}{}\n", g->name, players_text(players, players), a.seed, a.turns ? ", counting turns" : "");
  if (a.depth == 0) std::cout << fmt::format("depth 0: {}\n", count);
  for (size_t d = 0; d < counts.size(); ++d) std::cout << fmt::format("depth {}: {}\n", d + 1, counts[d]);
  return ok;
}

int rules(const RulesArgs& a) {
  if (!readable(a.file)) return usage_error;
  std::shared_ptr<Sources> sources;
  auto g = load(a.file, sources);
  if (!g) return input_error;
  auto format = a.json       ? ReferenceFormat::json
                : a.markdown ? ReferenceFormat::markdown
                             : ReferenceFormat::text;
  // Plain text fits the screen (or the reference's own width where nothing is wrapped).
  size_t width = screen_width();
  std::cout << write_reference(make_reference(*g), format, width ? width : reference_width);
  return ok;
}

}  // namespace kata::cli
