// Determinizations: full states that a seat cannot tell from the true one. Search bots
// (agents/search.hpp) plan on them instead of the true state, so that they play from what
// their seat knows and nothing else. The sampler is written once from the visibility rules
// (docs/language.md §4.4); it knows no game. What it keeps and what it deals at random is
// in docs/agents.md ("Determinizations").
#pragma once

#include <cstdint>
#include <memory>
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

// Whether the rule file can hide a card from a seat at all: a zone whose visibility is not
// `everyone`, or a move or flip that puts a card face down. A game without it is one of
// perfect information (chance aside).
bool hides_information(const Game& g);

// The hidden cards of a state and their places, as one seat may know them (determinize.cpp).
struct HiddenPlaces;

// What a search bot is given when it must decide: its seat's information set. Its only
// powers are to list the legal decisions and to sample a determinization; the true state
// stays inside (a bot cannot read it). With `cheat` (mcts --cheat, an upper bound for
// tests and balance studies), samples are the true state, but with its random generator
// re-seeded all the same: the future chance outcomes are not known even then.
class InfoSet {
 public:
  InfoSet(const Game& g, const State& truth, int seat, bool cheat = false)
      : g_(g), truth_(truth), seat_(seat), cheat_(cheat) {}
  const Game& game() const { return g_; }
  int seat() const { return seat_; }
  // How many decisions were made before this one (public: every seat counts them).
  int decisions() const { return truth_.decisions(); }
  // The seat's legal decisions, in the order its menu lists them.
  void legal(std::vector<Decision>& out) const { legal_decisions(g_, truth_, out); }
  // The same as determinize(game(), truth, seat(), rng, out), or the true state re-seeded
  // when cheating. What does not depend on `rng` is worked out at the first sample only.
  void sample(uint64_t& rng, State& out) const;

 private:
  const Game& g_;
  const State& truth_;
  int seat_;
  bool cheat_;
  mutable std::shared_ptr<HiddenPlaces> places_;
};

}  // namespace kata
