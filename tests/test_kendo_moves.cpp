// Kendo's moves against a path search written here, independently of the rules language:
// in random games, a piece may go exactly where a walk of its number of steps along the
// board's lines, through free points and never the palace, never straight back, ends on a
// free point or (from the second turn) an enemy piece, and only a Prince ends in the
// palace. Every legal move is such a walk, and every such walk is a legal move. Also: no
// two pieces ever share a point.
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <set>

#include "support.hpp"

using namespace kata;

namespace {

struct Board {
  const Game* g;
  const State* s;
  int first_point, points, spot_instance;

  int piece_on(int point) const {
    int z = spot_instance + point - first_point;
    int n = (*s)[g->layout.zone_size + z];
    return n ? (*s)[g->layout.zone_cards + z * g->card_count + n - 1] : -1;
  }
  int64_t prop(int card, const std::string& name) const {
    for (size_t p = 0; p < g->properties.size(); ++p)
      if (g->properties[p].name == name) return g->card_props[p * g->card_count + card];
    FAIL("no property " + name);
    return 0;
  }
  bool palace(int point) const { return prop(point, "x") == 0 && prop(point, "y") == 0; }
  std::vector<int> links(int point) const {
    return {g->link_to.begin() + g->link_start[point], g->link_to.begin() + g->link_start[point + 1]};
  }

  // Every end of a walk of `steps` from `at`, through free non-palace points, never back.
  void walks(int at, int from, int steps, std::set<int>& ends) const {
    if (steps == 0) {
      ends.insert(at);
      return;
    }
    for (int next : links(at)) {
      if (next == from) continue;
      if (steps > 1 && (piece_on(next) >= 0 || palace(next))) continue;
      walks(next, at, steps - 1, ends);
    }
  }
};

}  // namespace

TEST_CASE("Kendo's legal moves are exactly the walks the rules allow", "[properties][kendo]") {
  auto l = kata::test::load_file("rules/kendo.yaml");
  REQUIRE(l.game);
  const Game& g = *l.game;
  int turn_var = -1;
  for (size_t i = 0; i < g.globals.size(); ++i)
    if (g.globals[i].name == "turn") turn_var = static_cast<int>(i);
  REQUIRE(turn_var >= 0);
  rc::prop("random Kendo games", [&]() {
    int players = *rc::gen::inRange(2, 5);
    uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    State s = new_game(g, players, seed, default_options(g));
    const KindInfo& point = g.kinds[g.board.kind];
    Board b{&g, &s, point.first_card, point.card_count, g.zones[g.board.zone].first_instance};
    std::vector<Decision> legal;
    for (int moves = 0; moves < 60 && !s.over(); ++moves) {
      legal_decisions(g, s, legal);
      std::set<std::pair<int, int>> offered;
      for (const Decision& d : legal)
        if (g.program.actions[d.action].name == "go") offered.insert({d.args[0], d.args[1]});
      std::set<std::pair<int, int>> expected;
      int me = s.chooser();
      int turn = s[g.layout.globals + turn_var];
      std::set<int> occupied;
      for (int pt = b.first_point; pt < b.first_point + b.points; ++pt) {
        int piece = b.piece_on(pt);
        if (piece < 0) continue;
        RC_ASSERT(occupied.insert(piece).second);
        if (g.card_owner[piece] != me) continue;
        std::set<int> ends;
        b.walks(pt, -1, static_cast<int>(b.prop(piece, "steps")), ends);
        for (int end : ends) {
          int there = b.piece_on(end);
          bool lands = there < 0 || (turn > 1 && g.card_owner[there] != me);
          bool prince = g.symbol_name(b.prop(piece, "name")) == "Prince";
          if (lands && (!b.palace(end) || prince)) expected.insert({pt, end});
        }
      }
      RC_ASSERT(offered == expected);
      apply(g, s, legal[*rc::gen::inRange<size_t>(0, legal.size())]);
    }
  });
}
