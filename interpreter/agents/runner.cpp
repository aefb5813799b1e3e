// The match loop: ask the agent whose turn it is, resolve its answer to a legal decision,
// apply it, and pass every event to the log and, filtered per seat, to the agents.
#include "agents/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "agents/typed.hpp"
#include "runtime/determinize.hpp"
#include "runtime/view.hpp"
#include "runtime/wrap.hpp"

namespace kata {

namespace {

// The cards each person has seen this playing of the match, in a view at one of their
// decisions or in an event shown to them; empty for bots. What an undo may not take back.
using Seen = std::vector<std::vector<bool>>;

void deliver(const Game& g, std::vector<Event>& events, std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log, Seen& seen) {
  if (log) log->events(g, events);
  for (size_t seat = 0; seat < agents.size(); ++seat) {
    if (!agents[seat]->needs_view()) continue;
    for (const std::string& line : screen_events(g, events, static_cast<int>(seat))) agents[seat]->observe(line);
    if (std::string line = last_message_to(g, events, static_cast<int>(seat)); !line.empty()) agents[seat]->asked(line);
    if (!seen[seat].empty())
      for (const Event& e : events)
        if (e.card >= 0 && ((e.seen_by >> seat) & 1u)) seen[seat][e.card] = true;
  }
  events.clear();
}

void look(const Game& g, const State& s, int seat, Seen& seen) {
  for (int c = 0; c < g.card_count; ++c)
    if (visible(g, s, seat, c)) seen[seat][c] = true;
}

// The cards a person has seen since a decision (when they had seen `before`), named.
std::string learned(const Game& g, const std::vector<bool>& before, const std::vector<bool>& now) {
  std::vector<std::string> names;
  int more = 0;
  for (int c = 0; c < g.card_count; ++c) {
    if (!now[c] || before[c]) continue;
    // As screens name it: a copy number follows from what its owner played unseen.
    if (names.size() < 3) names.push_back(g.card_plain_names[c]);
    else ++more;
  }
  if (names.empty()) return "";
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? i + 1 == names.size() && !more ? " and " : ", " : "") + names[i];
  return more ? fmt::format("{} and {} more", out, more) : out;
}

// How many states an undo is tried in (learned_since): each one the person could not tell
// from the true one when they made the decision.
constexpr int undo_samples = 16;

// The card that lies in `to` where card `c` lies in `from` (its zone, its position there).
int same_place(const Game& g, const State& from, const State& to, int c) {
  int z = from[g.layout.card_zone + c], i = place_in_zone(g, from, c);
  return z >= 0 && i < to[g.layout.zone_size + z] ? to[g.layout.zone_cards + z * g.card_count + i] : c;
}

}  // namespace

void told_step(const Game& g, State& s, const Decision& d, int seat, std::vector<std::string>& out) {
  std::string chose = s.chooser() == seat ? "" : fmt::format("{} chose: {}", seat_name(s.chooser()), decision_screen_text(g, s, d, seat));
  std::vector<Event> events;
  Hooks hooks{&events, nullptr};
  apply(g, s, d, &hooks);
  if (!chose.empty() && !told_by_message(g, events, seat)) out.push_back(std::move(chose));
  for (std::string& line : describe_events(g, events, seat)) out.push_back(std::move(line));
}

namespace {

// Whether `seat` was told, since the state `at` in which it made the first of `decisions`,
// something it could not know there: the first such line, or "" if none. The decisions
// are made again in states the seat could not tell from `at` (determinizations), each
// card it could not see taken at its place; a line told otherwise in one of them, or a
// decision not legal there, depends on what the seat did not know. What chance decided
// after `at` (a shuffle, a card drawn) differs too. Deterministic: `rng` is the game's.
std::string learned_since(const Game& g, const State& at, int seat, const std::vector<Decision>& decisions, uint64_t rng) {
  std::vector<std::string> truth;
  std::vector<size_t> ends;  // where each decision's lines end in `truth`
  std::vector<State> before;  // the true state at each decision, for where its cards lie
  State s = at;
  for (const Decision& d : decisions) {
    before.push_back(s);
    told_step(g, s, d, seat, truth);
    ends.push_back(truth.size());
  }
  truth.push_back(describe_view(g, make_view(g, s, seat)));
  std::vector<Decision> legal;
  State sample;
  for (int k = 0; k < undo_samples; ++k) {
    determinize(g, at, seat, rng, sample);
    std::vector<std::string> told;
    for (size_t i = 0; i < decisions.size(); ++i) {
      Decision d = decisions[i];
      const State& real = before[i];
      const Action& a = g.program.actions.at(d.action);
      for (size_t p = 0; p < a.params.size(); ++p)
        if (a.params[p].type == Type::card && d.args[p] >= 0 && d.args[p] < g.card_count &&
            !visible(g, real, seat, d.args[p]))
          d.args[p] = same_place(g, real, sample, d.args[p]);
      legal_decisions(g, sample, legal);
      if (std::find(legal.begin(), legal.end(), d) == legal.end())
        return truth[i ? ends[i - 1] : 0];
      told_step(g, sample, d, seat, told);
      for (size_t l = i ? ends[i - 1] : 0; l < ends[i]; ++l)
        if (l >= told.size() || told[l] != truth[l]) return truth[l];
      // The sample told more: where it went on, the game truly stopped for the next
      // decision, whose first line is what the person could not have known.
      if (told.size() != ends[i]) return ends[i] + 1 < truth.size() ? truth[ends[i]] : "your view of the game now";
    }
    if (describe_view(g, make_view(g, sample, seat)) != truth.back()) return "your view of the game now";
  }
  return "";
}

}  // namespace

volatile std::sig_atomic_t stop_requested = 0;

namespace {

std::string stopped_by_signal() {
  int sig = stop_requested;
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : nullptr;
  return name ? fmt::format("stopped by a signal ({})", name) : fmt::format("stopped by signal {}", sig);
}

// A decision made in a match, kept so that an undo can play the game again.
struct Made {
  int seat;
  Decision decision;
  std::vector<bool> seen;  // a person's: the cards they had seen when they made it
};

// One playing of the match from its start: the first `made.size()` decisions are those
// made before (an undo), taken again without asking a person; bots are asked as before,
// so that they end up where they were. A resumed game's logged decisions come first: they
// are made again and each agent is told (Agent::replayed), and nothing is logged until the
// first new decision, which follows a `resume` line. False when a person asked to undo:
// `made` is then cut back to before their last decision, and every agent and the log start
// again.
bool play_once(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
               std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log, const Resume* resume,
               std::vector<Made>& made, int undos, MatchResult& r) {
  std::vector<Event> events;
  // Events are made only for someone to read: a log, or an agent that is told them. Bots
  // that need no view (random) then play without their cost.
  bool told =
      log || std::any_of(agents.begin(), agents.end(), [](auto& a) { return a->needs_view(); });
  Hooks hooks{told ? &events : nullptr, nullptr};
  r.chosen.assign(agents.size(), 0);
  r.seconds.assign(agents.size(), 0.0);
  r.consistent.assign(agents.size(), 0);
  r.fell_back.assign(agents.size(), 0);
  size_t resumed = resume ? resume->actions.size() : 0;
  LogWriter* writing = resumed ? nullptr : log;
  Seen seen(agents.size());
  for (size_t seat = 0; seat < agents.size(); ++seat)
    if (agents[seat]->person()) seen[seat].assign(g.card_count, false);
  r.final = new_game(g, players, seed, options, &hooks);
  deliver(g, events, agents, writing, seen);
  State& s = r.final;
  // What a search bot's samples must agree with (History in runtime/determinize.hpp).
  HistoryKeeper since_chance(s, static_cast<int>(agents.size()), told_step);
  size_t replay = made.size(), n = 0;
  std::vector<Decision> legal;
  std::vector<std::string> labels;
  for (; !s.over(); ++n) {
    if (stop_requested) {
      r.stopped_by = stopped_by_signal();
      return true;
    }
    legal_decisions(g, s, legal);
    int seat = s.chooser();
    Agent& agent = *agents.at(seat);
    int count = static_cast<int>(legal.size());
    Decision chosen;
    if (!seen[seat].empty()) look(g, s, seat, seen);
    if (undos && n == replay)
      for (auto& a : agents) a->undone(undos);
    if (n < resumed) {
      // The logged decisions of a resumed game: replay_log verified them.
      if (n < replay) {
        chosen = made[n].decision;
      } else {
        std::string why;
        auto& [player, action] = resume->actions[n];
        auto d = player == seat ? parse_decision(g, s, action, why) : std::nullopt;
        if (!d) {
          r.stopped_by = fmt::format("the log's decision {} ('{}') cannot be made again", n + 1, action);
          return true;
        }
        chosen = *d;
        made.push_back({seat, chosen, seen[seat]});
      }
      agent.replayed(count);
    } else {
      if (writing != log) {
        log->resume(s.decisions(), resume->stopped, resume->agents);
        writing = log;
      }
      labels.clear();
      PlayerView view;
      if (agent.needs_view() && !(n < replay && agent.person())) {
        view = make_view(g, s, seat);
        for (auto& d : legal) labels.push_back(decision_text(g, s, d));
      }
      std::optional<InfoSet> info;
      History history;
      if (int wants = agent.wants_info_set()) {
        history = since_chance.of(seat);
        info.emplace(g, s, seat, wants == 2, &history);
        agent.inform(&*info);
      }
      if (n < replay) {
        chosen = made[n].decision;
        if (agent.person()) agent.replayed(count);
        else agent.choose(g, view, labels, count);
      }
      while (n >= replay) {
        auto start = std::chrono::steady_clock::now();
        Choice c = agent.choose(g, view, labels, count);
        r.seconds[seat] +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (info && (info->sample_stats().consistent || info->sample_stats().fell_back))
          ++(info->sample_stats().fell_back ? r.fell_back : r.consistent)[seat];
        if (c.index == -2) {
          r.stopped_by = stop_requested ? stopped_by_signal() : fmt::format("{} ({}) stopped before the end", seat_name(seat), agent.kind());
          return true;
        }
        if (c.index == Choice::undo) {
          auto last = std::find_if(made.rbegin() + 0, made.rend(), [&](const Made& m) { return m.seat == seat; });
          // A decision of the resumed log is not undone: it was made before this run.
          if (last == made.rend() || static_cast<size_t>(made.rend() - last) <= resumed) {
            agent.refused("there is nothing to undo: this is your first decision");
            continue;
          }
          // Taking a decision back must not let a person decide again knowing more: not
          // a card they had not seen, nor anything they were told since that depends on
          // what they could not know (another's hidden hand, a card drawn, a shuffle).
          if (std::string cards = learned(g, last->seen, seen[seat]); !cards.empty()) {
            agent.refused(fmt::format("you cannot undo that decision: since you made it you have seen {}", cards));
            continue;
          }
          size_t from = static_cast<size_t>(std::prev(last.base()) - made.begin());
          State at = new_game(g, players, seed, options);
          std::vector<Decision> since;
          for (size_t i = 0; i < from; ++i) apply(g, at, made[i].decision);
          for (size_t i = from; i < made.size(); ++i) since.push_back(made[i].decision);
          if (std::string line = learned_since(g, at, seat, since, seed ^ (made.size() * 0x9e3779b97f4a7c15ULL)); !line.empty()) {
            agent.refused(fmt::format("you cannot undo that decision: since you made it you were told what you could not have known then (\"{}\")", plain(line)));
            continue;
          }
          made.erase(std::prev(last.base()), made.end());
          for (auto& a : agents) a->restart();
          if (log) log->rewind();
          return false;
        }
        if (c.index >= 0 && c.index < count) {
          chosen = legal[c.index];
          break;
        }
        std::string why;
        if (auto d = read_decision(g, s, c.text, why)) {
          chosen = *d;
          break;
        }
        if (!agent.refused(why)) {
          auto* script = dynamic_cast<ScriptAgent*>(&agent);
          r.stopped_by = fmt::format("{}: {}'s '{}' is refused: {}", script ? script->where() : agent.kind(),
                                     seat_name(seat), c.text, why);
          return true;
        }
      }
      if (n >= replay) {
        made.push_back({seat, chosen, seen[seat]});
        ++r.chosen[seat];
      }
      if (log) log->decision(s.decisions() + 1, seat, decision_text(g, s, chosen));
    }
    // Each other seat is told the decision as it may know it (card_text), in the state it
    // was made in, unless a message of its effect tells it (told_by_message).
    std::vector<std::string> chose(agents.size());
    for (size_t other = 0; other < agents.size(); ++other)
      if (static_cast<int>(other) != seat && agents[other]->needs_view())
        chose[other] = fmt::format("{} chose: {}", seat_name(seat), decision_screen_text(g, s, chosen, static_cast<int>(other)));
    apply(g, s, chosen, &hooks);
    since_chance.made(chosen, s);
    for (size_t other = 0; other < agents.size(); ++other)
      if (!chose[other].empty() && !told_by_message(g, events, static_cast<int>(other))) agents[other]->observe(chose[other]);
    deliver(g, events, agents, writing, seen);
  }
  if (log) log->result(g, s);
  for (size_t seat = 0; seat < agents.size(); ++seat)
    if (agents[seat]->needs_view()) agents[seat]->game_over(g, make_view(g, s, static_cast<int>(seat)));
  r.completed = true;
  return true;
}

}  // namespace

MatchResult play_match(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                       std::vector<std::unique_ptr<Agent>>& agents, LogWriter* log, const Resume* resume) {
  // A person may undo: the log is held until the end, to be written as if the undone
  // decisions never happened.
  bool people = std::any_of(agents.begin(), agents.end(), [](auto& a) { return a->person(); });
  if (log && people) log->hold();
  std::vector<Made> made;
  MatchResult r;
  for (int undos = 0; !play_once(g, players, seed, options, agents, log, resume, made, undos, r); ++undos) r = MatchResult{};
  for (const Made& m : made) r.decisions.push_back(m.decision);
  return r;
}

std::string describe_public_view(const Game& g, const State& s) {
  std::string text = describe_screen(g, public_view(g, s));
  // describe_view titles a view without a seat "everything"; this one is less. Every card
  // it names is known to every seat, so none is marked '*'.
  std::string title = g.name + " — everything";
  if (text.rfind(title, 0) == 0) text.replace(0, title.size(), g.name + " — as everyone sees it");
  return text;
}

uint64_t game_seed(uint64_t seed, uint64_t i) {
  uint64_t x = seed ^ (i * 0xd1342543de82ef95ULL);
  return next_random(x);
}

State random_playout(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options) {
  ReusedState r;  // (holding none: the whole state is written)
  return std::move(random_playout(r, g, players, seed, options));
}

State& random_playout(ReusedState& r, const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options) {
  State& s = new_game_in(r, g, players, seed, options);
  uint64_t rng = seed ^ 0xa0761d6478bd642fULL;
  play_randomly(g, s, rng);
  return s;
}

namespace {

// What a game's decisions tell about the rules: which actions and cards were legal and
// chosen, and who led after each decision. Fed the legal decisions the random pick (or
// the replay of an agents' game) has already listed, so it adds no listing of its own.
struct Tracker {
  const Game& g;
  bool scored;
  std::vector<int32_t> action_chosen, action_legal, card_chosen, card_legal;
  std::vector<int32_t> action_stamp, card_stamp;  // the last decision counted for each
  int32_t now = 0;
  std::vector<int8_t> leaders;  // the leader at the start and after each decision; -1: none

  explicit Tracker(const Game& game)
      : g(game),
        scored(game.score_node >= 0),
        action_chosen(game.program.actions.size()),
        action_legal(game.program.actions.size()),
        card_chosen(game.card_count),
        card_legal(game.card_count),
        action_stamp(game.program.actions.size(), -1),
        card_stamp(game.card_count, -1) {}

  // The one seat with the highest score, or -1 (a tie for the highest, or no scoring).
  int leader(const State& s) const {
    if (!scored) return -1;
    std::vector<int64_t> score = scores(g, s);
    int best = -1;
    bool tie = false;
    for (int p = 0; p < static_cast<int>(score.size()); ++p) {
      if (best < 0 || score[p] > score[best]) best = p, tie = false;
      else if (score[p] == score[best]) tie = true;
    }
    return tie ? -1 : best;
  }
  int card_of(const Decision& d, size_t k) const {
    const Action& a = g.program.actions[d.action];
    if (k >= a.params.size() || k >= 4 || a.params[k].type != Type::card) return -1;
    return d.args[k] >= 0 && d.args[k] < g.card_count ? d.args[k] : -1;
  }
  void start(const State& s) { leaders.push_back(static_cast<int8_t>(leader(s))); }
  void decide(const std::vector<Decision>& legal, const Decision& chosen) {
    ++now;
    for (const Decision& d : legal) {
      if (action_stamp[d.action] != now) action_stamp[d.action] = now, ++action_legal[d.action];
      for (size_t k = 0; k < 4; ++k)
        if (int c = card_of(d, k); c >= 0 && card_stamp[c] != now) card_stamp[c] = now, ++card_legal[c];
    }
    ++action_chosen[chosen.action];
    for (size_t k = 0; k < 4; ++k)
      if (int c = card_of(chosen, k); c >= 0) ++card_chosen[c];
  }
  void after(const State& s) { start(s); }
  // Changes of the one leader over the game (a tie leads no one and changes nothing).
  int lead_changes() const {
    int changes = 0, last = -1;
    for (int8_t l : leaders) {
      if (l < 0) continue;
      if (last >= 0 && l != last) ++changes;
      last = l;
    }
    return changes;
  }
};

struct GameOutcome {
  bool error = false;
  std::string message;
  std::vector<int64_t> scores;
  uint32_t winners = 0;
  int decisions = 0;
  // From the Tracker (empty when the game stopped with an error).
  std::vector<int32_t> action_chosen, action_legal, card_chosen, card_legal;
  bool scored = false;
  int lead_changes = 0;
  int midgame_leader = -1;  // the one leader after half the decisions (rounded down), or -1
  std::vector<int> chosen;  // by seat, with agents (MatchResult)
  std::vector<double> seconds;
  std::vector<int> consistent, fell_back;
};

void record(GameOutcome& o, Tracker& t) {
  o.action_chosen = std::move(t.action_chosen);
  o.action_legal = std::move(t.action_legal);
  o.card_chosen = std::move(t.card_chosen);
  o.card_legal = std::move(t.card_legal);
  o.scored = t.scored;
  o.lead_changes = t.lead_changes();
  size_t mid = static_cast<size_t>(o.decisions / 2);
  o.midgame_leader = mid < t.leaders.size() ? t.leaders[mid] : -1;
}

std::string error_text(const Game& g, const RuntimeError& e) {
  if (!e.pos.valid()) return e.what();
  const SourceFile& f = g.sources->at(e.pos.file);
  return fmt::format("{}:{}:{}: {}", f.name, e.pos.line, e.pos.col, e.what());
}

// One game with random choices, on the fast path.
GameOutcome run_one(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                    bool check_invariants, bool per_decision) {
  GameOutcome o;
  // Each thread's state, from one game to the next (new_game_in).
  thread_local ReusedState reused;
  try {
    State& s = new_game_in(reused, g, players, seed, options);
    uint64_t rng = seed ^ 0xa0761d6478bd642fULL;
    std::vector<Decision> legal;
    auto check = [&]() {
      if (!check_invariants) return;
      for (const Invariant& inv : g.invariants)
        if (!evaluate(g, s, inv.node)) {
          std::string sides = comparison_sides(g, s, inv);
          throw RuntimeError(inv.pos, fmt::format("invariant '{}' does not hold{}", inv.name,
                                                  sides.empty() ? "" : ": " + sides));
        }
    };
    check();
    if (!per_decision) {
      if (!check_invariants) play_randomly(g, s, rng);
      while (!s.over()) {
        legal_decisions(g, s, legal);
        apply(g, s, legal[uniform(rng, static_cast<uint32_t>(legal.size()))]);
        check();
      }
      o.scores = scores(g, s);
      o.winners = winners(s);
      o.decisions = s.decisions();
      return o;
    }
    // What play_randomly does, decision for decision, with the statistics of each taken
    // from the list the pick is made from.
    Tracker t(g);
    t.start(s);
    while (!s.over()) {
      legal_decisions(g, s, legal);
      const Decision& d = legal[uniform(rng, static_cast<uint32_t>(legal.size()))];
      t.decide(legal, d);
      apply(g, s, d);
      t.after(s);
      check();
    }
    o.scores = scores(g, s);
    o.winners = winners(s);
    o.decisions = s.decisions();
    record(o, t);
  } catch (const RuntimeError& e) {
    o.error = true;
    o.message = error_text(g, e);
  }
  return o;
}

// One game with agents: `specs[p]` plays seat p. An agent that stops the game (a script
// that runs out, a refused line) makes it an error, as a runtime error does.
GameOutcome run_agents(const Game& g, int players, uint64_t seed,
                       const std::vector<int64_t>& options, const std::vector<std::string>& specs,
                       const AgentMaker& make, bool per_decision = true) {
  GameOutcome o;
  std::vector<std::unique_ptr<Agent>> agents;
  for (int seat = 0; seat < players; ++seat) {
    agents.push_back(make(specs.at(seat), seat, seed, o.message));
    if (!agents.back()) {
      o.error = true;
      return o;
    }
  }
  try {
    MatchResult r = play_match(g, players, seed, options, agents);
    o.chosen = std::move(r.chosen);
    o.seconds = std::move(r.seconds);
    o.consistent = std::move(r.consistent);
    o.fell_back = std::move(r.fell_back);
    if (!r.completed) {
      o.error = true;
      o.message = r.stopped_by;
      return o;
    }
    o.scores = scores(g, r.final);
    o.winners = winners(r.final);
    o.decisions = r.final.decisions();
    if (!per_decision) return o;
    // The game's decisions made again, for the statistics of each (the agents may not have
    // listed the legal decisions: a script names its own).
    State s = new_game(g, players, seed, options);
    Tracker t(g);
    t.start(s);
    std::vector<Decision> legal;
    for (const Decision& d : r.decisions) {
      legal_decisions(g, s, legal);
      t.decide(legal, d);
      apply(g, s, d);
      t.after(s);
    }
    record(o, t);
  } catch (const RuntimeError& e) {
    o.error = true;
    o.message = error_text(g, e);
  }
  return o;
}

// Plays games 0..games-1 with `play(i)` on `jobs` threads (the calling one among them) and
// hands each outcome to `add(i, outcome)` in game order, one call at a time, so that sums
// made in `add` do not depend on `jobs`. Outcomes wait in a window of 4,096 games for those
// before them: the memory does not grow with the number of games, and a thread ahead of
// the window by a slow game waits. Whichever thread finds the next outcomes ready adds
// them, while the others play on: no thread waits at a batch's end, and adding is not a
// part that one thread does alone (with two, it kept `simulate -j 2` under 1.8 times one).
// Progress is reported every `step` games, and a thread takes that many at a time: fast
// random games in groups, games with agents that think one by one.
template <class Outcome>
void play_games(int games, int jobs, const std::function<Outcome(int)>& play,
                const std::function<void(int, const Outcome&)>& add, const Progress& progress,
                int step) {
  constexpr int window = 4096;
  const int room = std::min(games, window);
  std::vector<Outcome> outcomes(room);
  std::unique_ptr<std::atomic<bool>[]> ready(new std::atomic<bool>[room]);
  for (int k = 0; k < room; ++k) ready[k] = false;
  std::atomic<int> next{0}, added{0}, done{0};
  std::mutex adding, progress_mutex;
  int reported = 0;  // under progress_mutex
  // Hands the outcomes that are ready, in order, to add(), unless another thread is doing
  // so; looks again after letting go, for an outcome made ready meanwhile.
  auto hand_over = [&]() {
    for (;;) {
      std::unique_lock<std::mutex> lock(adding, std::try_to_lock);
      if (!lock) return;
      int a = added.load(std::memory_order_relaxed);
      while (a < games && ready[a % room].load(std::memory_order_acquire)) {
        add(a, outcomes[a % room]);
        ready[a % room].store(false, std::memory_order_relaxed);
        added.store(++a, std::memory_order_release);
      }
      lock.unlock();
      if (a >= games || !ready[a % room].load(std::memory_order_acquire)) return;
    }
  };
  // Each thread takes `step` games at a time (64 random games, one game of bots): a game
  // of a microsecond taken alone spent as much again on the counters and slots the
  // threads share, whose cache lines went back and forth between the cores.
  auto worker = [&]() {
    for (int first; (first = next.fetch_add(step)) < games;) {
      int last = std::min(first + step, games);
      // Rare: a game 4,096 behind is still being played (by bots that think long).
      while (last - 1 >= added.load(std::memory_order_acquire) + room) {
        hand_over();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      for (int i = first; i < last; ++i) {
        outcomes[i % room] = play(i);
        ready[i % room].store(true, std::memory_order_release);
      }
      int d = done += last - first;
      if (progress && (d % step == 0 || d == games)) {
        // Another thread may have reported a larger count since `d` was taken.
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (d > reported) {
          reported = d;
          progress(d);
        }
      }
      hand_over();
    }
  };
  std::vector<std::thread> threads;
  std::string failed;
  for (int j = 1; j < jobs && j < games && failed.empty(); ++j) {
    try {
      threads.emplace_back(worker);
    } catch (const std::system_error& e) {
      failed = e.what();
      next = games;  // those started stop after their game
    }
  }
  if (failed.empty()) worker();
  for (auto& t : threads) t.join();
  if (!failed.empty())
    throw ThreadsError(fmt::format("cannot start the threads of --jobs {}: {} of {} started ({}); ask for fewer",
                                   jobs, threads.size(), std::min(jobs, games) - 1, failed));
}

// The winner's margin of a game: the best score among its winners minus the best among
// the others; none without scores, winners or others.
std::optional<int64_t> margin(const GameOutcome& o, int players) {
  if (o.scores.empty() || !o.winners) return std::nullopt;
  bool others = false;
  int64_t best_winner = INT64_MIN, best_other = INT64_MIN;
  for (int p = 0; p < players && p < static_cast<int>(o.scores.size()); ++p) {
    if ((o.winners >> p) & 1u)
      best_winner = std::max(best_winner, o.scores[p]);
    else
      best_other = std::max(best_other, o.scores[p]), others = true;
  }
  if (!others) return std::nullopt;
  return best_winner - best_other;
}

// Adds game `index` of the run (from 0) to the counts of `st`.
void add_outcome(SimulationStats& st, int index, const GameOutcome& o) {
  int players = st.players;
  if (o.error) {
    ++st.errors;
    if (st.first_errors.size() < SimulationStats::errors_kept)
      st.first_errors.emplace_back(index, o.message);
    return;
  }
  int won = std::popcount(o.winners);
  for (int p = 0; p < players; ++p) {
    if (won && ((o.winners >> p) & 1u) && won <= players) ++st.wins_by_winners[p][won - 1];
    if (p < static_cast<int>(o.scores.size())) ++st.scores[p][o.scores[p]];
  }
  ++st.lengths[o.decisions];
  if (auto m = margin(o, players)) ++st.margins[*m];
  for (size_t a = 0; a < o.action_chosen.size(); ++a)
    st.action_chosen[a] += o.action_chosen[a], st.action_legal[a] += o.action_legal[a];
  for (size_t c = 0; c < o.card_chosen.size(); ++c)
    st.card_chosen[c] += o.card_chosen[c], st.card_legal[c] += o.card_legal[c];
  if (o.scored) {
    ++st.lead_changes[o.lead_changes];
    if (o.midgame_leader >= 0) {
      ++st.midgame_leader_games;
      if ((o.winners >> o.midgame_leader) & 1u) ++st.midgame_leader_wins;
    }
  }
}

// The counts of a simulation of `g` before any game.
SimulationStats empty_stats(const Game& g, int players, int games) {
  SimulationStats st;
  st.players = players;
  st.games = games;
  st.wins_by_winners.assign(players, std::vector<int64_t>(players, 0));
  st.scores.assign(players, {});
  st.action_chosen.assign(g.program.actions.size(), 0);
  st.action_legal.assign(g.program.actions.size(), 0);
  st.card_chosen.assign(g.card_count, 0);
  st.card_legal.assign(g.card_count, 0);
  return st;
}

}  // namespace

void summarize(SimulationStats& st) {
  int players = st.players;
  st.error_messages.clear();
  for (auto& [i, message] : st.first_errors) st.error_messages.push_back(fmt::format("game {}: {}", i + 1, message));
  st.wins.assign(players, 0);
  st.outright_wins.assign(players, 0);
  st.score_mean.clear(), st.score_stdev.clear(), st.score_min.clear(), st.score_max.clear();
  Counts all;
  for (int p = 0; p < players; ++p) {
    // Summed from the largest shares to the smallest, the same way for any split of the games.
    for (size_t k = 0; k < st.wins_by_winners[p].size(); ++k)
      st.wins[p] += static_cast<double>(st.wins_by_winners[p][k]) / static_cast<double>(k + 1);
    st.outright_wins[p] = static_cast<int>(st.wins_by_winners[p].empty() ? 0 : st.wins_by_winners[p][0]);
    const Counts& c = st.scores[p];
    st.score_mean.push_back(mean(c));
    st.score_stdev.push_back(stdev(c));
    st.score_min.push_back(c.empty() ? 0.0 : static_cast<double>(c.begin()->first));
    st.score_max.push_back(c.empty() ? 0.0 : static_cast<double>(c.rbegin()->first));
    add_counts(all, c);
  }
  st.score_histogram.clear();
  for (auto& [score, n] : all) st.score_histogram.emplace_back(score, static_cast<int>(n));
  st.length_mean = mean(st.lengths);
  st.length_min = st.lengths.empty() ? 0.0 : static_cast<double>(st.lengths.begin()->first);
  st.length_max = st.lengths.empty() ? 0.0 : static_cast<double>(st.lengths.rbegin()->first);
}

bool merge_stats(SimulationStats& into, const SimulationStats& from) {
  if (into.players != from.players) return false;
  into.games += from.games;
  into.errors += from.errors;
  auto& e = into.first_errors;
  e.insert(e.end(), from.first_errors.begin(), from.first_errors.end());
  std::sort(e.begin(), e.end());
  if (e.size() > SimulationStats::errors_kept) e.resize(SimulationStats::errors_kept);
  for (int p = 0; p < into.players; ++p) {
    auto& w = into.wins_by_winners[p];
    const auto& more = from.wins_by_winners[p];
    if (w.size() < more.size()) w.resize(more.size(), 0);
    for (size_t k = 0; k < more.size(); ++k) w[k] += more[k];
    add_counts(into.scores[p], from.scores[p]);
  }
  add_counts(into.lengths, from.lengths);
  add_counts(into.margins, from.margins);
  add_counts(into.lead_changes, from.lead_changes);
  auto add = [](std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    if (a.size() < b.size()) a.resize(b.size(), 0);
    for (size_t i = 0; i < b.size(); ++i) a[i] += b[i];
  };
  add(into.action_chosen, from.action_chosen);
  add(into.action_legal, from.action_legal);
  add(into.card_chosen, from.card_chosen);
  add(into.card_legal, from.card_legal);
  into.midgame_leader_games += from.midgame_leader_games;
  into.midgame_leader_wins += from.midgame_leader_wins;
  summarize(into);
  return true;
}

int shard_games(int games, int index, int count) {
  return index < games ? (games - index + count - 1) / count : 0;
}

SimulationStats simulate(const Game& g, int games, int players, uint64_t seed,
                         const std::vector<int64_t>& options, int jobs, bool check_invariants,
                         const Progress& progress, const std::vector<std::string>& agents,
                         const AgentMaker& make, int shard, int shards, bool per_decision) {
  SimulationStats st = empty_stats(g, players, shard_games(games, shard, shards));
  // Game k of this shard is game `shard + k * shards` of the run.
  auto index = [&](int k) { return shard + k * shards; };
  auto play = [&](int k) {
    uint64_t s = game_seed(seed, index(k));
    return agents.empty() ? run_one(g, players, s, options, check_invariants, per_decision)
                          : run_agents(g, players, s, options, agents, make, per_decision);
  };
  auto add = [&](int k, const GameOutcome& o) { add_outcome(st, index(k), o); };
  play_games<GameOutcome>(st.games, jobs, play, add, progress, agents.empty() ? 64 : 1);
  summarize(st);
  return st;
}

int seated_agent(int i, int seat, int players, bool rotate) {
  return rotate ? static_cast<int>((static_cast<int64_t>(seat) + i) % players) : seat;
}

ArenaStats arena(const Game& g, int games, uint64_t seed, const std::vector<int64_t>& options,
                 int jobs, const std::vector<std::string>& agents, bool rotate,
                 const AgentMaker& make, const Progress& progress) {
  ArenaStats st;
  st.games = games;
  st.players = static_cast<int>(agents.size());
  st.rotate = rotate;
  for (const std::string& spec : agents) {
    ArenaEntry e;
    e.spec = spec;
    st.entries.push_back(std::move(e));
  }
  int players = st.players;
  auto play = [&](int i) {
    std::vector<std::string> seated(players);
    for (int p = 0; p < players; ++p) seated[p] = agents[seated_agent(i, p, players, rotate)];
    return run_agents(g, players, game_seed(seed, i), options, seated, make);
  };
  auto add = [&](int i, const GameOutcome& o) {
    if (o.error) {
      ++st.errors;
      if (st.error_messages.size() < 5)
        st.error_messages.push_back(fmt::format("game {}: {}", i + 1, o.message));
      return;
    }
    for (int p = 0; p < players; ++p) {
      ArenaEntry& e = st.entries[seated_agent(i, p, players, rotate)];
      ++e.games;
      e.wins += win_share(o.winners, p);
      if (o.winners == (1u << p)) ++e.outright_wins;
      e.score.add(p < static_cast<int>(o.scores.size()) ? static_cast<double>(o.scores[p]) : 0.0);
      e.decisions += o.chosen[p];
      e.seconds += o.seconds[p];
      e.consistent += o.consistent[p];
      e.fell_back += o.fell_back[p];
    }
    st.length.add(o.decisions);
  };
  play_games<GameOutcome>(games, jobs, play, add, progress, 1);
  return st;
}

}  // namespace kata

namespace kata {

namespace {

// The rows of kata compare's table of shares: one per name, A's names first. `row_a[i]`
// is the row entry i of A adds to.
struct ShareRows {
  std::vector<ComparisonStats::Row>& rows;
  std::vector<size_t> row_a, row_b;

  ShareRows(std::vector<ComparisonStats::Row>& out, const std::vector<std::string>& a,
            const std::vector<std::string>& b)
      : rows(out) {
    std::map<std::string, size_t> at;
    auto row = [&](const std::string& name) {
      auto [it, fresh] = at.emplace(name, rows.size());
      if (fresh) rows.push_back({name, {}});
      return it->second;
    };
    for (const std::string& name : a) row_a.push_back(row(name));
    for (const std::string& name : b) row_b.push_back(row(name));
  }

  // Adds one pair of games: each row's chosen and legal counts on each side.
  void add(const std::vector<int32_t>& chosen_a, const std::vector<int32_t>& legal_a,
           const std::vector<int32_t>& chosen_b, const std::vector<int32_t>& legal_b) {
    std::vector<int64_t> counts(4 * rows.size(), 0);
    for (size_t i = 0; i < row_a.size() && i < chosen_a.size(); ++i)
      counts[4 * row_a[i]] += chosen_a[i], counts[4 * row_a[i] + 1] += legal_a[i];
    for (size_t i = 0; i < row_b.size() && i < chosen_b.size(); ++i)
      counts[4 * row_b[i] + 2] += chosen_b[i], counts[4 * row_b[i] + 3] += legal_b[i];
    for (size_t r = 0; r < rows.size(); ++r)
      rows[r].share.add(counts[4 * r], counts[4 * r + 1], counts[4 * r + 2], counts[4 * r + 3]);
  }
};

std::vector<std::string> action_names(const Game& g) {
  std::vector<std::string> out;
  for (const Action& a : g.program.actions) out.push_back(a.name);
  return out;
}

// Adds the paired figures of game pair (a, b), neither of which stopped with an error.
void add_pair(ComparisonStats& st, const GameOutcome& a, const GameOutcome& b, int players,
              ShareRows& actions, ShareRows& cards) {
  ++st.pairs;
  auto score = [](const GameOutcome& o, int p) {
    return p < static_cast<int>(o.scores.size()) ? static_cast<double>(o.scores[p]) : 0.0;
  };
  for (int p = 0; p < players; ++p) {
    st.win[p].add(win_share(a.winners, p), win_share(b.winners, p));
    st.score[p].add(score(a, p), score(b, p));
  }
  st.length.add(a.decisions, b.decisions);
  auto ma = margin(a, players), mb = margin(b, players);
  if (ma && mb) st.margin.add(static_cast<double>(*ma), static_cast<double>(*mb));
  if (a.scored && b.scored) {
    st.lead_changes.add(a.lead_changes, b.lead_changes);
    if (a.midgame_leader >= 0 && b.midgame_leader >= 0)
      st.midgame_leader_won.add((a.winners >> a.midgame_leader) & 1u,
                                (b.winners >> b.midgame_leader) & 1u);
  }
  actions.add(a.action_chosen, a.action_legal, b.action_chosen, b.action_legal);
  cards.add(a.card_chosen, a.card_legal, b.card_chosen, b.card_legal);
}

}  // namespace

ComparisonStats compare(const Game& ga, const std::vector<int64_t>& options_a, const Game& gb,
                        const std::vector<int64_t>& options_b, int games, int players,
                        uint64_t seed, int jobs, const Progress& progress,
                        const std::vector<std::string>& agents, const AgentMaker& make_a,
                        const AgentMaker& make_b) {
  ComparisonStats st;
  st.a = empty_stats(ga, players, games);
  st.b = empty_stats(gb, players, games);
  st.win.resize(players);
  st.score.resize(players);
  ShareRows actions(st.actions, action_names(ga), action_names(gb));
  ShareRows cards(st.cards, ga.card_plain_names, gb.card_plain_names);
  using Pair = std::pair<GameOutcome, GameOutcome>;
  auto one = [&](const Game& g, const std::vector<int64_t>& options, const AgentMaker& make,
                 uint64_t s) {
    return agents.empty() ? run_one(g, players, s, options, false, true)
                          : run_agents(g, players, s, options, agents, make, true);
  };
  auto play = [&](int i) {
    uint64_t s = game_seed(seed, i);
    return Pair{one(ga, options_a, make_a, s), one(gb, options_b, make_b, s)};
  };
  auto add = [&](int i, const Pair& o) {
    add_outcome(st.a, i, o.first);
    add_outcome(st.b, i, o.second);
    if (!o.first.error && !o.second.error) add_pair(st, o.first, o.second, players, actions, cards);
  };
  play_games<Pair>(games, jobs, play, add, progress, agents.empty() ? 32 : 1);
  summarize(st.a);
  summarize(st.b);
  return st;
}

}  // namespace kata
