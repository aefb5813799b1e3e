// Helpers shared by the tests: loading rule text from a string and formatting what the
// checker said, so each test can state the exact diagnostics it expects.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "runtime/determinize.hpp"
#include "runtime/engine.hpp"
#include "runtime/view.hpp"

namespace kata::test {

struct Loaded {
  std::shared_ptr<const Game> game;
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  // "line:col: error: message" for each diagnostic, in order.
  std::vector<std::string> messages() const;
};

Loaded load_text(const std::string& yaml);
Loaded load_file(const std::string& path);  // relative to the source tree
std::vector<std::string> rule_files();      // every rules/*.yaml
// Every rules/*.yaml loaded, once per test run (throws if one does not load).
const std::vector<std::shared_ptr<const Game>>& rule_games();

// Inside a RapidCheck property: the file's options, each drawn at random where it has a
// few values (true or false, a list of choices): a variant (teams, a draft, the other
// reading of a rule) must keep the properties too. Numbers keep their defaults, and so
// does an option that is not for this many players.
std::vector<int64_t> random_options(const Game& g, int players);

// A least count that a property's cases must reach, written for RapidCheck's default of
// 100 cases and scaled to the cases run (RC_PARAMS="max_success=N": CI's sanitizer step
// runs fewer, .ci/run), so a coverage check holds at any number of cases.
int per_cases(int at_100);

// Plays `decisions` (in notation) from a new game; returns the state.
State play(const Game& g, int players, const std::vector<std::string>& decisions, uint64_t seed = 1);

// Compiled mode (interpreter/native/). Tests compile into the build tree, not the user's
// cache: use_test_cache points KATA_CACHE there.
void use_test_cache();
// The game compiled (REQUIREs that it compiles).
std::shared_ptr<const Game> compiled(const std::shared_ptr<const Game>& g);
// The game with every expression worked out by the tree walk (build_xcode's tree_walk),
// which the register code must agree with.
std::shared_ptr<const Game> tree_walked(const Game& g);
// Plays a game with decisions drawn from `seed`, interpreted and compiled, checking that
// they agree at every step (the same legal decisions, the same state); a third copy is
// played by each in turn, one decision each, and a fourth by the interpreter with its
// events recorded (listened to: the same states); at the end, the same scores, and a whole
// random playout of compiled code alone ends as the interpreter's. Returns the longest list
// of legal decisions met (compiled code lists more than 64 in a second pass).
size_t lockstep(const Game& interpreted, const Game& native, int players, uint64_t seed,
                const std::vector<int64_t>& options);

// The built `kata ARGS`, run in the source tree with `input` on its standard input (none:
// /dev/null): its exit status and its output, stdout and stderr together.
struct Run {
  int status;
  std::string out;
};
Run run_kata(const std::string& args, const std::string& input = "");
Run run_command(const std::string& command);  // a shell command, its output (standard output and error, if redirected)
// This process's directory for test files (`kata-tests-PID` in the temporary directory),
// removed with its contents when the process exits.
std::filesystem::path test_dir();
// A file `name` in test_dir(), holding `text` unless it is empty.
std::string temp(const std::string& name, const std::string& text = "");
bool has(const std::string& s, const std::string& part);
// A small valid game (two or three players, a deck of six cards, one action) that tests
// break in one place each (test_check, test_hints).
extern const std::string tiny_game;
// `text` with the first `from` replaced by `to` (which must be there).
std::string with(const std::string& from, const std::string& to, std::string text = tiny_game);
// The messages of `text` with `from` replaced by `to`, which must not load (a failed check
// otherwise): what a test of the checker's errors looks into.
std::string refused(const std::string& from, const std::string& to, const std::string& text);
// A directory `topic` in test_dir() for a group of tests, made once.
std::string scratch_dir(const std::string& topic);
// Writes `text` to the file `name` of scratch_dir(topic); returns its path.
std::string scratch_file(const std::string& topic, const std::string& name, const std::string& text);
// A rule file loaded from a path, as `kata check` loads it (imports resolved beside it).
Loaded load_path(const std::string& path);

// A random renaming of the cards `seat` cannot see, each among those of its kind and owner
// (what a determinization keeps: docs/agents.md), for rename_cards (test_determinize,
// test_search).
// Without `all`, two of them only, swapped: twins made so last longer before a rule reads
// one of them.
std::vector<int> hidden_renaming(const Game& g, const State& s, int seat, uint64_t& rng, bool all = true);
// The notation of each legal decision in `s`, in the engine's order (what a menu lists).
std::vector<std::string> legal_texts(const Game& g, const State& s);
// Whether two states are the same but for the locals of running effects (which rename_cards
// leaves as they are: a loop's card may stay in one after it ends).
bool same_but_locals(const Game& g, const State& a, const State& b);
// Whether a renamed card (to[c] != c) is in sight of `viewer`: from here two twins may
// rightly differ for it.
bool renamed_in_sight(const Game& g, const State& s, int viewer, const std::vector<int>& to);
// Plays up to `steps` decisions uniformly at random from `rng` (fewer if the game ends).
void random_steps(const Game& g, State& s, int steps, uint64_t& rng);
// Whether random games of g run past 200 decisions on average (chess's, 340): there, a
// search of a few playouts a decision, interpreted, takes minutes a game, and the tests
// that play every rule file with search bots play it with bots that do not search.
bool long_game(const Game& g);

}  // namespace kata::test
