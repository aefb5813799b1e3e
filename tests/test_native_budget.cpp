// Compiled mode counts the expressions' budget (limits.steps: rounds of aggregates, calls of
// functions, tests of a walk's condition) as the interpreter counts it: for every budget,
// from one that stops the game at once to one that lets it end, both stop at the same
// point with the same message, or end in the same state. Also: the values of a message
// (`say`) spend nothing of it, so a game runs out of budget at the same point watched
// (events recorded, as `kata play` does) or not (as simulations and compiled code do).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include "agents/runner.hpp"
#include "support.hpp"

using namespace kata;

namespace {

// A game's set-up with a budget written in: `limits: {steps: B, decisions: 40}`.
std::string with_budget(const std::string& text, int budget) {
  return text + "limits: {steps: " + std::to_string(budget) + ", decisions: 40}\n";
}

// What a call stopped with: nothing, or the error and where.
struct Stop {
  std::string message;
  Pos pos;
  bool operator==(const Stop& o) const { return message == o.message && pos.line == o.pos.line && pos.col == o.pos.col; }
};

template <typename F>
std::optional<Stop> attempt(F&& f) {
  try {
    f();
    return std::nullopt;
  } catch (const RuntimeError& e) {
    return Stop{e.what(), e.pos};
  }
}

// Both games played decision by decision (each listing and each run compared), then a
// whole random playout of each (kata_playout: listing and running without leaving compiled
// code). Returns the message that stopped the game, or "" if it ended.
std::string agree(const Game& interpreted, const Game& native, int players, uint64_t seed) {
  auto options = default_options(interpreted);
  State a, b;
  auto ea = attempt([&] { a = new_game(interpreted, players, seed, options); });
  auto eb = attempt([&] { b = new_game(native, players, seed, options); });
  REQUIRE(ea == eb);
  std::string stopped = ea ? ea->message : "";
  uint64_t rng = seed;
  std::vector<Decision> la, lb;
  while (!ea && !a.over()) {
    REQUIRE(a == b);
    ea = attempt([&] { legal_decisions(interpreted, a, la); });
    eb = attempt([&] { legal_decisions(native, b, lb); });
    REQUIRE(ea == eb);
    if (ea) break;
    REQUIRE(la == lb);
    const Decision& d = la[uniform(rng, static_cast<uint32_t>(la.size()))];
    ea = attempt([&] { apply(interpreted, a, d); });
    eb = attempt([&] { apply(native, b, d); });
    REQUIRE(ea == eb);
  }
  if (ea) stopped = ea->message;
  if (!ea) REQUIRE(a == b);
  State pa, pb;
  ea = attempt([&] { pa = random_playout(interpreted, players, seed, options); });
  eb = attempt([&] { pb = random_playout(native, players, seed, options); });
  REQUIRE(ea == eb);
  if (!ea) REQUIRE(pa == pb);
  return stopped;
}

// Runs `text` at each budget, interpreted and compiled, with a few seeds; returns how many
// of the runs stopped on the expressions' budget and how many ended.
std::pair<int, int> sweep(const std::string& text, const std::vector<int>& budgets, int players) {
  int over = 0, ended = 0;
  for (int budget : budgets) {
    auto l = test::load_text(with_budget(text, budget));
    std::string said;
    for (const auto& m : l.messages()) said += m + "\n";
    INFO(said);
    REQUIRE(l.game);
    auto native = test::compiled(l.game);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      INFO("limits.steps " << budget << ", seed " << seed);
      std::string stopped = agree(*l.game, *native, players, seed);
      if (stopped.find("the expressions took more than") != std::string::npos) ++over;
      if (stopped.empty()) ++ended;
    }
  }
  return {over, ended};
}

// Aggregates over a growing range and functions calling functions in effects; a condition
// that reads only the last parameter (worked out once per card in a listing); a score
// worked out at the end on what the run has left.
const std::string growing = R"yaml(kata: 1
game: Growing
players: 2
components:
  card:
    each: {value: 1..6}
    name: "{value}"
    in: deck
zones:
  deck: {order: stack, visibility: nobody}
  hand: {per_player: true, order: stack, visibility: owner}
variables:
  n: 0
  t: 0
functions:
  twice(x): "x + x"
  deep(x): "twice(twice(x))"
actions:
  grow:
    do: |
      n += 1
      t = sum(deep(count(c in deck where c.value <= k)) for k in 1..n)
  take:
    params: {who: players, c: deck}
    when: "count(d in deck where d.value < c.value) >= 0"
    do: move c to who.hand
flow: |
  shuffle deck
  repeat until n > 6 or size(deck) == 0 { choose P1: grow | take }
scoring:
  score: "sum(c.value * n for c in p.hand) + count(c in deck where c.value > n)"
)yaml";

// An aggregate whose range's bound is an aggregate too: both spend, the bound first (each
// grow spends 6 rounds of the count, then n of the sum), so that a budget between stops one
// grow and not the one before.
const std::string bound = R"yaml(kata: 1
game: Bound
players: 2
components:
  card:
    each: {value: 1..6}
    name: "{value}"
    in: deck
zones:
  deck: {order: stack, visibility: nobody}
variables:
  n: 0
  u: 0
actions:
  grow:
    do: |
      n += 1
      u = sum(k for k in 1..count(c in deck where c.value <= n))
flow: |
  repeat until n > 3 { choose P1: grow }
)yaml";

}  // namespace

TEST_CASE("compiled code stops on the expressions' budget where the interpreter does", "[native][budgets]") {
  auto [over, ended] = sweep(growing, {1, 3, 6, 10, 16, 25, 40, 60, 100, 1000}, 2);
  // The sweep went through both: games stopped by the budget, and games that ended.
  CHECK(over > 0);
  CHECK(ended > 0);
}

TEST_CASE("an aggregate over a range whose bound spends stops where the interpreter does", "[native][budgets]") {
  auto [over, ended] = sweep(bound, {6, 7, 8, 9, 10}, 2);
  CHECK(over > 0);
  CHECK(ended > 0);
}

TEST_CASE("a condition kept while decisions are listed spends the budget once per value", "[native][budgets]") {
  // `take` is listed for 2 players and 6 cards: its condition, 6 rounds, is worked out for
  // each card once (36 rounds), not for each player and card (72).
  auto l = test::load_text(with_budget(growing, 40));
  REQUIRE(l.game);
  auto native = test::compiled(l.game);
  for (const Game* g : {l.game.get(), native.get()}) {
    State s = new_game(*g, 2, 1, default_options(*g));
    std::vector<Decision> legal;
    legal_decisions(*g, s, legal);
    CHECK(legal.size() == 13);
  }
}

TEST_CASE("compiled walks spend the budget of the code around them", "[native][budgets]") {
  // walk() is left to the interpreter: the steps it spends come off compiled code's count.
  const std::string walking = R"yaml(kata: 1
game: Walking
players: 2
components:
  point:
    each: {n: 0..8}
    in: board
links:
  point: "abs(a.n - b.n) == 1 or abs(a.n - b.n) == 3"
zones:
  board: {visibility: everyone, order: set}
  spot: {per: point, visibility: everyone}
variables:
  k: 1
  t: 0
functions:
  at(i): "find(q in board where q.n == i)"
actions:
  step:
    params:
      dest: walk(at(0), k, q where q.n >= 0)
    do: |
      k += 1
      t = count(e in walk(dest, k, q where count(r in board where r.n < q.n) >= 0))
flow: |
  repeat 6 times { choose P1: step }
)yaml";
  auto [over, ended] = sweep(walking, {1, 4, 10, 30, 100, 300, 1000, 5000}, 2);
  CHECK(over > 0);
  CHECK(ended > 0);
}

TEST_CASE("a message's values spend nothing of the expressions' budget", "[budgets][runtime][say]") {
  // The message takes 30 of the 40 rounds, the effect after it 30: watched or not, the
  // effect is within the budget.
  auto l = test::load_text(R"yaml(kata: 1
game: Told
players: 2
variables:
  t: 0
flow: |
  say "{sum(x for x in 1..30)}"
  t = sum(x for x in 1..30)
  choose P1: done
actions:
  done: ''
limits: {steps: 40}
)yaml");
  REQUIRE(l.game);
  State quiet = new_game(*l.game, 2, 1, default_options(*l.game));
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  State watched = new_game(*l.game, 2, 1, default_options(*l.game), &hooks);
  CHECK(watched == quiet);
  CHECK(quiet[l.game->layout.globals] == 465);
  auto said = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::say; });
  REQUIRE(said != events.end());
  CHECK(said->said.at(0).value == 465);
  CHECK_FALSE(said->said.at(0).failed);
}

TEST_CASE("kata simulate --compiled reports the budget's errors as without it", "[native][budgets][cli]") {
  test::use_test_cache();
  for (int budget : {22, 30, 60}) {
    INFO("limits.steps " << budget);
    std::string file = test::temp("growing-" + std::to_string(budget) + ".yaml", with_budget(growing, budget));
    test::Run a = test::run_kata("simulate " + file + " --games 40 --seed 3");
    test::Run b = test::run_kata("simulate " + file + " --games 40 --seed 3 --compiled");
    // Games stopped by the budget are counted as errors, and the first messages shown.
    CHECK(test::has(a.out, "the expressions took more than") == (budget < 60));
    CHECK(b.status == a.status);
    CHECK(b.out == a.out);
  }
}
