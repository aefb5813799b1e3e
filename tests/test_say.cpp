// Messages (`say`): their syntax and its errors, the checker's errors inside the quotes at
// the right column, what each seat is told (a card by name only to a seat that sees it),
// that a message changes nothing in the game, and the log's `say` lines, which a replay
// checks and filters for a seat.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agents/runner.hpp"
#include "log/log.hpp"
#include "runtime/game.hpp"
#include "runtime/wrap.hpp"
#include "support.hpp"
#include "syntax/parse.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

std::string parse_block(const std::string& text) {
  Diagnostics d;
  Block b;
  if (!parse_program(text, Locator::plain(), d, b))
    return "error " + std::to_string(d.items().at(0).pos.col) + ": " + d.items().at(0).message;
  return std::to_string(b.size()) + " statements";
}

// No shuffle: the deck holds c1 (bottom) to c4 (top). P1 gets c4, P2 c3; c2 is left on top.
const std::string game = R"(game: Say
players: 2
components:
  card: {each: {rank: 1..4}, name: "c{rank}", in: deck}
zones:
  deck: {order: stack, visibility: nobody}
  hand: {per_player: true, order: set, visibility: owner}
variables:
  n: 2
flow: |
  move top(deck) to P1.hand
  move top(deck) to P2.hand
  say "{P1} holds {top(P1.hand)}; the deck's top is {top(deck)} in {zone_of(top(deck))}; {n} * 3 = {n * 3}, {n > 1}"
  say to P2 "you hold {top(P2.hand)}"
  say "{10 / (n - 2)} {{braces}}"
  say to none "nobody hears this"
  choose P1: go
actions:
  go: ""
)";

std::vector<Event> said(const Game& g) {
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  new_game(g, 2, 1, default_options(g), &hooks);
  std::vector<Event> out;
  for (Event& e : events)
    if (e.kind == Event::say) out.push_back(std::move(e));
  return out;
}

std::string temp_dir() {
  return kata::test::scratch_dir("say");
}

}  // namespace

TEST_CASE("messages parse, with their errors at the right column", "[say]") {
  CHECK(parse_block("say \"{p} wins {n + 1} {{x}}\"") == "1 statements");
  CHECK(parse_block("say to p \"hello\" say \"\"") == "2 statements");
  // `say` is a word only before a message or `to`: it stays free as a name.
  CHECK(parse_block("say = 3\nsay += 1") == "2 statements");
  CHECK(parse_block("say \"a {x wins\"") == "error 8: '{' at line 1, column 8 is never closed (write '{{' for a brace in a message)");
  CHECK(parse_block("say \"a } b\"") == "error 8: '}' closes nothing in the message (write '}}' for a brace)");
  CHECK(parse_block("say \"open\nx = 1") == "error 5: '\"' at line 1, column 5 is never closed (a message is one line)");
  CHECK(parse_block("say \"{}\"") == "error 7: expected an expression after '{' in the message (write '{{' for a brace)");
  CHECK(parse_block("say \"{x)}\"") == "error 8: expected '}' to close the value in the message");
  CHECK(parse_block("say \"{x # y}\"") == "error 9: '#' cannot stand in a value of a message");
  CHECK(parse_block("say to \"hi\"") == "error 8: expected a player after 'say to'");
  CHECK(parse_block("say to p hi") == "error 10: expected a message in double quotes after 'say'");
  // A message is bounded: 16 values, 400 characters.
  std::string many = "say \"";
  for (int i = 0; i < 17; ++i) many += "{x}";
  CHECK(parse_block(many + "\"") == "error 54: a message holds at most 16 values");
  CHECK(parse_block("say \"" + std::string(401, 'a') + "\"") == "error 6: a message is at most 400 characters long");
  // A '#' in a message is text, not a comment; brackets in one are not paired with others.
  CHECK(parse_block("say \"#1 ( {x}\"\nx = 1") == "2 statements");
}

TEST_CASE("names inside a message are checked where they stand", "[say]") {
  auto with = [](const std::string& line) {
    std::string s = game;
    s.replace(s.find("  choose P1: go"), 0, "  " + line + "\n");
    return load_text(s).messages();
  };
  CHECK(with("say \"{P1} has {q.n}\"") == std::vector<std::string>{"17:18: error: unknown name 'q'; did you mean 'n'?"});
  CHECK(with("say \"all: {players}\"") == std::vector<std::string>{"17:14: error: a message says one value, not a list of players"});
  CHECK(with("say to n \"hi\"") == std::vector<std::string>{"17:10: error: whom 'say to' tells must be a player, but this is a number"});
  CHECK(with("say \"{top(deck).rnak}\"") ==
        std::vector<std::string>{"17:19: error: unknown card property 'rnak'; did you mean 'rank'?"});
}

TEST_CASE("each seat is told a message as it may know it", "[say]") {
  auto l = load_text(game);
  INFO(l.messages().size());
  REQUIRE(l.game);
  const Game& g = *l.game;
  auto events = said(g);
  // `say to none` tells nobody: it is not recorded.
  REQUIRE(events.size() == 3);
  const Event& first = events[0];
  // The record names every card; a seat is told the name of a card it sees, and of
  // another card only where it lies: in a set, which set; in a stack, its place.
  CHECK(describe_event(g, first, -1) == "P1 holds c4; the deck's top is c2 in deck; 2 * 3 = 6, true");
  CHECK(describe_event(g, first, 0) == "P1 holds c4; the deck's top is deck#2 in deck; 2 * 3 = 6, true");
  CHECK(describe_event(g, first, 1) == "P1 holds a card from P1.hand; the deck's top is deck#2 in deck; 2 * 3 = 6, true");
  // A message to one seat is told to that seat only.
  CHECK(describe_event(g, events[1], 1) == "you hold c3");
  CHECK(describe_event(g, events[1], 0) == "");
  CHECK(describe_event(g, events[1], -1) == "to P2: you hold c3");
  // A value that stops with an error is said as '?'; the game goes on.
  CHECK(describe_event(g, events[2], 0) == "? {braces}");
  CHECK(event_json(g, first).dump() ==
        R"({"text":"P1 holds c4; the deck's top is c2 in deck; 2 * 3 = 6, true","type":"say"})");
  CHECK(event_json(g, events[1]).dump() == R"({"text":"you hold c3","to":"P2","type":"say"})");
}

TEST_CASE("a message changes nothing in the game, listened to or not", "[say]") {
  auto l = load_text(game);
  REQUIRE(l.game);
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State heard = new_game(*l.game, 2, 1, default_options(*l.game), &hooks);
  State unheard = new_game(*l.game, 2, 1, default_options(*l.game));
  CHECK(heard == unheard);
  CHECK(heard.status() == Status::waiting);
}

TEST_CASE("the log records messages, a replay checks them and shows a seat its own", "[say]") {
  std::string dir = temp_dir();
  std::string rules = dir + "/say.yaml", log_path = dir + "/say.jsonl";
  std::ofstream(rules) << game;
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  auto g = load_game(rules, sources, diags);
  REQUIRE(g);
  {
    std::ofstream out(log_path);
    LogWriter log(out);
    std::vector<std::unique_ptr<Agent>> agents;
    agents.push_back(std::make_unique<RandomAgent>(1));
    agents.push_back(std::make_unique<RandomAgent>(2));
    log.header(make_header(*g, 2, 1, default_options(*g), {"random", "random"}));
    play_match(*g, 2, 1, default_options(*g), agents, &log);
  }
  std::stringstream text;
  text << std::ifstream(log_path).rdbuf();
  std::string logged = text.str();
  CHECK(logged.find(R"({"text":"you hold c3","to":"P2","type":"say"})") != std::string::npos);
  CHECK(logged.find(R"({"text":"? {braces}","type":"say"})") != std::string::npos);

  auto shown = [&](int viewer) {
    std::shared_ptr<Sources> s;
    Diagnostics d;
    ReplayResult r = replay_log(log_path, viewer, s, d);
    CHECK(r.error == "");
    CHECK(r.ok);
    return r.shown;
  };
  // A shown line keeps each name whole for wrapping (unbroken spaces); read it plain.
  auto has = [](const std::vector<std::string>& lines, const std::string& line) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return plain(l) == line; });
  };
  auto p1 = shown(0), p2 = shown(1), all = shown(-1);
  CHECK(has(p1, "P1 holds c4; the deck's top is deck#2 in deck; 2 * 3 = 6, true"));
  CHECK(!has(p1, "you hold c3"));
  CHECK(has(p2, "P1 holds a card from P1.hand; the deck's top is deck#2 in deck; 2 * 3 = 6, true"));
  CHECK(has(p2, "you hold c3"));
  CHECK(has(all, "to P2: you hold c3"));

  // A message edited in the log is a divergence, like any other event.
  std::string edited = logged;
  edited.replace(edited.find("you hold c3"), 11, "you hold c1");
  std::ofstream(log_path) << edited;
  std::shared_ptr<Sources> s;
  Diagnostics d;
  ReplayResult r = replay_log(log_path, -1, s, d);
  CHECK(!r.ok);
  CHECK(r.error.find("the game diverges: the log says {\"text\":\"you hold c1\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}

namespace {

// Procedures that only tell (Procedure::tells_only) and others. P1 holds c4, P2 c3.
const std::string teller = R"(game: Tell
players: 2
components:
  card: {each: {rank: 1..4}, name: "c{rank}", in: deck}
zones:
  deck: {order: stack, visibility: nobody}
  hand: {per_player: true, order: set, visibility: owner}
  pile: {order: stack, visibility: everyone}
variables:
  told: 0
procedures:
  announce(p):
    do: |
      let v = top(p.hand).rank
      let w = 0
      for q in players { w += 1 }
      repeat 2 times { w += 1 }
      if v > 2 { say "{p} holds a high card ({v}), {w}" } else { say "{p} holds {v}, {w}" }
      detail(p)
  detail(p): say "detail {p}"
  broken:
    do: |
      say "before"
      let c = top(pile).rank
      say "after {c}"
  spin:
    do: |
      let k = 0
      say "spinning"
      repeat until k < 0 { k += 1 }
  counts(p):
    do: |
      told += 1
      say "counted {p}"
  caller: counts(P2)
flow: |
  move top(deck) to P1.hand
  move top(deck) to P2.hand
  announce(P1)
  broken()
  spin()
  caller()
  announce(P2)
  choose P1: go
actions:
  go: ""
limits:
  steps: 5000
)";

}  // namespace

TEST_CASE("a procedure that only tells is called only when someone listens", "[say]") {
  auto l = load_text(teller);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const Game& g = *l.game;
  auto tells = [&](const std::string& name) {
    for (const Procedure& p : g.program.procedures)
      if (p.name == name) return p.tells_only;
    FAIL("no procedure " << name);
    return false;
  };
  // Only messages, its own variables, loops, branches and calls of procedures that only tell.
  CHECK(tells("announce"));
  CHECK(tells("detail"));
  CHECK(tells("broken"));
  CHECK(tells("spin"));
  // A variable of the game written, or a call of a procedure that writes one: it does more.
  CHECK_FALSE(tells("counts"));
  CHECK_FALSE(tells("caller"));

  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State heard = new_game(g, 2, 1, default_options(g), &hooks);
  State unheard = new_game(g, 2, 1, default_options(g));
  // Listened to or not, the same state: the procedures' variables are put back, and the
  // endless loop, skipped unheard, runs out of steps heard without ending the game.
  CHECK(heard == unheard);
  CHECK(heard.status() == Status::waiting);
  CHECK(heard[g.layout.globals + 0] == 1);
  std::vector<std::string> texts;
  for (const Event& e : events)
    if (e.kind == Event::say) texts.push_back(describe_event(g, e, -1));
  // A runtime error in one ends its messages there ("after" is not said), not the game.
  CHECK(texts == std::vector<std::string>{"P1 holds a high card (4), 4", "detail P1", "before", "spinning",
                                          "counted P2", "P2 holds a high card (3), 4", "detail P2"});
  // Compiled code does not call them (it runs only where nobody listens): the same game.
  kata::test::lockstep(g, *kata::test::compiled(l.game), 2, 1, default_options(g));
}
