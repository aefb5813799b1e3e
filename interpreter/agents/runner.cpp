// The match loop: ask the agent whose turn it is, resolve its answer to a legal decision,
// apply it, and pass every event to the log and, filtered per seat, to the agents.
#include "agents/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace kata {

namespace {

void deliver(const Game& g, std::vector<Event>& events, std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log) {
  if (log) log->events(g, events);
  for (size_t seat = 0; seat < agents.size(); ++seat) {
    if (!agents[seat]->needs_view()) continue;
    for (const std::string& line : describe_events(g, events, static_cast<int>(seat))) agents[seat]->observe(line);
  }
  events.clear();
}

// Each other seat is told the decision as it may know it (card_text).
void tell_others(const Game& g, const State& s, const Decision& d, int seat,
                 std::vector<std::unique_ptr<Agent>>& agents) {
  for (size_t other = 0; other < agents.size(); ++other)
    if (static_cast<int>(other) != seat && agents[other]->needs_view())
      agents[other]->observe(fmt::format("{} chose: {}", seat_name(seat),
                                         decision_text(g, s, d, static_cast<int>(other))));
}

// Asks the seat's agent until it names a legal decision; nothing if it gives up (r says why).
std::optional<Decision> ask(const Game& g, const State& s, const std::vector<Decision>& legal,
                            Agent& agent, MatchResult& r) {
  int seat = s.chooser();
  std::vector<std::string> labels;
  PlayerView view;
  if (agent.needs_view()) {
    view = make_view(g, s, seat);
    for (auto& d : legal) labels.push_back(decision_text(g, s, d));
  }
  for (;;) {
    Choice c = agent.choose(g, view, labels, static_cast<int>(legal.size()));
    if (c.index == -2) {
      r.stopped_by = fmt::format("{} ({}) stopped before the end", seat_name(seat), agent.kind());
      return std::nullopt;
    }
    if (c.index >= 0 && c.index < static_cast<int>(legal.size())) return legal[c.index];
    std::string why;
    if (auto d = parse_decision(g, s, c.text, why)) return d;
    if (!agent.refused(why)) {
      auto* script = dynamic_cast<ScriptAgent*>(&agent);
      r.stopped_by =
          fmt::format("{}: {}'s '{}' is refused: {}", script ? script->where() : agent.kind(),
                      seat_name(seat), c.text, why);
      return std::nullopt;
    }
  }
}

}  // namespace

MatchResult play_match(const Game& g, int players, uint64_t seed,
                       const std::vector<int64_t>& options,
                       std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log,
                       const Resume* resume) {
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  MatchResult r;
  // A resumed game's log already holds what comes before its first new decision.
  LogWriter* writing = resume ? nullptr : log;
  size_t replayed = 0;
  r.final = new_game(g, players, seed, options, &hooks);
  deliver(g, events, agents, writing);
  State& s = r.final;
  std::vector<Decision> legal;
  while (!s.over()) {
    legal_decisions(g, s, legal);
    int seat = s.chooser();
    Agent& agent = *agents.at(seat);
    std::optional<Decision> chosen;
    if (resume && replayed < resume->actions.size()) {
      std::string why;
      auto& [player, action] = resume->actions[replayed++];
      chosen = player == seat ? parse_decision(g, s, action, why) : std::nullopt;
      if (!chosen) {  // replay_log verified these decisions: only a changed rule file gets here
        r.stopped_by =
            fmt::format("the log's decision {} ('{}') cannot be made again", replayed, action);
        return r;
      }
      agent.replayed(static_cast<int>(legal.size()));
    } else {
      if (resume && !writing && log) log->resume(s.decisions(), resume->stopped, resume->agents);
      writing = log;
      chosen = ask(g, s, legal, agent, r);
      if (!chosen) return r;
      if (log) log->decision(s.decisions() + 1, seat, decision_text(g, s, *chosen));
    }
    tell_others(g, s, *chosen, seat, agents);
    apply(g, s, *chosen, &hooks);
    deliver(g, events, agents, writing);
  }
  if (log) log->result(g, s);
  for (size_t seat = 0; seat < agents.size(); ++seat)
    if (agents[seat]->needs_view()) agents[seat]->game_over(g, make_view(g, s, static_cast<int>(seat)));
  r.completed = true;
  return r;
}

std::string describe_public_view(const Game& g, const State& s) {
  std::string text = describe_view(g, public_view(g, s));
  // describe_view titles a view without a seat "everything"; this one is less.
  std::string title = g.name + " — everything", note = "(* face down, but known to you)";
  if (text.rfind(title, 0) == 0) text.replace(0, title.size(), g.name + " — as everyone sees it");
  if (auto at = text.find(note); at != std::string::npos) text.replace(at, note.size(), "(* face down, but known to everyone)");
  return text;
}

uint64_t game_seed(uint64_t seed, uint64_t i) {
  uint64_t x = seed ^ (i * 0xd1342543de82ef95ULL);
  return next_random(x);
}

State random_playout(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options) {
  State s = new_game(g, players, seed, options);
  uint64_t rng = seed ^ 0xa0761d6478bd642fULL;
  play_randomly(g, s, rng);
  return s;
}

namespace {

struct GameOutcome {
  bool error = false;
  std::string message;
  std::vector<int64_t> scores;
  uint32_t winners = 0;
  int decisions = 0;
};

GameOutcome run_one(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                    bool check_invariants) {
  GameOutcome o;
  try {
    State s = new_game(g, players, seed, options);
    uint64_t rng = seed ^ 0xa0761d6478bd642fULL;
    std::vector<Decision> legal;
    auto check = [&]() {
      if (!check_invariants) return;
      for (const Invariant& inv : g.invariants)
        if (!evaluate(g, s, inv.node))
          throw RuntimeError(inv.pos, fmt::format("invariant '{}' does not hold", inv.name));
    };
    check();
    if (!check_invariants) play_randomly(g, s, rng);
    while (!s.over()) {
      legal_decisions(g, s, legal);
      apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
      check();
    }
    o.scores = scores(g, s);
    o.winners = winners(s);
    o.decisions = s.decisions();
  } catch (const RuntimeError& e) {
    o.error = true;
    const SourceFile& f = g.sources->at(e.pos.file);
    o.message = e.pos.valid() ? fmt::format("{}:{}:{}: {}", f.name, e.pos.line, e.pos.col, e.what()) : e.what();
  }
  return o;
}

}  // namespace

SimulationStats simulate(const Game& g, int games, int players, uint64_t seed,
                         const std::vector<int64_t>& options, int jobs, bool check_invariants,
                         const std::function<void(int)>& progress) {
  std::vector<GameOutcome> outcomes(games);
  std::atomic<int> next{0}, done{0};
  std::mutex progress_mutex;
  int reported = 0;  // under progress_mutex
  auto worker = [&]() {
    for (int i; (i = next++) < games;) {
      outcomes[i] = run_one(g, players, game_seed(seed, i), options, check_invariants);
      int d = ++done;
      if (progress && (d % 64 == 0 || d == games)) {
        // Another thread may have reported a larger count since `d` was taken.
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (d > reported) {
          reported = d;
          progress(d);
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  SimulationStats st;
  st.games = games;
  st.players = players;
  st.wins.assign(players, 0);
  st.outright_wins.assign(players, 0);
  std::vector<double> sum(players, 0), sq(players, 0);
  st.score_min.assign(players, 0);
  st.score_max.assign(players, 0);
  std::map<int64_t, int> histogram;
  int ok = 0;
  double length_sum = 0;
  for (const GameOutcome& o : outcomes) {
    if (o.error) {
      ++st.errors;
      if (st.error_messages.size() < 5) st.error_messages.push_back(o.message);
      continue;
    }
    int k = std::popcount(o.winners);
    for (int p = 0; p < players; ++p) {
      if (o.winners & (1u << p)) {
        st.wins[p] += 1.0 / k;
        if (k == 1) ++st.outright_wins[p];
      }
      if (p < static_cast<int>(o.scores.size())) {
        double v = static_cast<double>(o.scores[p]);
        sum[p] += v;
        sq[p] += v * v;
        st.score_min[p] = ok == 0 ? v : std::min(st.score_min[p], v);
        st.score_max[p] = ok == 0 ? v : std::max(st.score_max[p], v);
        ++histogram[o.scores[p]];
      }
    }
    st.length_min = ok == 0 ? o.decisions : std::min<double>(st.length_min, o.decisions);
    st.length_max = ok == 0 ? o.decisions : std::max<double>(st.length_max, o.decisions);
    length_sum += o.decisions;
    ++ok;
  }
  for (int p = 0; p < players; ++p) {
    double mean = ok ? sum[p] / ok : 0;
    st.score_mean.push_back(mean);
    st.score_stdev.push_back(ok ? std::sqrt(std::max(0.0, sq[p] / ok - mean * mean)) : 0);
  }
  st.length_mean = ok ? length_sum / ok : 0;
  st.score_histogram.assign(histogram.begin(), histogram.end());
  return st;
}

}  // namespace kata
