// The evaluator's answers outside a run of effects: scores and their parts, an
// expression's value in a state, where a card lies in its zone, and whether a seat sees it.
#include <algorithm>

#include "runtime/evaluator.hpp"

namespace kata {

using namespace detail;

std::vector<int64_t> scores(const Game& g, const State& st) {
  std::vector<int64_t> out;
  if (g.score_node < 0) return out;
  const int32_t* s = st.slots.data();
  for (int p = 0; p < st.players(); ++p) {
    Evaluator ev(g, s, s + g.layout.locals);
    out.push_back(ev.eval_with(p, g.score_node));
  }
  return out;
}

ScoreTable score_table(const Game& g, const State& st) {
  ScoreTable t;
  const int32_t* s = st.slots.data();
  auto per_seat = [&](int node) {
    std::vector<int64_t> row;
    for (int p = 0; p < st.players(); ++p)
      row.push_back(Evaluator(g, s, s + g.layout.locals).eval_with(p, node));
    return row;
  };
  t.scores = scores(g, st);
  for (const ScorePart& part : g.score_parts) t.parts.push_back(per_seat(part.node));
  for (int node : g.tiebreak_nodes) t.tiebreaks.push_back(per_seat(node));
  for (size_t i = 0; i < g.score_notes.size(); ++i)
    if (evaluate(g, st, g.score_notes[i].node)) t.notes.push_back(static_cast<int32_t>(i));
  return t;
}

uint32_t winners(const State& st) { return static_cast<uint32_t>(st[Layout::winners]); }

int64_t evaluate(const Game& g, const State& st, int node) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).eval(node);
}

int64_t evaluate_with(const Game& g, const State& st, int64_t x, int node) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).eval_with(x, node);
}

int64_t evaluate_at_load(const Game& g, int node, const std::vector<int64_t>& bound, int64_t& budget) {
  // No state exists yet: the evaluator is given an empty header, which a constant_only
  // expression never reads past.
  int32_t header[Layout::header] = {};
  Evaluator ev(g, header, header);
  if (bound.size() > static_cast<size_t>(frame_size))
    ev.fail(node, fmt::format("more than {} names bound at once", frame_size));
  ev.set_work_left(budget);
  try {
    ev.spend(node);
    int64_t v = ev.eval_bound(bound, node);
    budget = ev.work_left();
    return v;
  } catch (const RuntimeError&) {
    budget = ev.work_left();
    throw;
  }
}

int place_in_zone(const Game& g, const State& s, int card) {
  int z = s[g.layout.card_zone + card];
  if (z < 0) return -1;
  const int32_t* cs = s.slots.data() + g.layout.zone_cards + z * g.card_count;
  return static_cast<int>(std::find(cs, cs + s[g.layout.zone_size + z], card) - cs);
}

bool visible(const Game& g, const State& st, int viewer, int card) {
  const int32_t* s = st.slots.data();
  return Evaluator(g, s, s + g.layout.locals).is_visible(viewer, card);
}


}  // namespace kata
