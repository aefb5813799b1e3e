// Each resource limit of docs/language.md §7 at its boundary: the limit itself accepted,
// one past it refused with its message. Where accepting the limit would take much memory
// or time, the nearest cheap case is tested instead, and the comment says so.
#include <catch2/catch.hpp>

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "support.hpp"

using namespace kata;
using kata::test::load_text;

namespace {

bool has_error(const test::Loaded& l, const std::string& part) {
  for (const auto& m : l.messages())
    if (m.find(part) != std::string::npos && m.find(": error: ") != std::string::npos) return true;
  return false;
}

bool no_errors(const test::Loaded& l) { return l.game && !l.diags.has_errors(); }

const std::string too_large = "the game is too large: ";

}  // namespace

TEST_CASE("limits.steps and limits.decisions are 1 to 100000000", "[limits]") {
  auto with = [](const std::string& limits) {
    return load_text("game: T\nplayers: 1\nflow: ''\nlimits: {" + limits + "}\n");
  };
  for (const char* key : {"steps", "decisions"}) {
    std::string k = key;
    INFO(k);
    CHECK(no_errors(with(k + ": 1")));
    CHECK(no_errors(with(k + ": 100000000")));
    CHECK(has_error(with(k + ": 0"), k + " must be 1 to 100000000"));
    CHECK(has_error(with(k + ": 100000001"), k + " must be 1 to 100000000"));
  }
}

TEST_CASE("an action takes at most 4 parameters", "[limits]") {
  auto with = [](int params) {
    std::string list;
    for (int i = 0; i < params; ++i) list += (i ? ", " : "") + std::string("x") + std::to_string(i) + ": 1..2";
    return load_text("game: T\nplayers: 1\nflow: |\n  choose P1: go\nactions:\n  go:\n    params: {" + list +
                     "}\n    do: ''\n");
  };
  CHECK(no_errors(with(4)));
  CHECK(has_error(with(5), "an action takes at most 4 parameters"));
}

TEST_CASE("a kind has at most 1024 cards", "[limits]") {
  auto with = [](const std::string& each) {
    return load_text("game: T\nplayers: 1\nflow: ''\ncomponents:\n  card: {each: " + each + "}\n");
  };
  CHECK(no_errors(with("{v: 1..1024}")));
  CHECK(no_errors(with("{v: 1..32, w: 1..32}")));
  CHECK(has_error(with("{v: 1..1025}"), "at most 1024 components of one kind"));
  CHECK(has_error(with("{v: 1..32, w: 1..33}"), "at most 1024 components of one kind"));
}

TEST_CASE("at most 65536 cards, and card properties times cards at most 4194304", "[limits]") {
  // 64 kinds of 1024 cards: 65536 cards. Each kind has `n` and `p0`..`p62`, 64 properties
  // in all: 64 x 65536 = 4194304 property values, both limits exactly.
  auto kinds = [](int count, int properties) {
    std::string text = "components:\n";
    for (int k = 0; k < count; ++k) {
      text += "  k" + std::to_string(k) + ": {each: {n: 1..1024";
      for (int p = 0; p + 1 < properties; ++p) text += ", p" + std::to_string(p) + ": [1]";
      text += "}}\n";
    }
    return load_text("game: T\nplayers: 1\nflow: ''\n" + text);
  };
  auto at_limit = kinds(64, 64);
  CHECK(no_errors(at_limit));
  CHECK(at_limit.game->card_count == 65536);
  CHECK(has_error(kinds(64, 65), too_large + "the card properties times the cards (at most 4194304)"));
  CHECK(has_error(kinds(65, 1), too_large + "more cards than that (at most 65536)"));
}

TEST_CASE("zones times their owners at most 1048576", "[limits]") {
  // 1024 cards, each with a zone for each of 16 players: 16384 zones a declaration, and 64
  // declarations make 1048576, the limit. A game of that many zones holds a list of all the
  // cards in each: 10^9 numbers, far past the state's limit, which refuses it next (without
  // allocating it); the zones' own limit is passed at the 65th declaration.
  auto with = [](int declarations) {
    std::string zones;
    for (int z = 0; z < declarations; ++z) zones += "  z" + std::to_string(z) + ": {per: card, per_player: true}\n";
    return load_text("game: T\nplayers: 16\nflow: ''\ncomponents:\n  card: {each: {v: 1..1024}}\nzones:\n" + zones);
  };
  auto at_limit = with(64);
  CHECK_FALSE(has_error(at_limit, "zones times the players and cards that have one"));
  CHECK(has_error(at_limit, too_large + "its zones times its cards (at most 4194304)"));
  CHECK(has_error(with(65), too_large + "zones times the players and cards that have one (at most 1048576)"));
}

TEST_CASE("a game state holds at most 4194304 numbers", "[limits]") {
  // 1023 cards and 4 zones of one per card: each of the 4092 zones a list as long as all the
  // cards, 4092 x 1024 numbers, and 3 numbers a card; the header and one a player besides.
  // Variables (one number each) fill the rest to the limit exactly, then one more.
  int cards = 1023, zones = 4 * cards, players = 2;
  int64_t fixed = Layout::header + players + static_cast<int64_t>(zones) * (cards + 1) + 3 * cards;
  int64_t room = (1 << 22) - fixed;
  REQUIRE(room > 0);
  REQUIRE(room < 2000);
  auto with = [&](int64_t variables) {
    std::string text = "game: T\nplayers: 2\nflow: ''\ncomponents:\n  card: {each: {v: 1..1023}}\nzones:\n";
    for (int z = 0; z < 4; ++z) text += "  z" + std::to_string(z) + ": {per: card}\n";
    text += "variables:\n";
    for (int64_t v = 0; v < variables; ++v) text += "  g" + std::to_string(v) + ": 0\n";
    return load_text(text);
  };
  CHECK(no_errors(with(room)));
  CHECK(has_error(with(room + 1), too_large + "its zones times its cards (at most 4194304)"));
}

TEST_CASE("a walk's memory grows with the links, not with the ways", "[limits]") {
  // 512 cards all linked to each other (261632 links), walked 3 steps: 261632 ways after two
  // steps, each going on along 511 links. Were every way's next card listed before the
  // duplicates are dropped, 133 million pairs, a gigabyte; kept once as they are met, at
  // most the links. Played in a child allowed 256 MiB more than it holds.
  auto l = load_text(R"(game: T
players: 1
components:
  p: {each: {x: 1..512}, in: pile}
links:
  p: "a.x != b.x"
zones:
  pile: {order: set, visibility: everyone}
variables:
  v: 0
flow: |
  v = count(w in walk(top(pile), 3, q where true))
  choose P1: go
actions:
  go: {do: ""}
scoring: {score: v}
)");
  REQUIRE(no_errors(l));
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    rlimit room{static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + (256 << 20), RLIM_INFINITY};
    if (pages == 0 || setrlimit(RLIMIT_AS, &room) != 0) _exit(3);
    try {
      State s = test::play(*l.game, 1, {});
      // Every card is 3 steps from the top one (itself too, by a triangle).
      _exit(s[l.game->layout.globals] == 512 ? 0 : 4);
    } catch (...) {
      _exit(5);
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
