// Move-generation counts of the rule files, asserted (chess programs' "perft"): a change
// to the language or a rule file that changes which moves are legal changes a number here.
// docs/games/kendo.md checks the depth-1 figures by hand. Tic-tac-toe's, Connect Four's,
// Breakthrough's, Reversi's and English draughts' (by turns) are the published ones (a game that is won stops: its
// sequences go no deeper); the native twins of bench/ are checked against them too.
#include <catch2/catch.hpp>

#include "../bench/native_classics.hpp"
#include "agents/perft.hpp"
#include "support.hpp"

using namespace kata;

namespace {

std::vector<uint64_t> counts(const std::string& file, int players, const std::vector<std::pair<std::string, std::string>>& options, int depth,
                             bool native = false, PerftUnit unit = PerftUnit::decision) {
  auto l = kata::test::load_file(file);
  REQUIRE(l.game);
  if (native) l.game = kata::test::compiled(l.game);
  auto values = default_options(*l.game);
  for (auto& [k, v] : options) {
    std::string why;
    REQUIRE(set_option(*l.game, values, k, v, why));
  }
  State s = new_game(*l.game, players, 1, values);
  std::vector<uint64_t> per_depth;
  uint64_t total = perft(*l.game, s, depth, &per_depth, unit);
  CHECK(total == (depth == 0 ? 1 : per_depth.back()));
  return per_depth;
}

}  // namespace

TEST_CASE("perft counts the sequences of exactly N decisions", "[perft]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  State s = new_game(*l.game, 3, 1, default_options(*l.game));
  CHECK(perft(*l.game, s, 0) == 1);
  // The first player flips or draws; after a draw they discard one of two cards.
  CHECK(perft(*l.game, s, 1) == 2);
  std::vector<uint64_t> per;
  uint64_t total = perft(*l.game, s, 2, &per);
  CHECK(per == std::vector<uint64_t>{2, 4});
  CHECK(total == per.back());  // flip, then P2 flips or draws; draw, then two discards
}

TEST_CASE("perft by turns counts a seat's decisions in a row as one", "[perft]") {
  auto l = kata::test::load_file("rules/kobayakawa.yaml");
  REQUIRE(l.game);
  State s = new_game(*l.game, 3, 1, default_options(*l.game));
  // P1's turn is a flip, or a draw and then a discard of one of two cards: three turns.
  std::vector<uint64_t> per;
  CHECK(perft(*l.game, s, 1, &per, PerftUnit::turn) == 3);
  CHECK(per == std::vector<uint64_t>{3});
  // Each is followed by P2's turn, a flip or a draw and a discard (three again).
  CHECK(perft(*l.game, s, 2, &per, PerftUnit::turn) == 9);
  CHECK(per == std::vector<uint64_t>{3, 9});
  CHECK(perft(*l.game, s, 0, &per, PerftUnit::turn) == 1);
}

TEST_CASE("Kendo's move counts from each start layout", "[perft][kendo]") {
  // Depth 1 is P1's first move; a camp next to P1's (adjacent, and with 4 players) blocks
  // half of them. docs/games/kendo.md counts the depth-1 figures by hand.
  CHECK(counts("rules/kendo.yaml", 2, {{"layout", "facing"}}, 3) == std::vector<uint64_t>{14, 190, 3213});
  CHECK(counts("rules/kendo.yaml", 2, {{"layout", "side_by_side"}}, 3) == std::vector<uint64_t>{14, 179, 2927});
  CHECK(counts("rules/kendo.yaml", 2, {{"layout", "adjacent"}}, 3) == std::vector<uint64_t>{7, 64, 749});
  CHECK(counts("rules/kendo.yaml", 3, {}, 3) == std::vector<uint64_t>{14, 179, 2083});
  CHECK(counts("rules/kendo.yaml", 4, {}, 3) == std::vector<uint64_t>{7, 64, 355});
}

TEST_CASE("Tic-tac-toe's perft to the full grid", "[perft][classic]") {
  const std::vector<uint64_t> published{9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
  CHECK(counts("rules/tictactoe.yaml", 2, {}, 9) == published);
  CHECK(counts("rules/tictactoe.yaml", 2, {}, 9, true) == published);
}

TEST_CASE("Connect Four's perft to depth 7, and 8 compiled", "[perft][classic]") {
  const std::vector<uint64_t> published{7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
  CHECK(counts("rules/connect4.yaml", 2, {}, 7) == std::vector<uint64_t>(published.begin(), published.end() - 1));
  CHECK(counts("rules/connect4.yaml", 2, {}, 8, true) == published);
}

// Depth 8 interpreted lists about a million positions (seconds): a bench, hidden from
// ctest (`kata_tests "[.perft-deep]"`).
TEST_CASE("Connect Four's perft at depth 8, interpreted", "[.perft-deep][classic]") {
  const std::vector<uint64_t> published{7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
  CHECK(counts("rules/connect4.yaml", 2, {}, 8) == published);
}

TEST_CASE("Breakthrough's perft to depth 4, and 5 compiled", "[perft][classic]") {
  const std::vector<uint64_t> published{22, 484, 11132, 256036, 6182818};
  CHECK(counts("rules/breakthrough.yaml", 2, {}, 4) == std::vector<uint64_t>(published.begin(), published.end() - 1));
  CHECK(counts("rules/breakthrough.yaml", 2, {}, 5, true) == published);
}

TEST_CASE("Reversi's perft to depth 5, and 8 compiled", "[perft][classic]") {
  // No side passes before the ninth move: the usual perft's passes do not arise yet.
  const std::vector<uint64_t> published{4, 12, 56, 244, 1396, 8200, 55092, 390216};
  CHECK(counts("rules/reversi.yaml", 2, {}, 5) == std::vector<uint64_t>(published.begin(), published.begin() + 5));
  CHECK(counts("rules/reversi.yaml", 2, {}, 8, true) == published);
}

TEST_CASE("English draughts' perft by turns to depth 6, and 8 compiled", "[perft][classic]") {
  // A multi-jump is asked one jump at a time: the published counts are of turns. Captures
  // start at depth 3 (a piece that can capture must), and the first double jump at depth 7.
  const std::vector<uint64_t> published{7, 49, 302, 1469, 7361, 36768, 179740, 845931};
  CHECK(counts("rules/draughts.yaml", 2, {}, 6, false, PerftUnit::turn) == std::vector<uint64_t>(published.begin(), published.begin() + 6));
  CHECK(counts("rules/draughts.yaml", 2, {}, 8, true, PerftUnit::turn) == published);
  // Counted by decisions, a sequence that ends inside a multi-jump is counted, and one
  // that completes it goes deeper: the counts part at depth 7.
  auto by_decision = counts("rules/draughts.yaml", 2, {}, 7, true);
  CHECK(std::vector<uint64_t>(by_decision.begin(), by_decision.begin() + 6) == std::vector<uint64_t>(published.begin(), published.begin() + 6));
  CHECK(by_decision[6] == 179255);
}

TEST_CASE("Chess's perft to depth 3, and 5 compiled", "[perft][classic]") {
  // En passant first arises at depth 5 (258 of the 4865609), castling and promotion later:
  // the scenarios of rules/tests/chess/ count them from the positions that have them
  // (Kiwipete and positions 3 to 5 of the Chess Programming Wiki).
  const std::vector<uint64_t> published{20, 400, 8902, 197281, 4865609};
  CHECK(counts("rules/chess.yaml", 2, {}, 3) == std::vector<uint64_t>(published.begin(), published.begin() + 3));
  CHECK(counts("rules/chess.yaml", 2, {}, 5, true) == published);
}

// The native twins of bench/ (bench/native_classics.cpp) play the same games as the rule
// files: their counts are the published ones too.
TEST_CASE("the native twins' perft is the published one", "[perft][classic]") {
  CHECK(native_classics::connect4::perft(8) == std::vector<uint64_t>{7, 49, 343, 2401, 16807, 117649, 823536, 5673234});
  CHECK(native_classics::breakthrough::perft(5) == std::vector<uint64_t>{22, 484, 11132, 256036, 6182818});
}

TEST_CASE("a bounded perft stops at the first depth over its bound, or when its positions run out", "[perft]") {
  for (PerftUnit unit : {PerftUnit::decision, PerftUnit::turn}) {
    for (const char* file : {"rules/tictactoe.yaml", "rules/kobayakawa.yaml"}) {
      CAPTURE(file, unit == PerftUnit::turn);
      auto l = kata::test::load_file(file);
      REQUIRE(l.game);
      State s = new_game(*l.game, std::string(file).find("koba") != std::string::npos ? 3 : 2, 1, default_options(*l.game));
      std::vector<uint64_t> exact;
      perft(*l.game, s, 4, &exact, unit);
      // It applies a decision for each sequence above the deepest level (by turns, more: a
      // turn's every decision), found as the least limit that lets it finish.
      BoundedPerft whole = perft_at_most(*l.game, s, exact, UINT64_MAX, unit);
      CHECK(whole.counts == exact);
      CHECK(whole.over_depth == -1);
      CHECK_FALSE(whole.out_of_positions);
      uint64_t lo = 0, hi = 1u << 20;  // the least limit that finishes
      while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (perft_at_most(*l.game, s, exact, mid, unit).out_of_positions) lo = mid + 1;
        else hi = mid;
      }
      uint64_t needed = hi;
      REQUIRE(needed > 0);
      if (unit == PerftUnit::decision) CHECK(needed == exact[0] + exact[1] + exact[2]);
      else CHECK(needed >= exact[0] + exact[1] + exact[2]);
      BoundedPerft short_by_one = perft_at_most(*l.game, s, exact, needed - 1, unit);
      CHECK(short_by_one.out_of_positions);
      // Each depth's bound lowered by one stops the count there, and nowhere shallower.
      for (size_t d = 0; d < exact.size(); ++d) {
        std::vector<uint64_t> lower = exact;
        --lower[d];
        BoundedPerft b = perft_at_most(*l.game, s, lower, UINT64_MAX, unit);
        CHECK(b.over_depth == static_cast<int>(d));
        // It passes exact - 1 only with its last addition, when every shallower count is done.
        for (size_t e = 0; e <= d; ++e) CHECK(b.counts[e] == exact[e]);
      }
    }
  }
}

TEST_CASE("perft by turns follows a turn of many decisions without a recursion for each", "[perft]") {
  // P1 goes on 100,000 times, or stops at any point: each of its 100,001 turns is followed
  // by P2's one. A search that recursed once a decision would overflow the stack here.
  const std::string text = R"(game: Long turn
players: 2
limits: {decisions: 1000000}
variables:
  n: 0
  stopped: {type: bool, initial: false}
flow: |
  while n < 100000 and not stopped { choose P1: go | stop }
  choose P2: stop
actions:
  go: {do: n += 1}
  stop: {do: stopped = true}
scoring:
  score: n
)";
  auto l = kata::test::load_text(text);
  INFO(Catch::Detail::stringify(l.messages()));
  REQUIRE(l.game);
  State s = new_game(*l.game, 2, 1, default_options(*l.game));
  std::vector<uint64_t> per;
  CHECK(perft(*l.game, s, 2, &per, PerftUnit::turn) == 100001);
  CHECK(per == std::vector<uint64_t>{100001, 100001});
  BoundedPerft b = perft_at_most(*l.game, s, {100001, 100001}, UINT64_MAX, PerftUnit::turn);
  CHECK(b.counts == per);
  // A turn that never ends runs into limits.decisions: an error, not a crash.
  auto endless = kata::test::load_text(kata::test::with("n < 100000 and not stopped { choose P1: go | stop }", "true { choose P1: go }", text));
  REQUIRE(endless.game);
  State e = new_game(*endless.game, 2, 1, default_options(*endless.game));
  CHECK_THROWS_WITH(perft(*endless.game, e, 1, nullptr, PerftUnit::turn),
                    Catch::Contains("the game went past 1000000 decisions without ending"));
}
