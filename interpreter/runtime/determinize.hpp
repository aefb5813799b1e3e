// Determinizations: full states that a seat cannot tell from the true one. Search bots
// (agents/search.hpp) plan on them instead of the true state, so that they play from what
// their seat knows and nothing else. The sampler is written once from the visibility rules
// (docs/language.md §4.4); it knows no game. What it keeps and what it deals at random is
// in docs/agents.md ("Determinizations").
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/engine.hpp"

namespace kata {

// A state consistent with everything `seat` knows of `truth`, written into `out` (whose
// memory is reused). The cards the seat cannot see (in play, not visible to it) are dealt
// again at random, each among the places of the hidden cards of its own kind and owner;
// a place keeps what the seat can know of it: its zone and position (in a stack or a row),
// its face, which seats know the card there, that card's component variables and the
// variables that hold it. The state's random generator is re-seeded from `rng`, so the
// future shuffles are not the true ones. The result depends only on what the seat can
// know of `truth` (the hidden cards are taken in card order before they are dealt) and on
// `rng`: two states that differ only in which hidden card lies where give the same one.
void determinize(const Game& g, const State& truth, int seat, uint64_t& rng, State& out);

// The state with every card c renamed to[c] (a permutation that keeps each card's kind):
// the card takes c's place, face, who knows it and component variables, and card-valued
// variables follow; a set is sorted again (card order). The locals of running effects are
// left as they are (their types are not kept). Two states that differ only in which
// hidden card lies where are renamings of each other (the sampler repairs its tries with
// it; tests make twins with it).
State rename_cards(const Game& g, const State& s, const std::vector<int>& to);
// `d` with each card it names renamed to[c], as made in the renamed state.
Decision rename_cards(const Game& g, const Decision& d, const std::vector<int>& to);

// Whether the rule file can hide a card from a seat at all: a zone whose visibility is not
// `everyone`, or a move or flip that puts a card face down. A game without it is one of
// perfect information (chance aside).
bool hides_information(const Game& g);

// The hidden cards of a state and their places, as one seat may know them (determinize.cpp).
struct HiddenPlaces;

// What a seat was told as decision `d` was made in `s` (which it then applies, with its
// events): the lines the runner shows that seat (agents/runner.cpp, told_step). Given by
// the caller, so that the sampler compares what the seat was told without knowing how a
// line is worded.
using TellFn = void (*)(const Game& g, State& s, const Decision& d, int seat,
                        std::vector<std::string>& out);

// A state consistent with what a seat was told (History): the determinization of the
// history's start it came from (after its repairs), the decisions made again in it, and the
// state they led to. A seat's are kept from one of its decisions to the next, and only the
// decisions made since are made again in them.
struct ConsistentSample {
  State start;
  std::vector<Decision> decisions;
  State present;
};

// What happened since the last use of chance, for samples consistent with it: the true
// state just after it (a shuffle, a blind pick, or the game's start, which includes the
// set-up's shuffles) and the decisions made since, in order. Between the two no random
// number was drawn, so the decisions can be made again in a determinization of `from`
// and must tell the seat what they told it (docs/agents.md, "What the table was told").
struct History {
  const State* from = nullptr;
  const std::vector<Decision>* since = nullptr;
  TellFn tell = nullptr;
  // The seat's own: the samples that were consistent at its last decision, tried again
  // first (from where they were); the sampler replaces them with this decision's. Cleared by
  // the caller when chance is used. Optional.
  std::vector<ConsistentSample>* kept = nullptr;
};

// Keeps a History as a game goes on (the runner's, a benchmark's): the state after the last
// use of chance and the decisions made since, and each seat's kept samples.
class HistoryKeeper {
 public:
  // From a game's start (new_game), whose set-up may have used chance.
  HistoryKeeper(const State& start, int seats, TellFn tell)
      : from_(start), kept_(static_cast<size_t>(seats)), tell_(tell) {}
  // `d` was made and the game is now `now`: a decision after which the random generator
  // is not as it was starts the history again from `now`.
  void made(const Decision& d, const State& now);
  // The history as `seat` samples it (valid until the next made()).
  History of(int seat) {
    return History{&from_, &since_, tell_, &kept_.at(static_cast<size_t>(seat))};
  }

 private:
  State from_;
  std::vector<Decision> since_;
  std::vector<std::vector<ConsistentSample>> kept_;
  TellFn tell_;
};

// How a seat's samples were made, for the bots' statistics (kata arena --json).
struct SampleStats {
  int consistent = 0;      // states found consistent with the history (0: none was sought)
  int attempts = 0;        // determinizations of the history's start tried for them
  int kept = 0;            // of the consistent ones, those kept from the seat's decisions before
  bool fell_back = false;  // none was found: samples are determinizations of the present
};

// What a search bot is given when it must decide: its seat's information set. Its only
// powers are to list the legal decisions and to sample a determinization; the true state
// stays inside (a bot cannot read it). With `cheat` (mcts --cheat, an upper bound for
// tests and balance studies), samples are the true state, but with its random generator
// re-seeded all the same: the future chance outcomes are not known even then.
//
// With a `history`, samples are also consistent with what the seat was told since the last
// use of chance: at the first sample, determinizations of the history's start are tried,
// its decisions made again in each (another seat's hidden card taken at random among
// those the seat could not tell from it), and one is kept only if every line it tells the
// seat is the true one, and the seat's view at the end too (at most `consistent_wanted`
// kept, of `consistent_tries` tried; up to half of them may be the samples kept from the
// seat's earlier decisions, History::kept, which are tried first). Samples are then drawn
// from those kept, each with a new random generator; if none was kept, from
// determinizations of the present as without a history.
class InfoSet {
 public:
  static constexpr int consistent_wanted = 16;
  static constexpr int consistent_tries = 512;

  InfoSet(const Game& g, const State& truth, int seat, bool cheat = false,
          const History* history = nullptr)
      : g_(g), truth_(truth), seat_(seat), cheat_(cheat), history_(history) {}
  const Game& game() const { return g_; }
  int seat() const { return seat_; }
  // How many decisions were made before this one (public: every seat counts them).
  int decisions() const { return truth_.decisions(); }
  // The seat's legal decisions, in the order its menu lists them.
  void legal(std::vector<Decision>& out) const { legal_decisions(g_, truth_, out); }
  // The same as determinize(game(), truth, seat(), rng, out), or the true state re-seeded
  // when cheating. What does not depend on `rng` is worked out at the first sample only.
  void sample(uint64_t& rng, State& out) const;
  // How the samples so far were made.
  const SampleStats& sample_stats() const { return stats_; }
  // How many consistent states to look for (consistent_wanted by default), before the first
  // sample: a bot that samples once (greedy) needs one.
  void want_consistent(int n) const { wanted_ = std::max(1, std::min(n, consistent_wanted)); }

 private:
  // Looks for states consistent with the history (at the first sample).
  void find_consistent(uint64_t& rng) const;

  const Game& g_;
  const State& truth_;
  int seat_;
  bool cheat_;
  const History* history_;
  mutable std::shared_ptr<HiddenPlaces> places_;
  mutable std::vector<State> consistent_;
  mutable SampleStats stats_;
  mutable int wanted_ = consistent_wanted;
};

}  // namespace kata
