// Perft by depth-first search over copies of the state: each level lists the legal
// decisions once and applies each to a copy, so memory stays at one state per level.
#include "agents/perft.hpp"

#include <limits>
#include <utility>
#include <vector>

namespace kata {

namespace {

// One count's search, and what stops it early: a depth whose count has passed its bound,
// or the positions it may still visit running out.
class Counter {
 public:
  Counter(const Game& g, std::vector<uint64_t>& per_depth, const std::vector<uint64_t>* at_most, uint64_t positions)
      : g_(g), per_depth_(per_depth), at_most_(at_most), positions_(positions) {}

  // Sequences of `depth` decisions from `s`, `at` levels below the root.
  uint64_t decisions(const State& s, int depth, int at) {
    if (depth == 0) return 1;
    if (s.over()) return 0;
    std::vector<Decision> legal;
    legal_decisions(g_, s, legal);
    if (!add(at, legal.size())) return 0;
    if (depth == 1) return legal.size();
    uint64_t total = 0;
    for (const Decision& d : legal) {
      if (!visit()) return total;
      State next = s;
      apply(g_, next, d);
      total += decisions(next, depth - 1, at + 1);
      if (stopped()) return total;
    }
    return total;
  }

  // By turns: a decision after which the same seat chooses again stays in the turn (depth
  // and `at` unchanged); any other ends it. A turn may run to limits.decisions (10^8)
  // decisions, so its decisions are walked with a stack of their own, not by recursion;
  // a state is kept only while some of its decisions are still to be tried.
  uint64_t turns(const State& s, int depth, int at) {
    if (depth == 0) return 1;
    if (s.over()) return 0;
    uint64_t total = 0;
    std::vector<Pending> stack;
    stack.push_back(pending(s));
    while (!stack.empty()) {
      if (stack.back().next == stack.back().legal.size()) {
        stack.pop_back();
        continue;
      }
      if (!visit()) return total;
      Pending& top = stack.back();
      State next = top.state;
      apply(g_, next, top.legal[top.next++]);
      if (!next.over() && next.chooser() == top.state.chooser()) {
        if (top.next == top.legal.size()) stack.pop_back();  // the turn goes on in its place
        stack.push_back(pending(std::move(next)));
      } else if (add(at, 1)) {
        total += depth == 1 ? 1 : turns(next, depth - 1, at + 1);
      }
      if (stopped()) return total;
    }
    return total;
  }

  int over_depth = -1;
  bool out_of_positions = false;

 private:
  // A state within a turn and its legal decisions, those from `next` on still to be tried.
  struct Pending {
    State state;
    std::vector<Decision> legal;
    size_t next = 0;
  };
  Pending pending(State s) const {
    Pending p{std::move(s), {}, 0};
    legal_decisions(g_, p.state, p.legal);
    return p;
  }

  bool stopped() const { return over_depth >= 0 || out_of_positions; }
  bool add(int at, uint64_t n) {
    per_depth_[at] += n;
    if (at_most_ && per_depth_[at] > (*at_most_)[at]) over_depth = at;
    return !stopped();
  }
  bool visit() {
    if (positions_ == 0) out_of_positions = true;
    else --positions_;
    return !stopped();
  }

  const Game& g_;
  std::vector<uint64_t>& per_depth_;
  const std::vector<uint64_t>* at_most_;
  uint64_t positions_;
};

}  // namespace

uint64_t perft(const Game& g, const State& s, int depth, std::vector<uint64_t>* per_depth, PerftUnit unit) {
  std::vector<uint64_t> mine;
  if (!per_depth) per_depth = &mine;
  per_depth->assign(depth, 0);
  Counter c(g, *per_depth, nullptr, std::numeric_limits<uint64_t>::max());
  return unit == PerftUnit::turn ? c.turns(s, depth, 0) : c.decisions(s, depth, 0);
}

BoundedPerft perft_at_most(const Game& g, const State& s, const std::vector<uint64_t>& at_most,
                           uint64_t max_positions, PerftUnit unit) {
  BoundedPerft r;
  int depth = static_cast<int>(at_most.size());
  r.counts.assign(depth, 0);
  Counter c(g, r.counts, &at_most, max_positions);
  if (unit == PerftUnit::turn) c.turns(s, depth, 0);
  else c.decisions(s, depth, 0);
  r.over_depth = c.over_depth;
  r.out_of_positions = c.out_of_positions;
  return r;
}

}  // namespace kata
