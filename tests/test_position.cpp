// Scenarios that start from a position (docs/scenarios.md, "Starting from a position"):
// what is placed and set, where the flow resumes, and an error at its place for every
// mistake in a position.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "scenario/scenario.hpp"
#include "support.hpp"

using namespace kata;
using namespace kata::test;

namespace {

// A small game with a stack, hands, a row, a component zone per seat and variables of
// every type; its flow runs `deal` and `swap` once, `again` in a loop.
const char* rules_text = R"(game: Pile Test
players: 2..3
components:
  card:
    each: {suit: [Sun, Moon], rank: 1..3}
    name: "{suit}{rank}"
    in: deck
  guard:
    per_player: true
    list:
      - {name: Guard, count: 2}
    name: "{owner} {name}{copy}"
    in: hand
  post:
    list:
      - {name: North}
      - {name: South}
zones:
  deck: {order: stack, visibility: nobody}
  hand: {per_player: true, order: set, visibility: owner}
  pile: {order: row, visibility: everyone}
  box: {order: set, visibility: nobody}
  side: {per: post, per_player: true, visibility: nobody}
variables:
  round: 0
  flag: {type: bool, initial: false}
  leader: {type: player}
  best: {type: card}
  points: {per_player: true, initial: 0}
  held: {per: post, type: player}
  bonus: {per: post, per_player: true}
flow: |
  phase deal
  phase swap
  repeat 2 times { phase again }
phases:
  deal: |
    shuffle deck
    round = 1
    for p in players { move top(deck) to p.hand }
  swap: |
    round += 1
    for p in players { choose p: keep }
  again: |
    for p in players { choose p: keep }
actions:
  keep:
    do: player.points += 1
invariants:
  few_on_pile: size(pile) <= 4
scoring:
  score: p.points
)";

std::string rules_path() {
  static std::string path = temp("position-rules.yaml", rules_text);
  return path;
}

ScenarioResult scenario(const std::string& name, const std::string& body, const ScenarioOptions& options = {}) {
  return run_scenario(temp(name, "rules: " + rules_path() + "\nplayers: 2\n" + body), options);
}

// "line:col: message" for each error, in order.
std::vector<std::string> errors(const ScenarioResult& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diags.items())
    out.push_back(fmt::format("{}:{}: {}", d.pos.line, d.pos.col, d.message));
  return out;
}

std::string first_error(const ScenarioResult& r) {
  auto e = errors(r);
  return e.empty() ? "" : e[0];
}

}  // namespace

TEST_CASE("a position places cards bottom first, with their faces and who knows them",
          "[position]") {
  auto r = scenario("position-place.yaml", R"(position:
  at: swap
  zones:
    pile: [Sun1, {card: Moon2, face: down}, Sun3]
    P1.hand: [Moon3, Sun2]
    North.side(P2): [P2 Guard1, {card: Moon1, known: [P1]}, {card: P1 Guard2, face: up}]
steps:
  - expect: size(pile) == 3 and bottom(pile) == card(Sun, 1) and top(pile) == card(Sun, 3)
  - expect: face_up(card(Sun, 1)) and not face_up(card(Moon, 2))
  - expect: not sees(P1, card(Moon, 2)) and not sees(P2, card(Moon, 2))
  - expect: size(P1.hand) == 2 and contains(P1.hand, card(Moon, 3))
  - expect: sees(P1, card(Moon, 3)) and not sees(P2, card(Moon, 3))
  # A seat's own card is known to it; others only to the seats of `known:`.
  - expect: size(post(North).side(P2)) == 3 and bottom(post(North).side(P2)).owner == P2
  - expect: sees(P2, bottom(post(North).side(P2))) and not sees(P1, bottom(post(North).side(P2)))
  - expect: sees(P1, card(Moon, 1)) and not sees(P2, card(Moon, 1))
  - expect: face_up(top(post(North).side(P2))) and sees(P2, top(post(North).side(P2)))
  # Cards not placed stay where they start: the deck, each seat's guards in its hand.
  - expect: size(deck) == 0 and size(P2.hand) == 1 and top(P2.hand).owner == P2
  - expect: size(post(South).side(P1)) == 0
)");
  INFO(fmt::format("{}", fmt::join(errors(r), "\n")));
  CHECK(r.passed);
}

TEST_CASE("a position's zone holds only what it lists, a set in its own order", "[position]") {
  auto r = scenario("position-set.yaml", R"(position:
  at: swap
  zones:
    deck: [Sun1]
    box: [Sun3, Moon1, Sun2]
steps:
  - expect: size(deck) == 1
  # The other cards that started in the deck are out of play.
  - expect: size(pile) + size(P1.hand) + size(P2.hand) == 4
  - expect: bottom(box) == card(Sun, 2) and top(box) == card(Moon, 1)
)");
  INFO(fmt::format("{}", fmt::join(errors(r), "\n")));
  CHECK(r.passed);
}

TEST_CASE("a position sets variables of every kind and resumes at the start of its phase",
          "[position]") {
  auto r = scenario("position-vars.yaml", R"(position:
  at: swap
  variables:
    round: 5
    flag: true
    leader: P2
    best: Moon3
    P2.points: -4
    North.held: P1
    South.bonus(P2): 7
  # The position's expectations look at it as it is set.
  expect:
    - round == 5 and flag and leader == P2 and best == card(Moon, 3)
    - P2.points == -4 and P1.points == 0
    - post(North).held == P1 and post(South).held == none
    - post(South).bonus(P2) == 7 and post(South).bonus(P1) == 0
steps:
  # Then the phase ran from its start: `round += 1`, then P1's decision.
  - refuse: P2 keep
    because: "it is P1's decision"
  - expect: round == 6
  - play: P1 keep
  - play: P2 keep
  - expect: P2.points == -3
  - play: P1 keep
  - play: P2 keep
  - play: P1 keep
  - play: P2 keep
  - over: true
)");
  INFO(fmt::format("{}", fmt::join(errors(r), "\n")));
  CHECK(r.passed);
}

TEST_CASE("a position's numbers are 32-bit: the edges are taken, one beyond refused",
          "[position]") {
  auto r = scenario("position-edges.yaml", R"(position:
  at: swap
  variables: {round: -2147483648, P1.points: 2147483647}
  expect: [round < -2147483647 and P1.points > 2147483646]
steps: []
)");
  INFO(fmt::format("{}", fmt::join(errors(r), "\n")));
  CHECK(r.passed);
  auto beyond =
      scenario("position-beyond.yaml", "position:\n  variables: {round: -2147483649}\nsteps: []\n");
  CHECK(first_error(beyond) ==
        "4:22: 'round' is a number from -2147483648 to 2147483647, not '-2147483649'");
}

TEST_CASE("a position without at: runs the whole flow from its start", "[position]") {
  auto r = scenario("position-start.yaml", R"(seed: 3
shuffles:
  - [Sun3, Sun2]
position:
  variables: {P1.points: 10}
  # Before the flow runs: the state before set-up, with the position set on it.
  expect: [round == 0 and P1.points == 10 and size(deck) == 6]
steps:
  - expect: round == 2 and P1.points == 10
  - play: P1 keep
  - expect: round == 2 and P1.points == 11
  - expect: contains(P1.hand, card(Sun, 3)) and contains(P2.hand, card(Sun, 2))
)");
  INFO(fmt::format("{}", fmt::join(errors(r), "\n")));
  CHECK(r.passed);
}

TEST_CASE("a position's mistakes are errors where they are written", "[position]") {
  auto one = [](const std::string& position) {
    return first_error(scenario("position-error.yaml", "position:\n" + position + "steps: []\n"));
  };
  CHECK(one("  at: swp\n") == "4:7: Pile Test has no phase 'swp'; did you mean 'swap'?");
  CHECK(one("  at: fight\n") ==
        "4:7: Pile Test has no phase 'fight'; its phases are deal, swap, again");
  CHECK(one("  at: again\n") ==
        "4:7: the flow runs phase 'again' in a loop; a position resumes only at a phase the flow "
        "runs once");
  CHECK(one("  zone: {}\n") == "4:3: unknown key 'zone' in a position; did you mean 'zones'?");
  CHECK(one("  zones: {pil: [Sun1]}\n") == "4:11: no zone is named 'pil'; did you mean 'pile'?");
  CHECK(one("  zones: {P3.hand: [Sun1]}\n") == "4:11: 'P3.hand' is not in a 2-player game");
  CHECK(one("  zones: {pile: [Sun9]}\n") == "4:18: no card is named 'Sun9'; did you mean 'Sun1'?");
  CHECK(one("  zones: {pile: [P3 Guard1]}\n") == "4:18: 'P3 Guard1' is not in a 2-player game");
  CHECK(one("  zones: {pile: [Sun1, Sun2], deck: [Sun1]}\n") == "4:38: 'Sun1' is placed twice");
  CHECK(one("  zones: {pile: [Sun1], pile: [Sun2]}\n") == "4:25: zone 'pile' is listed twice");
  CHECK(one("  zones: {pile: Sun1}\n") ==
        "4:17: the cards of 'pile' are a list, bottom first, like [A, B]");
  CHECK(one("  zones: {pile: [{card: Sun1, face: sideways}]}\n") ==
        "4:37: 'face:' is up or down, not 'sideways'");
  CHECK(one("  zones: {pile: [{card: Sun1, known: [P7]}]}\n") ==
        "4:39: there is no P7 in a 2-player game; the seats are P1 to P2");
  CHECK(one("  zones: {pile: [{card: Sun1, seen: [P1]}]}\n") ==
        "4:31: unknown key 'seen' in a card of a position");
  CHECK(one("  zones: {pile: [{face: up}]}\n") ==
        "4:18: a card in a position needs 'card:', its name");
  CHECK(one("  variables: {rond: 1}\n") ==
        "4:15: no global variable is named 'rond'; did you mean 'round'?");
  CHECK(
      one("  variables: {points: 1}\n") ==
      "4:15: no global variable is named 'points'; 'points' is a player variable: write P1.points");
  CHECK(one("  variables: {P1.point: 1}\n") ==
        "4:15: no player variable is named 'point'; did you mean 'P1.points'?");
  CHECK(one("  variables: {P4.points: 1}\n") ==
        "4:15: there is no P4 in a 2-player game; the seats are P1 to P2");
  CHECK(one("  variables: {North.hold: P1}\n") ==
        "4:15: North has no variable 'hold'; did you mean 'North.held'?");
  CHECK(one("  variables: {North.bonus: 1}\n") ==
        "4:15: 'bonus' is per player: write North.bonus(P1)");
  CHECK(one("  variables: {North.held(P1): P1}\n") ==
        "4:15: 'held' is not per player: write North.held");
  CHECK(one("  variables: {round: many}\n") ==
        "4:22: 'round' is a number from -2147483648 to 2147483647, not 'many'");
  CHECK(one("  variables: {round: 2147483648}\n") ==
        "4:22: 'round' is a number from -2147483648 to 2147483647, not '2147483648'");
  CHECK(one("  variables: {flag: 1}\n") == "4:21: 'flag' is true or false, not '1'");
  CHECK(one("  variables: {leader: Sun1}\n") ==
        "4:23: 'leader' is a player, P1 to P2 or none, not 'Sun1'");
  CHECK(one("  variables: {leader: P3}\n") ==
        "4:23: there is no P3 in a 2-player game; the seats are P1 to P2");
  CHECK(one("  variables: {best: P1}\n") == "4:21: no card is named 'P1'");
  CHECK(one("  variables: {round: 1, round: 2}\n") == "4:25: 'round' is set twice");
  CHECK(one("  variables: {round: [1]}\n") ==
        "4:22: a variable's value is a number, true or false, a seat, a card's name or none");
  CHECK(one("  - at\n") == "4:3: 'position:' is a mapping: at:, zones:, variables:, expect:");
  CHECK(
      one("  expect: round == 1\n") ==
      "4:11: a position's 'expect:' is a list of conditions, checked on the position as it is set");
}

TEST_CASE("a position's expectation that fails is reported where it is written", "[position]") {
  auto r = scenario("position-expect.yaml", R"(position:
  at: swap
  variables: {round: 4}
  expect: [round == 4, round == 5]
steps: []
)");
  CHECK_FALSE(r.passed);
  CHECK(first_error(r) == "6:24: expected round == 5");
}

TEST_CASE("a position that breaks the rule file's invariants fails where it is written",
          "[position]") {
  auto r = scenario("position-invariant.yaml", R"(position:
  at: swap
  zones: {pile: [Sun1, Sun2, Sun3, Moon1, Moon2]}
steps: []
)");
  CHECK_FALSE(r.passed);
  CHECK(first_error(r) ==
        "4:3: the rule file's invariant 'few_on_pile' does not hold in the position");
}

TEST_CASE("a position's game is the same every time: the same state after the same steps",
          "[position]") {
  const std::string body = R"(position:
  at: swap
  zones: {pile: [Moon1]}
  variables: {round: 2}
steps:
  - play: P1 keep
  - expect: round == 3 and P1.points == 1 and top(pile) == card(Moon, 1)
)";
  auto a = scenario("position-same-a.yaml", body);
  auto b = scenario("position-same-b.yaml", body);
  CHECK(a.passed);
  CHECK(b.passed);
  CHECK(a.steps == b.steps);
}

TEST_CASE("docs/scenarios.md's position example passes, and its table's messages are kata's",
          "[position][docs]") {
  std::ifstream in(KATA_SOURCE_DIR "/docs/scenarios.md");
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  size_t section = doc.find("### Starting from a position");
  REQUIRE(section != std::string::npos);
  // The example, with its rule file found from here.
  size_t start = doc.find("```yaml\n", section) + 8;
  std::string example = doc.substr(start, doc.find("```", start) - start);
  const std::string rules_line = "rules: ../../kenjin.yaml";
  REQUIRE(example.find(rules_line) != std::string::npos);
  example.replace(example.find(rules_line), rules_line.size(),
                  "rules: " KATA_SOURCE_DIR "/rules/kenjin.yaml");
  auto r = run_kata("test " + temp("doc-position.yaml", example));
  INFO(r.out);
  CHECK(r.status == 0);
  // Each mistake of the table, in the game the table names: every message it shows (those
  // without a placeholder 'X') is one kata gives.
  auto mistakes = [&](const std::string& name, const std::string& position) {
    return run_kata("test " + temp(name, "scenario: mistakes\nrules: " KATA_SOURCE_DIR
                                         "/rules/kenjin.yaml\nplayers: 2\nposition:\n" +
                                             position + "steps: []\n"))
        .out;
  };
  std::string out =
      mistakes("doc-mistakes-1.yaml",
               "  at: combt\n"
               "  zones:\n"
               "    field: [Torii, GoldenTemple]\n"
               "    field: [RiceField]\n"
               "    Torii.sides(P1): [P1 Brute]\n"
               "    P3.hand: [P1 Samurai9]\n"
               "    Torii.side(P1): [P1 Brute, P1 Archer, P1 Brute]\n"
               "  variables:\n"
               "    rond: 1\n"
               "    P1.pts: 1\n"
               "    Torii.seat: P1\n"
               "    Port.port_bonus: 1\n"
               "    first: P3\n"
               "    scored: 1\n"
               "    round: 1\n"
               "    round: 2\n") +
      mistakes("doc-mistakes-2.yaml",
               "  zones:\n"
               "    Torii.side(P1): [{card: P1 Brute, face: sideways}, {card: P1 Archer, seen: "
               "[P1]}]\n") +
      mistakes("doc-mistakes-3.yaml",
               "  variables:\n"
               "    round: many\n"
               "    first: Torii\n");
  INFO(out);
  size_t table = doc.find("| mistake | message |", section);
  REQUIRE(table != std::string::npos);
  std::string rows = doc.substr(table, doc.find("\n\n", table) - table);
  int shown = 0;
  for (size_t at = rows.find("| `"); at != std::string::npos; at = rows.find("| `", at + 1))
    for (size_t tick = rows.find('`', at); tick < rows.find('\n', at);
         tick = rows.find('`', rows.find('`', tick + 1) + 1)) {
      std::string message = rows.substr(tick + 1, rows.find('`', tick + 1) - tick - 1);
      if (message.find("'X'") != std::string::npos) continue;
      INFO(message);
      CHECK(has(out, "error: " + message + "\n"));
      ++shown;
    }
  CHECK(shown == 17);
}

TEST_CASE("a perft: step counts the decision sequences from where the scenario stands", "[position][perft]") {
  // Each seat keeps once in `swap`, then twice in `again`: one decision at a time, six in
  // all, and none after the end.
  CHECK(scenario("perft-ok.yaml", "steps:\n  - perft: [1, 1, 1, 1, 1, 1, 0]\n").passed);
  CHECK(scenario("perft-turns.yaml", "steps:\n  - play: P1 keep\n  - perft: [1, 1, 1, 1, 1, 0]\n    turns: true\n").passed);
  auto wrong = scenario("perft-wrong.yaml", "steps:\n  - play: P1 keep\n  - perft: [1, 2]\n");
  CHECK_FALSE(wrong.passed);
  CHECK(first_error(wrong) == "5:12: perft at depth 2 is 1, not 2");
  REQUIRE(wrong.diags.items().size() == 1);
  REQUIRE(wrong.diags.items()[0].notes.size() == 1);
  CHECK(wrong.diags.items()[0].notes[0].message == "actual: 1, 1");
  // A count over the number written stops the search at once, at that depth.
  auto over = scenario("perft-over.yaml", "steps:\n  - perft: [1, 1, 0, 5]\n");
  CHECK(first_error(over) == "4:12: perft at depth 3 is more than 0");
  auto over_turns = scenario("perft-over-turns.yaml", "steps:\n  - play: P1 keep\n  - perft: [0, 5]\n    turns: true\n");
  CHECK(first_error(over_turns) == "5:12: perft by turns at depth 1 is more than 0");
  // Whatever the numbers, a step applies at most the options' number of decisions: the
  // six-deep count applies six (one at each depth above the last).
  ScenarioOptions five{5}, six{6};
  CHECK(scenario("perft-six.yaml", "steps:\n  - perft: [1, 1, 1, 1, 1, 1, 0]\n", six).passed);
  CHECK(first_error(scenario("perft-five.yaml", "steps:\n  - perft: [1, 1, 1, 1, 1, 1, 0]\n", five)) ==
        "4:12: perft stopped after visiting 5 positions, the most a scenario's perft: step may visit "
        "(`kata perft` counts further)");
  CHECK(first_error(scenario("perft-empty.yaml", "steps:\n  - perft: []\n")) ==
        "4:12: 'perft:' is a list of 1 to 12 counts, of the decision sequences 1, 2, ... deep from here");
  CHECK(first_error(scenario("perft-word.yaml", "steps:\n  - perft: [1, many]\n")) ==
        "4:16: 'a perft count' must be a whole number from 0 to 18446744073709551615");
  CHECK(first_error(scenario("perft-turns-word.yaml", "steps:\n  - perft: [1]\n    turns: maybe\n")) ==
        "5:12: 'turns:' is true or false");
  CHECK(first_error(scenario("perft-turns-alone.yaml", "steps:\n  - play: P1 keep\n    turns: true\n")) ==
        "5:5: 'turns:' goes with a perft: step");
}
