// What one player may know of a state, and the written notation of decisions. A view is
// built only from what the visibility rules let that player see; everything shown to a
// player (screens, filtered logs, bots' inputs) is made from a view or from events
// filtered the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/engine.hpp"

namespace kata {

struct CardView {
  int32_t card = -1;  // -1: hidden from this viewer
  bool face_up = false;
  // The card is public even if it lies face down. In an onlooker's view (viewer -1): every
  // seat sees it (face up, revealed, or seen by all before it was turned down, or looked at
  // by each). In a seat's view only what all seats were shown (Layout::public_knowledge: it
  // was revealed, or face up, or the top of a `top` zone, since the last shuffle): what the
  // other seats know besides is theirs (docs/language.md §4.4.1), and `look` tells the
  // others only that a card of a zone was looked at.
  bool public_ = false;
  // The card's kind, seen or not: a tile's back is not a card's, and screens count hidden
  // components by their kind's noun ("3 hidden tiles"). Determinizations keep it too.
  int32_t kind = -1;
  bool operator==(const CardView&) const = default;
};

struct ZoneView {
  int instance = -1;
  std::vector<CardView> cards;  // bottom first
  bool operator==(const ZoneView&) const = default;
};

struct PlayerView {
  int viewer = -1;  // a seat, or -1 for an onlooker who sees everything
  Status status = Status::running;
  int chooser = -1;
  int phase = -1;
  int decisions = 0;
  uint32_t winners = 0;
  std::vector<int64_t> globals;
  std::vector<std::vector<int64_t>> player_vars;  // [variable][seat]
  // [variable][component index, see Game]; unknown where the viewer cannot see the card.
  std::vector<std::vector<int64_t>> card_vars;
  static constexpr int64_t unknown = INT64_MIN;
  // A card-valued variable holds a card the viewer knows, none (-1), or hidden_card.
  static constexpr int64_t hidden_card = -2;
  // Where a variable's `show: {if: ...}` does not hold, in the shapes above: the page
  // leaves the value out. Worked out from the value the view holds, and nothing else.
  std::vector<bool> globals_unshown;
  std::vector<std::vector<bool>> player_vars_unshown, card_vars_unshown;
  std::vector<bool> eliminated;
  std::vector<ZoneView> zones;
  // Once the game is over: the score table (score_table in engine.hpp). Its parts are
  // public at the end, like the score: a rule file declares only parts its rules reveal.
  ScoreTable end;
  // How the viewer's drawing of the board is turned, clockwise: 0, 90, 180 or 270 degrees
  // (the board's `turn:`; 0 for an onlooker).
  int board_turn = 0;
  bool operator==(const PlayerView&) const = default;
};

PlayerView make_view(const Game& g, const State& s, int viewer);
// What every seat may see: a card is shown only if each seat sees it (face up, revealed,
// on top of a `top` zone, or looked at by all). make_view with a viewer that is no seat is
// not this: it misses cards revealed to every seat. `viewer` is -1 in the result.
PlayerView public_view(const Game& g, const State& s);

// A card as `viewer` may be told of it: its name if they see it; else where it lies in a
// stack or a row ("North.side(P2)#3", counted from the bottom), whose order everyone
// sees; and in a set only which set ("a card from P2.hand"), which is also how a blind
// pick (blind_card) reads. Nothing a seat is told depends on the identity or the order of
// cards it cannot see (docs/language.md).
std::string card_text(const Game& g, const State& s, int card, int viewer);
// The same for a seat that does not see the card (a message tells it so: log/log.cpp);
// in a zone with a `label:`, named by it in words ("a card from P2's hand", "card 1 from
// the bottom of P2's side of North"), since a message is read, not typed.
std::string hidden_card_text(const Game& g, const State& s, int card);
// A value of a variable or parameter, as text.
std::string value_text(const Game& g, Type t, int64_t v);
// "the left side is 3, the right side is 4": the values in `s` of the two sides of the
// invariant when it is a comparison, to tell why it does not hold; empty otherwise.
std::string comparison_sides(const Game& g, const State& s, const Invariant& inv);
// A variable's value as a view holds it (a card variable's value is already filtered), as
// a screen writes it: a bool as "yes" or "no" ("P3: may still call: no"), words a person reads
// where the notation and expressions say true and false.
std::string var_value_text(const Game& g, VarType t, int64_t v);

// "discard 7", "fight": the decision in the chooser's notation (the state is the one the
// decision is made in). With a viewer: as that seat may be told of it (card_text). The
// cards of a set that the chooser cannot see are one decision, a blind pick, which reads
// "take a card from P2.hand" (legal_decisions).
std::string decision_text(const Game& g, const State& s, const Decision& d);
std::string decision_text(const Game& g, const State& s, const Decision& d, int viewer);
// The same for a screen: each value one unit that wrapping never splits (runtime/wrap.hpp).
std::string decision_screen_text(const Game& g, const State& s, const Decision& d, int viewer);

// Notation as it is compared: lower case, each run of blanks one space, none at the ends.
std::string normal(const std::string& text);

// The legal decision the text names (in the chooser's notation, case and spacing aside),
// or nothing and, in `why`, the reason it is refused: the `when` it fails, unless it names
// a card the chooser cannot see (the failed condition would tell something of that card);
// where the values typed leave no legal decision for the next parameter, why ("no go is
// legal with origin 8/-7: 7/-8 holds a piece of yours").
// Two legal decisions written alike: the first that legal_decisions lists. The text is
// read one parameter at a time, each against its list of values, so reading costs about
// the lists' lengths, not their product; legal_decisions is not called. Where the game's
// choice may fail to be listed (more than max_legal_decisions, none legal, limits.steps
// run out), list it first, as playing does: then the game stops there with that error.
std::optional<Decision> parse_decision(const Game& g, const State& s, const std::string& text,
                                       std::string& why);

// The board (`board:` in the rule file) as the view shows it: text for a terminal, one row
// a line, a piece as its player's number and initial; and an SVG picture with the lines
// between points. Empty when the game has no board.
std::string draw_board(const Game& g, const PlayerView& v);
// The same text with each line of the drawing one unit (runtime/wrap.hpp): a screen never
// wraps a drawing; the legend under it is text like any other.
std::string draw_board_units(const Game& g, const PlayerView& v);
std::string board_svg(const Game& g, const PlayerView& v);

// A readable page of the view: phase, variables, zones, and whose turn it is; at the end,
// the score table. Zones and variables declared `show: false` are left out of it, and
// `show: when_not_empty` / `when_set` ones while empty or unset.
std::string describe_view(const Game& g, const PlayerView& v);
// The same page for a screen: each card's name with its shown properties, and each line of
// the board's drawing, is one unit that wrapping never splits (runtime/wrap.hpp). Print it
// with print_screen.
std::string describe_screen(const Game& g, const PlayerView& v);
// Whether the end of a game has scores worth showing: not when the score is the parts' sum
// and every part is 0 for every seat, with no tie-break (a variant's points in a game
// played without the variant). The end's table and the result line then leave them out.
bool scores_shown(const Game& g, const ScoreTable& t);

// Internal to the runtime but shared with the notation: the values a parameter may take
// (given the earlier ones in `d`), and the first `when` condition a decision fails (-1 if
// none).
std::vector<int64_t> parameter_domain(const Game& g, const State& s, const Decision& d, int k);
// Only the conditions that read no parameter after the first `params` (-1: all).
int failed_condition(const Game& g, const State& s, const Decision& d, int params = -1);

}  // namespace kata
