// The search bots (agents/search.hpp): they cannot peek (two states that differ only in
// what the bot's seat cannot know give the same decision for the same seed), games with
// them are reproducible, and their specs are read and refused as docs/agents.md says.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <rapidcheck/catch.h>

#include <catch2/catch.hpp>
#include <iostream>

#include "agents/runner.hpp"
#include "agents/search.hpp"
#include "support.hpp"

using namespace kata;

namespace {

std::unique_ptr<Agent> bot(const std::string& spec, int seat, uint64_t seed,
                           const Game* g = nullptr) {
  std::istringstream in;
  std::ostringstream out;
  static Terminal t{in, out};
  std::string error;
  auto a = make_agent(spec, seat, seed, t, error, g);
  INFO(error);
  REQUIRE(a);
  return a;
}

}  // namespace

TEST_CASE("a bot cannot peek: what its seat cannot know does not change its decision",
          "[properties][search]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    int differed = 0, runs = 0;
    rc::prop(g->path + ": twins decide alike", [&, g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      int lead_in = *rc::gen::inRange(0, 40);
      State s = new_game(*g, players, seed, kata::test::random_options(*g, players));
      uint64_t rng = seed ^ 0x5bd1e995u;
      kata::test::random_steps(*g, s, lead_in, rng);
      RC_PRE(!s.over());
      ++runs;
      int seat = s.chooser();
      State twin = rename_cards(*g, s, kata::test::hidden_renaming(*g, s, seat, rng));
      differed += twin != s;
      if (twin == s) return;  // nothing hidden was renamed: the twin is the state itself
      InfoSet a(*g, s, seat), b(*g, twin, seat);
      uint64_t ra = rng, rb = rng;
      RC_ASSERT(search_decision(a, {20, 0}, ra) == search_decision(b, {20, 0}, rb));
      RC_ASSERT(greedy_decision(a, ra) == greedy_decision(b, rb));
    });
    // (Catch runs the test case once for each property: only one of them counted here.)
    if (runs > 0 && hides_information(*g)) CHECK(differed > kata::test::per_cases(20));
  }
}

namespace {

// Each player is dealt two of six numbered cards; P1 asks twice whether P2 holds a number
// (told yes or no), then guesses one that P2 holds.
const char* ask_game = R"(game: Ask
players: 2
components:
  card:
    each: {n: 1..6}
    name: "c{n}"
    in: deck
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set}
flow: |
  shuffle deck
  repeat 2 times { for p in players { move top(deck) to p.hand } }
  choose P1: ask
  choose P1: ask
  choose P1: guess
actions:
  ask:
    params: {k: 1..6}
    do: |
      if any(c.n == k for c in P2.hand) { say "P2 holds {k}" } else { say "P2 does not hold {k}" }
  guess:
    params: {k: 1..6}
    do: |
      if any(c.n == k for c in P2.hand) { win P1 } else { win P2 }
)";

bool holds(const Game& g, const State& s, int seat, int number) {
  for (int c = 0; c < g.card_count; ++c)
    if (s[g.layout.card_zone + c] == g.zone_instance(1, seat) &&
        g.card_names[c] == fmt::format("c{}", number))
      return true;
  return false;
}

}  // namespace

TEST_CASE("a search bot's samples agree with what its seat was told since chance was last used",
          "[search]") {
  auto l = kata::test::load_text(ask_game);
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const Game& g = *l.game;
  int ruled_out_plain = 0, told_yes = 0, told_no = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    State from = new_game(g, 2, seed, default_options(g));
    // P1 asks for a number it does not hold: the answer is news.
    int k = 1;
    while (holds(g, from, 0, k)) ++k;
    State s = from;
    std::vector<Decision> legal, since;
    legal_decisions(g, s, legal);
    Decision ask = legal.at(static_cast<size_t>(k - 1));
    REQUIRE(decision_text(g, s, ask) == fmt::format("ask {}", k));
    std::vector<std::string> told;
    told_step(g, s, ask, 0, told);
    since.push_back(ask);
    bool yes = holds(g, s, 1, k);
    REQUIRE(told ==
            std::vector<std::string>{fmt::format("P2 {} {}", yes ? "holds" : "does not hold", k)});
    (yes ? told_yes : told_no) += 1;
    History history{&from, &since, told_step};
    InfoSet consistent(g, s, 0, false, &history), plain(g, s, 0);
    uint64_t rng = seed;
    State sample;
    for (int i = 0; i < 100; ++i) {
      consistent.sample(rng, sample);
      CHECK(holds(g, sample, 1, k) == yes);
      CHECK(make_view(g, sample, 0) == make_view(g, s, 0));
      plain.sample(rng, sample);
      ruled_out_plain += holds(g, sample, 1, k) != yes;
    }
    CHECK(consistent.sample_stats().consistent == InfoSet::consistent_wanted);
    CHECK(!consistent.sample_stats().fell_back);
    // A bot that samples once (greedy) looks for one state, and it agrees too.
    InfoSet once(g, s, 0, false, &history);
    once.want_consistent(1);
    once.sample(rng, sample);
    CHECK(once.sample_stats().consistent == 1);
    CHECK(holds(g, sample, 1, k) == yes);
    CHECK(plain.sample_stats().attempts == 0);
  }
  CHECK(told_yes > 0);
  CHECK(told_no > 0);
  // Without the history, samples deal what the answer ruled out.
  CHECK(ruled_out_plain > 100);
}

TEST_CASE("a match tells a search bot's samples what happened since chance", "[search]") {
  auto l = kata::test::load_text(ask_game);
  REQUIRE(l.game);
  std::vector<std::unique_ptr<Agent>> agents;
  agents.push_back(bot("ismcts:20", 0, 3));
  agents.push_back(bot("random", 1, 3));
  MatchResult r = play_match(*l.game, 2, 3, default_options(*l.game), agents);
  REQUIRE(r.completed);
  // The first ask follows the deal (chance): nothing to agree with yet. The second ask and
  // the guess follow asks.
  CHECK(r.consistent == std::vector<int>{2, 0});
  CHECK(r.fell_back == std::vector<int>{0, 0});
}

namespace {

// Each player holds five numbered cards, and in turn hides one of them face down on their
// own pile, three times; the others are told whether the player still holds a high card.
// Which card another hid stays unknown: a sampler that took the true one would be seen here.
const char* hide_game = R"(game: Hide
players: 2
components:
  card:
    per_player: true
    each: {n: 1..5}
    name: "{owner} c{n}"
    in: hand
zones:
  hand: {per_player: true, visibility: owner, order: set}
  pile: {per_player: true, visibility: owner}
flow: |
  repeat 3 times { for p in players { choose p: hide } }
actions:
  hide:
    params: {c: player.hand}
    do: |
      move c to player.pile face down
      if any(d.n > 3 for d in player.hand) { say "{player} still holds a high card" }
scoring:
  score: sum(c.n for c in p.pile)
)";

// Counts of the twin property below: cases that reached the seat's decision with samples
// consistent with a history, and those whose history held another's hidden choice.
struct TwinCounts {
  int runs = 0, with_history = 0, hidden_choices = 0;
};

// At a random point of a random game, a twin is made that differs only in what seat x
// cannot know (which hidden cards, and in what order); both go on with the same decisions
// (x's: the same item of its menu) while they stay twins, to x's next decision. There, the
// samples and the decision of a bot with the same generator must be the same. `longest`:
// the most decisions played before the twins are made.
void twins_decide_alike(const Game& g, TwinCounts& n, int longest = 40) {
  ++n.runs;
  int players = *rc::gen::inRange(g.min_players, g.max_players + 1);
  uint64_t seed = *rc::gen::arbitrary<uint64_t>();
  int lead_in = *rc::gen::inRange(0, longest), after = *rc::gen::inRange(1, longest / 2 + 1);
  State a = new_game(g, players, seed, kata::test::random_options(g, players));
  uint64_t rng = seed ^ 0x5bd1e995u;
  kata::test::random_steps(g, a, lead_in, rng);
  RC_PRE(!a.over());
  int x = static_cast<int>(uniform(rng, static_cast<uint32_t>(players)));
  std::vector<int> to = kata::test::hidden_renaming(g, a, x, rng, *rc::gen::arbitrary<bool>());
  State b = rename_cards(g, a, to);
  HistoryKeeper history_a(a, players, told_step), history_b(b, players, told_step);
  std::vector<Decision> la, lb;
  std::vector<std::string> told_a, told_b;
  int hidden_choices = 0;  // decisions that differ between the twins (another's hidden card)
  // Makes la[k] in a and its twin in b; true if the twins may differ for x from here.
  auto parted = [&](size_t k) {
    Decision da = la[k], db;
    told_a.clear(), told_b.clear();
    try {
      // A twin may be a state the rules never reach (a hidden card where none could be).
      legal_decisions(g, b, lb);
      if (lb.size() != la.size()) return true;
      db = a.chooser() == x ? lb[k] : rename_cards(g, da, to);
      if (std::find(lb.begin(), lb.end(), db) == lb.end()) return true;  // a hidden card read
      told_step(g, b, db, x, told_b);
    } catch (const RuntimeError&) {
      return true;
    }
    told_step(g, a, da, x, told_a);
    if (told_a != told_b) return true;  // x is told them apart
    if (!kata::test::same_but_locals(g, rename_cards(g, a, to), b))
      return true;  // a hidden card read
    if (kata::test::renamed_in_sight(g, a, x, to)) return true;
    history_a.made(da, a);
    history_b.made(db, b);
    hidden_choices += !(da == db);
    return false;
  };
  for (int i = 0; !a.over() && (i < after || a.chooser() != x) && i < 60; ++i) {
    legal_decisions(g, a, la);
    if (parted(uniform(rng, static_cast<uint32_t>(la.size())))) return;
  }
  if (a.over() || a.chooser() != x) return;
  History ha = history_a.of(x), hb = history_b.of(x);
  InfoSet ia(g, a, x, false, &ha), ib(g, b, x, false, &hb);
  uint64_t ra = rng, rb = rng;
  State sa, sb;
  for (int k = 0; k < 4; ++k) {
    ia.sample(ra, sa);
    ib.sample(rb, sb);
    RC_ASSERT(kata::test::same_but_locals(g, sa, sb));
  }
  RC_ASSERT(search_decision(ia, {20, 0}, ra) == search_decision(ib, {20, 0}, rb));
  RC_ASSERT(ia.sample_stats().consistent == ib.sample_stats().consistent);
  RC_ASSERT(ia.sample_stats().attempts == ib.sample_stats().attempts);
  if (ia.sample_stats().consistent == 0) return;
  ++n.with_history;
  n.hidden_choices += hidden_choices;
}

}  // namespace

TEST_CASE("a bot cannot peek through its history: twins told the same since chance decide alike",
          "[properties][search]") {
  for (const auto& g : kata::test::rule_games()) {
    if (!hides_information(*g)) continue;
    INFO(g->path);
    TwinCounts n;
    rc::prop(g->path + ": twins with a history decide alike",
             [&, g = g] { twins_decide_alike(*g, n); });
    // (Catch runs the test case once for each property: only one of them counted here.)
    if (n.runs > 0) CHECK(n.with_history > kata::test::per_cases(5));
  }
  auto l = kata::test::load_text(hide_game);
  REQUIRE(l.game);
  TwinCounts n;
  rc::prop("hidden choices: twins with a history decide alike",
           [&] { twins_decide_alike(*l.game, n, 4); });
  if (n.runs > 0) CHECK(n.hidden_choices > kata::test::per_cases(10));
}

TEST_CASE("a game between search bots is reproducible", "[search]") {
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    int players = g->min_players;
    auto play = [&] {
      std::vector<std::unique_ptr<Agent>> agents;
      agents.push_back(bot(kata::test::long_game(*g) ? "random" : "ismcts:8", 0, 7));
      agents.push_back(bot("greedy", 1, 7));
      for (int p = 2; p < players; ++p) agents.push_back(bot("random", p, 7));
      MatchResult r = play_match(*g, players, 7, default_options(*g), agents);
      REQUIRE(r.completed);
      return r.final;
    };
    CHECK(play() == play());
  }
}

TEST_CASE("an mcts made without the game stops a game that hides cards at its first decision",
          "[search]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  std::vector<std::unique_ptr<Agent>> agents;
  agents.push_back(bot("mcts:5", 0, 1));
  for (int p = 1; p < 3; ++p) agents.push_back(bot("random", p, 1));
  MatchResult r = play_match(*l.game, 3, 1, default_options(*l.game), agents);
  CHECK(!r.completed);
  CHECK(r.stopped_by == "P1 (mcts:5) stopped before the end");
}

TEST_CASE("mcts sees everything, so it is refused where cards are hidden unless it cheats",
          "[search]") {
  std::istringstream in;
  std::ostringstream out;
  Terminal t{in, out};
  for (const auto& g : kata::test::rule_games()) {
    INFO(g->path);
    std::string error;
    auto fair = make_agent("mcts:50", 0, 1, t, error, g.get());
    if (hides_information(*g)) {
      CHECK(!fair);
      CHECK(error ==
            "agent 'mcts:50': this game hides cards from the players, and mcts would see them; use "
            "ismcts, or mcts:...:cheat for an upper bound that sees every card");
      error.clear();
      CHECK(make_agent("mcts:50:cheat", 0, 1, t, error, g.get()));
    } else {
      CHECK(fair);
    }
    CHECK(error.empty());
  }
  // Kendo's pieces are all in sight; the other three games hide cards.
  int hiding = 0;
  for (const auto& g : kata::test::rule_games()) hiding += hides_information(*g);
  CHECK(hiding == 3);
}

TEST_CASE("search agents' specs", "[search]") {
  std::istringstream in;
  std::ostringstream out;
  Terminal t{in, out};
  std::string error;
  for (const char* good : {"ismcts", "ismcts:1", "ismcts:400", "ismcts:500ms", "mcts",
                           "mcts:9999999", "mcts:20ms:cheat", "mcts:cheat", "greedy"}) {
    error.clear();
    INFO(good);
    auto a = make_agent(good, 0, 1, t, error);
    CHECK(a);
    CHECK(error.empty());
    if (a) CHECK(a->kind() == good);
  }
  auto bad = [&](const std::string& spec) {
    error.clear();
    CHECK(!make_agent(spec, 0, 1, t, error));
    return error;
  };
  CHECK(bad("ismcts:0") ==
        "bad option '0' in agent 'ismcts:0'; write ismcts:N (iterations, 1 to 9999999) or "
        "ismcts:Nms (a time budget "
        "in milliseconds)");
  CHECK(bad("ismcts:10000000") ==
        "bad option '10000000' in agent 'ismcts:10000000'; write ismcts:N (iterations, 1 to "
        "9999999) or ismcts:Nms "
        "(a time budget in milliseconds)");
  CHECK(bad("ismcts:cheat") ==
        "bad option 'cheat' in agent 'ismcts:cheat'; write ismcts:N (iterations, 1 to 9999999) or "
        "ismcts:Nms (a time "
        "budget in milliseconds)");
  CHECK(bad("mcts:5:5") ==
        "bad option '5' in agent 'mcts:5:5'; write mcts:N (iterations, 1 to 9999999) or mcts:Nms "
        "(a time budget in "
        "milliseconds), then :cheat if wanted");
  CHECK(bad("greedy:5") == "agent 'greedy' takes no options (in 'greedy:5')");
  CHECK(bad("ismct") ==
        "unknown agent 'ismct'; did you mean 'ismcts'? the agents are human, random, script:FILE, "
        "ismcts[:N], mcts[:N], greedy");
}
