// Reading a decision in notation (parse_decision, runtime/view.hpp): it reads the text one
// parameter at a time, so its cost is that of the parameters' lists, not of their product.
// It must read exactly what writing out every legal decision and comparing would (the
// oracle below, how it was once done): every legal decision's notation reads back as that
// decision, and any other text, random or a legal one mutated, is taken as the same
// decision as the oracle's or refused by both.
#include <fmt/format.h>
#include <rapidcheck/catch.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "log/log.hpp"
#include "scenario/scenario.hpp"
#include "support.hpp"

using namespace kata;
using kata::test::has;

namespace {

// The first legal decision whose notation, compared as notation is, is the text.
std::optional<Decision> oracle(const Game& g, const State& s, const std::string& text) {
  if (s.status() != Status::waiting) return std::nullopt;
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  std::string want = normal(text);
  for (const Decision& d : legal)
    if (normal(decision_text(g, s, d)) == want) return d;
  return std::nullopt;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string joined(const std::vector<std::string>& words, const char* between = " ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : between) + w;
  return out;
}

// Texts to read in state s: some legal notations, each mutated in a few ways (a word
// dropped, repeated, swapped, cut short, replaced by another word of the game, case and
// spacing changed), and runs of the game's words at random.
std::vector<std::string> texts_to_try(const Game& g, const State& s, uint64_t& rng) {
  auto pick = [&](size_t n) { return static_cast<size_t>(uniform(rng, static_cast<uint32_t>(n))); };
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  std::vector<std::string> notations,
      pool = {"", "none", "true", "false", "0", "-1", "1", "#1", "P1", "p9", "xyz"};
  for (size_t i = 0; i < std::min<size_t>(legal.size(), 40); ++i)
    notations.push_back(decision_text(g, s, legal[legal.size() <= 40 ? i : pick(legal.size())]));
  for (const auto& n : notations)
    for (const auto& w : split_words(n)) pool.push_back(w);
  for (const Action& a : g.program.actions) pool.push_back(a.name);
  for (size_t i = 0; i < 20 && !g.card_names.empty(); ++i)
    pool.push_back(g.card_names[pick(g.card_names.size())]);
  std::vector<std::string> out;
  for (const auto& n : notations) {
    out.push_back(n);
    std::vector<std::string> w = split_words(n);
    for (int m = 0; m < 6; ++m) {
      std::vector<std::string> v = w;
      switch (pick(8)) {
        case 0:
          if (!v.empty()) v.erase(v.begin() + static_cast<long>(pick(v.size())));
          break;
        case 1:
          if (!v.empty())
            v.insert(v.begin() + static_cast<long>(pick(v.size())), v[pick(v.size())]);
          break;
        case 2:
          if (v.size() > 1) std::swap(v[pick(v.size())], v[pick(v.size())]);
          break;
        case 3:
          if (!v.empty()) v[pick(v.size())] = pool[pick(pool.size())];
          break;
        case 4: v.push_back(pool[pick(pool.size())]); break;
        case 5:
          if (!v.empty()) {
            auto& x = v[pick(v.size())];
            x = x.substr(0, pick(x.size() + 1));
          }
          break;
        case 6: out.push_back(joined(v, "  \t")); break;
        default:
          for (auto& x : v)
            for (char& c : x) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      std::string text(pick(4) == 0 ? " " : "");  // (not `"" + std::string`: GCC 12 -O3, -Wrestrict)
      text += joined(v);
      if (pick(4) == 0) text += "\n";
      out.push_back(text);
    }
  }
  // Decisions of the choice's actions with values from the parameters' lists, legal or
  // not (a `when:` fails): their refusals are the conditions'.
  const ChoiceSite& site = g.program.sites[s[Layout::site]];
  for (int r = 0; r < 20 && s.status() == Status::waiting; ++r) {
    Decision d;
    d.action = site.actions[pick(site.actions.size())];
    const Action& a = g.program.actions[d.action];
    try {
      for (size_t k = 0; k < a.params.size(); ++k) {
        auto values = parameter_domain(g, s, d, static_cast<int>(k));
        if (!values.empty()) d.args[k] = static_cast<int32_t>(values[pick(values.size())]);
      }
    } catch (const RuntimeError&) {
      continue;  // a list that the values before it do not allow
    }
    out.push_back(decision_text(g, s, d));
  }
  for (int r = 0; r < 20; ++r) {
    std::vector<std::string> v;
    for (size_t k = pick(6); k > 0; --k) v.push_back(pool[pick(pool.size())]);
    out.push_back(joined(v));
  }
  return out;
}

// The legal decisions and texts of a position, each read by parse_decision and the oracle.
void check_position(const Game& g, const State& s, uint64_t& rng) {
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  for (const Decision& d : legal) {
    std::string why;
    auto read = parse_decision(g, s, decision_text(g, s, d), why);
    RC_ASSERT(read.has_value());
    RC_ASSERT(*read == d);
  }
  for (const std::string& text : texts_to_try(g, s, rng)) {
    std::string why;
    auto read = parse_decision(g, s, text, why);
    auto expected = oracle(g, s, text);
    if (read != expected) RC_FAIL(fmt::format("'{}' read as the oracle would not", text));
    RC_ASSERT(read.has_value() || !why.empty());
  }
}

}  // namespace

TEST_CASE("every rule file: notation reads back as the decision, and as the oracle reads it") {
  for (const auto& g : test::rule_games()) {
    rc::prop(g->path + ": notation", [g = g]() {
      int players = *rc::gen::inRange(g->min_players, g->max_players + 1);
      uint64_t seed = *rc::gen::arbitrary<uint64_t>();
      int steps = *rc::gen::inRange(0, 60);
      State s = new_game(*g, players, seed, test::random_options(*g, players));
      uint64_t rng = seed ^ 0x9e3779b97f4a7c15ULL;
      test::random_steps(*g, s, steps, rng);
      check_position(*g, s, rng);
    });
  }
}

namespace {

// A game of `rounds` decisions, each among `params` (2^20 decisions for 1..1024 twice).
std::string big_menu(const std::string& params, int rounds) {
  return fmt::format(R"(game: T
players: 2
variables: {{n: 2048, total: 0}}
flow: |
  repeat {} times {{ choose P1: pick }}
actions:
  pick:
    params: {}
    when: [a != b]
    do: total += a * b
scoring:
  score: total
)",
                     rounds, params);
}

// Writes the log of a game of P1 deciding `texts`, read by parse_decision.
std::string log_of(const Game& g, const std::vector<std::string>& texts) {
  std::ostringstream out;
  {
    LogWriter log(out);
    log.header(make_header(g, 2, 1, default_options(g), {"script", "random"}));
    std::vector<Event> events;
    Hooks hooks{&events, nullptr};
    State s = new_game(g, 2, 1, default_options(g), &hooks);
    log.events(g, events);
    for (size_t i = 0; i < texts.size(); ++i) {
      std::string why;
      auto d = parse_decision(g, s, texts[i], why);
      REQUIRE(d);
      log.decision(static_cast<int>(i) + 1, s.chooser(), texts[i]);
      events.clear();
      apply(g, s, *d, &hooks);
      log.events(g, events);
    }
    if (s.over()) log.result(g, s);
  }
  return out.str();
}

}  // namespace

TEST_CASE("reading a decision of a 2^20 menu reads each parameter's list, not their product") {
  auto l = test::load_path(test::temp("big-menu.yaml", big_menu("{a: 1..1024, b: 1..1024}", 200)));
  REQUIRE(l.game);
  const Game& g = *l.game;
  State s = new_game(g, 2, 1, default_options(g));
  // Writing out 2^20 decisions for each of 200 readings would not end in a test's time.
  for (int i = 0; i < 200; ++i) {
    std::string why;
    auto d = parse_decision(g, s, fmt::format("pick {} {}", 1024 - i, i + 1), why);
    REQUIRE(d);
    CHECK(d->args[0] == 1024 - i);
    CHECK(d->args[1] == i + 1);
    apply(g, s, *d);
  }
  CHECK(s.over());
  std::string why;
  CHECK_FALSE(parse_decision(g, s, "pick 1 2", why));
  CHECK(why == "the game is not waiting for a decision");
  // Refusals read as far as the text goes, and say the choices there.
  State t = new_game(g, 2, 1, default_options(g));
  CHECK_FALSE(parse_decision(g, t, "pick 7 7", why));
  CHECK(why == "'pick' requires a != b");
  CHECK_FALSE(parse_decision(g, t, "pick 1025 7", why));
  CHECK(has(why, "'1025' is not a choice for a (choices: 1, 2, 3,"));
  CHECK_FALSE(parse_decision(g, t, "pick 7", why));
  CHECK(why == "'pick' takes 2 values: pick a b");
}

TEST_CASE("a log of 2^20-decision choices replays") {
  std::string rules = test::temp("big-menu-log.yaml", big_menu("{a: 1..1024, b: 1..1024}", 4));
  auto l = test::load_path(rules);
  REQUIRE(l.game);
  std::string log = test::temp(
      "big-menu.jsonl", log_of(*l.game, {"pick 1 1024", "pick 512 3", "pick 1024 1", "pick 9 8"}));
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  ReplayResult r = replay_log(log, -1, sources, diags);
  INFO(r.error);
  CHECK(r.ok);
  CHECK(r.decisions == 4);
  CHECK(scores(*l.game, r.final)[0] == 1024 + 512 * 3 + 1024 + 72);
}

TEST_CASE("a logged decision at a choice too large to list stops the replay as the game stopped") {
  // 2048 x 2048 is known only while playing: the choice cannot be listed, so the game
  // stops there, whatever decision the log claims was made.
  std::string rules = test::temp("too-big-menu.yaml", big_menu("{a: 1..n, b: 1..n}", 1));
  auto l = test::load_path(rules);
  REQUIRE(l.game);
  std::string why;
  State s = new_game(*l.game, 2, 1, default_options(*l.game));
  REQUIRE(parse_decision(*l.game, s, "pick 1 2", why));  // the text alone is a decision
  std::string log = test::temp("too-big-menu.jsonl", log_of(*l.game, {"pick 1 2"}));
  std::shared_ptr<Sources> sources;
  Diagnostics diags;
  ReplayResult r = replay_log(log, -1, sources, diags);
  CHECK_FALSE(r.ok);
  CHECK(has(r.error, ":2: the game stopped: this choice offers more than 1048576 decisions"));
}

TEST_CASE("a scenario's play at a choice too large to list stops the game as playing would") {
  std::string rules = test::temp("too-big-scenario.yaml", big_menu("{a: 1..n, b: 1..n}", 1));
  std::string scenario = test::temp("too-big-scenario-test.yaml",
                                    "rules: " + std::filesystem::path(rules).filename().string() +
                                        "\nplayers: 2\nsteps:\n  - play: P1 pick 1 2\n");
  ScenarioResult r = run_scenario(scenario);
  CHECK_FALSE(r.passed);
  REQUIRE(r.diags.items().size() == 1);
  CHECK(r.diags.items()[0].message ==
        "the game stopped: this choice offers more than 1048576 decisions (combinations of the "
        "actions' parameters)");
}
