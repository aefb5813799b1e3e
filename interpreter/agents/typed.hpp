// Decisions typed in short. The notation (runtime/view.hpp) names every value in full;
// a person or a script may leave out what the choices all share and what does not tell
// them apart: `play Lord North` for `play P1 Lord North`, `play p1lord north`, `play
// guard north` when the Guards are interchangeable. Only the
// chooser's labels and view are read (the Game's fixed data aside), so a short form can
// never name a card the chooser cannot see. What is recorded is the full notation.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agents/menu.hpp"
#include "runtime/view.hpp"

namespace kata {

// The legal decision (an index into `labels`, the chooser's notation of the legal
// decisions) that `text` names in short: the action's name, then each value, the values
// separated by spaces. A typed value matches a value of a label when, lower-cased and
// without spaces, it equals
//   - the value,
//   - the value without the words that all of the parameter's choices begin with
//     (the seat in "P1 Lord", "P1 Guard3"),
//   - the name of the card without its copy number (Game::card_plain_names), with or
//     without those words,
//   - for a blind pick ("a card from P2.hand"), the set's name ("p2.hand") and, when the
//     set is a player's, that player ("take p2"),
// and a card named by its place ("deck#2") is matched only by its place. When labels of
// more than one menu item (menu_items: interchangeable decisions are one item) match,
// nothing is returned and `why` says "ambiguous: 'TEXT' could be X or Y"; when none
// does, nothing is returned and `why` is left as it was.
std::optional<int> short_form(const Game& g, const PlayerView& view,
                              const std::vector<std::string>& labels, const std::string& text,
                              std::string& why);

// The start of some menu items that `text` names in short: the action's name and some of
// the values but not all, each read as short_form reads a value (an item already names
// interchangeable cards without their copy number). It is returned as the items show it
// ("play", "P1 Guard"), for Menu::typed; nothing when the text is no such start, or
// when it could be the start of items that differ in it.
std::optional<std::vector<std::string>> short_start(const std::vector<MenuItem>& items,
                                                    const std::string& text);

// parse_decision, then short_form as the chooser sees the state: what the runner does
// with a human's or a script's text, and a scenario with its `play:` steps.
// Refused in short, the reason is the full notation's when each word naming a card the
// chooser sees is read as that card (a `when:` refusal in the game's words).
std::optional<Decision> read_decision(const Game& g, const State& s, const std::string& text,
                                      std::string& why);

// Why `text` is refused as a decision in the state: the reason read_decision gives, in the
// menu's words. The one wording for a person at the prompt, a script's line and a replayed
// log's decision (replay_log's Refusal). A log holds each decision in full: a short form
// that read_decision would take is refused there, and this says so.
std::string refusal_reason(const Game& g, const State& s, const std::string& text);

}  // namespace kata
