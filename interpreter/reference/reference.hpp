// A game's reference: what a player may read about the rules before and during a game,
// made from the loaded Game alone (its `doc:` texts and its declarations): the game's
// description and player counts, its options, its components with a table of each kind's
// cards (less the properties `show:` marks as bookkeeping), its board, its zones and who sees them, its variables, its actions and their parameters,
// and its phases. It is built once into GameReference, whose fields are the words to show,
// and written out as plain text (`kata rules`, and the terminal's `rules` command during
// a game), Markdown, or JSON. Nothing here prints, and nothing here names a game.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/game.hpp"

namespace kata {

struct GameReference {
  struct Option {
    std::string name;
    std::string default_value;
    std::string values;   // "1 to 20", "random, draft", "true, false", "1 to the number of players"
    std::string players;  // "3 to 4": the player counts its other values are for; "" for any
    std::string doc;
  };
  struct Kind {
    std::string name;
    int count = 0;  // cards, or cards of each player when per_player
    std::string noun;  // what they are called, as many as `count` ("cards", "tile")
    bool per_player = false;
    std::string start;  // "deck", "its owner's hand", "" (out of play at the start)
    std::string doc;
    // The cards' properties: one row for each different card, with "count" as its last
    // column when some card comes several times. A kind with many different cards gets
    // `ranges` instead ("x: -8 to 8"), a kind with one property a `list` ("1, 2, 3").
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    // Beside each row, what that card does (its `list:` entry's `doc:`), or ""; empty
    // when no card of the kind has one. A kind with docs is tabled, whatever its size.
    std::vector<std::string> docs;
    // Beside each row, how screens name that card (its `title:`); empty when the kind has
    // no titles.
    std::vector<std::string> titles;
    std::string list;
    std::vector<std::string> ranges;
  };
  // A board's points are places, not cards: the reference describes the board in
  // players' words (how many points, in how many rows, how a point is named, the points
  // the rule file marks) and leaves the points out of the components.
  struct Board {
    std::string shape;   // "55 points in 17 rows of 1 to 6, joined by lines"
    std::string naming;  // "a point is named by its x and y (x from -8 to 8, ...), as in 4/-5"
    std::vector<std::string> marked;  // "goal: 1/1"
    std::string doc;
  };
  struct Zone {
    std::string name;
    std::string each;  // "" (one, shared), "player", "tile", "tile and player"
    std::string order;
    std::string seen_by;  // "everyone", "its owner", "nobody while face down (...)", "everyone, its top card only"
    std::string doc;
    std::string label;  // its `label:` as written ("{player}'s side of {tile}"), or empty
    // `show: false`: the rule file's own bookkeeping, which the text and Markdown leave
    // out as screens do (the JSON keeps it, marked).
    bool bookkeeping = false;
  };
  struct Variable {
    std::string name;
    std::string each;  // as for zones
    std::string type;  // "number", "true or false", "player", "card"
    std::string doc;
    bool bookkeeping = false;  // as for zones
    std::string label;  // its `label:`, the words a page writes for it, or empty
  };
  struct Param {
    std::string name;
    std::string domain;  // as the rule file writes it: "player.hand"
    std::string doc;     // its `doc:` ("the card from your hand"), or ""
  };
  struct Action {
    std::string name;
    std::vector<Param> params;
    std::string doc;
  };
  struct Phase {
    std::string name;
    std::string doc;
  };

  std::string name;
  std::string doc;
  int min_players = 0, max_players = 0;
  std::vector<Option> options;
  std::vector<Kind> kinds;
  std::optional<Board> board;
  std::vector<Zone> zones;
  std::vector<Variable> variables;
  std::vector<Action> actions;
  std::vector<Phase> phases;
};

GameReference make_reference(const Game& g);

enum class ReferenceFormat { text, markdown, json };

// The reference as text to print: plain (its descriptions wrapped to `width` columns, a
// terminal's), Markdown (headings and tables), or JSON (an object with the fields of
// GameReference). Only the plain text is wrapped.
constexpr size_t reference_width = 88;
std::string write_reference(const GameReference& r, ReferenceFormat format, size_t width = reference_width);

// The entries of the reference called `name`, case and spaces aside, as plain text wrapped
// to `width`: an option, a kind of component, a card of a table (by its first column, with
// what it does; a player's card also without its seat, "p1 guard" as "Guard"), a zone, a
// variable or an action. Empty when nothing is so called. What the terminal's `rules NAME`
// prints.
std::string reference_entry(const GameReference& r, const std::string& name,
                            size_t width = reference_width);

}  // namespace kata
