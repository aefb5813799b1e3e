// The menus a person chooses from at the terminal. They are made from what the seat is
// given, the labels of its legal decisions and its view, with the Game's fixed data (names,
// kinds, properties); never from the state, so a menu tells nothing the seat may not know.
// Two decisions whose cards are interchangeable (see menu_items) are one item; a long list
// is walked one parameter at a time (Menu). Reading what is typed is left to HumanAgent.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/view.hpp"

namespace kata {

// A label read back into the action's name and each value's text ("deploy", "P1 Lord",
// "Village"), from the Game's names alone; nothing when it cannot be read so.
std::optional<std::vector<std::string>> label_parts(const Game& g, const std::string& label);

// A parameter in the rule file's words, as menus and refusals name it: its doc on one line
// up to its first punctuation ("the point of the piece you move, written x/y: ..." is "the
// point of the piece you move"), else "a" and the kind of its value (`card`, a card the
// value is: "a tile"; -1 for none: "a card").
std::string param_words(const Game& g, const Param& p, int card = -1);

struct MenuItem {
  // The action's name, then each value as the menu shows it: a card is named without its
  // copy number ("P1 Guard", for one Guard or several interchangeable ones) unless two
  // items would then read alike. A label that cannot be read is one part.
  std::vector<std::string> parts;
  std::vector<std::string> params;  // the action's parameter names, as far as known
  // Beside each part, what the viewer sees on it when it is a point of the board (the top
  // card of the point's zone, as the drawing shows it: "P1 Guard"), else empty. Moves
  // name points; this says which piece stands there.
  std::vector<std::string> notes;
  // The legal decisions (indices into the labels) the item stands for; the first is the
  // one chosen.
  std::vector<int> decisions;
  // The heading of the item's action where a menu lists several actions: the first
  // sentence of its `doc:` and its name ("Take an offered tile. (take)"), or its
  // name alone.
  std::string heading;
  // What each parameter is, in the rule file's words, for the menu's "choose ..." line: its
  // `doc:` ("the card from your hand"), else the kind of its value ("a tile", "a player").
  std::vector<std::string> param_words;
  // Beside each part that names a hidden card by its place ("Port.side(P2)#1") in a zone
  // with a `label:`, that place in words ("card 1 from the bottom of P2's side of Port"),
  // else empty: the notation is what is typed, the words what is read.
  std::vector<std::string> places = {};
  // The parts, then the pieces on its points ("(P1 Guard on 4/5)"), the places in words
  // ("(card 1 from the bottom of P2's side of Port)") and " (x4)" when the item stands for
  // four decisions.
  std::string text() const;
  // Part k as a person reads it: a hidden card's place by its number and its words ("#1
  // (card 1 from the bottom of P2's side of Port)"), any other part as it is.
  std::string part_text(size_t k) const;
  // The same with each value and note one unit that a screen never splits (runtime/wrap.hpp).
  std::string screen_text() const;
};

// One item for each set of interchangeable decisions, in the order of their first labels.
// Two decisions are interchangeable when they have the same action and their values are
// the same but for cards that are interchangeable: cards that the viewer sees (the label
// names them) of the same kind and owner, with the same properties and links, the same
// component variables as the view shows them, in the same zone, the same way up, at the
// same place in a row, both the top of a stack or both below it (a stack's order below
// its top and a set's order tell nothing), owning no zone and held by no variable. A card
// named by its place (hidden from the chooser) is never merged with another.
std::vector<MenuItem> menu_items(const Game& g, const PlayerView& view,
                                 const std::vector<std::string>& labels);

// A walk through a menu: when more than `page` lines remain (the items, and a heading per
// action when there are several), the person first chooses the
// action, then each parameter's value in turn (only values that lead to a legal decision),
// each step a short numbered list; a step with one value is taken without asking, and a
// value with one item under it is listed as that item. A value that is a board point
// holding a piece the viewer sees names it: "4/5 (P1 Guard, 2 choices)".
class Menu {
 public:
  explicit Menu(std::vector<MenuItem> items, size_t page = 20);

  // The current step: a line saying what is chosen (empty for the whole list of a short
  // menu), then the numbered entries; where they are decisions of several actions, under
  // a heading per action (MenuItem::heading), the numbers running on.
  std::string show() const;
  // The same for a screen: each value one unit (runtime/wrap.hpp); print it with
  // print_screen.
  std::string screen() const;
  size_t size() const { return entries_.size(); }
  // Picks entry k (0-based): the decision chosen, or -1 when it leads to another step.
  int pick(size_t k);
  // Goes back one step of the person's own; false at the first step.
  bool back();
  bool at_start() const;
  // What was typed, if it names a value of the current step (as pick), a menu item's text
  // (its decision) or the start of some items' texts (it then becomes the current step, and
  // -1 is returned); nothing otherwise.
  std::optional<int> typed(const std::string& text);
  const std::vector<MenuItem>& items() const { return items_; }

 private:
  struct Entry {
    std::string value;  // a value of the next part, or empty for an item
    int item = -1;      // the item, for a whole item
    size_t count = 0;   // items under a value
    // The piece on the value, if it is a point (MenuItem::notes), or the place of a hidden
    // card in words (MenuItem::places).
    std::string note;
  };
  struct Step {
    std::string value;
    bool automatic;
  };
  std::vector<int> candidates() const;
  void settle();
  std::vector<MenuItem> items_;
  size_t page_;
  std::vector<Step> path_;
  std::vector<Entry> entries_;
};

}  // namespace kata
