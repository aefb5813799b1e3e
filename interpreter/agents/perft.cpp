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

}  // namespace

uint64_t perft(const Game& g, const State& s, int depth, std::vector<uint64_t>* per_depth) {
  if (per_depth) per_depth->assign(depth, 0);
  return count(g, s, depth, 0, per_depth);
}

}  // namespace kata
