// The search bots' samples consistent with what the seat was told (History in
// runtime/determinize.hpp): at every decision of random games of each rule file that hides
// cards, the seat to choose has its states found as the runner finds them (with the kept
// samples of its earlier decisions). Reported per decision: the time, and as counters the
// share of decisions that fell back to plain determinizations and the consistent states
// found on average. docs/agents.md records the figures.
#include <benchmark/benchmark.h>

#include "agents/runner.hpp"
#include "runtime/determinize.hpp"

std::shared_ptr<const kata::Game> load_rules(const char* file);

namespace {

void consistent_samples(benchmark::State& state, const char* file) {
  auto game = load_rules(file);
  const kata::Game& g = *game;
  int players = static_cast<int>(state.range(0));
  auto options = kata::default_options(g);
  int64_t decisions = 0, fell_back = 0, consistent = 0;
  uint64_t seed = 1;
  std::vector<kata::Decision> legal;
  for (auto _ : state) {
    // One game, its history kept as the runner keeps it.
    kata::State s = kata::new_game(g, players, seed, options), sample;
    kata::HistoryKeeper history(s, players, kata::told_step);
    uint64_t rng = seed++;
    while (!s.over()) {
      kata::legal_decisions(g, s, legal);
      if (legal.size() > 1) {
        kata::History h = history.of(s.chooser());
        kata::InfoSet info(g, s, s.chooser(), false, &h);
        info.sample(rng, sample);
        const kata::SampleStats& st = info.sample_stats();
        if (st.consistent || st.fell_back) {
          ++decisions;
          fell_back += st.fell_back;
          consistent += st.consistent;
        }
      }
      const kata::Decision d = legal[kata::uniform(rng, static_cast<uint32_t>(legal.size()))];
      kata::apply(g, s, d);
      history.made(d, s);
    }
  }
  double n = static_cast<double>(decisions ? decisions : 1);
  state.SetItemsProcessed(decisions);  // items: decisions with a history
  state.counters["decisions"] = static_cast<double>(decisions);
  state.counters["fell_back"] = static_cast<double>(fell_back) / n;
  state.counters["consistent"] = static_cast<double>(consistent) / n;
}

void BM_history_hogen(benchmark::State& state) { consistent_samples(state, "hogen.yaml"); }
void BM_history_kenjin(benchmark::State& state) { consistent_samples(state, "kenjin.yaml"); }
void BM_history_kobayakawa(benchmark::State& state) {
  consistent_samples(state, "kobayakawa.yaml");
}

}  // namespace

BENCHMARK(BM_history_hogen)->Arg(3)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_history_kenjin)->Arg(2)->Iterations(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_history_kobayakawa)->Arg(3)->Iterations(10)->Unit(benchmark::kMillisecond);
