// The rounds of a native Kobayakawa playout, bottom-up: turn order, taking cards, the draw
// phase, the bets, the combat, then a round and a whole game.
//
// Why it is written this way (it is a speed yardstick, so these matter):
// - Everything that lives for one round (deck, hands, stakes, the kobayakawa card, even the
//   random generator) sits in a local struct of plain ints, indexed by position in the turn
//   order. The compiler then keeps it in registers and the stack; no phase searches for a seat.
// - The shuffle is a lazy Fisher-Yates: each card taken from the deck is drawn uniformly from
//   the cards not yet taken this round. That is exactly the distribution of shuffling all 15
//   cards first, without the work for the cards nobody sees.
// - The decisions are random, so a branch on one would be mispredicted half the time. The
//   phases therefore select values with arithmetic instead of branching on decisions or cards.
#include "native_kobayakawa.hpp"

#include <algorithm>

namespace native_kobayakawa {
namespace {

constexpr std::array<int, card_count> ordered_deck = {1, 2,  3,  4,  5,  6,  7, 8,
                                                      9, 10, 11, 12, 13, 14, 15};

// Everything that lives for one round only. Index i means the i-th player in turn order.
struct round_state {
  explicit round_state(const Rng& game_rng) : rng(game_rng) {}

  // The round's own copy of the game's generator (so it can live in registers); play_round
  // writes it back.
  Rng rng;
  // The cards, 1..15 at the start of every round: all are gathered each time. deck[0..deck_top)
  // have been taken, in order.
  std::array<int, card_count> deck = ordered_deck;
  int deck_top = 0;
  std::array<int, max_players> seat{};   // seat[i]: the i-th non-eliminated seat from first
  std::array<int, max_players> hand{};   // hand card of the i-th player
  std::array<int, max_players> stake{};  // kamons staked by the i-th player (0: passed)
  int count = 0;                         // players taking part in the round
  int kobayakawa = 0;                    // value of the face-up kobayakawa card
  int pot = 0;                           // sum of the stakes
  uint64_t choices = 0;                  // random bits for the round's decisions
};

// if_true when condition holds, else if_false, computed without a branch.
inline int branch_free_select(bool condition, int if_true, int if_false) {
  return if_false ^ ((if_true ^ if_false) & -static_cast<int>(condition));
}

// The non-eliminated seats clockwise from the first player.
void set_turn_order(const State& s, round_state& r) {
  int seat = s.first;
  for (int i = 0; i < s.players; ++i) {
    if ((s.alive_mask >> seat) & 1u) r.seat[r.count++] = seat;
    seat = seat + 1 == s.players ? 0 : seat + 1;
  }
}

// Takes the deck's top card: a uniform pick among the cards not yet taken this round.
inline int take_card(round_state& r) {
  const int pick = r.deck_top + static_cast<int>(r.rng.below(card_count - r.deck_top));
  const int card = r.deck[pick];
  r.deck[pick] = r.deck[r.deck_top++];
  return card;
}

// The next two-way decision, uniformly at random: true picks the second option. A round
// needs at most 3 decisions per player, 18 in all, so one 64-bit word drawn at the start of
// the round supplies every one of them, each an independent fair bit.
inline bool choose_second(round_state& r) {
  const bool second = r.choices & 1u;
  r.choices >>= 1;
  return second;
}

// One card to each player in turn order, then the first kobayakawa face up.
void deal(round_state& r) {
  for (int i = 0; i < r.count; ++i) r.hand[i] = take_card(r);
  r.kobayakawa = take_card(r);
}

// Each player either flips a new kobayakawa or draws and discards one of their two cards.
// Both actions take the deck's top card; the decisions only say where it goes. The discard
// decision's bit is drawn for every player but used, and counted, only after a draw.
void draw_phase(State& s, round_state& r) {
  for (int i = 0; i < r.count; ++i) {
    const int card = take_card(r);
    const bool draw = choose_second(r);
    const bool keep_drawn = choose_second(r);
    s.decisions += 1 + draw;
    r.kobayakawa = branch_free_select(draw, r.kobayakawa, card);
    r.hand[i] = branch_free_select(draw & keep_drawn, card, r.hand[i]);
  }
}

// Each player fights (stakes 1, or 2 in the last round, or all they have if less) or passes.
void bet_phase(State& s, round_state& r) {
  const int stake = s.centre > 2 ? 1 : 2;
  for (int i = 0; i < r.count; ++i) {
    const int seat = r.seat[i];
    const int put = branch_free_select(choose_second(r), std::min(stake, int{s.kamons[seat]}), 0);
    s.kamons[seat] = static_cast<int8_t>(s.kamons[seat] - put);
    r.stake[i] = put;
    r.pot += put;
  }
  s.decisions += r.count;
}

// The position in turn order of the combat's winner, or -1 when nobody fought. The lowest hand
// adds the kobayakawa; strict comparison leaves ties to the earlier player.
int combat_winner(const round_state& r) {
  int lowest = card_count + 1;
  for (int i = 0; i < r.count; ++i)
    lowest = std::min(lowest, branch_free_select(r.stake[i] > 0, r.hand[i], card_count + 1));
  int winner = -1;
  int best_total = 0;  // every fighter's total is at least 1
  for (int i = 0; i < r.count; ++i) {
    const int bonus = branch_free_select(r.hand[i] == lowest, r.kobayakawa, 0);
    const int total = branch_free_select(r.stake[i] > 0, r.hand[i] + bonus, 0);
    const bool better = total > best_total;
    winner = branch_free_select(better, i, winner);
    best_total = branch_free_select(better, total, best_total);
  }
  return winner;
}

// Pays the winner the stakes and the round's centre kamons, eliminates the ruined fighters and
// passes the first-player token. With no fighter the prize leaves the game.
void settle(State& s, const round_state& r) {
  const int prize = s.centre > 2 ? 1 : 2;
  s.centre = static_cast<int8_t>(s.centre - prize);
  const int winner = combat_winner(r);
  if (winner < 0) {
    s.removed = static_cast<int8_t>(s.removed + prize);
    return;
  }
  const int winner_seat = r.seat[winner];
  s.kamons[winner_seat] = static_cast<int8_t>(s.kamons[winner_seat] + r.pot + prize);
  for (int i = 0; i < r.count; ++i) {
    const int seat = r.seat[i];
    const unsigned ruined = s.kamons[seat] == 0;
    s.alive_mask = static_cast<uint8_t>(s.alive_mask & ~(ruined << seat));
    s.alive_count = static_cast<int8_t>(s.alive_count - ruined);
  }
  s.first = static_cast<int8_t>(winner_seat);
}

}  // namespace

State initial_state(int players) {
  State s;
  s.players = static_cast<int8_t>(players);
  s.centre = start_centre;
  s.alive_count = static_cast<int8_t>(players);
  s.alive_mask = static_cast<uint8_t>((1u << players) - 1);
  for (int p = 0; p < players; ++p) s.kamons[p] = start_kamons;
  return s;
}

void play_round(State& s, Rng& rng) {
  round_state r(rng);
  set_turn_order(s, r);
  r.choices = r.rng.next();
  deal(r);
  draw_phase(s, r);
  bet_phase(s, r);
  settle(s, r);
  ++s.rounds;
  rng = r.rng;
}

Result playout(int players, uint64_t seed) {
  Rng rng(seed);
  State s = initial_state(players);
  while (!is_over(s)) play_round(s, rng);
  Result result;
  result.kamons = s.kamons;
  result.players = players;
  result.decisions = s.decisions;
  result.rounds = s.rounds;
  return result;
}

uint32_t winners_mask(const Result& r) {
  const int best = *std::max_element(r.kamons.begin(), r.kamons.begin() + r.players);
  uint32_t mask = 0;
  for (int p = 0; p < r.players; ++p)
    if (r.kamons[p] == best) mask |= 1u << p;
  return mask;
}

}  // namespace native_kobayakawa
