// Perft by depth-first search over copies of the state: each level lists the legal
// decisions once and applies each to a copy, so memory stays at one state per level.
#include "agents/perft.hpp"

namespace kata {

namespace {

uint64_t count(const Game& g, const State& s, int depth, int at, std::vector<uint64_t>* per_depth) {
  if (depth == 0) return 1;
  if (s.over()) return 0;
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  if (per_depth) (*per_depth)[at] += legal.size();
  if (depth == 1) return legal.size();
  uint64_t total = 0;
  for (const Decision& d : legal) {
    State next = s;
    apply(g, next, d);
    total += count(g, next, depth - 1, at + 1, per_depth);
  }
  return total;
}

// By turns: a decision after which the same seat chooses again stays in the turn (depth
// and `at` unchanged); any other ends it.
uint64_t count_turns(const Game& g, const State& s, int depth, int at, std::vector<uint64_t>* per_depth) {
  if (depth == 0) return 1;
  if (s.over()) return 0;
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  uint64_t total = 0;
  for (const Decision& d : legal) {
    State next = s;
    apply(g, next, d);
    if (!next.over() && next.chooser() == s.chooser()) {
      total += count_turns(g, next, depth, at, per_depth);
      continue;
    }
    if (per_depth) ++(*per_depth)[at];
    total += depth == 1 ? 1 : count_turns(g, next, depth - 1, at + 1, per_depth);
  }
  return total;
}

}  // namespace

uint64_t perft(const Game& g, const State& s, int depth, std::vector<uint64_t>* per_depth, PerftUnit unit) {
  if (per_depth) per_depth->assign(depth, 0);
  return unit == PerftUnit::turn ? count_turns(g, s, depth, 0, per_depth) : count(g, s, depth, 0, per_depth);
}

}  // namespace kata
