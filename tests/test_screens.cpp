// What the rule files in rules/ put on a player's screen: the page of a view
// (describe_view), played through whole games. The rules of what a page may show are in
// docs/language.md §2.5.1; these tests hold the four games to them.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "agents/menu.hpp"
#include "agents/typed.hpp"
#include "log/log.hpp"
#include "reference/reference.hpp"
#include "runtime/wrap.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::has;
using kata::test::legal_texts;

namespace {

// Every page P1 is shown in a random game of `file` with `players`, from the start to the
// end, joined.
std::string pages(const std::string& file, int players, uint64_t seed) {
  auto l = kata::test::load_file(file);
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, players, seed, default_options(g));
  std::string out;
  std::vector<Decision> legal;
  uint64_t rng = seed;
  while (s.status() == Status::waiting) {
    out += describe_view(g, make_view(g, s, 0));
    legal_decisions(g, s, legal);
    apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
  }
  return out + describe_view(g, make_view(g, s, 0));
}

}  // namespace

TEST_CASE("the screens of Kenjin leave out its bookkeeping variables", "[screens]") {
  for (uint64_t seed : {1, 2}) {
    std::string all = pages("rules/kenjin.yaml", 3, seed);
    for (const char* name : {"seat_a", "seat_b", "conqueror", "port_bonus", "camp_bonus", "supplied"})
      CHECK_FALSE(kata::test::has(all, name));
    // What a player reads stays: the victory points, in words.
    CHECK(kata::test::has(all, "P1 (you): victory points: "));
    CHECK_FALSE(kata::test::has(all, "vp="));
    CHECK_FALSE(kata::test::has(all, "round = 0"));
  }
}

TEST_CASE("Kobayakawa's pages say a fighter's stake in words", "[screens]") {
  for (uint64_t seed : {1, 2, 3}) {
    std::string all = pages("rules/kobayakawa.yaml", 4, seed);
    CHECK_FALSE(has(all, "stake="));
    CHECK_FALSE(has(all, "fought"));
    CHECK(has(all, "; staked this round: 1"));
  }
}

TEST_CASE("Kenjin's draft tells the tiles offered and taken, not the sorting of the box or of the field", "[screens]") {
  auto l = kata::test::load_file("rules/kenjin.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  std::vector<int64_t> options = default_options(g);
  std::string error;
  REQUIRE(set_option(g, options, "placement", "draft", error));
  for (uint64_t seed : {1, 2}) {
    std::vector<Event> events;
    Hooks hooks;
    hooks.events = &events;
    State s = new_game(g, 3, seed, options, &hooks);
    std::vector<Decision> legal;
    std::string told;
    while (s.status() == Status::waiting && g.phases.at(s[Layout::phase]) == "setup") {
      for (const std::string& line : describe_events(g, events, 0)) told += line + "\n";
      events.clear();
      legal_decisions(g, s, legal);
      apply(g, s, legal[0]);
    }
    for (const std::string& line : describe_events(g, events, 0)) told += line + "\n";
    INFO(told);
    CHECK(has(told, "The stack of 4 VP tiles is shuffled"));
    CHECK(has(told, " to tiles on offer: "));
    CHECK_FALSE(has(told, "from box"));
    CHECK_FALSE(has(told, "from battlefields"));
    CHECK_FALSE(has(told, "sorting"));
  }
}

namespace {

std::shared_ptr<const Game> game(const std::string& yaml) {
  auto l = kata::test::load_text(yaml);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  return l.game;
}

}  // namespace

TEST_CASE("a component kind's show: puts properties beside the components a viewer sees", "[screens]") {
  auto g = game(R"(game: Places
players: 2
components:
  place:
    list: [{name: North, worth: 4, sx: 1}, {name: South, worth: 6, sx: 2}]
    in: table
    show: {worth: true, sx: false}
  token: {each: {value: 1..2}, in: bag}
zones:
  table: {visibility: everyone, order: row}
  bag: {visibility: nobody}
flow: |
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 0));
  // Cards written in several words are parted by commas.
  CHECK(kata::test::has(page, "table          North (worth 4), South (worth 6)\n"));
  CHECK_FALSE(kata::test::has(page, "sx"));
  // Hidden cards show nothing of their properties.
  CHECK(kata::test::has(page, "bag            2 cards face down\n"));
}

TEST_CASE("a component kind's show: names the kind's properties, each true or false", "[screens][check]") {
  auto l = kata::test::load_text(R"(game: Places
players: 2
components:
  place:
    list: [{name: North, worth: 4}]
    show: {wroth: true, worth: maybe}
flow: ""
)");
  CHECK(l.messages() ==
        std::vector<std::string>{"6:12: error: 'wroth' is not a property of place; its properties are name, worth",
                                 "6:32: error: expected show (true or false), found 'maybe'"});
}

TEST_CASE("the reference leaves out the properties a kind's show: marks as bookkeeping", "[screens][reference]") {
  auto g = game(R"(game: Places
players: 2
components:
  piece:
    list: [{name: Guard, steps: 2, sx: 1}, {name: Guard, steps: 2, sx: 2}, {name: Scout, steps: 3, sx: 3}]
    name: "{name}{copy}"
    show: {sx: false}
flow: ""
)");
  std::string ref = write_reference(make_reference(*g), ReferenceFormat::text);
  // Without sx the two Guards are one row.
  CHECK(kata::test::has(ref, "      name   steps  count\n      Guard  2      2\n      Scout  3      1\n"));
  CHECK_FALSE(kata::test::has(ref, "sx"));
}

TEST_CASE("the reference gives each action's parameters with their descriptions", "[screens][reference]") {
  auto g = game(R"(game: Places
players: 2
components:
  piece: {list: [{name: Guard}, {name: Scout}], in: pile}
zones:
  pile: {visibility: everyone}
  hand: {per_player: true, visibility: owner}
flow: "choose P1: take | pass"
actions:
  take:
    params:
      c: {from: pile, doc: "the piece you take, face down"}
      n: 1..2
    do: move c to player.hand
  pass:
    params: {n: 1..2}
)");
  GameReference r = make_reference(*g);
  CHECK(kata::test::has(write_reference(r, ReferenceFormat::text), "take c n  (c: the piece you take, face down; n in 1..2)\n"));
  CHECK(kata::test::has(write_reference(r, ReferenceFormat::text), "pass n  (n in 1..2)\n"));
  CHECK(kata::test::has(write_reference(r, ReferenceFormat::markdown), "| `take c n` | c: the piece you take, face down; n in 1..2 |"));
  std::string json = write_reference(r, ReferenceFormat::json);
  CHECK(kata::test::has(json, R"({
          "doc": "the piece you take, face down",
          "domain": "pile",
          "name": "c"
        },
        {
          "doc": "",
          "domain": "1..2",
          "name": "n"
        })"));
}

TEST_CASE("the reference describes a board by its points, not as cards", "[screens][reference]") {
  auto g = game(R"(game: Grid
players: 2
components:
  point:
    doc: The crossings of the grid.
    each: {x: 0..2, y: 0..1}
    name: "{x}/{y}"
    in: board
  stone: {each: {value: 1..2}, in: bag}
zones:
  board: {visibility: everyone}
  spot: {per: point, visibility: everyone}
  bag: {visibility: nobody}
board:
  points: point
  x: "x"
  y: "y"
  zone: spot
  marked: "x == 1 and y == 1"
  marked_name: goal
  coordinates: [x, y]
flow: ""
)");
  std::string ref = write_reference(make_reference(*g), ReferenceFormat::text);
  CHECK_FALSE(kata::test::has(ref, "point: 6 cards"));
  CHECK(kata::test::has(ref, "\nBoard\n  6 points in 2 rows of 3\n      The crossings of the grid.\n"
                             "      A point is named by its coordinates (x from 0 to 2, y from 0 to 1), as in 1/1.\n"
                             "      goal: 1/1\n"));
  CHECK(kata::test::has(write_reference(make_reference(*g), ReferenceFormat::markdown), "## Board\n\n6 points in 2 rows of 3.\n"));
  CHECK(kata::test::has(write_reference(make_reference(*g), ReferenceFormat::json), "\"shape\": \"6 points in 2 rows of 3\""));
}

TEST_CASE("Kenjin's screens show each battlefield's victory points", "[screens]") {
  std::string all = pages("rules/kenjin.yaml", 2, 1);
  CHECK(kata::test::has(all, "Palace (vp 6)"));
}

TEST_CASE("a face-down card the viewer knows is marked unless all were shown it - an onlooker's, when not all know it",
          "[screens][views]") {
  auto g = game(R"(game: Reveal
players: 2
components:
  card: {each: {value: 1..3}, in: deck}
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set}
  pile: {visibility: nobody}
flow: |
  move top(deck) to P2.hand
  reveal top(P2.hand)
  move top(deck) to pile
  look P1 at top(pile)
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string me = describe_view(*g, make_view(*g, s, 0));
  INFO(me);
  // Face down, and P1 knows it: looked at by P1 alone, it is marked, whoever else knows
  // it (what P2 knows is not P1's to know, docs/language.md §4.4.1); revealed to all, it
  // is public, and every seat saw that: no mark.
  CHECK(kata::test::has(me, "  P2.hand        3\n"));
  CHECK(kata::test::has(me, "  pile           2*\n"));
  CHECK(kata::test::has(me, "  (* face down: you know it)\n"));
  // An onlooker knows what each seat knows: P2's revealed card is public.
  std::string all = describe_view(*g, make_view(*g, s, -1));
  INFO(all);
  CHECK(kata::test::has(all, "  P2.hand        3\n"));
  CHECK(kata::test::has(all, "  pile           2*\n"));
  CHECK(kata::test::has(all, "  deck           1*\n"));
  CHECK(kata::test::has(all, "  (* face down: not every player knows it)\n"));
}

TEST_CASE("screen lines wrap between words with a hanging indent that keeps their shape", "[screens][wrap]") {
  // A listed zone goes on under its first entry.
  CHECK(wrap_line("  P1.hand        North South East West", 36) ==
        "  P1.hand        North South East\n                 West");
  // A menu entry goes on under its text.
  CHECK(wrap_line("  12) deploy P1 Guard North (x4)", 20) == "  12) deploy P1\n      Guard North\n      (x4)");
  // Any other line two columns in from its indent.
  CHECK(wrap_line("  a card moves from deck to P2.hand", 20) == "  a card moves from\n    deck to P2.hand");
  // Never inside a word: a word longer than the line stands alone.
  CHECK(wrap_line("go Averyveryverylongword x", 10) == "go\n  Averyveryverylongword\n  x");
  // Characters count, not bytes; short lines and width 0 are left alone.
  CHECK(wrap_line("a — b — c", 9) == "a — b — c");
  CHECK(wrap_line("a b c d e f g h", 0) == "a b c d e f g h");
  CHECK(wrap_text("x y z\n\nx y z\n", 4) == "x y\n  z\n\nx y\n  z\n");
}

TEST_CASE("a wrapping stream wraps each line and writes a prompt at a flush", "[screens][wrap]") {
  std::ostringstream out;
  {
    WrappingStream screen(out, 12);
    screen << "one two three four\nP1> " << std::flush;
    CHECK(out.str() == "one two\n  three four\nP1> ");
    screen << "last";
  }
  CHECK(out.str() == "one two\n  three four\nP1> last");
}

TEST_CASE("kata wraps screens at COLUMNS, and not when output goes to a pipe without it", "[screens][wrap][cli]") {
  auto plain = kata::test::run_kata("play rules/kenjin.yaml -p 3 -a random -s 1");
  setenv("COLUMNS", "50", 1);
  auto wrapped = kata::test::run_kata("play rules/kenjin.yaml -p 3 -a random -s 1");
  auto rules = kata::test::run_kata("rules rules/kendo.yaml");
  auto json = kata::test::run_kata("rules rules/kendo.yaml --json");
  setenv("COLUMNS", "0", 1);
  auto off = kata::test::run_kata("rules rules/kendo.yaml");
  unsetenv("COLUMNS");
  REQUIRE(plain.status == 0);
  REQUIRE(wrapped.status == 0);
  auto longest = [](const std::string& text) {
    size_t most = 0, from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
      std::string line = text.substr(from, nl - from);
      size_t n = 0;
      for (unsigned char c : line) n += (c & 0xC0) != 0x80;
      // A single word longer than the width may stand alone.
      if (line.find(' ', line.find_first_not_of(' ')) != std::string::npos) most = std::max(most, n);
    }
    return most;
  };
  CHECK(longest(plain.out) > 50);
  CHECK(longest(wrapped.out) <= 50);
  // The same words, only laid out again.
  auto words = [](const std::string& text) {
    std::istringstream in(text);
    std::string all;
    for (std::string w; in >> w;) all += w + ' ';
    return all;
  };
  // Up to the end of the game: the score table is a table where it fits, else a line for
  // each seat (tested below).
  auto before_end = [](const std::string& text) { return text.substr(0, text.find("Game over.")); };
  CHECK(words(before_end(plain.out)) == words(before_end(wrapped.out)));
  CHECK(has(wrapped.out, "  P3: battlefields "));
  CHECK(longest(rules.out) <= 50);
  CHECK(longest(off.out) > 50);
  CHECK(longest(json.out) > 50);
}

TEST_CASE("a unit is never split by wrapping: it goes on a line of its own", "[screens][wrap]") {
  std::string u = unbroken("P1 Samurai"), v = unbroken("Fortress (vp 6)");
  // Broken between units only, each unit printed with plain spaces.
  std::string hand = "  P1.hand        " + unbroken("P1 Lord") + " " + unbroken("P1 Guard") + " " + u + " " + v;
  CHECK(wrap_line(hand, 40) == "  P1.hand        P1 Lord P1 Guard\n                 P1 Samurai\n                 Fortress (vp 6)");
  // A unit that fits the width but not beside the hanging indent goes two columns in
  // from the line's indent, or at the line's start.
  std::string label = unbroken("GoldenTemple (vp 6) between P1 and P2");
  CHECK(wrap_line("  field          " + label + " x", 42) ==
        "  field\n    GoldenTemple (vp 6) between P1 and P2\n                 x");
  CHECK(wrap_line("  field          " + label + " x", 40) ==
        "  field\nGoldenTemple (vp 6) between P1 and P2 x");
  // One longer than the line stands alone, whole.
  CHECK(wrap_line("ab " + unbroken("a drawing of a board row") + " cd", 10) == "ab\n  a drawing of a board row\n  cd");
  // Unbroken spaces are printed as spaces at width 0 too, and by a wrapping stream.
  CHECK(wrap_line(u, 0) == "P1 Samurai");
  CHECK(wrap_text(u + "\n", 0) == "P1 Samurai\n");
  std::ostringstream out, direct;
  {
    WrappingStream screen(out, 0);
    screen << u << '\n' << v << std::flush;
  }
  CHECK(out.str() == "P1 Samurai\nFortress (vp 6)");
  print_screen(direct, u);
  CHECK(direct.str() == "P1 Samurai");
}

namespace {

// The units of a screen (runtime/wrap.hpp): a card's name with what is shown with it, a
// line of a board's drawing. Each, as printed, with how often it occurs.
std::map<std::string, int> units(const std::string& screen) {
  std::map<std::string, int> out;
  std::string token;
  for (char c : screen + "\n") {
    if (c != ' ' && c != '\n') {
      token += c;
      continue;
    }
    if (token.find(unbroken_space) != std::string::npos) ++out[plain(token)];
    token.clear();
  }
  return out;
}

int occurrences(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("the four games' screens at 40, 52 and 80 columns: no name split, board lines intact",
          "[screens][wrap]") {
  for (const std::string& file : kata::test::rule_files()) {
    auto l = kata::test::load_file(file);
    REQUIRE(l.game);
    const Game& g = *l.game;
    int players = std::max(3, g.min_players);
    if (players > g.max_players) players = g.max_players;
    State s = new_game(g, players, 7, default_options(g));
    std::vector<Decision> legal;
    uint64_t rng = 7;
    int checked = 0;
    for (int step = 0; s.status() == Status::waiting && step < 400; ++step) {
      if (step % 9 == 0) {
        for (int viewer : {0, -1}) {
          std::string screen = describe_screen(g, make_view(g, s, viewer));
          REQUIRE(plain(screen) == describe_view(g, make_view(g, s, viewer)));
          for (size_t width : {40, 52, 80}) {
            std::string wrapped = wrap_text(screen, width);
            // Every card's name as often as the page has it: none is split.
            std::string page = plain(screen);
            for (const auto* names : {&g.card_names, &g.card_plain_names})
            for (const std::string& name : *names)
              if (name.find(' ') != std::string::npos) {
                INFO(file << " at " << width << " columns: " << name << "\n" << wrapped);
                CHECK(occurrences(wrapped, name) == occurrences(page, name));
              }
            for (auto& [unit, count] : units(screen)) {
              INFO(file << " at " << width << " columns:\n" << wrapped);
              // Each unit whole; a unit found more often than the screen has it would be
              // a coincidence of names, never a split.
              CHECK(occurrences(wrapped, unit) >= count);
            }
            ++checked;
          }
          // The board's drawing (the lines above its legend) is printed as it is: each
          // of its lines is a whole line of the wrapped screen, at any width.
          std::string board = draw_board(g, make_view(g, s, viewer));
          std::istringstream lines(board);
          for (std::string line; std::getline(lines, line) && line.rfind("    a piece:", 0) != 0;)
            for (size_t width : {40, 52})
              CHECK(kata::test::has(fmt::format("\n{}", wrap_text(screen, width)), fmt::format("\n{}\n", line)));
        }
      }
      legal_decisions(g, s, legal);
      apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
    }
    CHECK(checked > 0);
  }
}

TEST_CASE("a kind's label writes its components in players' words once its variables are set",
          "[screens][label]") {
  auto g = game(R"(game: Borders
players: 3
components:
  place:
    list: [{name: North, worth: 4}, {name: South, worth: 6}, {name: East, worth: 4}]
    in: table
    show: {worth: true}
    label: "{name} (worth {worth}) between {left_seat} and {right_seat}"
zones:
  table: {visibility: everyone, order: row}
variables:
  left_seat: {per: place, type: player, show: false}
  right_seat: {per: place, type: player, show: false}
flow: |
  choose P1: go
  for t in table {
    t.left_seat = if t.worth == 6 then P2 else P1
    t.right_seat = if t.worth == 6 then P3 else P2
  }
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 3, 1, default_options(*g));
  // Before its seats are set, a place is its name and shown properties.
  std::string before = describe_view(*g, make_view(*g, s, 1));
  INFO(before);
  CHECK(kata::test::has(before, "  table          North (worth 4), South (worth 6), East (worth 4)\n"));
  std::string why;
  auto d = parse_decision(*g, s, "go", why);
  REQUIRE(d);
  apply(*g, s, *d);
  std::string after = describe_view(*g, make_view(*g, s, 1));
  INFO(after);
  CHECK(kata::test::has(after, "  table          North (worth 4) between P1 and P2, South (worth 6) between P2 and P3, "
                               "East (worth 4) between P1 and P2\n"));
  // The variables stay off the page as `show: false` says; the notation keeps the name.
  CHECK_FALSE(kata::test::has(after, "left_seat"));
  // Each label is one unit on a screen: wrapped, never split.
  std::string wrapped = wrap_text(describe_screen(*g, make_view(*g, s, 1)), 40);
  CHECK(kata::test::has(wrapped, "South (worth 6) between P2 and P3"));
}

TEST_CASE("a label names the name, the kind's properties and its components' variables", "[screens][label][check]") {
  auto l = kata::test::load_text(R"(game: Borders
players: 2
components:
  place:
    list: [{name: North, worth: 4}]
    label: "{name} {wroth} by {mark} {bonus}"
variables:
  mark: {per: place, type: player}
  bonus: {per: place, per_player: true}
  other: {type: player}
flow: ""
)");
  CHECK(l.messages() ==
        std::vector<std::string>{
            "6:21: error: '{wroth}' in a label is neither the name, a property of 'place' nor a variable of each 'place'",
            "6:39: error: 'bonus' is a variable of each 'place' and each player: a label writes one value, so it names only "
            "variables of each 'place'"});
}

TEST_CASE("Kenjin's screens say which players each battlefield lies between", "[screens][label][cli]") {
  setenv("COLUMNS", "100", 1);
  auto r = kata::test::run_kata("play rules/kenjin.yaml -p 3 -s 5 -a human,random,random --no-clear", "1\n");
  unsetenv("COLUMNS");
  INFO(r.out);
  CHECK(kata::test::has(r.out, "Village (vp 4) between P1 and P2, Golden Temple (vp 6) between P1 and P2,"));
  CHECK(kata::test::has(r.out, "Fortress (vp 6) between P3 and P1"));
  // The menu and the notation keep the names.
  CHECK(kata::test::has(r.out, "deploy P1 Lord Fortress"));
}

TEST_CASE("a variable's show: condition lists it only where it holds", "[screens][check]") {
  auto g = game(R"(game: Calls
players: 3
options:
  limit: {default: 2}
variables:
  may_call: {per_player: true, type: bool, initial: true, show: {if: "not may_call"}}
  round: {initial: 0, show: {if: "round >= 1 and round <= limit"}}
  holder: {per: token, type: player, show: {if: "holder != P3"}}
components:
  token: {list: [{name: Stone}], in: table}
zones:
  table: {visibility: everyone, order: row}
flow: |
  choose P1: go
  P2.may_call = false
  round = 1
  for t in table { t.holder = P2 }
  choose P1: go
  round = 3
  for t in table { t.holder = P3 }
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 3, 1, default_options(*g));
  std::vector<std::string> pages;
  for (int k = 0; k < 3; ++k) {
    pages.push_back(describe_view(*g, make_view(*g, s, 0)));
    std::string why;
    auto d = parse_decision(*g, s, "go", why);
    REQUIRE(d);
    apply(*g, s, *d);
  }
  INFO(pages[0] << pages[1] << pages[2]);
  CHECK_FALSE(kata::test::has(pages[0], "may_call"));
  CHECK_FALSE(kata::test::has(pages[0], "round"));
  CHECK(kata::test::has(pages[1], "  P2: may_call=no\n"));
  CHECK_FALSE(kata::test::has(pages[1], "P1 (you): may_call"));
  CHECK(kata::test::has(pages[1], "  round = 1\n"));
  CHECK(kata::test::has(pages[1], "  Stone: holder=P2\n"));
  CHECK_FALSE(kata::test::has(pages[2], "round ="));
  CHECK_FALSE(kata::test::has(pages[2], "holder"));
}

TEST_CASE("a show: condition reads only the variable's own value, options and literals", "[screens][check]") {
  auto l = kata::test::load_text(R"(game: Calls
players: 3
variables:
  may_call: {per_player: true, type: bool, initial: true, show: {if: "not may_call and round > 0"}}
  round: {initial: 0, show: {if: "round + 1"}}
  other: {show: {iff: "other > 0"}}
flow: ""
)");
  CHECK(l.messages() ==
        std::vector<std::string>{
            "4:88: error: a show condition reads only 'may_call' (the variable's own value), options and literals",
            "5:35: error: the show condition of 'round' must be true or false, but this is a number",
            "6:17: error: a variable's 'show' condition is written {if: CONDITION}",
            "6:18: error: unknown key 'iff' in a variable's show condition; did you mean 'if'?"});
}

TEST_CASE("a variable's label: says it in words on the page", "[screens]") {
  auto g = game(R"(game: Words
players: 2
variables:
  first: {type: player, initial: P2, label: first player}
  bets: {per_player: true, initial: 3, label: bets left}
  turn: {initial: 1}
flow: |
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 0));
  INFO(page);
  CHECK(has(page, "  first player: P2\n"));
  CHECK_FALSE(has(page, "first ="));
  CHECK(has(page, "  P1 (you): bets left: 3\n"));
  CHECK(has(page, "  turn = 1\n"));  // no label: the name
}

TEST_CASE("the games that take turns from a first player say so in words", "[screens]") {
  for (const char* file : {"rules/kendo.yaml", "rules/kenjin.yaml", "rules/kobayakawa.yaml"}) {
    std::string all = pages(file, 3, 1);
    INFO(file);
    CHECK_FALSE(has(all, "first = "));
    CHECK(has(all, "first player: P"));
  }
}

TEST_CASE("Hogen lists may_call only for a player who may no longer call", "[screens]") {
  std::string all = pages("rules/hogen.yaml", 3, 1);
  CHECK_FALSE(kata::test::has(all, "may call: yes"));
}

TEST_CASE("Hogen's screens leave the names of an accusation off the named players' lines",
          "[screens]") {
  // On P2's line, "P2: named_clan=Minamoto named_rank=1" read as P2's own; the names are
  // said as they are made instead ("P1 names Minamoto 1 as P2's hidden samurai").
  for (uint64_t seed : {1, 2, 3}) {
    std::string all = pages("rules/hogen.yaml", 3, seed);
    CHECK(kata::test::has(all, "may still call: no"));  // someone accused
    CHECK_FALSE(kata::test::has(all, "named_"));
  }
}

namespace {

// Two players drop a disc each twice; the discs come from supplies the screens leave out.
const char* drops_rules = R"(game: Drops
players: 2
components:
  disc: {per_player: true, list: [{name: Disc, count: 3}], name: "{owner} Disc{copy}", in: supply}
zones:
  supply: {per_player: true, visibility: everyone, order: set, show: false}
  pile: {visibility: everyone}
flow: |
  repeat 2 times { for p in players { choose p: drop } }
actions:
  drop:
    params: {col: "1..3"}
    say: "{player} drops a disc in column {col}"
    do: move top(player.supply) to pile
)";

}  // namespace

TEST_CASE("an action's say: tells the decision in the game's words, and a show: false zone's "
          "moves are not told",
          "[screens][say]") {
  std::string file = kata::test::temp("drops.yaml", drops_rules);
  std::string log = kata::test::temp("drops.jsonl");
  auto r = kata::test::run_kata("play " + file + " -a human,random --seed 3 --no-clear --log " + log,
                                "drop 2\ndrop 3\n");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r.out, "P1 drops a disc in column 2\n"));
  CHECK(has(r.out, "P1 drops a disc in column 3\n"));
  CHECK(has(r.out, "P2 drops a disc in column "));
  CHECK_FALSE(has(r.out, "chose:"));
  CHECK_FALSE(has(r.out, "supply"));
  // The log keeps the notation, which replays read; a replay tells the message too.
  auto replay = kata::test::run_kata("replay " + log);
  INFO(replay.out);
  CHECK(replay.status == 0);
  CHECK(has(replay.out, "P1 drops a disc in column 2\n"));
  CHECK_FALSE(has(replay.out, "chose:"));
  std::ifstream in(log);
  std::string text(std::istreambuf_iterator<char>(in), {});
  CHECK(has(text, "\"action\":\"drop 2\""));
}

TEST_CASE("an action's say: is checked as a message, at its place in the file", "[screens][say]") {
  std::string bad = std::string(drops_rules);
  bad.replace(bad.find("{col}\""), 6, "{colx}\"");
  auto r = kata::test::run_kata("check " + kata::test::temp("drops-bad.yaml", bad));
  CHECK(r.status == 1);
  CHECK(has(r.out, "drops-bad.yaml:13:44: error: unknown name 'colx'; did you mean 'col'?\n"));
  std::string quoted = std::string(drops_rules);
  quoted.replace(quoted.find("say: \"{player}"), 15, "say: '\"{player}");
  quoted.replace(quoted.find("{col}\""), 6, "{col}'");
  auto q = kata::test::run_kata("check " + kata::test::temp("drops-quoted.yaml", quoted));
  CHECK(q.status == 1);
  CHECK(has(q.out, "error: an action's 'say:' is the message alone, without '\"'"));
}

TEST_CASE("a board's seats: draws each seat's pieces with its mark (tic-tac-toe's X and O)",
          "[screens][board]") {
  auto r = kata::test::run_kata("play rules/tictactoe.yaml -a random --seed 5");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r.out, "      3  X  X  X\n"));
  CHECK(has(r.out, "      2  .  O  O\n"));
  CHECK(has(r.out, "    a piece: X for P1's, O for P2's\n"));
  CHECK_FALSE(has(r.out, "1M"));
  // A mark is one character before a label's initial, so that a piece stays two wide.
  std::string two = "game: G\nplayers: 2\ncomponents:\n  cell: {each: {x: 1..2}, in: grid}\n"
                    "  man: {per_player: true, list: [{name: Man}], in: grid}\n"
                    "zones:\n  grid: {visibility: everyone}\n  spot: {per: cell, visibility: everyone}\n"
                    "flow: end game\nboard:\n  points: cell\n  x: x\n  y: \"1\"\n  zone: spot\n"
                    "  label: name\n  seats: [XX, O]\n";
  auto e = kata::test::run_kata("check " + kata::test::temp("seats.yaml", two));
  INFO(e.out);
  CHECK(e.status == 1);
  CHECK(has(e.out, "seats.yaml:16:11: error: a seat's mark 'XX' must be one character (not . * or ?): "
                   "the piece's initial (label:) follows it\n"));
}

TEST_CASE("Connect Four tells a move as a drop into a column, not as a disc's internal name",
          "[screens][say]") {
  auto r = kata::test::run_kata("play rules/connect4.yaml -a human,random --seed 5 --no-clear", "4\n4\n");
  INFO(r.out);
  CHECK(has(r.out, "Since your last turn:\n  P1 drops a disc in column 4\n  P2 drops a disc in column 1\n"));
  CHECK(has(r.out, "      1  O  .  .  X  .  .  .\n"));
  CHECK_FALSE(has(r.out, "Disc2"));
  CHECK_FALSE(has(r.out, "chose:"));
}

TEST_CASE("a card all were shown stays public face down until a shuffle - a look does not make it so",
          "[screens][views]") {
  auto g = game(R"(game: Shown
players: 2
components:
  card: {each: {value: 1..4}, in: deck}
zones:
  deck: {visibility: nobody}
  table: {visibility: everyone}
  pile: {visibility: nobody}
  heap: {visibility: nobody}
flow: |
  move top(deck) to table
  move top(table) to pile
  move top(deck) to pile face up
  flip top(pile) face down
  move top(deck) to heap
  look P1 at top(heap)
  look P2 at top(heap)
  choose P1: go
  shuffle pile
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string me = describe_view(*g, make_view(*g, s, 0));
  INFO(me);
  // 4 was face up on the table, 3 face up on the pile: every seat saw them.
  CHECK(kata::test::has(me, "  pile           4 3  (top: 3)\n"));
  // Both seats looked at 2, each on its own: P1 cannot know P2 did.
  CHECK(kata::test::has(me, "  heap           2*\n"));
  std::vector<Decision> legal;
  legal_decisions(*g, s, legal);
  apply(*g, s, legal.front());
  std::string after = describe_view(*g, make_view(*g, s, 0));
  INFO(after);
  CHECK(kata::test::has(after, "  pile           2 cards face down\n"));
}

TEST_CASE("Kobayakawa: a fighter's revealed card is not marked as a secret on any seat's screen", "[screens][views]") {
  // The last round's fighters reveal their cards and the game ends: the final page shows
  // them. The * is for a face-down card the viewer alone may know.
  int revealed = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto l = kata::test::load_file("rules/kobayakawa.yaml");
    REQUIRE(l.game);
    const Game& g = *l.game;
    State s = new_game(g, 4, seed, default_options(g));
    std::vector<Decision> legal;
    uint64_t rng = seed;
    while (s.status() == Status::waiting) {
      legal_decisions(g, s, legal);
      apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
    }
    for (int viewer = 0; viewer < 4; ++viewer) {
      PlayerView v = make_view(g, s, viewer);
      std::string page = describe_view(g, v);
      INFO(page);
      CHECK_FALSE(kata::test::has(page, "*"));
      for (const ZoneView& z : v.zones)
        if (g.instance_owner[z.instance] >= 0 && g.instance_owner[z.instance] != viewer)
          for (const CardView& c : z.cards) revealed += c.card >= 0 && !c.face_up;
    }
  }
  // Some game ended on a fight: its fighters' cards are seen face down in others' hands.
  CHECK(revealed > 0);
}

TEST_CASE("a list entry's doc says what that card does, in the reference", "[screens][reference]") {
  auto g = game(R"(game: Places
players: 2
components:
  piece:
    list:
      - {name: Guard, steps: 2, count: 2, doc: "Moves two steps and guards the gate, which no other piece may pass while he stands beside it."}
      - {name: Scout, steps: 3}
    name: "{name}{copy}"
  coin:
    list: [{value: 1, doc: The smallest coin.}, {value: 2}]
flow: ""
)");
  GameReference r = make_reference(*g);
  std::string text = write_reference(r, ReferenceFormat::text, 60);
  INFO(text);
  CHECK(kata::test::has(text, "      name   steps  count\n      Guard  2      2\n      Scout  3      1\n"
                              "      Guard: Moves two steps and guards the gate, which no\n"
                              "        other piece may pass while he stands beside it.\n"));
  // A kind with one property is tabled when its cards are described.
  CHECK(kata::test::has(text, "      value\n      1\n      2\n      1: The smallest coin.\n"));
  CHECK(kata::test::has(write_reference(r, ReferenceFormat::markdown),
                        "| name | steps | count | description |\n|---|---|---|---|\n"
                        "| Guard | 2 | 2 | Moves two steps and guards the gate, which no other piece may pass while he "
                        "stands beside it. |\n| Scout | 3 | 1 |  |\n"));
  CHECK(kata::test::has(write_reference(r, ReferenceFormat::json), R"("docs": [
        "Moves two steps and guards the gate, which no other piece may pass while he stands beside it.",
        ""
      ])"));
  // A doc is not a property.
  CHECK(std::none_of(g->properties.begin(), g->properties.end(), [](auto& p) { return p.name == "doc"; }));
}

TEST_CASE("Kenjin's reference says what every unit and every battlefield does", "[screens][reference]") {
  auto l = kata::test::load_file("rules/kenjin.yaml");
  REQUIRE(l.game);
  GameReference r = make_reference(*l.game);
  int described = 0;
  for (const auto& k : r.kinds) {
    REQUIRE(k.docs.size() == k.rows.size());
    for (size_t i = 0; i < k.rows.size(); ++i) {
      INFO(k.name << " " << k.rows[i][0]);
      CHECK(k.docs[i].size() > 10);
      ++described;
    }
  }
  CHECK(described == 20);  // ten units, ten battlefields
  std::string text = write_reference(r, ReferenceFormat::text);
  CHECK(kata::test::has(text, "Rice Field: The Strength of Peasants on this battlefield is 1 instead of 0.\n"));
  CHECK(kata::test::has(text, "Samurai: At the combat, eliminates all of the opponent's Peasants"));
  // A card is looked up by its title or its name, and told by its title.
  for (std::string name : {"rice field", "RiceField"}) {
    INFO(name);
    CHECK(kata::test::has(reference_entry(r, name, 80), "  Rice Field (tile; vp: 4): The Strength"));
  }
  CHECK(kata::test::has(text, "  tile: 10 tiles, in box\n"));
}

TEST_CASE("the reference counts by nouns, leaves bookkeeping kinds out, sums up products", "[screens][reference]") {
  auto l = kata::test::load_file("rules/hogen.yaml");
  REQUIRE(l.game);
  std::string text = write_reference(make_reference(*l.game), ReferenceFormat::text);
  INFO(text);
  CHECK(kata::test::has(text, "  samurai: 16 samurai, in deck\n      Sixteen samurai, four clans by four ranks.\n"
                              "      one of each clan and rank:\n        clan: Minamoto, Taira, Fujiwara, Tachibana\n"
                              "        rank: 1 to 4\n"));
  CHECK(kata::test::has(text, "  rank_call: 4 calls, in calls\n"));
  CHECK_FALSE(kata::test::has(text, "  lot:"));  // show: false
  CHECK_FALSE(kata::test::has(text, "by: "));  // show: {by: false}
  // A product with a combination left out is tabled: it is not one of each.
  for (std::string where : {"", "    where: not (suit == Moon and rank == 1)\n"}) {
    auto g = kata::test::load_text("game: Suits\nplayers: 2\ncomponents:\n  card:\n    each: {suit: [Sun, Moon], rank: 1..3}\n" + where +
                                   "    in: deck\nzones:\n  deck: {visibility: everyone}\nactions:\n  pass: {do: \"\"}\n"
                                   "flow: \"choose P1: pass\"\nscoring:\n  score: 0\n");
    INFO(fmt::format("{}", fmt::join(g.messages(), "\n")));
    REQUIRE(g.game);
    std::string suits = write_reference(make_reference(*g.game), ReferenceFormat::text);
    INFO(suits);
    CHECK(kata::test::has(suits, "one of each suit and rank:\n        suit: Sun, Moon\n        rank: 1 to 3\n") == where.empty());
    CHECK(kata::test::has(suits, "      suit  rank\n") == !where.empty());
  }
}

TEST_CASE("the events a seat is told keep each card's name whole at 40, 52 and 80 columns", "[screens][wrap]") {
  for (const std::string& file : kata::test::rule_files()) {
    auto l = kata::test::load_file(file);
    REQUIRE(l.game);
    const Game& g = *l.game;
    int players = std::min(std::max(3, g.min_players), g.max_players);
    std::vector<Event> events;
    Hooks hooks;
    hooks.events = &events;
    State s = new_game(g, players, 3, default_options(g), &hooks);
    std::vector<Decision> legal;
    uint64_t rng = 3;
    int checked = 0;
    for (int step = 0; step < 400; ++step) {
      for (int viewer : {0, -1}) {
        std::vector<std::string> lines = screen_events(g, events, viewer);
        REQUIRE(lines.size() == describe_events(g, events, viewer).size());
        for (size_t i = 0; i < lines.size(); ++i) {
          std::string line = "  " + lines[i];
          std::string flat = plain(line);
          REQUIRE(flat == "  " + describe_events(g, events, viewer)[i]);
          for (size_t width : {40, 52, 80}) {
            std::string wrapped = wrap_text(line + "\n", width);
            for (const auto* names : {&g.card_names, &g.card_plain_names})
            for (const std::string& name : *names)
              if (name.find(' ') != std::string::npos) {
                INFO(file << " at " << width << " columns: " << name << "\n" << wrapped);
                CHECK(occurrences(wrapped, name) == occurrences(flat, name));
              }
            ++checked;
          }
        }
      }
      events.clear();
      if (s.status() != Status::waiting) break;
      legal_decisions(g, s, legal);
      const Decision& d = legal[uniform(rng, static_cast<uint32_t>(legal.size()))];
      // Another's decision, as the prompt tells it ("P2 chose: ...").
      std::string chose = "  P2 chose: " + decision_screen_text(g, s, d, 0);
      // The notation, but a card with copies named without its number.
      REQUIRE(plain(chose).rfind("  P2 chose: " + g.program.actions[d.action].name, 0) == 0);
      for (size_t width : {40, 52, 80})
        for (const auto* names : {&g.card_names, &g.card_plain_names})
        for (const std::string& name : *names)
          if (name.find(' ') != std::string::npos) {
            INFO(file << " at " << width << " columns: " << name << "\n" << wrap_text(chose, width));
            CHECK(occurrences(wrap_text(chose, width), name) == occurrences(plain(chose), name));
          }
      apply(g, s, d, &hooks);
    }
    CHECK(checked > 0);
  }
}

TEST_CASE("the score table at the end fits 40 and 52 columns - a line for each seat where it is too wide", "[screens][wrap]") {
  for (const std::string& file : kata::test::rule_files()) {
    auto l = kata::test::load_file(file);
    REQUIRE(l.game);
    const Game& g = *l.game;
    int players = std::min(std::max(3, g.min_players), g.max_players);
    State s = new_game(g, players, 3, default_options(g));
    std::vector<Decision> legal;
    uint64_t rng = 3;
    while (s.status() == Status::waiting) {
      legal_decisions(g, s, legal);
      apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
    }
    std::string screen = describe_screen(g, make_view(g, s, 0));
    std::string end = screen.substr(screen.find("Game over."));
    // Plain, and at 80 columns where it fits: the table as it is.
    CHECK(wrap_text(end, 0) == plain(end));
    if (!scores_shown(g, make_view(g, s, 0).end)) continue;
    for (size_t width : {40, 52, 80}) {
      std::string wrapped = wrap_text(end, width);
      INFO(file << " at " << width << " columns:\n" << wrapped << "\nplain:\n" << plain(end));
      size_t widest = 0;
      for (size_t at = 0; at < wrapped.size();) {
        size_t nl = std::min(wrapped.find('\n', at), wrapped.size());
        widest = std::max(widest, nl - at);
        at = nl + 1;
      }
      CHECK(widest <= width);
      // Each seat's score is on its line, after its name.
      for (int p = 0; p < players; ++p) CHECK(has(wrapped, "  P" + std::to_string(p + 1) + (p == 0 ? " (you)" : "")));
      CHECK((has(wrapped, "  P1 (you)  ") || has(wrapped, "  P1 (you): ")));
    }
  }
}

TEST_CASE("a block of two forms is printed wide where it fits, else narrow, each line wrapped", "[screens][wrap]") {
  std::string block = wide_or_narrow("  name      score\n  P1 Guard     12", "  P1 Guard: 12") + "\nafter\n";
  CHECK(plain(block) == "  name      score\n  P1 Guard     12\nafter\n");
  CHECK(wrap_text(block, 0) == plain(block));
  CHECK(wrap_text(block, 20) == plain(block));
  CHECK(wrap_text(block, 17) == plain(block));
  CHECK(wrap_text(block, 16) == "  P1 Guard: 12\nafter\n");
  CHECK(wrap_text(block, 12) == "  P1 Guard:\n    12\nafter\n");
}

namespace {

// Each seat holds two cards; each may play one face up (told by a message to all), hide
// one in the deck (an action's say:, to all) or whisper (a message to the chooser alone);
// then a message of the flow, and P1 passes (no message: told as "P1 chose: pass").
const char* told_rules = R"(game: Told
players: 2
components:
  card: {list: [{name: Ace}, {name: Bow}, {name: Cup}, {name: Dart}, {name: Egg}, {name: Fan}], in: deck}
zones:
  deck: {visibility: nobody, order: stack}
  hand: {per_player: true, visibility: owner, order: set}
  table: {visibility: everyone}
flow: |
  for p in players {
    move top(deck) to p.hand
    move top(deck) to p.hand
  }
  for p in players { choose p: play | hide | whisper }
  say "the round is over"
  choose P1: pass
actions:
  play:
    params: {c: player.hand}
    do: |
      move c to table face up
      say "{player} plays {c}"
  hide:
    params: {c: player.hand}
    say: "{player} hides a card"
    do: move c to deck
  whisper:
    params: {c: player.hand}
    do: |
      say to player "you put {c} on the table"
      move c to table face up
  pass:
    do: move top(deck) to table face up
)";

// The game played by P1 `one` and P2 `two`, as `seat` was told it by `kata replay --as`.
std::string told_game(const std::string& one, const std::string& two, const std::string& seat) {
  std::string file = kata::test::temp("told.yaml", told_rules);
  std::string name = one + "-" + two;
  std::replace(name.begin(), name.end(), ' ', '_');
  std::string log = kata::test::temp("told-" + name + ".jsonl");
  std::string p1 = kata::test::temp("told-p1.txt", one + "\npass\n"), p2 = kata::test::temp("told-p2.txt", two + "\n");
  auto r = kata::test::run_kata("play " + file + " -a script:" + p1 + ",script:" + p2 + " -s 1 -q --log " + log);
  REQUIRE(r.status == 0);
  auto replay = kata::test::run_kata("replay " + log + (seat.empty() ? "" : " --as " + seat));
  REQUIRE(replay.status == 0);
  return replay.out.substr(0, replay.out.find("Told — "));
}

}  // namespace

TEST_CASE("a decision told by a message of its effect is told once: no 'chose:' line, no move "
          "the message tells",
          "[screens][say][told]") {
  // P1 holds Fan and Egg, P2 Dart and Cup. P1 plays Fan: the message names it to both, so
  // neither the decision's notation nor Fan's move is told again.
  CHECK(told_game("play fan", "play cup", "P2") ==
        "4 cards move from deck — to P1.hand: 2 cards; to P2.hand: Dart and Cup\n"
        "P1 plays Fan\n"
        "P2 plays Cup\n"
        "the round is over\n"
        "P1 chose: pass\n"
        "Bow moves from deck to table\n");
  // P2 hides a card (its say:): P1 does not see it move, so the message tells all P1 may
  // know; P2 sees Dart move, which the message does not name, and is told that too.
  std::string p1 = told_game("play fan", "hide dart", "P1");
  CHECK(has(p1, "P1 plays Fan\nP2 hides a card\nthe round is over\n"));
  CHECK(has(told_game("play fan", "hide dart", "P2"), "P2 hides a card\nDart moves from P2.hand to deck\n"));
  // A message to one seat tells the decision to that seat only; the other is told the
  // decision as before, as it may know it, and the move.
  CHECK(has(told_game("whisper fan", "play cup", "P1"), "to P1.hand: Fan and Egg; to P2.hand: 2 cards\n"
                                                        "you put Fan on the table\nP2 plays Cup\n"));
  std::string p2 = told_game("whisper fan", "play cup", "P2");
  CHECK(has(p2, "P1 chose: whisper a card from P1.hand\nFan moves from P1.hand to table\nP2 plays Cup\n"));
  // A message of the flow, after the effect, tells no decision: P1's pass is told.
  CHECK(has(p2, "the round is over\nP1 chose: pass\n"));
  // An onlooker (a replay without --as) is told every message.
  CHECK(has(told_game("whisper fan", "play cup", ""), "to P1: you put Fan on the table\nP2 plays Cup\n"));
}

TEST_CASE("a decision told once at the terminal: Kendo's moves and captures are one line each",
          "[screens][say][told]") {
  auto r = kata::test::run_kata("play rules/kendo.yaml -a random --seed 7 --log " + kata::test::temp("told-kendo.jsonl"));
  REQUIRE(r.status == 0);
  auto replay = kata::test::run_kata("replay " + kata::test::temp("told-kendo.jsonl") + " --as P1");
  INFO(replay.out);
  // Copies are named alike: which Soldier moved is the notation's (the log's) business.
  CHECK(has(replay.out, "\nP1 Soldier moves from 4/-5 to 2/-1\nP2 Soldier moves from -4/5 to -2/7\n"));
  CHECK(has(replay.out, "\nP2 Soldier moves from -1/-4 to 1/-2 and takes P1 Soldier\nP1 Soldier moves from 1/-5 to -1/-7\n"));
  CHECK_FALSE(has(replay.out, "chose: go"));
  CHECK_FALSE(has(replay.out, "to taken"));
}

TEST_CASE("a show: false procedure's calls are bookkeeping: screens do not tell their events, "
          "their messages are told",
          "[screens][say]") {
  std::string rules = R"(game: Tidy
players: 2
components:
  card: {list: [{name: Ace}, {name: Bow}, {name: Cup}], in: deck}
zones:
  deck: {visibility: nobody, order: stack}
  pile: {visibility: everyone}
procedures:
  tidy:
    show: false
    do: |
      move all pile to deck
      say "the pile is put back"
      shuffle deck
flow: |
  move top(deck) to pile face up
  tidy()
  choose P1: stop
actions:
  stop: ""
)";
  std::string log = kata::test::temp("tidy.jsonl");
  REQUIRE(kata::test::run_kata("play " + kata::test::temp("tidy.yaml", rules) + " -a random -s 1 -q --log " + log).status == 0);
  auto replay = kata::test::run_kata("replay " + log);
  INFO(replay.out);
  CHECK(replay.status == 0);
  CHECK(has(replay.out, "Cup moves from deck to pile\nthe pile is put back\nP1 chose: stop\n"));
  CHECK_FALSE(has(replay.out, "shuffled"));
  // The log records every event.
  std::ifstream in(log);
  std::string text(std::istreambuf_iterator<char>(in), {});
  CHECK(has(text, "\"from\":\"pile\""));
  CHECK(has(text, "\"type\":\"shuffle\""));
  // Only true or false; a function has no show:.
  auto bad = kata::test::run_kata("check " + kata::test::temp("tidy-bad.yaml", kata::test::with("show: false", "show: maybe", rules)));
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "tidy-bad.yaml:10:11: error: expected show (true or false), found 'maybe'\n"));
  auto fn = kata::test::run_kata("check " + kata::test::temp("tidy-fn.yaml", kata::test::with("procedures:\n", "functions:\n  two: {value: 2, show: false}\nprocedures:\n", rules)));
  CHECK(fn.status == 1);
  CHECK(has(fn.out, "'show'"));
}

TEST_CASE("Kobayakawa's deal: the gathering is one message, not a line of the cards of each zone",
          "[screens][say]") {
  std::string log = kata::test::temp("told-koba.jsonl");
  REQUIRE(kata::test::run_kata("play rules/kobayakawa.yaml -p 4 -a random -s 7 -q --log " + log).status == 0);
  auto replay = kata::test::run_kata("replay " + log + " --as P2");
  INFO(replay.out);
  CHECK(replay.status == 0);
  CHECK(has(replay.out, "Round 2: each fighter stakes 1 kamon; the winner takes the stakes and 1 centre kamon\n— deal —\n"
                        "All the cards are gathered into the deck\nThe deck is shuffled\n5 cards move from the deck — to "));
  CHECK_FALSE(has(replay.out, "move to the deck"));
  // Each decision one line, in the game's words.
  CHECK(has(replay.out, "\nP1 flips 3: the new kobayakawa\nP2 draws the deck's top card\n"));
  CHECK_FALSE(has(replay.out, "chose: flip"));
  CHECK_FALSE(has(replay.out, "chose: discard"));
}

TEST_CASE("a message of the flow tells the next move of each card it names: one line, not two",
          "[screens][say][told]") {
  std::string rules = R"(game: Flowtold
players: 2
components:
  card: {list: [{name: Ace}, {name: Bow}, {name: Cup}, {name: Dart}], in: deck}
zones:
  deck: {visibility: everyone, order: stack}
  hand: {per_player: true, visibility: owner, order: set}
  table: {visibility: everyone}
flow: |
  say "{top(deck)} goes to the table"
  move top(deck) to table face up
  say "{top(deck)} goes to P1"
  move top(deck) to P1.hand
  say "the deck is left"
  move top(deck) to table face up
  choose P1: stop
actions:
  stop: ""
)";
  std::string log = kata::test::temp("flowtold.jsonl");
  REQUIRE(kata::test::run_kata("play " + kata::test::temp("flowtold.yaml", rules) +
                               " -a random -s 1 -q --log " + log)
              .status == 0);
  auto as = [&](const std::string& seat) {
    auto r = kata::test::run_kata("replay " + log + " --as " + seat);
    REQUIRE(r.status == 0);
    return r.out.substr(0, r.out.find("Flowtold — "));
  };
  // The card named goes to the table: its move is not told again; nor is Cup's to P1's
  // hand, which both seats saw leave the open deck. A card the message does not name moves
  // as before.
  std::string p1 = as("P1"), p2 = as("P2");
  INFO(p1 << p2);
  CHECK(has(
      p1,
      "Dart goes to the table\nCup goes to P1\nthe deck is left\nBow moves from deck to table\n"));
  CHECK(p2 == p1);
  CHECK_FALSE(has(p1, "Dart moves"));
}

namespace {

// Tiles with a pile of cards on each player's side, a hand for each player and a shared
// zone: each zone with a label.
const char* labelled_zones = R"(game: Sides
players: 2
components:
  tile: {list: [{name: North}], in: table}
  card: {list: [{name: Ace}, {name: King}, {name: Queen}], in: deck}
zones:
  table: {visibility: everyone, order: row, label: the table}
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set, label: "{player}'s hand"}
  side: {per: tile, per_player: true, visibility: nobody, label: "{player}'s side of {tile}"}
variables:
  last: {type: card, show: false}
flow: |
  move top(deck) to P1.hand
  move top(deck) to P2.hand
  choose P1: go
actions:
  go:
    say: "{player} puts {top(P2.hand)} on {top(table).side(P2)}"
    do: move top(P2.hand) to top(table).side(P2) face down
)";

}  // namespace

TEST_CASE("a zone's label names it in words on the page and in narration - the notation and the log keep its name",
          "[screens][label]") {
  auto g = game(labelled_zones);
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State s = new_game(*g, 2, 1, default_options(*g), &hooks);
  std::string page = describe_view(*g, make_view(*g, s, 0));
  INFO(page);
  CHECK(has(page, "  the table:     North\n"));
  CHECK(has(page, "  P1's hand:     Queen\n"));
  CHECK(has(page, "  P2's hand:     1 hidden card\n"));
  CHECK(has(page, "  deck           Ace\n") == false);
  CHECK(has(page, "  deck           1 card face down\n"));  // no label: its name
  CHECK(describe_events(*g, events, 0) ==
        std::vector<std::string>{"2 cards move from deck — to P1's hand: Queen; to P2's hand: a card"});
  events.clear();
  std::string why;
  auto d = parse_decision(*g, s, "go", why);
  REQUIRE(d);
  apply(*g, s, *d, &hooks);
  // A message names a hidden card and a zone by the label; P2 sees its own card.
  std::vector<std::string> told = describe_events(*g, events, 0);
  CHECK(told == std::vector<std::string>{"P1 puts a card from P2's hand on P2's side of North"});
  CHECK(describe_events(*g, events, 1) == std::vector<std::string>{"P1 puts King on P2's side of North"});
  std::string after = describe_view(*g, make_view(*g, s, 0));
  INFO(after);
  CHECK(has(after, "  P2's side of North: 1 card face down\n"));
  // The log and the notation keep the engine's names.
  auto move = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::move; });
  REQUIRE(move != events.end());
  CHECK(event_json(*g, *move).dump() == R"j({"card":"King","from":"P2.hand","to":"North.side(P2)","type":"move"})j");
  CHECK(card_text(*g, s, s[g->layout.zone_cards + g->zone_instance(3, 1) * g->card_count], 0) == "North.side(P2)#1");
  CHECK(hidden_card_text(*g, s, s[g->layout.zone_cards + g->zone_instance(3, 1) * g->card_count]) ==
        "card 1 from the bottom of P2's side of North");
}

TEST_CASE("a zone's label names only its owner and its component", "[screens][label][check]") {
  auto l = kata::test::load_text(R"(game: Sides
players: 2
components:
  tile: {list: [{name: North}]}
zones:
  deck: {label: "the {deck}"}
  hand: {per_player: true, label: "{owner}'s hand"}
  side: {per: tile, per_player: true, label: "{player} at {place} of {tile}"}
  pile: {per: tile, label: "{player}'s pile on {tile}"}
flow: ""
)");
  CHECK(l.messages() ==
        std::vector<std::string>{
            "6:23: error: '{deck}' in the label of zone 'deck': a shared zone's label has no fields (a zone declared "
            "per_player: has {player}, per: KIND has {KIND})",
            "7:37: error: '{owner}' in the label of zone 'hand' is not {player} (its owner)",
            "8:60: error: '{place}' in the label of zone 'side' is not {player} (its owner) nor {tile} (the 'tile' it "
            "belongs to)",
            "9:30: error: '{player}' in the label of zone 'pile' is not {tile} (the 'tile' it belongs to)"});
}

TEST_CASE("a bool variable reads yes or no on a page", "[screens]") {
  auto g = game(R"(game: Flags
players: 2
variables:
  may_call: {per_player: true, type: bool, initial: true, label: may call}
  fought: {type: bool, initial: false}
flow: |
  choose P1: go
actions:
  go: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::string page = describe_view(*g, make_view(*g, s, 0));
  INFO(page);
  CHECK(has(page, "  P1 (you): may call: yes\n"));
  CHECK(has(page, "  fought = no\n"));
  CHECK_FALSE(has(page, "true"));
  CHECK_FALSE(has(page, "false"));
}

TEST_CASE("Kenjin and Hogen name their zones in the game's words", "[screens][label]") {
  std::string kenjin = pages("rules/kenjin.yaml", 3, 1), hogen = pages("rules/hogen.yaml", 3, 1);
  CHECK(has(kenjin, "P1's hand:"));
  CHECK(has(kenjin, "'s side of "));
  CHECK_FALSE(has(kenjin, ".side(P"));
  CHECK(has(hogen, "P1's Sutoko:"));
  CHECK_FALSE(has(hogen, "P1.sutoko"));
  CHECK_FALSE(has(hogen, "P1.hand"));
}

TEST_CASE("Hogen tells its set-up in the game's words", "[screens][cli]") {
  auto r = kata::test::run_kata("play rules/hogen.yaml -p 3 -s 3 -a human,random,random --no-clear", "quit\ny\n");
  INFO(r.out);
  CHECK(has(r.out, "The palace is formed: samurai are revealed from the shuffled pile until 4 of different clans and "
                   "ranks lie face up in it"));
  CHECK(has(r.out, "The other samurai are shuffled face down and dealt: 4 to each player"));
  CHECK(has(r.out, "12 samurai move from the pile — to P1's hand: "));
  // The cards revealed and put back are not told one by one.
  CHECK_FALSE(has(r.out, "cards are turned face down"));
  CHECK_FALSE(has(r.out, "11 cards move from"));
}

TEST_CASE("a menu says a hidden card's place in a labelled zone in words - the notation stays", "[screens][label][menus]") {
  auto g = game(R"(game: Sides
players: 2
components:
  tile: {list: [{name: North}], in: table}
  card: {list: [{name: Ace}], in: deck}
zones:
  table: {visibility: everyone, order: row}
  deck: {visibility: nobody}
  side: {per: tile, per_player: true, visibility: nobody, label: "{player}'s side of {tile}"}
flow: |
  move top(deck) to top(table).side(P2) face down
  choose P1: peek
actions:
  peek:
    params: {c: top(table).side(P2)}
    do: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::vector<std::string> labels = legal_texts(*g, s);
  REQUIRE(labels == std::vector<std::string>{"peek North.side(P2)#1"});
  std::vector<MenuItem> items = menu_items(*g, make_view(*g, s, 0), labels);
  REQUIRE(items.size() == 1);
  // The place reads as its number: the notation's zone ids are not for reading.
  CHECK(items[0].text() == "peek #1 (card 1 from the bottom of P2's side of North)");
  // The notation may be typed, and the number the menu shows.
  Menu menu(items);
  CHECK(menu.typed("peek North.side(P2)#1") == 0);
  std::string why;
  CHECK(read_decision(*g, s, "peek #1", why));
}

TEST_CASE("a menu walked a value at a time says in words which hidden card a place is", "[screens][menus]") {
  auto g = game(R"(game: Places
players: 2
components:
  tile: {list: [{name: North}], in: table}
  card: {list: [{name: Ace}, {name: King}], in: deck}
zones:
  table: {visibility: everyone, order: row}
  deck: {visibility: nobody}
  side: {per: tile, per_player: true, visibility: nobody, label: "{player}'s side of {tile}"}
flow: |
  move top(deck) to top(table).side(P2) face down
  move top(deck) to top(table).side(P2) face down
  choose P1: peek
actions:
  peek:
    params: {c: top(table).side(P2), n: 1..3}
    do: ""
)");
  State s = new_game(*g, 2, 1, default_options(*g));
  std::vector<MenuItem> items = menu_items(*g, make_view(*g, s, 0), legal_texts(*g, s));
  REQUIRE(items.size() == 6);
  Menu menu(items, 4);  // six lines do not fit: the card first, then the number
  CHECK(menu.show() ==
        "peek — choose a card:\n"
        "   1) #1 (card 1 from the bottom of P2's side of North, 3 choices)\n"
        "   2) #2 (card 2 from the bottom of P2's side of North, 3 choices)\n");
  // The number shown may be typed at its step.
  Menu typed_menu(items, 4);
  CHECK(typed_menu.typed("#2") == -1);
  CHECK(has(typed_menu.show(), "peek #2 — choose a number:"));
  CHECK(menu.pick(1) == -1);
  CHECK(has(menu.show(), "peek #2 — choose a number:\n   1) peek #2 1 (card 2 from the bottom of P2's side of North)\n"));
  // The step lists whole decisions, but it asks for one value: typed alone, it is taken.
  CHECK(menu.typed("3") == 5);
  CHECK(legal_texts(*g, s)[5] == "peek North.side(P2)#2 3");
  // Typed in short, a place is its number alone where that leaves one place.
  std::string why;
  auto d = read_decision(*g, s, "peek #2 3", why);
  REQUIRE(d);
  CHECK(decision_text(*g, s, *d) == "peek North.side(P2)#2 3");
  CHECK_FALSE(read_decision(*g, s, "peek #3 1", why));
}

TEST_CASE("zone lines start their cards at the widest heading's column", "[screens]") {
  // Kobayakawa's "the Kobayakawa:" is wider than the 14 columns a short name gets.
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 3, 5, default_options(g));
  std::string page = plain(describe_view(g, make_view(g, s, 0)));
  INFO(page);
  std::set<size_t> starts;
  std::istringstream lines(page);
  for (std::string line; std::getline(lines, line);)
    for (std::string head : {"the deck:", "P1's hand:", "P2's hand:", "the Kobayakawa:", "P3's discards:"})
      if (line.rfind("  " + head, 0) == 0) starts.insert(line.find_first_not_of(' ', 2 + head.size()));
  CHECK(starts == std::set<size_t>{18});  // 2 + 15 + a space
  // A heading wider than 22 columns runs on into its line rather than widening every line.
  std::ifstream in(std::string(KATA_SOURCE_DIR) + "/rules/kobayakawa.yaml");
  std::string text{std::istreambuf_iterator<char>(in), {}};
  std::string wide = kata::test::with("label: the Kobayakawa", "label: the pile of the Kobayakawa card, face up", text);
  auto w = kata::test::load_text(wide);
  REQUIRE(w.game);
  State t = new_game(*w.game, 3, 5, default_options(*w.game));
  std::string narrow = plain(describe_view(*w.game, make_view(*w.game, t, 0)));
  INFO(narrow);
  CHECK(has(narrow, "\n  the deck:      11 cards face down\n"));
  CHECK(has(narrow, "\n  the pile of the Kobayakawa card, face up: 8\n"));
}

TEST_CASE("a labelled zone names its holder by its title, whole, and a page lists held zones in their holders' order", "[screens][label]") {
  // The tiles lie in the row in an order the seed decides; the declaration is the other
  // way round, so that listing the sides as declared would not pass by chance.
  auto g = game(R"(game: Titled sides
players: 2
components:
  tile: {list: [{name: WestField, title: West Field}, {name: EastHill, title: East Hill}, {name: Mid, title: The Middle Ground}], in: table}
  card: {list: [{name: Ace}, {name: King}, {name: Queen}, {name: Jack}, {name: Ten}, {name: Nine}], in: deck}
zones:
  table: {visibility: everyone, order: row}
  deck: {visibility: nobody}
  side: {per: tile, per_player: true, visibility: everyone, label: "{player}'s side of {tile}"}
flow: |
  shuffle table
  for t in table {
    move top(deck) to t.side(P2)
    move top(deck) to t.side(P1)
  }
  choose P1: pass
actions:
  pass: {do: ""}
)");
  std::set<std::string> orders;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    State s = new_game(*g, 2, seed, default_options(*g));
    PlayerView v = make_view(*g, s, 0);
    std::string page = describe_view(*g, v);
    INFO(page);
    CHECK_FALSE(has(page, "side of WestField"));
    // The row's order, as the page's row line names the tiles.
    std::vector<std::string> row;
    for (const ZoneView& z : v.zones)
      if (g->instance_name(z.instance) == "table")
        for (const CardView& c : z.cards) row.push_back(g->card_plain_names[c.card]);
    REQUIRE(row.size() == 3);
    orders.insert(fmt::format("{}", fmt::join(row, ",")));
    // The sides follow it, P1's before P2's on each tile.
    size_t at = 0;
    for (const std::string& tile : row)
      for (const char* seat : {"P1", "P2"}) {
        size_t found = page.find(fmt::format("  {}'s side of {}:", seat, tile));
        REQUIRE(found != std::string::npos);
        CHECK(found >= at);
        at = found;
      }
    // On a narrow screen the title is never split.
    std::string narrow = wrap_text(describe_screen(*g, v), 24);
    CHECK(has(narrow, "The Middle Ground"));
  }
  CHECK(orders.size() > 1);  // the seeds did vary the row
}
