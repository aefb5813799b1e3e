// The search bots. The tree is one vector of nodes linked first-child/next-sibling, reused
// from one decision to the next; the states of an iteration are two vectors copied into
// (a determinization, then the walk on it), so an iteration allocates nothing once warm.
#include "agents/search.hpp"

#include <fmt/format.h>

#include <chrono>
#include <climits>
#include <cmath>

namespace kata {

namespace {

struct TreeNode {
  Decision decision;    // the root's children: args[0] is the index in the seat's legal list
  int32_t player = -1;  // who chose it
  int32_t first_child = -1, next = -1;
  int32_t visits = 0, available = 0;
  double reward = 0;
};

constexpr double exploration = 0.7;  // UCT's constant, for rewards in [0, 1]

// A child never visited (its iteration stopped with a runtime error) is tried first.
double ucb(const TreeNode& n) {
  if (n.visits == 0) return 1e9;
  return n.reward / n.visits +
         exploration * std::sqrt(std::log(static_cast<double>(n.available)) / n.visits);
}

struct Search {
  const InfoSet& info;
  const Game& g;
  uint64_t& rng;
  std::vector<TreeNode> tree;
  std::vector<int32_t> path, untried;
  std::vector<Decision> legal;
  State s;
  int root_count = 0;

  int add_child(int parent, const Decision& d, int player) {
    TreeNode n;
    n.decision = d;
    n.player = player;
    n.next = tree[parent].first_child;
    tree.push_back(n);
    int k = static_cast<int>(tree.size()) - 1;
    tree[parent].first_child = k;
    return k;
  }

  // The child of `node` for legal[i] (at the root: the i-th decision), or -1.
  int child_for(int node, size_t i) const {
    for (int c = tree[node].first_child; c >= 0; c = tree[c].next)
      if (node == 0 ? tree[c].decision.args[0] == static_cast<int>(i)
                    : tree[c].decision == legal[i])
        return c;
    return -1;
  }

  // One step down from `node` in `s`: the child chosen by UCT among those legal here, or
  // a new one. Returns the child and whether it is new.
  std::pair<int, bool> step(int node) {
    legal_decisions(g, s, legal);
    if (node == 0 && static_cast<int>(legal.size()) != root_count)
      throw RuntimeError(Pos{}, "a determinization's menu differs from the seat's");
    untried.clear();
    int best = -1;
    double best_value = -1;
    for (size_t i = 0; i < legal.size(); ++i) {
      int c = child_for(node, i);
      if (c < 0) {
        untried.push_back(static_cast<int32_t>(i));
        continue;
      }
      ++tree[c].available;
      if (untried.empty()) {
        double v = ucb(tree[c]);
        if (v > best_value) best_value = v, best = c;
      }
    }
    if (!untried.empty()) {
      size_t i = untried[uniform(rng, static_cast<uint32_t>(untried.size()))];
      Decision d = legal[i];
      Decision key = d;
      if (node == 0) key = Decision{-1, {static_cast<int32_t>(i), 0, 0, 0}};
      int c = add_child(node, key, s.chooser());
      tree[c].available = 1;
      apply(g, s, d);
      return {c, true};
    }
    const TreeNode& n = tree[best];
    apply(g, s, node == 0 ? legal[n.decision.args[0]] : n.decision);
    return {best, false};
  }

  void iterate() {
    info.sample(rng, s);
    path.clear();
    int node = 0;
    while (!s.over()) {
      auto [child, added] = step(node);
      path.push_back(child);
      node = child;
      if (added) break;
    }
    if (!s.over()) play_randomly(g, s, rng);
    uint32_t w = winners(s);
    int k = __builtin_popcount(w);
    for (int32_t n : path) {
      TreeNode& t = tree[n];
      ++t.visits;
      if ((w >> t.player) & 1u) t.reward += 1.0 / k;
    }
  }
};

using Clock = std::chrono::steady_clock;

}  // namespace

int search_decision(const InfoSet& info, const SearchBudget& budget, uint64_t& rng,
                    SearchStats* stats) {
  thread_local std::vector<TreeNode> tree;
  std::vector<Decision> root;
  info.legal(root);
  if (root.size() <= 1) return 0;
  Search search{
      info, info.game(), rng, std::move(tree), {}, {}, {}, {}, static_cast<int>(root.size())};
  search.tree.clear();
  search.tree.emplace_back();
  SearchStats local;
  SearchStats& st = stats ? *stats : local;
  auto end = Clock::now() + std::chrono::milliseconds(budget.milliseconds);
  for (int i = 0;; ++i) {
    if (budget.milliseconds > 0 ? (i % 8 == 0 && Clock::now() >= end && i > 0)
                                : i >= budget.iterations)
      break;
    try {
      search.iterate();
      ++st.iterations;
    } catch (const RuntimeError&) {
      // A determinization the rules never reach (what the sampler does not model, see
      // docs/agents.md): the iteration is dropped.
      ++st.failed;
    }
  }
  st.nodes = static_cast<int>(search.tree.size());
  int best = -1, visits = -1;
  double reward = -1;
  for (int c = search.tree[0].first_child; c >= 0; c = search.tree[c].next) {
    const TreeNode& n = search.tree[c];
    if (n.visits > visits || (n.visits == visits && n.reward > reward))
      best = n.decision.args[0], visits = n.visits, reward = n.reward;
  }
  tree = std::move(search.tree);
  return best < 0 ? static_cast<int>(uniform(rng, static_cast<uint32_t>(root.size()))) : best;
}

int greedy_decision(const InfoSet& info, uint64_t& rng) {
  const Game& g = info.game();
  std::vector<Decision> root, legal;
  info.legal(root);
  if (root.size() <= 1) return 0;
  State s, after;
  info.want_consistent(1);  // one sample: one consistent state is enough
  info.sample(rng, s);
  legal_decisions(g, s, legal);
  if (legal.size() != root.size())
    return static_cast<int>(uniform(rng, static_cast<uint32_t>(root.size())));
  int best = 0, ties = 0;
  int64_t best_score = 0;
  for (size_t i = 0; i < legal.size(); ++i) {
    after = s;
    int64_t score = 0;
    try {
      apply(g, after, legal[i]);
      if (g.score_node >= 0) score = scores(g, after)[info.seat()];
      if (g.lowest_wins) score = -score;
      // A decision that wins at once is better than any score.
      if (after.over() && (winners(after) >> info.seat()) & 1u) score = INT64_MAX;
    } catch (const RuntimeError&) {
      continue;
    }
    // Ties at random: the k-th best so far replaces the choice with chance 1/k.
    if (ties == 0 || score > best_score)
      best = static_cast<int>(i), best_score = score, ties = 1;
    else if (score == best_score && uniform(rng, static_cast<uint32_t>(++ties)) == 0)
      best = static_cast<int>(i);
  }
  return best;
}

namespace {

class SearchAgent : public Agent {
 public:
  enum class Mode { ismcts, mcts, greedy };
  SearchAgent(std::string spec, Mode mode, SearchBudget budget, bool cheat, uint64_t seed)
      : spec_(std::move(spec)), mode_(mode), budget_(budget), cheat_(cheat), seed_(seed) {}
  std::string kind() const override { return spec_; }
  bool needs_view() const override { return false; }
  int wants_info_set() const override { return cheat_ ? 2 : 1; }
  void inform(const InfoSet* info) override { info_ = info; }
  Choice choose(const Game& g, const PlayerView&, const std::vector<std::string>&,
                int count) override {
    if (!info_) return {static_cast<int>(uniform(seed_, static_cast<uint32_t>(count))), {}};
    if (mode_ == Mode::mcts && !cheat_ && hides_information(g)) return {-2, {}};
    // Each decision draws from a generator of its own, made from the bot's seed and the
    // number of decisions before it: a resumed or replayed game decides as in one go.
    uint64_t rng = seed_ ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(info_->decisions() + 1)) ^
                   (0xd1b54a32d192ed03ULL * static_cast<uint64_t>(undone_));
    next_random(rng);
    int i = mode_ == Mode::greedy ? greedy_decision(*info_, rng)
                                  : search_decision(*info_, budget_, rng);
    return {i, {}};
  }
  void restart() override { undone_ = 0; }
  void undone(int times) override { undone_ = times; }

 private:
  std::string spec_;
  Mode mode_;
  SearchBudget budget_;
  bool cheat_;
  uint64_t seed_;
  int undone_ = 0;
  const InfoSet* info_ = nullptr;
};

// "400" or "500ms".
bool parse_budget(const std::string& text, SearchBudget& b) {
  bool ms = text.size() > 2 && text.compare(text.size() - 2, 2, "ms") == 0;
  std::string digits = ms ? text.substr(0, text.size() - 2) : text;
  if (digits.empty() || digits.size() > 7 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  int n = std::stoi(digits);
  if (n < 1) return false;
  (ms ? b.milliseconds : b.iterations) = n;
  return true;
}

}  // namespace

std::unique_ptr<Agent> make_search_agent(const std::string& spec, int seat, uint64_t seed,
                                         const Game* game, std::string& error) {
  std::vector<std::string> parts;
  for (size_t a = 0;;) {
    size_t b = spec.find(':', a);
    parts.push_back(spec.substr(a, b - a));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  SearchAgent::Mode mode;
  if (parts[0] == "ismcts")
    mode = SearchAgent::Mode::ismcts;
  else if (parts[0] == "mcts")
    mode = SearchAgent::Mode::mcts;
  else if (parts[0] == "greedy")
    mode = SearchAgent::Mode::greedy;
  else
    return nullptr;
  SearchBudget budget{mode == SearchAgent::Mode::ismcts ? 400 : 500, 0};
  bool cheat = false, budget_given = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (mode == SearchAgent::Mode::mcts && parts[i] == "cheat" && !cheat) {
      cheat = true;
    } else if (mode != SearchAgent::Mode::greedy && !budget_given &&
               parse_budget(parts[i], budget)) {
      budget_given = true;
    } else {
      error = mode == SearchAgent::Mode::greedy
                  ? fmt::format("agent 'greedy' takes no options (in '{}')", spec)
                  : fmt::format(
                        "bad option '{}' in agent '{}'; write {}:N (iterations, 1 to 9999999) or "
                        "{}:Nms (a time "
                        "budget in milliseconds){}",
                        parts[i], spec, parts[0], parts[0],
                        mode == SearchAgent::Mode::mcts ? ", then :cheat if wanted" : "");
      return nullptr;
    }
  }
  if (mode == SearchAgent::Mode::mcts && !cheat && game && hides_information(*game)) {
    error = fmt::format(
        "agent '{}': this game hides cards from the players, and mcts would see them; use ismcts, "
        "or mcts:...:cheat for an upper bound that sees every card",
        spec);
    return nullptr;
  }
  uint64_t s =
      seed ^ (0x5851f42d4c957f2dULL * static_cast<uint64_t>(seat + 1)) ^ 0x6a09e667f3bcc909ULL;
  next_random(s);
  return std::make_unique<SearchAgent>(spec, mode, budget, cheat, s);
}

}  // namespace kata
