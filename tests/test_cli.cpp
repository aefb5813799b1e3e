// The `kata` command as a user meets it: exit statuses, the shape of its messages, and the
// round trip play -> log -> replay, run on the built binary.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "agents/agent.hpp"
#include "agents/runner.hpp"
#include "support.hpp"

using kata::test::has;
using kata::test::run_kata;
using kata::test::temp;

namespace {



}  // namespace

TEST_CASE("kata check: 0 when valid, 1 on errors, 2 on bad usage", "[cli]") {
  auto ok = run_kata("check rules/kobayakawa.yaml");
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "rules/kobayakawa.yaml: ok (Kobayakawa, 3 to 6 players, 0 warnings)"));

  std::string bad = temp("kata-bad.yaml", "game: Bad\nplayers: 2\nzones:\n  hand: {per_player: true}\nflow: |\n  for p in players { shuffle p.hnad }\n");
  auto err = run_kata("check " + bad);
  CHECK(err.status == 1);
  CHECK(has(err.out, "kata-bad.yaml:6:32: error: unknown player variable or zone 'hnad'; did you mean 'hand'?\n"
                     "    6 |   for p in players { shuffle p.hnad }\n"
                     "      |                                ^\n"));
  CHECK(run_kata("check /no/such/file.yaml").status == 2);
  CHECK(run_kata("check").status == 2);
  CHECK(run_kata("frobnicate").status == 2);
  CHECK(run_kata("check --json " + bad).out.find("\"message\": \"unknown player variable or zone 'hnad'; did you mean 'hand'?\"") != std::string::npos);
}

TEST_CASE("a game of one number of players is told as that number, one game as one", "[cli]") {
  auto ok = run_kata("check rules/tictactoe.yaml");
  CHECK(ok.status == 0);
  CHECK(has(ok.out, "rules/tictactoe.yaml: ok (Tic-tac-toe, 2 players, 0 warnings)"));
  auto wrong = run_kata("perft rules/tictactoe.yaml -d 1 -p 3");
  CHECK(wrong.status == 2);
  CHECK(has(wrong.out, "Tic-tac-toe plays with 2 players, not 3"));
  CHECK_FALSE(has(wrong.out, "2 to 2"));
  // A scenario says it in the same words; a range is "3 to 6 players" everywhere.
  std::string three = temp("kata-three-at-tictactoe.yaml",
                           "scenario: three at tic-tac-toe\nrules: " KATA_SOURCE_DIR
                           "/rules/tictactoe.yaml\nplayers: 3\nsteps:\n  - over: false\n");
  auto scenario = run_kata("test " + three);
  CHECK(scenario.status == 1);
  CHECK(has(scenario.out,
            "kata-three-at-tictactoe.yaml:3:10: error: Tic-tac-toe plays with 2 players, not 3\n"));
  auto few = run_kata("perft rules/kobayakawa.yaml -p 2");
  CHECK(few.status == 2);
  CHECK(has(few.out, "kata: error: Kobayakawa plays with 3 to 6 players, not 2"));
  CHECK(has(run_kata("rules rules/kobayakawa.yaml").out, "Kobayakawa: 3 to 6 players\n"));
  auto one = run_kata("simulate rules/tictactoe.yaml -g 1");
  CHECK(one.status == 0);
  CHECK(has(one.out, "Tic-tac-toe: 1 game, 2 players, seed 1\n"));
  auto two = run_kata("simulate rules/tictactoe.yaml -g 2");
  CHECK(has(two.out, "Tic-tac-toe: 2 games, 2 players, seed 1\n"));
}

TEST_CASE("kata --help and each command's --help", "[cli]") {
  for (std::string c :
       {"", "check ", "play ", "simulate ", "arena ", "replay ", "test ", "perft ", "rules "}) {
    auto r = run_kata(c + "--help");
    CHECK(r.status == 0);
    CHECK(has(r.out, "Exit status: 0 success"));
  }
}

TEST_CASE("kata play with bots to the end - with a bad option or agent", "[cli]") {
  auto r = run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 3 -q");
  CHECK(r.status == 0);
  CHECK(has(r.out, "Result after "));
  // A game without scores says only who won ("no scores" read as an error to players).
  auto unscored = run_kata("play rules/hogen.yaml --players 3 --agents random --seed 3 -q");
  CHECK(unscored.status == 0);
  CHECK(has(unscored.out, " decisions: winners: "));
  CHECK(!has(unscored.out, "no scores"));
  // Nothing scored (Kendo's points variant, off in a one-round game): no "P1=0 P2=0", which
  // read as a result; the end says why nobody won.
  auto limit = run_kata("play rules/kendo.yaml --agents random --seed 5 -o max_turns=3");
  CHECK(limit.status == 0);
  CHECK(has(limit.out, "Game over. Winners: none\nNo Prince reached the palace within the turn "
                       "limit (the option max_turns): in a one-round game nobody wins.\n"));
  // The end says why the winners won, where the rule file's notes say so: a right
  // accusation in Hogen, a shared win in Kobayakawa.
  auto right = run_kata("play rules/hogen.yaml -p 3 -a ismcts:50 --seed 1");
  CHECK(has(right.out, "Game over. Winner: P1\nThe winner named every other player's hidden samurai rightly.\n"));
  auto shared = run_kata("play rules/kobayakawa.yaml -p 4 -a random --seed 1");
  CHECK(has(shared.out, "Game over. Winners: P2, P4\n"));
  CHECK(has(shared.out, "Most kamons wins; the players tied for the most share the win.\n"));
  auto alone = run_kata("play rules/kobayakawa.yaml -p 4 -a random --seed 3");
  CHECK(has(alone.out, "Game over. Winner: "));
  CHECK_FALSE(has(alone.out, "share the win"));
  // The end's screen says the result once: no line under it says it again.
  CHECK_FALSE(has(limit.out, "Result after"));
  auto quiet = run_kata("play rules/kendo.yaml --agents random --seed 5 -o max_turns=3 -q");
  CHECK(quiet.out == "Result after 6 decisions: winners: none\n");
  CHECK(run_kata("play rules/kobayakawa.yaml --players 9 --agents random").status == 2);
  auto o = run_kata("play rules/kobayakawa.yaml --agents random -o centre_kamon=3");
  CHECK(o.status == 2);
  CHECK(has(
      o.out,
      "kata: error: unknown option 'centre_kamon'; did you mean 'centre_kamons'? the options of "
      "Kobayakawa are starting_kamons, centre_kamons, final_stake, first_player\n"));
  auto bogus = run_kata("play rules/kenjin.yaml -a random -o bogus=1");
  CHECK(bogus.status == 2);
  CHECK(
      bogus.out ==
      "kata: error: unknown option 'bogus'; the options of Kenjin are first_player, placement, "
      "teams, "
      "golden_temple, torii_counts_itself, lord_base, lord_bonus, peasant_bonus, cowardice, "
      "bridge_limit, fortress_cards, golden_temple_total, golden_temple_margin, palace_penalty\n");
  auto value = run_kata("play rules/kenjin.yaml -a random -o placement=drafted -p 3");
  CHECK(value.status == 2);
  CHECK(value.out ==
        "kata: error: option 'placement' has no value 'drafted'; did you mean 'draft'? its values "
        "are random, draft\n");
  auto robot = run_kata("play rules/kobayakawa.yaml --agents robot");
  CHECK(robot.status == 2);
  CHECK(robot.out ==
        "kata: error: unknown agent 'robot'; the agents are human, random, script:FILE, ismcts[:N], "
        "mcts[:N], greedy\n");
  auto randm = run_kata("play rules/kobayakawa.yaml --agents human,randm,random");
  CHECK(randm.status == 2);
  CHECK(randm.out ==
        "kata: error: unknown agent 'randm'; did you mean 'random'? the agents are human, random, "
        "script:FILE, ismcts[:N], mcts[:N], greedy\n");
  CHECK(run_kata("play rules/kobayakawa.yaml -a scrpt:moves.txt").out ==
        "kata: error: unknown agent 'scrpt:moves.txt'; did you mean 'script:moves.txt'? the agents "
        "are human, random, script:FILE, ismcts[:N], mcts[:N], greedy\n");
  CHECK(run_kata("play rules/kobayakawa.yaml -a script").out ==
        "kata: error: agent 'script' needs a file: script:FILE\n");
}

TEST_CASE("a human is refused an illegal action and told why", "[cli]") {
  // P1 is human; the first input is not legal in the draw phase.
  auto r = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear", "fight\nquit\n");
  CHECK(has(r.out, "Refused: 'fight' is not possible now; P1 may: flip, draw"));
  CHECK(has(r.out, "1) flip"));
  CHECK(r.status == 1);  // the human quit
}

TEST_CASE("a human sees their own card and not the others'", "[cli]") {
  auto r = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear --seed 5", "quit\n");
  auto all = run_kata("play rules/kobayakawa.yaml --players 3 --agents human,random,random --no-clear --seed 5", "quit\n");
  CHECK(has(r.out, "P1's hand:      "));
  CHECK(has(r.out, "P2's hand:      1 hidden card"));
  CHECK(has(r.out, "P3's hand:      1 hidden card"));
  CHECK_FALSE(has(r.out, "P1's hand:      1 hidden card"));
  CHECK(has(r.out, "the deck:       11 cards face down"));
  CHECK(r.out == all.out);  // the same seed shows the same screens
}

TEST_CASE("play -> log -> replay reproduces the game - a tampered log is caught", "[cli]") {
  std::string log = temp("kata-game.jsonl");
  auto p = run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 11 -q --log " + log);
  REQUIRE(p.status == 0);
  auto r = run_kata("replay -q " + log);
  CHECK(r.status == 0);
  CHECK(has(r.out, "replay verified: "));
  auto as = run_kata("replay " + log + " --as P2");
  CHECK(as.status == 0);
  CHECK(has(as.out, "as P2 sees it"));

  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"action\":\"fight\"");
  if (at == std::string::npos) at = text.find("\"action\":\"pass\"");
  REQUIRE(at != std::string::npos);
  std::string tampered = text;
  tampered.replace(at, 16, text.compare(at, 16, "\"action\":\"fight\"") == 0 ? "\"action\":\"pass\" " : "\"action\":\"fight\"");
  std::string bad = temp("kata-tampered.jsonl", tampered);
  auto t = run_kata("replay -q " + bad);
  CHECK(t.status == 1);
  CHECK(has(t.out, "kata: replay failed: "));
  CHECK(run_kata("replay -q " + temp("kata-junk.jsonl", "not json\n")).status == 1);
  CHECK(run_kata("replay -q " + log + " --as P9").status == 2);
}

TEST_CASE("kata simulate is the same for any number of jobs", "[cli]") {
  auto one = run_kata("simulate rules/kobayakawa.yaml --games 300 --players 5 --seed 9 --jobs 1 --json");
  auto two = run_kata("simulate rules/kobayakawa.yaml --games 300 --players 5 --seed 9 --jobs 2 --json");
  CHECK(one.status == 0);
  CHECK(one.out == two.out);
  CHECK(has(one.out, "\"errors\": 0"));
  CHECK(run_kata("simulate rules/kobayakawa.yaml --games 0").status == 2);
}

TEST_CASE("kata test reports a failing scenario with expected against actual", "[cli]") {
  std::string s = temp("kata-failing.yaml",
                       "scenario: a wrong expectation\nrules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 3\n"
                       "steps:\n  - expect: P1.kamons == 5\n");
  auto r = run_kata("test " + s);
  CHECK(r.status == 1);
  CHECK(has(r.out, "kata-failing.yaml:5:13: error: expected P1.kamons == 5"));
  CHECK(has(r.out, "actual: the left side is 4, the right side is 5"));
  CHECK(has(r.out, "0 passed, 1 failed"));
}

TEST_CASE("a log shown to a player reveals only what that player may know", "[cli]") {
  std::string log = temp("kata-hidden.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 3 --agents random --seed 21 -q --log " + log).status == 0);
  auto as = run_kata("replay " + log + " --as P2");
  REQUIRE(as.status == 0);
  std::istringstream lines(as.out);
  int own = 0, others = 0;
  for (std::string line; std::getline(lines, line);) {
    bool drawn = line.find(" moves from the deck to ") != std::string::npos;
    if (drawn && line.find("to P2's hand") != std::string::npos) {
      CHECK(line.rfind("A card", 0) != 0);  // P2 sees their own cards
      ++own;
    } else if (drawn && line.find("'s hand") != std::string::npos) {
      CHECK(line.rfind("A card moves", 0) == 0);  // and not the others'
      ++others;
    }
    // A deal is one line: "5 cards move from the deck — P1's hand: a card; P2's hand: 12; ...".
    if (line.find(" cards move from the deck — ") == std::string::npos) continue;
    std::istringstream parts(line.substr(line.find(" — ") + 5));
    for (std::string part; std::getline(parts, part, ';');) {
      if (part.find("'s hand") == std::string::npos) continue;
      bool named = part.find("a card") == std::string::npos;
      if (part.find("P2's hand") != std::string::npos) {
        CHECK(named);
        ++own;
      } else {
        CHECK_FALSE(named);
        ++others;
      }
    }
  }
  CHECK(own >= 7);
  CHECK(others >= 14);
  // The full log, for the record, names every card.
  auto all = run_kata("replay " + log);
  CHECK(all.out.find("a card moves") == std::string::npos);
}

TEST_CASE("a log made with another rule file is refused, not replayed", "[cli]") {
  std::string log = temp("kata-sha.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 3 --agents random -q --log " + log).status == 0);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = text.find("\"sha256\":\"") + 10;
  text[at] = text[at] == '0' ? '1' : '0';
  auto r = run_kata("replay -q --as P2 " + temp("kata-sha-bad.jsonl", text));
  CHECK(r.status == 1);
  CHECK(has(r.out, "is not the rule file this log was made with (SHA-256 differs)"));
}

TEST_CASE("options may come before the rule file", "[cli]") {
  auto r = run_kata("simulate -o centre_kamons=3 -g 5 rules/kobayakawa.yaml -p 3");
  CHECK(r.status == 0);
  auto p = run_kata("play -a random -o first_player=2 rules/kobayakawa.yaml -p 3 -q");
  CHECK(p.status == 0);
}

TEST_CASE("a script plays a seat - an illegal line stops it with its line number", "[cli]") {
  std::string ok;
  for (int i = 0; i < 7; ++i) ok += "flip   # never draws\npass\n";
  auto r = run_kata("play rules/kobayakawa.yaml -p 3 -a script:" + temp("kata-script.txt", ok) + ",random,random -q");
  CHECK(r.status == 0);
  auto bad = run_kata("play rules/kobayakawa.yaml -p 3 -a script:" + temp("kata-bad-script.txt", "flip\nflip\n") + ",random,random -q");
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "kata-bad-script.txt:2: P1's 'flip' is refused: 'flip' is not possible now; P1 may: fight, pass"));
}

TEST_CASE("a failed expectation shows players, cards and truth as such", "[cli]") {
  std::string s = temp("kata-typed.yaml",
                       "scenario: typed values\nrules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 3\n"
                       "steps:\n  - expect: first == P2\n");
  auto r = run_kata("test " + s);
  CHECK(r.status == 1);
  CHECK(has(r.out, "actual: the left side is P1, the right side is P2"));
}

TEST_CASE("kata rules writes a titled kind's titles in its name column, wherever that column is", "[cli]") {
  std::string file = temp("kata-titled.yaml",
                          "game: Titled\nplayers: 2\ncomponents:\n  tile:\n    list:\n"
                          "      - {vp: 4, name: GoldMine, title: Gold Mine, doc: Digs gold.}\n"
                          "      - {vp: 6, name: SilverPit, title: Silver Pit, doc: Digs silver.}\n    in: box\n"
                          "zones:\n  box: {visibility: everyone}\nflow: |\n  choose P1: pass\nactions:\n  pass: {do: \"\"}\n");
  auto r = run_kata("rules " + file);
  CHECK(r.status == 0);
  CHECK(has(r.out, "      vp  name\n      4   Gold Mine\n      6   Silver Pit\n"));
}

TEST_CASE("kata test reports a rule file's load-time error as kata check does, never aborts", "[cli]") {
  // `where:` overflows 64 bits while the file loads (Compiler's load-time values): the
  // scenario runner loads through the same pipeline as check, so the error is a diagnostic.
  std::string rules = temp("kata-overflow.yaml",
                           "game: Big\nplayers: 2\ncomponents:\n  cell: {each: {x: 1..3}, where: \"x * 2000000000 * 2000000000 * 2000000000 > 0\", in: grid}\n"
                           "zones:\n  grid: {visibility: everyone}\nflow: |\n  choose P1: pass\nactions:\n  pass: {do: \"\"}\n");
  std::string scenario = temp("kata-overflow-test.yaml", "scenario: overflow\nrules: " + rules + "\nplayers: 2\nsteps:\n  - play: P1 pass\n");
  auto check = run_kata("check " + rules);
  auto test = run_kata("test " + scenario);
  CHECK(check.status == 1);
  CHECK(test.status == 1);
  const std::string error = "4:35: error: the result is too large to work out (beyond 64-bit numbers)";
  CHECK(has(check.out, error));
  CHECK(has(test.out, error));
  CHECK_FALSE(has(test.out, "terminate"));
}

TEST_CASE("an option for some player counts only is refused with the others", "[cli]") {
  auto r = run_kata("simulate rules/kenjin.yaml --players 3 --option teams=true --games 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: option teams=true is for 4 players, not 3"));
  r = run_kata("play rules/kenjin.yaml --players 2 --option placement=draft --agents random --quiet");
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: option placement=draft is for 3 to 4 players, not 2"));
  // Its default value is for every count; the others are for the counts it names.
  CHECK(run_kata("simulate rules/kenjin.yaml --players 4 --option teams=true --option placement=draft --games 2").status == 0);
  std::string scenario = temp("teams-3.yaml", "rules: " KATA_SOURCE_DIR "/rules/kenjin.yaml\nplayers: 3\noptions: {teams: true}\nsteps:\n  - over: false\n");
  r = run_kata("test " + scenario);
  CHECK(r.status == 1);
  CHECK(has(r.out, "2:10: error: option teams=true is for 4 players, not 3"));
}

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string kobayakawa_log(const std::string& name) {
  std::string log = temp(name);
  REQUIRE(run_kata("play rules/kobayakawa.yaml --players 4 --agents random --seed 4 -q --log " + log).status == 0);
  return log;
}

}  // namespace

TEST_CASE("bad input is an error with its status, never an abort", "[cli]") {
  std::string log = kobayakawa_log("kata-crash.jsonl");
  auto huge = run_kata("replay -q " + log + " --as P99999999999");
  CHECK(huge.status == 2);
  CHECK(has(huge.out, "kata: error: --as 'P99999999999' is not a seat of this game; the seats are P1, P2, P3, P4"));

  std::string scenario = temp("kata-huge-seat.yaml", "rules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 4\nsteps:\n  - play: P99999999999 flip\n");
  auto s = run_kata("test " + scenario);
  CHECK(s.status == 1);
  CHECK(has(s.out, "4:11: error: there is no P99999999999 in a 4-player game; the seats are P1 to P4"));

  // Every header field the replay reads is type-checked.
  std::string text = read_text(log);
  std::vector<std::pair<std::string, std::string>> cases = {
      {"\"forced\":false", "\"forced\":\"no\""},   {"\"players\":4", "\"players\":\"4\""},
      {"\"players\":4", "\"players\":4.5"},        {"\"seed\":4", "\"seed\":-4"},
      {"\"rules\":\"", "\"rules\":7,\"x\":\""},    {"\"options\":{", "\"options\":[],\"x\":{"},
      {"\"centre_kamons\":\"8\"", "\"centre_kamons\":8"}};
  for (auto& [from, to] : cases) {
    REQUIRE(has(text, from));
    auto r = run_kata("replay -q " + temp("kata-typed.jsonl", replace_once(text, from, to)));
    INFO(to);
    CHECK(r.status == 1);
    CHECK(has(r.out, "kata: replay failed: "));
    CHECK(has(r.out, "must be"));
  }
  auto forced = run_kata("replay -q " + temp("kata-forced.jsonl", replace_once(text, "\"forced\":false", "\"forced\":\"no\"")));
  CHECK(has(forced.out, ":1: \"forced\" must be true or false"));
}

TEST_CASE("replay --as names a seat of the game, or is refused", "[cli]") {
  std::string log = kobayakawa_log("kata-seat.jsonl");
  for (std::string as : {"P0", "p0", "''", "P9", "P", "x1"}) {
    auto r = run_kata("replay " + log + " --as " + as);
    INFO(as);
    CHECK(r.status == 2);
    CHECK(has(r.out, "is not a seat of this game; the seats are P1, P2, P3, P4"));
    CHECK_FALSE(has(r.out, "moves from"));  // nothing of the game is shown
    CHECK_FALSE(has(r.out, "replay verified"));
  }
  CHECK(run_kata("replay -q " + log + " --as p4").status == 0);
}

TEST_CASE("a failed replay shown to a seat quotes no log line", "[cli]") {
  std::string log = kobayakawa_log("kata-private.jsonl");
  std::string text = read_text(log);
  // Another player's dealt card, which P3 cannot see, is changed.
  auto at = text.find("\"to\":\"P1.hand\"");
  REQUIRE(at != std::string::npos);
  auto card = text.rfind("\"card\":\"", at);
  std::string bad = temp("kata-private-bad.jsonl", text.substr(0, card) + "\"card\":\"99" + text.substr(text.find('"', card + 8)));
  auto as = run_kata("replay -q " + bad + " --as P3");
  CHECK(as.status == 1);
  CHECK(has(as.out, "the game diverges: the log's \"move\" line differs from the replay's \"move\" event"));
  CHECK_FALSE(has(as.out, "{\""));
  // Only after the file's name: the name holds the pid, which may hold 99.
  CHECK_FALSE(has(as.out.substr(as.out.find(".jsonl:")), "99"));
  // Without --as, everything may be said.
  auto all = run_kata("replay -q " + bad);
  CHECK(has(all.out, "the log says {\"card\":\"99\""));
  // A shuffle order is not quoted either.
  auto order = text.find("\"order\":[\"");
  REQUIRE(order != std::string::npos);
  std::string swapped = text;
  auto first = order + 9, comma = swapped.find(',', first);
  std::string a = swapped.substr(first, comma - first), rest = swapped.substr(comma + 1);
  auto second_end = rest.find_first_of(",]");
  std::string b = rest.substr(0, second_end);
  swapped.replace(first, a.size() + 1 + b.size(), b + "," + a);
  auto shuffled = run_kata("replay -q " + temp("kata-private-order.jsonl", swapped) + " --as P3");
  CHECK(shuffled.status == 1);
  CHECK(has(shuffled.out, "the log's \"shuffle\" line differs"));
  CHECK_FALSE(has(shuffled.out, "[\""));
}

TEST_CASE("humans sharing a terminal: the scrollback is cleared - the end is shown as everyone sees it", "[cli]") {
  auto loaded = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(loaded.game);
  const kata::Game& g = *loaded.game;
  kata::State s = kata::new_game(g, 3, 1, kata::default_options(g));
  std::istringstream in("\n1\n");
  std::ostringstream out;
  kata::Terminal t{in, out};
  t.humans = 2;
  kata::HumanAgent p1(t, 0);
  auto view = kata::make_view(g, s, 0);
  CHECK(p1.choose(g, view, {"flip", "draw"}, 2).index == 0);
  CHECK(has(out.str(), "\033[H\033[2J\033[3J"));
  std::string before = out.str();
  p1.game_over(g, view);  // no private view at the end
  CHECK_FALSE(has(out.str().substr(before.size()), "sees it"));

  std::string ones;
  for (int i = 0; i < 3000; ++i) ones += "1\n";
  auto r = run_kata("play rules/kobayakawa.yaml -p 3 -a human,human,random --no-clear --seed 2", ones);
  REQUIRE(r.status == 0);
  auto end = r.out.substr(r.out.rfind("> "));
  CHECK(has(end, "Kobayakawa — as everyone sees it — game over"));
  CHECK_FALSE(has(end, "(you)"));
  CHECK_FALSE(has(end, "as P1 sees it"));
  CHECK_FALSE(has(end, "as P2 sees it"));
  CHECK(has(end, "Game over. "));
  CHECK_FALSE(has(end, "Result after "));
  // The public view shows a card only if every seat sees it.
  kata::PlayerView pub = kata::public_view(g, s);
  for (int p = 0; p < 3; ++p) {
    kata::PlayerView own = kata::make_view(g, s, p);
    for (size_t z = 0; z < pub.zones.size(); ++z)
      for (size_t i = 0; i < pub.zones[z].cards.size(); ++i)
        if (pub.zones[z].cards[i].card >= 0) CHECK(own.zones[z].cards[i].card == pub.zones[z].cards[i].card);
  }
}

TEST_CASE("a refusal does not quote the condition a hidden card fails", "[cli]") {
  std::string rules = temp("kata-peek.yaml",
                           "kata: 1\ngame: Peek\nplayers: 2\ncomponents:\n  card:\n    each: {value: 1..4}\n    name: \"{value}\"\n"
                           "    in: deck\nzones:\n  deck: {order: stack, visibility: nobody}\n"
                           "  hand: {per_player: true, order: stack, visibility: owner}\n"
                           "flow: |\n  shuffle deck\n  for p in players { move top(deck) to p.hand }\n  choose P1: take | keep | pass\n"
                           "actions:\n  take:\n    params: {c: P2.hand}\n    when: c.value > 99\n    do: move c to P1.hand\n"
                           "  keep:\n    params: {c: P1.hand}\n    when: c.value > 99\n    do: move c to P2.hand\n"
                           "  pass:\n    do: move top(deck) to P1.hand\n");
  auto script = run_kata("play " + rules + " -a script:" + temp("kata-peek.txt", "take P2.hand#1\n") + ",random -q");
  CHECK(script.status == 1);
  CHECK(has(script.out, "P1's 'take P2.hand#1' is refused: 'take p2.hand#1' is not legal now"));
  CHECK_FALSE(has(script.out, "requires"));
  auto human = run_kata("play " + rules + " -a human,random --no-clear", "take P2.hand#1\nquit\n");
  CHECK(has(human.out, "Refused: 'take p2.hand#1' is not legal now"));
  CHECK_FALSE(has(human.out, "requires"));
  // A card the chooser sees: the condition may be quoted.
  auto own = run_kata("play " + rules + " -a human,random --no-clear --seed 1", "quit\n");
  REQUIRE(has(own.out, "P1.hand        "));
  auto at = own.out.find("P1.hand        ") + 15;
  std::string card = own.out.substr(at, own.out.find('*', at) - at);
  auto keep = run_kata("play " + rules + " -a human,random --no-clear --seed 1",
                       "keep " + card + "\nquit\n");
  CHECK(has(keep.out, "Refused: 'keep' requires c.value > 99"));
}

TEST_CASE("kata test on a rule file runs the scenarios beside it", "[cli]") {
  auto r = run_kata("test rules/kobayakawa.yaml");
  CHECK(r.status == 0);
  CHECK(has(r.out, " passed, 0 failed"));
  CHECK_FALSE(has(r.out, "unknown key"));
  auto alone = run_kata("test " + temp("kata-lonely.yaml", read_text(KATA_SOURCE_DIR "/rules/kobayakawa.yaml")));
  CHECK(alone.status == 2);
  CHECK(has(alone.out, "kata-lonely.yaml' is a rule file, not a scenario; its scenarios would be in '"));
  CHECK(has(alone.out, "/kata-tests-" + std::to_string(getpid()) + "/tests/kata-lonely/', which does not exist"));
}

TEST_CASE("a scenario's shuffle names a card once - its decisions name seats of the game", "[cli]") {
  std::string head = "rules: " KATA_SOURCE_DIR "/rules/kobayakawa.yaml\nplayers: 4\n";
  auto twice = run_kata("test " + temp("kata-twice.yaml", head + "shuffles:\n  - [3, 3]\n"));
  CHECK(twice.status == 1);
  CHECK(has(twice.out, "4:5: error: the fixed order names '3' more than once"));
  for (std::string seat : {"P0", "P5"}) {
    auto r = run_kata("test " + temp("kata-seat.yaml", head + "steps:\n  - refuse: " + seat + " flip\n"));
    INFO(seat);
    CHECK(r.status == 1);
    CHECK(has(r.out, "error: there is no " + seat + " in a 4-player game"));
  }
}

TEST_CASE("the command line's errors read kata: error:", "[cli]") {
  auto bogus = run_kata("bogus");
  CHECK(bogus.status == 2);
  CHECK(has(bogus.out, "kata: error: unknown command 'bogus'; the commands are check, play, simulate, arena, replay, test"));
  auto seed = run_kata("play rules/kobayakawa.yaml -a random -q -s -5");
  CHECK(seed.status == 2);
  CHECK(has(seed.out, "kata: error: --seed: '-5' is not a number"));
  CHECK(run_kata("simulate rules/kobayakawa.yaml -g 2 -s -1").status == 2);
  CHECK(run_kata("play rules/kobayakawa.yaml -a random -q -s 18446744073709551615").status == 0);
  // Past 2^64 - 1 a seed is refused, not saturated, in every command that takes one.
  for (const char* command : {"play rules/kobayakawa.yaml -a random -q", "simulate rules/kobayakawa.yaml -g 1",
                              "arena rules/kobayakawa.yaml -a random,random,random -g 1", "perft rules/kobayakawa.yaml"})
    for (const char* seed : {"18446744073709551616", "99999999999999999999999"}) {
      auto big = run_kata(std::string(command) + " -s " + seed);
      INFO(command << " -s " << seed);
      CHECK(big.status == 2);
      CHECK(has(big.out, std::string("kata: error: --seed: '") + seed + "' is not a number from 0 to 18446744073709551615"));
    }
  // The other numbers are ranges, refused past their type too.
  for (const char* args : {"simulate rules/kobayakawa.yaml -g 4294967297", "simulate rules/kobayakawa.yaml -g 1 -j 4294967297",
                           "simulate rules/kobayakawa.yaml -g 1 -p 18446744073709551617", "perft rules/kobayakawa.yaml -d 4294967296",
                           "arena rules/kobayakawa.yaml -a random,random,random -g 99999999999999999999",
                           "simulate rules/kobayakawa.yaml -g 1 --shard 1/4294967297", "check --max-errors 4294967296 rules/kobayakawa.yaml"}) {
    INFO(args);
    CHECK(run_kata(args).status == 2);
  }
  // Every whole number is written in decimal digits: no hex, binary, exponent, sign or
  // space, which CLI11 alone would read (0x10 as 16) or call out of range (1e3).
  for (const char* games : {"0x10", "0b11", "1e3", "+5", " 5", "5 ", "010x", "0"}) {
    auto r = run_kata(std::string("simulate rules/kobayakawa.yaml -g '") + games + "'");
    INFO(games);
    CHECK(r.status == 2);
    CHECK(has(r.out, std::string("kata: error: --games: '") + games + "' is not a whole number from 1 to 100000000"));
  }
  CHECK(has(run_kata("perft rules/kobayakawa.yaml -d 0x2").out, "--depth: '0x2' is not a whole number from 0 to 12"));
  CHECK(run_kata("simulate rules/kobayakawa.yaml -g 010").status == 0);  // leading zeros are decimal
  auto missing = run_kata("play");
  CHECK(missing.status == 2);
  CHECK(has(missing.out, "kata: error: no rule file given (see kata play --help)"));
}

TEST_CASE("simulate's progress counts never go backwards and end at the number of games", "[cli]") {
  auto loaded = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(loaded.game);
  std::vector<int> seen;
  int games = 4000;
  // A slow bar keeps other threads waiting to report, in no particular order.
  kata::simulate(*loaded.game, games, 3, 1, kata::default_options(*loaded.game), 8, false, [&](int done) {
    seen.push_back(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  });
  REQUIRE_FALSE(seen.empty());
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
  CHECK(seen.back() == games);
}

TEST_CASE("kata perft counts the sequences of legal decisions to each depth", "[cli]") {
  auto r = run_kata("perft rules/kendo.yaml --depth 2 --players 2 --option layout=adjacent");
  CHECK(r.status == 0);
  CHECK(r.out == "Kendo: 2 players, seed 1\ndepth 1: 7\ndepth 2: 64\n");
  r = run_kata("perft rules/kobayakawa.yaml -d 2 -p 3 --json");
  CHECK(r.status == 0);
  CHECK(has(r.out, "\"counts\": [\n    2,\n    4\n  ]"));
  CHECK(has(r.out, "\"depth\": 2,"));
  CHECK(has(r.out, "\"count\": 4,"));
  CHECK(run_kata("perft rules/kendo.yaml --depth 99").status == 2);
  CHECK(run_kata("perft rules/kendo.yaml --players 3 --option layout=adjacent").status == 2);
}

TEST_CASE("options that exclude each other, or one given twice, are told in kata's words",
          "[cli]") {
  auto both = run_kata("rules rules/kendo.yaml --markdown --json");
  CHECK(both.status == 2);
  CHECK(both.out ==
        "kata: error: --markdown and --json cannot be used together (see kata rules --help)\n");
  auto twice = run_kata("perft rules/kendo.yaml -d 1 -d 2");
  CHECK(twice.status == 2);
  CHECK(twice.out == "kata: error: --depth is given more than once (see kata perft --help)\n");
  twice = run_kata("simulate rules/kendo.yaml -g 1 --games 2");
  CHECK(twice.status == 2);
  CHECK(twice.out == "kata: error: --games is given more than once (see kata simulate --help)\n");
  auto bare = run_kata("perft rules/kendo.yaml --depth");
  CHECK(bare.status == 2);
  CHECK(bare.out == "kata: error: --depth needs a value (see kata perft --help)\n");
  for (const auto& r : {both, twice, bare}) {
    CHECK_FALSE(has(r.out, "At Most"));
    CHECK_FALSE(has(r.out, "excludes"));
    CHECK_FALSE(has(r.out, "required"));
  }
}

TEST_CASE("kata perft at depth 0 counts the start, one position", "[cli]") {
  auto r = run_kata("perft rules/kendo.yaml --depth 0 --players 2");
  CHECK(r.status == 0);
  CHECK(r.out == "Kendo: 2 players, seed 1\ndepth 0: 1\n");
  r = run_kata("perft rules/kendo.yaml -d 0 -p 2 --json");
  CHECK(r.status == 0);
  CHECK(has(r.out, "\"depth\": 0,"));
  CHECK(has(r.out, "\"count\": 1,"));
  CHECK(has(r.out, "\"counts\": [],"));
}

TEST_CASE("kata play and kata replay draw the board as SVG", "[cli]") {
  std::string log = temp("kendo-svg.jsonl"), svg = temp("kendo.svg"), svg2 = temp("kendo-p2.svg");
  auto r = run_kata("play rules/kendo.yaml -p 2 --agents random --quiet --log " + log + " --svg " + svg);
  CHECK(r.status == 0);
  std::ifstream in(svg);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.rfind("<svg", 0) == 0);
  CHECK(has(text, "<line"));
  CHECK(run_kata("replay " + log + " --as P2 --quiet --svg " + svg2).status == 0);
  r = run_kata("play rules/kenjin.yaml -p 2 --agents random --svg " + svg);
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: Kenjin has no board to draw"));
}

TEST_CASE("an option whose max is 'players' is a seat number of the game", "[cli]") {
  auto r = run_kata("simulate rules/kobayakawa.yaml --players 3 --option first_player=5 --games 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "kata: error: option first_player=5 is more than the 3 players"));
  CHECK(run_kata("simulate rules/kobayakawa.yaml --players 5 --option first_player=5 --games 1").status == 0);
}

TEST_CASE("simulate and perft compiled give the same results, and a clear error without a compiler", "[cli][native]") {
  setenv("KATA_CACHE", KATA_TEST_CACHE, 1);
  auto plain = run_kata("simulate rules/hogen.yaml --games 200 --players 4 --seed 3 --json");
  auto compiled = run_kata("simulate rules/hogen.yaml --games 200 --players 4 --seed 3 --json --compiled");
  CHECK(plain.status == 0);
  CHECK(compiled.status == 0);
  CHECK(plain.out == compiled.out);
  auto counts = run_kata("perft rules/kendo.yaml --depth 3 --players 2 --compiled");
  CHECK(counts.status == 0);
  CHECK(has(counts.out, "depth 3: 3213"));

  std::string fresh = temp("kata-no-compiler-cache");
  std::filesystem::remove_all(fresh);
  setenv("KATA_CACHE", fresh.c_str(), 1);
  setenv("KATA_CXX", "/nonexistent/c++", 1);
  auto none = run_kata("simulate rules/kobayakawa.yaml --games 5 --compiled");
  unsetenv("KATA_CXX");
  setenv("KATA_CACHE", KATA_TEST_CACHE, 1);
  CHECK(none.status == 2);
  CHECK(has(none.out, "kata: error: cannot run compiled: cannot run the C++ compiler '/nonexistent/c++' (set KATA_CXX to another)"));
}

TEST_CASE("Kenjin: replay --as names no face-down card of another's hand by its place", "[cli][leaks]") {
  // The issue's case: in a 3-player game of random bots, P1 read "P2 chose: deploy
  // P2.hand#1 Palace", and the hand's order named the card.
  for (const char* seed : {"1", "2", "3", "4"}) {
    std::string log = temp(std::string("kata-kenjin-leak-") + seed + ".jsonl");
    REQUIRE(run_kata(std::string("play rules/kenjin.yaml --players 3 --agents random -q --seed ") + seed + " --log " + log).status == 0);
    auto as = run_kata("replay " + log + " --as P1");
    REQUIRE(as.status == 0);
    CHECK_FALSE(has(as.out, "P2.hand#"));
    CHECK_FALSE(has(as.out, "P3.hand#"));
    // A deployment is told in words: a face-down card of another's hand by its hand only.
    CHECK(has(as.out, "P2 deploys a card from P2's hand face down on "));
    CHECK(has(as.out, "P3 deploys a card from P3's hand face down on "));
    // P1's own deployments are named.
    CHECK(has(as.out, "P1 deploys P1 "));
  }
}

TEST_CASE("kata play draws a fresh seed unless --seed is given, prints it, and logs it", "[cli]") {
  std::string log = temp("kata-fresh.jsonl");
  auto r = run_kata("play rules/kobayakawa.yaml -p 3 -a random -q --log " + log);
  REQUIRE(r.status == 0);
  // "seed N (kata play ... --seed N replays these chances)", before the result.
  REQUIRE(r.out.rfind("seed ", 0) == 0);
  std::string seed = r.out.substr(5, r.out.find(' ', 5) - 5);
  CHECK(r.out.substr(0, r.out.find('\n') + 1) ==
        "seed " + seed + " (kata play rules/kobayakawa.yaml -p 3 -a random -q --log " + log +
            " --seed " + seed + " replays these chances)\n");
  CHECK(has(read_text(log), "\"seed\":" + seed + ","));
  // The same seed replays the same game, and prints no seed line.
  auto again = run_kata("play rules/kobayakawa.yaml -p 3 -a random -q --seed " + seed);
  CHECK(again.out == r.out.substr(r.out.find('\n') + 1));
  // Four fresh games do not all draw one seed (the chance is 2^-96).
  std::set<std::string> seeds = {seed};
  for (int i = 0; i < 3; ++i) {
    auto o = run_kata("play rules/kobayakawa.yaml -p 3 -a random -q");
    seeds.insert(o.out.substr(5, o.out.find(' ', 5) - 5));
  }
  CHECK(seeds.size() > 1);
  // Arguments a shell would split are quoted.
  auto quoted = run_kata("play rules/kobayakawa.yaml -a random -q -o 'first_player=2' --log '" +
                         temp("kata fresh.jsonl") + "'");
  CHECK(has(quoted.out, " --log '" + temp("kata fresh.jsonl") + "' --seed "));
  // simulate and perft keep their fixed seed.
  CHECK(has(run_kata("simulate rules/kobayakawa.yaml -g 2 -p 3").out,
            "Kobayakawa: 2 games, 3 players, seed 1\n"));
  CHECK(has(run_kata("perft rules/kobayakawa.yaml -d 1 -p 3").out,
            "Kobayakawa: 3 players, seed 1\n"));
}

TEST_CASE("several options may follow one -o", "[cli]") {
  auto one = run_kata(
      "play rules/kobayakawa.yaml -p 4 -a random -s 7 -q -o starting_kamons=6 centre_kamons=5");
  auto two = run_kata(
      "play rules/kobayakawa.yaml -p 4 -a random -s 7 -q -o starting_kamons=6 -o centre_kamons=5");
  auto before = run_kata(
      "play -o starting_kamons=6 centre_kamons=5 rules/kobayakawa.yaml -p 4 -a random -s 7 -q");
  auto joined = run_kata(
      "play rules/kobayakawa.yaml --option=starting_kamons=6 centre_kamons=5 -p 4 -a random -s 7 "
      "-q");
  auto plain = run_kata("play rules/kobayakawa.yaml -p 4 -a random -s 7 -q");
  CHECK(one.status == 0);
  CHECK(has(one.out, "Result after "));
  CHECK(one.out == two.out);
  CHECK(one.out == before.out);
  CHECK(one.out == joined.out);
  CHECK(one.out != plain.out);
  // Each of the list is checked.
  auto bad =
      run_kata("simulate rules/kobayakawa.yaml -g 1 -p 3 -o starting_kamons=6 centre_kamons=99");
  CHECK(bad.status == 2);
  CHECK(bad.out == "kata: error: option 'centre_kamons' must be between 2 and 40\n");
  CHECK(run_kata("perft rules/kendo.yaml -d 1 -o layout=adjacent first_player=2").status == 0);
  // A word without '=' ends the list.
  auto extra = run_kata("simulate rules/kobayakawa.yaml -g 1 -o starting_kamons=6 stray");
  CHECK(extra.status == 2);
  CHECK(has(extra.out, "kata: error: unexpected argument 'stray'"));
}

namespace {

const char* reference_game = R"(kata: 1
game: Tiny
doc: >
  A tiny game to show the reference: each player takes a card
  and the highest card wins.
players: 2..3
options:
  rounds: {default: 2, min: 1, max: 5, doc: Rounds to play.}
  rule: {default: plain, values: [plain, fancy], players: 3, doc: The variant.}
  open: false
  first: {default: 1, min: 1, max: players}
components:
  card:
    doc: Six cards.
    list:
      - {suit: red, rank: 1}
      - {suit: red, rank: 2, count: 2}
      - {suit: blue, rank: 3, count: 3}
    in: deck
  token:
    per_player: true
    each: {worth: 1..2}
    in: stash
zones:
  deck: {visibility: nobody, doc: The face-down deck.}
  hand: {per_player: true, visibility: owner, order: set, doc: A player's cards.}
  stash: {per_player: true, visibility: everyone, label: "{player}'s stash"}
  pile: {visibility: top, order: stack}
  scratch: {visibility: nobody, show: false, doc: Working space.}
variables:
  round: {initial: 0, doc: The round being played.}
  best: {per_player: true, type: card}
  tally: {initial: 0, show: false, doc: A running sum.}
actions:
  take:
    doc: Take a card of the deck.
    params: {c: deck}
    do: move c to player.hand
  pass: {}
flow: |
  phase play
  move top(deck) to pile
  move all scratch to pile
  tally += 1
phases:
  play:
    doc: Everyone takes a card or passes.
    do: |
      for p in players { choose p: take | pass }
)";

}  // namespace

TEST_CASE("kata rules prints a game's reference from its doc texts", "[cli]") {
  std::string file = temp("kata-tiny.yaml", reference_game);
  auto r = run_kata("rules " + file);
  CHECK(r.status == 0);
  CHECK(r.out == R"(Tiny: 2 to 3 players

A tiny game to show the reference: each player takes a card and the highest card wins.

Options (kata play FILE -o NAME=VALUE)
  rounds = 2 (1 to 5)
      Rounds to play.
  rule = plain (plain, fancy; any but the default needs 3 players)
      The variant.
  open = false (true, false)
  first = 1 (1 to the number of players)

Components
  card: 6 cards, in deck
      Six cards.
      suit  rank  count
      red   1     1
      red   2     2
      blue  3     3
  token: 2 cards for each player, in its owner's stash
      worth: 1, 2

Zones
  deck: a stack, shared; seen by nobody while face down (a card seen before stays known)
      The face-down deck.
  hand: a set, one for each player; seen by its owner
      A player's cards.
  {player}'s stash (stash): a stack, one for each player; seen by everyone
  pile: a stack, shared; seen by everyone, its top card only

Variables
  round: a number
      The round being played.
  best: a card for each player

Actions
  take c  (c in deck)
      Take a card of the deck.
  pass

Phases, in order
  play
      Everyone takes a card or passes.
)");
  // Bookkeeping (`show: false`) is left out of the text and the Markdown, as screens leave
  // it out; the JSON keeps it, marked.
  auto md = run_kata("rules --markdown " + file);
  CHECK(md.status == 0);
  CHECK(has(md.out,
            "# Tiny\n\n2 to 3 players.\n\nA tiny game to show the reference: each player takes a "
            "card and the highest card wins.\n"));
  CHECK(has(md.out, "| `rule` | plain, fancy | `plain` | 3 | The variant. |\n"));
  CHECK(has(md.out,
            "### card\n\n6 cards, in deck.\n\nSix cards.\n\n| suit | rank | count "
            "|\n|---|---|---|\n| red | 1 | 1 |\n"));
  CHECK(has(md.out, "| `take c` | c in deck | Take a card of the deck. |\n"));
  CHECK(has(md.out, "| `stash` | each player | stack | everyone | Shown as \"{player}'s stash\". |\n"));
  CHECK_FALSE(has(md.out, "scratch"));
  CHECK_FALSE(has(md.out, "tally"));
  auto json = run_kata("rules --json " + file);
  CHECK(json.status == 0);
  CHECK(has(json.out, "\"game\": \"Tiny\""));
  CHECK(has(json.out, "\"label\": \"{player}'s stash\""));
  CHECK(has(json.out, "\"doc\": \"Working space.\",\n      \"each\": \"\""));
  CHECK(has(json.out, "\"bookkeeping\": true"));
  CHECK(has(
      json.out,
      "\"rows\": [\n        [\n          \"red\",\n          \"1\",\n          \"1\"\n        ],"));
  // The seed games: every one has a reference; a board is described, not tabled.
  auto kendo = run_kata("rules rules/kendo.yaml");
  CHECK(kendo.status == 0);
  CHECK(has(kendo.out, "\nBoard\n  55 points in 13 rows of 1 to 6, joined by lines\n"));
  CHECK(has(kendo.out, "(x from -8 to 8, y from -8 to 8)"));
  auto kenjin = run_kata("rules rules/kenjin.yaml --markdown");
  CHECK(has(kenjin.out, "| Peasant | secret | 0 | 4 | Strength 0 (1 on the Rice Field). If you conquer"));
  // Errors: the file's, an unreadable file, two formats.
  std::string bad =
      temp("kata-rules-bad.yaml", "game: Bad\nplayers: 2\nflow: |\n  shuffle nowhere\n");
  auto b = run_kata("rules " + bad);
  CHECK(b.status == 1);
  CHECK(has(b.out, "error: "));
  CHECK(run_kata("rules /no/such/file.yaml").status == 2);
  CHECK(run_kata("rules --markdown --json " + file).status == 2);
  auto help = run_kata("rules --help");
  CHECK(help.status == 0);
  CHECK(has(help.out, "--markdown"));
}

TEST_CASE("undo at the prompt: the game is played again to the human's previous decision - the log forgets it",
          "[cli][prompt]") {
  // P1 plays 1 and 1, takes the second back and plays 2: the log holds P1's 1 then 2 and
  // replays, with no trace of the decision taken back. After the undo the bots draw
  // afresh: taking a decision back must not show what they would answer to it, so the
  // game goes on otherwise than P1 playing 1 then 2 straight. (Kendo hides nothing.)
  std::string ones;
  for (int i = 0; i < 400; ++i) ones += "1\n";
  std::string undone = temp("kata-undo.jsonl"), straight = temp("kata-straight.jsonl");
  std::string play = "play rules/kendo.yaml -p 2 -a human,random --seed 7 --no-clear --log ";
  auto a = run_kata(play + undone, "1\n1\nundo\n2\n" + ones);
  auto b = run_kata(play + straight, "1\n2\n" + ones);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(has(a.out, "P1> Undone: your last decision and what followed it are taken back.\nSince your last turn:\n"));
  auto p1 = [](const std::string& path, size_t n) {
    std::istringstream in(read_text(path));
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line) && out.size() < n;)
      if (has(line, "\"player\":\"P1\"") && has(line, "\"type\":\"decision\"")) out.push_back(line);
    return out;
  };
  CHECK(p1(undone, 2) == p1(straight, 2));
  CHECK(read_text(undone) != read_text(straight));
  auto r = run_kata("replay -q " + undone);
  CHECK(r.status == 0);
  CHECK(has(r.out, "replay verified: "));
  // Two undos in a row go back two decisions.
  auto twice = run_kata(play + undone, "1\n1\n1\nundo\nundo\n2\n" + ones);
  REQUIRE(twice.status == 0);
  CHECK(p1(undone, 2) == p1(straight, 2));
  CHECK(has(run_kata("replay -q " + undone).out, "replay verified: "));
}

TEST_CASE("undo is refused once the person has seen a card they had not seen", "[cli][prompt]") {
  // Drawing shows P1 the deck's top card: taking the draw back would let P1 choose
  // between drawing and flipping knowing it.
  auto draw = run_kata("play rules/kobayakawa.yaml -p 3 -a human,random,random --seed 1271163967 --no-clear", "draw\nundo\nquit\ny\n");
  CHECK(has(draw.out, "P1> Refused: you cannot undo that decision: since you made it you have seen "));
  CHECK_FALSE(has(draw.out, "Undone"));
}

TEST_CASE("undo is refused once the person was told what they could not know at the decision", "[cli][prompt]") {
  // Kobayakawa: the card drawn had been seen in an earlier round, but not on the deck's top.
  auto draw = run_kata("play rules/kobayakawa.yaml -p 3 -a human,random,random -s 5 --no-clear",
                       "draw\ndiscard 9\nfight\nflip\nfight\ndraw\nundo\nquit\ny\n");
  CHECK(has(draw.out, "P1> Refused: you cannot undo that decision: since you made it you were told what you could "
                      "not have known then (\"13 moves from the deck to P1's hand\")"));
  CHECK_FALSE(has(draw.out, "Undone"));
  // Hogen: that another player could answer a call tells of their hidden hand; so does a pass.
  auto call = run_kata("play rules/hogen.yaml -p 3 -a human,random,random -s 7 --no-clear",
                       "rally fujiwara1\n4\ncall taira\nundo\nquit\ny\n");
  CHECK(has(call.out, "P1> Refused: you cannot undo that decision: since you made it you were told what you could "
                      "not have known then (\"P3 answers the call rank 2\")"));
  auto pass = run_kata("play rules/hogen.yaml -p 3 -a human,random,random -s 1 --no-clear", "1\n1\nundo\nquit\ny\n");
  CHECK(has(pass.out, "(\"P2 cannot answer Minamoto and passes\")"));
  // Kenjin: the bots' first deployments tell nothing P1 could not know (their hands are
  // the same units as P1's, and a face-down card is "a card"): undo is allowed.
  auto deploy = run_kata("play rules/kenjin.yaml -p 3 -a human,random,random -s 1 --no-clear", "1\n1\nundo\nquit\ny\n");
  CHECK(has(deploy.out, "P1> Undone: your last decision and what followed it are taken back."));
}

TEST_CASE("undo is refused at the first decision and with several humans at the terminal", "[cli][prompt]") {
  auto first = run_kata("play rules/kobayakawa.yaml -p 3 -a human,random,random --seed 7 --no-clear", "undo\nquit\ny\n");
  CHECK(has(first.out, "P1> Refused: there is nothing to undo: this is your first decision\nP1> "));
  auto two = run_kata("play rules/kobayakawa.yaml -p 3 -a human,human,random --seed 7 --no-clear", "\n1\n\nundo\nquit\ny\n");
  CHECK(has(two.out, "P2> There is no undo with several people at this terminal: it would take back another's turn.\nP2> "));
}

TEST_CASE("rules at the prompt prints what kata rules prints", "[cli][prompt]") {
  auto reference = run_kata("rules rules/kenjin.yaml");
  REQUIRE(reference.status == 0);
  auto p = run_kata("play rules/kenjin.yaml -p 3 --seed 4 --no-clear", "rules\nhelp\nquit\ny\n");
  CHECK(has(p.out, "P1> " + reference.out + "P1> "));
  CHECK(has(p.out, "  rules           what each card, action and option does: the game's reference (what 'kata rules' prints)\n"));
  // What each unit and battlefield does.
  CHECK(has(p.out, "      Archer: At the combat, eliminates the opponent's Samurai"));
  CHECK(has(p.out, "      Village: Army cards with 1 Strength on this battlefield have 2 Strength instead.\n"));
  CHECK(has(p.out, "  undo            take back your last decision and what followed it\n"));
  CHECK(has(p.out, "  rules NAME      only what the card, action or option NAME does (for example: rules deploy)\n"));
}

TEST_CASE("rules NAME at the prompt prints only that card, action or option", "[cli][prompt]") {
  auto p = run_kata("play rules/kenjin.yaml -p 3 --seed 4 --no-clear",
                    "rules shugenja\nrules P1 Lord\nrules deploy\nrules bridge_limit\nrules nobody\nquit\ny\n");
  auto rules_peasant = run_kata("play rules/kenjin.yaml -p 3 --seed 4 --no-clear", "rules peasant\nquit\ny\n");
  // The card, then the action of the same name.
  CHECK(has(p.out, "P1>   Shugenja (army; unit: regular, strength: 1): When deployed, you secretly look at one\n"
                   "      face-down card of another player on any battlefield.\n  shugenja t q v  (t: the battlefield;"));
  // How many of a card there are, when more than one.
  CHECK(has(rules_peasant.out, "P1>   Peasant (army, 4 for each player; unit: secret, strength: 0): Strength 0"));
  // A player's card as the screens name it, with its seat.
  CHECK(has(p.out, "P1>   Lord (army; unit: secret, strength: 2): Strength 2 (option lord_base)"));
  CHECK(has(p.out, "P1>   deploy c t  (c: the card from your hand"));
  CHECK(has(p.out, "P1>   bridge_limit = 3 (1 to 13)\n      The most cards a player may have on their side of the Bridge.\nP1> "));
  CHECK(has(p.out, "P1> Nothing in the game's reference is called 'nobody'; 'rules' alone prints all of it.\n"));
  // Only the entry: not the whole reference.
  CHECK_FALSE(has(p.out, "Components"));
}

TEST_CASE("kata play without --agents seats a person against ismcts:200 bots", "[cli][agents]") {
  auto log = temp("kata-default-opponent.jsonl");
  auto p = run_kata("play rules/kendo.yaml -p 2 --seed 4 --no-clear --log " + log, "quit\ny\n");
  CHECK(p.status == 1);
  std::ifstream in(log);
  std::string header;
  std::getline(in, header);
  CHECK(has(header, "\"agents\":[\"human\",\"ismcts:200\"]"));
  auto help = run_kata("play --help");
  CHECK(has(help.out, "Default: human for P1, ismcts:200 for the others"));
}

TEST_CASE("a script may type decisions in short", "[cli][notation]") {
  auto s = temp("kata-short.txt", "deploy lord rice field\ndeploy peasant palace\n");
  auto r = run_kata("play rules/kenjin.yaml -p 3 -a script:" + s + ",random,random --seed 4 -q --log " + temp("kata-short.jsonl"));
  CHECK(has(r.out, "kata: P1 (script:" + s + ") stopped before the end"));
  std::ifstream in(temp("kata-short.jsonl"));
  std::string log(std::istreambuf_iterator<char>(in), {});
  CHECK(has(log, R"({"action":"deploy P1 Lord RiceField","n":1,"player":"P1","type":"decision"})"));
  CHECK(has(log, R"("action":"deploy P1 Peasant1 Palace")"));
}

namespace {

// The log's lines but its header and `resume` lines: what a game played in one go and the
// same game stopped and resumed have in common.
std::string game_lines(const std::string& path) {
  std::istringstream in(read_text(path));
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (!has(line, "\"type\":\"header\"") && !has(line, "\"type\":\"resume\"")) out += line + '\n';
  return out;
}

// P1's decisions in a log, one a line: a script that plays them again.
std::vector<std::string> decisions_of_p1(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (has(line, "\"player\":\"P1\"") && has(line, "\"type\":\"decision\"")) {
      auto at = line.find("\"action\":\"") + 10;
      out.push_back(line.substr(at, line.find('"', at) - at));
    }
  return out;
}

std::string script(const std::vector<std::string>& lines, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < lines.size(); ++i) out += lines[i] + '\n';
  return out;
}

}  // namespace

TEST_CASE("a stopped game resumed plays on as the game played in one go", "[cli][resume]") {
  std::string bots = temp("kata-resume-bots.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml -p 3 -a random -s 21 -q -l " + bots).status == 0);
  auto p1 = decisions_of_p1(bots);
  REQUIRE(p1.size() > 10);
  std::string whole = temp("kata-resume-whole.txt", script(p1, 0, p1.size()));
  std::string first = temp("kata-resume-first.txt", script(p1, 0, 6));
  std::string rest = temp("kata-resume-rest.txt", script(p1, 6, p1.size()));

  std::string one = temp("kata-resume-one.jsonl");
  auto go = run_kata("play rules/kobayakawa.yaml -p 3 -s 21 -q -a script:" + whole +
                     ",random,random -l " + one);
  REQUIRE(go.status == 0);
  int go_decisions = std::stoi(go.out.substr(go.out.find("Result after ") + 13));
  std::string two = temp("kata-resume-two.jsonl");
  auto stop = run_kata("play rules/kobayakawa.yaml -p 3 -s 21 -q -a script:" + first +
                       ",random,random -l " + two);
  CHECK(stop.status == 1);
  // It says how to go on: the command that resumes it from its log.
  CHECK(stop.out == "kata: P1 (script:" + first +
                        ") stopped before the end\n"
                        "kata: to go on with this game: kata play --resume " +
                        two + "\n");

  // The stopped log is valid up to the stop; a seat is told the reason when it is this plain.
  auto replay = run_kata("replay -q " + two);
  CHECK(replay.status == 0);
  CHECK(has(replay.out,
            ", where the game was stopped: P1 (script:" + first + ") stopped before the end\n"));
  CHECK(run_kata("replay -q --as P2 " + two).out == replay.out);

  // The log names the agents played on with, where they began.
  std::string stopped_text = read_text(two);
  auto resumed = run_kata("play --resume " + two + " -q -a script:" + rest + ",random,random");
  CHECK(resumed.status == 0);
  CHECK(has(resumed.out, "resuming Kobayakawa after "));
  CHECK(resumed.out.substr(resumed.out.find("Result after")) == go.out);
  CHECK(game_lines(two) == game_lines(one));
  std::string text = read_text(two);
  CHECK_FALSE(has(text, "\"type\":\"error\""));
  CHECK(has(text, "{\"agents\":[\"script:" + rest + "\",\"random\",\"random\"],\"decisions\":"));
  CHECK(has(text, ",\"stopped\":\"P1 (script:" + first +
                      ") stopped before the end\",\"type\":\"resume\"}\n"));
  CHECK(has(run_kata("replay -q " + two).out, "replay verified: "));

  // A finished game is refused.
  auto over = run_kata("play --resume " + two);
  CHECK(over.status == 2);
  CHECK(over.out == "kata: error: '" + two + "' is the log of a finished game (" +
                        std::to_string(go_decisions) +
                        " decisions and its result): there is nothing to resume\n");
  CHECK(read_text(two) == text);

  // Without --agents, the log's agents play on, a script after the lines it played: this
  // one has none left, and stops again at once; given more lines, it ends the game.
  std::string three = temp("kata-resume-three.jsonl", stopped_text);
  auto again = run_kata("play --resume " + three + " -q");
  CHECK(again.status == 1);
  CHECK(has(again.out, "kata: P1 (script:" + first + ") stopped before the end\n"));
  CHECK(has(run_kata("replay -q " + three).out,
            ", where the game was stopped: P1 (script:" + first + ")"));
  std::ofstream(first, std::ios::app) << script(p1, 6, p1.size());
  auto on = run_kata("play --resume " + three + " -q --log " + temp("kata-resume-four.jsonl"));
  CHECK(on.status == 0);
  CHECK(on.out.substr(on.out.find("Result after")) == go.out);
  CHECK(game_lines(temp("kata-resume-four.jsonl")) == game_lines(one));
  CHECK(read_text(three).size() <
        read_text(temp("kata-resume-four.jsonl")).size());  // --log leaves it
}

TEST_CASE("a game resumed with a person at the terminal is written back whole", "[cli][resume]") {
  // The log is held while a person plays (undo rewrites it); it must reach the file.
  std::string stopped = temp("kata-resume-person.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml -p 3 -s 5 -q -a script:" + temp("kata-resume-person.txt", "flip\n") +
                   ",random,random -l " + stopped).status == 1);
  std::string ones;
  for (int i = 0; i < 200; ++i) ones += "1\n";
  auto on = run_kata("play --resume " + stopped + " --no-clear -a human,random,random", ones);
  REQUIRE(on.status == 0);
  std::string text = read_text(stopped);
  CHECK(has(text, "\"type\":\"resume\""));
  CHECK(has(text, "\"type\":\"result\""));
  CHECK(has(run_kata("replay -q " + stopped).out, "replay verified: "));
}

TEST_CASE("resume refuses what it cannot go on from", "[cli][resume]") {
  std::string stopped = temp("kata-resume-stopped.jsonl");
  REQUIRE(run_kata("play rules/kobayakawa.yaml -p 3 -s 5 -q -a script:" +
                   temp("kata-resume-two.txt", "flip\n") + ",random,random -l " + stopped)
              .status == 1);
  std::string text = read_text(stopped);
  auto error = text.rfind("{\"message\"");
  REQUIRE(error != std::string::npos);

  auto agents = run_kata("play --resume " + stopped + " -a random,random");
  CHECK(agents.status == 2);
  CHECK(agents.out == "kata: error: 2 agents for 3 players\n");
  auto file = run_kata("play rules/kobayakawa.yaml --resume " + stopped);
  CHECK(file.status == 2);
  CHECK(file.out ==
        "kata: error: FILE and --resume cannot be used together (see kata play --help)\n");
  auto seed = run_kata("play --resume " + stopped + " -s 4");
  CHECK(seed.status == 2);
  CHECK(seed.out ==
        "kata: error: --seed and --resume cannot be used together (see kata play --help)\n");
  CHECK(run_kata("play --resume " + stopped + " -p 4").status == 2);
  CHECK(run_kata("play --resume " + stopped + " -o final_stake=3").status == 2);
  CHECK(run_kata("play").out == "kata: error: no rule file given (see kata play --help)\n");
  CHECK(run_kata("play --resume /no/such.jsonl").status == 2);

  // Cut off without its error line (a killed process): it does not replay, so it is refused.
  std::string cut = temp("kata-resume-cut.jsonl", text.substr(0, text.rfind('\n', error - 2) + 1));
  auto r = run_kata("replay -q " + cut);
  CHECK(r.status == 1);
  CHECK(has(r.out, ": the log ends before the game does\n"));
  auto c = run_kata("play --resume " + cut);
  CHECK(c.status == 1);
  CHECK(has(c.out, "kata: cannot resume: replay failed: " + cut + ":"));
  CHECK(has(c.out, ": the log ends before the game does\n"));
  CHECK(read_text(cut) == text.substr(0, text.rfind('\n', error - 2) + 1));

  // The last line is garbage.
  std::string junk =
      temp("kata-resume-junk.jsonl", text.substr(0, error) + "{\"message\":\"P1 (scr\n");
  auto j = run_kata("play --resume " + junk);
  CHECK(j.status == 1);
  CHECK(has(j.out, "not a log line (expected a JSON object with a \"type\")\n"));

  // A refused script line may name a card by its place: a seat other than P1 is not told it.
  std::string refused =
      temp("kata-resume-refused.jsonl",
           text.substr(0, error) +
               "{\"message\":\"s.txt:2: P1's 'flip' is refused\",\"type\":\"error\"}\n");
  CHECK(has(run_kata("replay -q --as P2 " + refused).out,
            ", where the game was stopped: P1 stopped before the end (replay without --as for the "
            "reason)\n"));
  CHECK(has(run_kata("replay -q --as P1 " + refused).out,
            ", where the game was stopped: s.txt:2: P1's 'flip' is refused\n"));
}

TEST_CASE("a person resuming sees their view and what their seat was told since their last turn",
          "[cli][resume]") {
  std::string stopped = temp("kata-resume-human.jsonl");
  REQUIRE(
      run_kata("play rules/kobayakawa.yaml -p 3 -s 5 --no-clear -l " + stopped, "flip\nquit\ny\n")
          .status == 1);
  auto r = run_kata("play --resume " + stopped + " --no-clear", "quit\ny\n");
  CHECK(r.status == 1);
  CHECK(has(r.out, "resuming Kobayakawa after "));
  CHECK(has(r.out, "Since your last turn:\n"));
  CHECK(has(r.out, "as P1 sees it"));
  CHECK(has(r.out, "P2's hand:      1 hidden card"));
  CHECK(has(r.out, "kata: P1 (human) stopped before the end\n"));
  // Quit again, it names the log it was written back to.
  CHECK(has(r.out, "kata: to go on with this game: kata play --resume " + stopped + "\n"));
  // Only after P1's own decision: the deal before it was told then.
  CHECK_FALSE(has(r.out.substr(r.out.find("Since your last turn:")), "— deal —"));
}
