// The loaded game: immutable, shared by every state, agent and thread. Everything a rule
// file named is resolved to indices here; the runtime never looks anything up by name.
// The State (state.hpp) is a flat vector of int32 slots laid out by `Layout` below.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kernel.hpp"
#include "runtime/ops.hpp"
#include "syntax/rulefile.hpp"
#include "syntax/source.hpp"

namespace kata {

// ---- compiled expressions: a flat array of nodes, children by index ----
// NodeOp: every kind, and what its fields hold, is in ops.hpp.

// Up to three children are held in the node itself, the common case; calls keep theirs
// in Program::kids. Positions are kept aside (Program::node_pos): only errors need them.
struct Node {
  NodeOp op;
  int32_t a = 0;
  int32_t b = 0;
  int32_t kid[3] = {-1, -1, -1};
  int32_t first_kid = 0;  // into Program::kids
  int32_t kid_count = 0;
};

// ---- compiled statements: a flat instruction array with jumps ----
// Op: every kind, and what a, b, c, d and e hold for it, is in ops.hpp.

struct Instr {
  Op op;
  int32_t a = 0, b = 0, c = 0, d = 0, e = 0;
  Pos pos;
};

struct Loop {
  int32_t list_node;
  int32_t where_node = -1;
  int32_t var_slot;
  int32_t buffer_slot;
  int32_t count_slot;
  int32_t index_slot;
  int32_t capacity;  // of the buffer: players, cards, or 64 numbers
};

struct Param {
  std::string name;
  int32_t slot;
  int32_t domain_node;  // with the chooser and earlier parameters as `arg` nodes
  Type type;
  std::string domain_text;  // as the rule file writes it, for the game's reference
  std::string doc;          // the parameter's `doc:`, or ""
};

struct Action {
  std::string name;
  std::string doc;
  Pos pos;
  std::vector<Param> params;
  std::vector<int32_t> when_nodes;  // with the chooser and parameters as `arg` nodes
  std::vector<int32_t> when_level;  // how many parameters each reads (the last one's number)
  // A `when` that reads only the chooser and its last parameter, a card or a player, and not
  // the first: its value for each value of that parameter is kept while legal decisions are
  // listed (it would otherwise be worked out again for every choice of the earlier
  // parameters). Its first entry in the legality cache, or -1.
  std::vector<int32_t> when_cache;
  std::vector<std::string> when_texts;
  // What a refused chooser is told when each `when` fails: the rule file's message
  // (`refuse:`, with {name} for a parameter), or empty for the default wording.
  std::vector<std::string> when_refusals;
  // Whether the default wording may quote the condition: not when it calls a function of
  // the rule file, whose workings (and the hidden cards they read) are not the player's.
  std::vector<uint8_t> when_quotable;
  int32_t player_slot;  // the local `player`: who chose it
  int32_t entry;
  int32_t ret_slot;
};

struct Procedure {
  std::string name;
  Pos pos;
  std::vector<int32_t> param_slots;
  int32_t entry = -1;
  int32_t ret_slot = -1;
  // `show: false`: the events of a call are bookkeeping, between Event::quiet marks.
  bool quiet = false;
  // It only tells (docs/language.md, "A procedure that only tells"): its statements say
  // messages, keep values in its own variables, branch, loop and call procedures that only
  // tell. A call is worked out only when someone listens, as a message is, and leaves the
  // state as it found it: `tell_slots` are the state's slots the call writes (its
  // parameters, return address, variables and loops', and its callees'), put back after it.
  bool tells_only = false;
  std::vector<int32_t> tell_slots;
};

struct Function {
  std::string name;
  int32_t body = -1;
  int32_t params = 0;
};

// A message (`say`): its text around its values, and each value's node and type. Its
// values are worked out only when events are recorded (it changes nothing in the game).
struct Message {
  std::vector<std::string> text;  // one more than values
  std::vector<int32_t> nodes;
  std::vector<Type> types;
};

struct ChoiceSite {
  Pos pos;
  std::vector<int32_t> actions;
  // For each action, the values `choose p: jump(c)` gives its first parameters (their
  // nodes, read in the chooser's frame when the decisions are listed): only decisions
  // with those values are offered. Empty for an action given none.
  std::vector<std::vector<int32_t>> given;
};

// `cell(3, 2)`: the card of a kind whose first properties (1 to 3 of them) have the given
// values, or none (-1). A dense table over the box of those values when it is small (a
// board's coordinates), else the keys sorted and searched.
struct CardLookup {
  int32_t dims = 0;
  bool dense = true;
  int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  std::vector<int32_t> table;  // dense: a card or -1, indexed by the values less lo, row-major
  std::vector<std::pair<std::array<int64_t, 3>, int32_t>> keys;  // otherwise, sorted

  int32_t find(const int64_t* v) const {
    if (dense) {
      int64_t i = 0;
      for (int d = 0; d < dims; ++d) {
        if (v[d] < lo[d] || v[d] > hi[d]) return -1;
        i = i * (hi[d] - lo[d] + 1) + (v[d] - lo[d]);
      }
      return table.empty() ? -1 : table[i];
    }
    std::array<int64_t, 3> k{0, 0, 0};
    for (int d = 0; d < dims; ++d) k[d] = v[d];
    auto it = std::lower_bound(keys.begin(), keys.end(), k, [](const auto& e, const auto& x) { return e.first < x; });
    return it != keys.end() && it->first == k ? it->second : -1;
  }
};

// One instruction of the register code (runtime/xcode.cpp): an expression's nodes laid out
// in the order they are worked out, each writing register d from registers x and y, or
// jumping to a; `node` is the node it works out (its fields, and where errors point).
// A leaf's or a node's own instruction carries the node's a, b and first two kids (c, e),
// so that it reads no node; the others use them as their rows in evaluator.hpp say.
// `go` is the address of its code in Machine::run_at's loop (runtime/machine.cpp,
// thread_xcode), which jumps through it; other loops read `op`.
struct XIns {
  uint8_t op = 0, d = 0, x = 0, y = 0;
  int32_t a = 0, b = 0, c = -1, e = -1, node = -1;
  const void* go = nullptr;
};

struct Program {
  // The evaluation frame: the variables of aggregates and the parameters of functions.
  static constexpr int frame_size = 256;
  std::vector<Node> nodes;
  std::vector<Pos> node_pos;
  std::vector<int32_t> kids;
  std::vector<Instr> code;
  std::vector<Loop> loops;
  std::vector<ChoiceSite> sites;
  std::vector<Action> actions;
  std::vector<Procedure> procedures;
  std::vector<Function> functions;
  std::vector<std::vector<int64_t>> value_lists;  // for list_values
  std::vector<CardLookup> lookups;                // for card_at
  std::vector<Message> messages;
  int32_t when_cache_size = 0;  // entries of the legality cache (Action::when_cache)
  int32_t flow_entry = 0;
  // The register code (build_xcode): the statements, each after the code of its operands,
  // and the expressions the statements and the listing of decisions work out by value.
  // `xpc` holds where each instruction of `code` starts in it (the state keeps addresses
  // in `code`), `xentry` where each node's code starts, or -1 for a node the tree walk
  // works out (a leaf, or one that is not such a root).
  std::vector<XIns> xcode;
  std::vector<int32_t> xpc;
  std::vector<int32_t> xentry;
  // The same code for the runs nobody listens to (Machine without events: playouts,
  // search, simulations), with its own addresses: without the messages, nor the marks a
  // bookkeeping call's end and a decision's end leave for the screens, which do nothing
  // there.
  struct Quiet {
    std::vector<XIns> xcode;
    std::vector<int32_t> xpc, xentry;
  } quiet;
};

// ---- declarations the runtime needs for views, names and set-up ----
struct OptionInfo {
  std::string name;
  std::string doc;
  int64_t default_value = 0;
  std::vector<int64_t> choices;  // empty: any integer within min..max
  int64_t min = INT32_MIN, max = INT32_MAX;
  int min_players = 1, max_players = 16;  // the player counts its values other than the default are for
  bool max_is_players = false;             // at most the number of players (a seat number)
  bool is_symbol = false;
  bool is_bool = false;
};

struct PropertyInfo {
  std::string name;
  bool symbolic = false;  // values are symbols (print by name)
};

struct KindInfo {
  std::string name;
  std::string name_template;
  bool per_player = false;
  int32_t first_card = 0, card_count = 0;
  int32_t start_zone = -1;  // zone declaration the cards start in, or -1 (out of play)
  std::vector<int32_t> properties;  // the properties its declaration gives, in its order
  std::string doc;
  // What each card does, from its `list:` entry's `doc:` (indexed by card - first_card),
  // for the reference; empty when no entry has one.
  std::vector<std::string> card_docs;
  // Whether the kind's cards have titles (`title:`): card_plain_names holds them.
  bool titled = false;
  // `show: false`: the kind is bookkeeping, left out of the reference.
  bool unshown = false;
  // `noun:` what screens call one and several of these components.
  std::string noun_one = "card", noun_many = "cards";
  // `show:` the properties a screen writes beside each of these components where the
  // viewer sees it ("Port (vp 4)"), and the bookkeeping ones, left out of the reference.
  std::vector<int32_t> shown, bookkeeping;
  // `label:` how screens write a component of the kind that the viewer sees, in pieces:
  // text as it is, the card's name, a property, or a component variable (an index into
  // Game::card_vars). Empty: its name and its shown properties ("Port (vp 4)").
  struct LabelPiece {
    enum class What : uint8_t { text, name, property, variable } what = What::text;
    std::string text;
    int32_t index = -1;
  };
  std::vector<LabelPiece> label;
};

struct ZoneInfo {
  std::string name;
  bool per_player = false;
  int32_t kind = -1;  // one instance for each component of this kind (and each seat), or -1
  ZoneOrder order = ZoneOrder::stack;
  Visibility visibility = Visibility::nobody;
  int32_t first_instance = 0;
  std::string doc;
  std::string per_kind;  // the kind's name, for messages
  Show show = Show::always;  // on a player's screen (when_set: when not empty)
  // `label:` how screens and narration name an instance, in pieces: text as it is, the
  // instance's owner ("P1"), or the component it belongs to (its name). Empty: its name.
  struct LabelPiece {
    enum class What : uint8_t { text, owner, holder } what = What::text;
    std::string text;
  };
  std::vector<LabelPiece> label;
};

struct VarInfo {
  std::string name;
  bool per_player = false;
  VarType type = VarType::integer;
  int32_t initial = -1;  // node
  std::vector<int32_t> seat_initial;  // `initial: [..]`: a node for each seat, P1's first
  bool constant = false;              // `constant: true`: never assigned
  bool in_position = true;            // `position: false`: not compared by repetitions()
  std::string doc;
  int32_t kind = -1;  // component variables: one for each component of this kind (and seat)
  int32_t base = 0;   // component variables: the first slot, from Layout::card_vars
  Show show = Show::always;  // on a player's screen (when_set: where not 0, false or none)
  // `show: {if: ...}`: the condition (a node, its value bound to the variable's own name),
  // or -1. A page lists the variable only where it holds.
  int32_t show_node = -1;
  std::string label;  // `label:`, the words screens write for the name, or empty
};

// `scoring: parts:` a named part of the score, per player (the bound `p`); `notes:` a
// sentence for the end of the game, shown when its condition (no `p`) holds.
struct ScorePart {
  std::string name;
  int32_t node = -1;
};

struct ScoreNote {
  std::string text;
  int32_t node = -1;
};

struct Invariant {
  std::string name;
  int32_t node;
  Pos pos;
  // The types of its two sides when it is a comparison, to show their values when it fails
  // (comparison_sides); Type::error otherwise.
  Type left = Type::error, right = Type::error;
};

// Where each part of the state lives in its slot vector.
struct Layout {
  static constexpr int status = 0, pc = 1, chooser = 2, site = 3, phase = 4, decisions = 5,
                       winners = 6, players = 7, rng_hi = 8, rng_lo = 9, steps = 10, header = 11;
  int32_t options = header;
  int32_t globals = 0;
  int32_t player_vars = 0;  // [var * max_players + seat]
  int32_t card_vars = 0;    // [var's base + (card - kind's first card) * (max_players or 1) + seat]
  int32_t eliminated = 0;   // [seat]
  int32_t zone_size = 0;    // [instance]
  int32_t zone_cards = 0;   // [instance * card_count + position], bottom first
  int32_t card_zone = 0;    // [card]: instance, or -1 out of play
  int32_t card_face = 0;    // [card]: 1 face up
  int32_t card_known = 0;   // [card]: bit mask of seats that have seen it, and public_knowledge
  // The positions remembered for repetitions() (positions.cpp): how many decisions were
  // made in a remembered position, then a ring of `history_cap` 64-bit hashes, two slots
  // each; history_cap 0 when the game calls no repetitions().
  int32_t history = 0;
  int32_t history_cap = 0;
  // In card_known: every seat saw the card in a way all were shown (face up, the top card
  // of a `top` zone, or `reveal`), so each knows the others know it; until a shuffle.
  static constexpr int32_t public_knowledge = 1 << 30;
  int32_t locals = 0;
  int32_t total = 0;
};

// How views draw a board (`board:` in the rule file): each point of a kind at (x, y), the
// top card of its zone on it.
struct BoardInfo {
  int32_t kind = -1;   // the points' kind; -1: the game has no board
  int32_t zone = -1;   // the zone declaration of each point, or -1
  int32_t label = -1;  // the property whose value's first letter marks a piece, or -1
  std::vector<int32_t> x, y;  // for each point: card - the kind's first card
  std::vector<bool> marked;
  std::string marked_name;           // what a marked point is ("the goal"), or empty
  std::string empty_name;            // what an empty point is ("an empty cell"), or empty
  std::vector<std::string> seats;    // `seats:`: how seat k's pieces are drawn, for its number
  std::vector<int32_t> coordinates;  // the properties a point's name is made of
  int32_t turn_node = -1;  // the turn of a seat's drawing, in degrees (`viewer` bound), or -1
  bool lines = true;       // the text drawing draws the links it can (`lines:`)
};

enum class Status : int32_t { running = 0, waiting = 1, over = 2 };

struct CompiledCode;  // runtime/backend.hpp
struct Game;
// The kernel's tables of a compiled game (Game::kernel), from its layout and zones.
KernelTables make_kernel_tables(const Game& g);
// The slots of a new game with one player count and the default options, and the runs of
// them a game reused from the last one writes again (initial_state_in): the slots before
// the zones' lists, each zone's starting cards, the slots after the lists; runs a few slots
// apart are one run (a copy of the slots between costs less than a call of its own).
struct InitialSlots {
  std::vector<int32_t> slots;
  std::vector<std::pair<int32_t, int32_t>> runs;  // (first slot, count), in order
};
// The initial states of a compiled game with its default options (Game::initial_slots).
std::vector<InitialSlots> make_initial_slots(const Game& g);
// Fills the program's register code (Program::xcode, xpc, xentry) from its code and nodes
// (runtime/xcode.cpp). tree_walk: every operand worked out by the tree walk (Evaluator::eval),
// no expression laid out and no procedure's body laid out in place of its call, which tests
// compare the register code with.
void build_xcode(Game& g, bool tree_walk = false);

struct Game {
  std::string name;
  std::string doc;
  int min_players = 2, max_players = 2;
  std::vector<OptionInfo> options;
  std::vector<std::string> symbols;  // symbol value = symbol_base + index
  static constexpr int64_t symbol_base = 1000000;
  std::vector<KindInfo> kinds;
  std::vector<PropertyInfo> properties;
  std::vector<int32_t> card_kind;
  std::vector<int32_t> card_owner;           // seat, or -1
  std::vector<int64_t> card_props;           // [property * card_count + card]
  std::vector<std::string> card_names;       // display names, made from the templates
  // The names without the number `{copy}` adds ("P1 Guard" for "P1 Guard3"): the same
  // for cards that differ only in it; the name itself where the template has no `{copy}`.
  std::vector<std::string> card_plain_names;
  // What repetitions() compares of a position (positions.cpp): each card as its first copy
  // (copies are alike on the table), and the slots of the variables that are part of it.
  std::vector<int32_t> card_class;
  std::vector<int32_t> position_slots;
  // The board's graph (`links:`): the cards linked to card c are
  // link_to[link_start[c] .. link_start[c + 1]), in card order.
  std::vector<int32_t> link_start, link_to;
  BoardInfo board;
  std::vector<ZoneInfo> zones;
  std::vector<int32_t> instance_zone;        // zone declaration of each instance
  std::vector<int32_t> instance_owner;       // seat, or -1 for shared zones
  std::vector<int32_t> instance_card;        // the component a zone belongs to, or -1
  std::vector<Visibility> instance_visibility;  // its zone's, read on every card move
  // Whether the instance is a `set`: it keeps its cards in card order (ascending), so
  // where a card lies in it never tells when the card arrived.
  std::vector<uint8_t> instance_set;
  // Whether every card is always seen by every seat: every zone is seen by everyone, and
  // nothing turns a card face down (no `flip` but face up, no move face down). Then no
  // decision is a blind pick (may_pick_blind), and a scenario's position cannot put a card
  // face down. A board game's, whose pieces are all on the table.
  bool cards_always_seen = false;
  // For each choice site, whether a parameter of an action it offers may take a blind pick
  // (may_pick_blind): a listing elsewhere is never looked at for blind picks.
  std::vector<uint8_t> site_blind;
  // For each choice site, whether every action it offers has no parameter, and it offers
  // at most max_plain: its decisions are its actions whose conditions hold, and a random
  // playout draws one without listing them (Machine::play_randomly). 2: and none of them
  // has a `when`, so that every one is legal; 1: some have; 0: not such a site.
  static constexpr size_t max_plain = 16;
  std::vector<uint8_t> site_plain;
  // For each choice site, whether it offers one action, of one card parameter drawn from a
  // named zone or a seat's (`from: player.hand`), without a `when`, a value the `choose`
  // gives or a blind pick: its decisions are the zone's cards, bottom first, as a listing
  // has them, and a random playout draws one without listing them (Machine::play_randomly).
  std::vector<uint8_t> site_zone_pick;
  std::vector<VarInfo> globals, player_vars, card_vars;
  std::vector<std::string> phases;
  std::vector<std::string> phase_docs;  // the `doc:` of each phase, or ""
  std::vector<Invariant> invariants;
  int32_t score_node = -1;    // without `score:`, the sum of the parts
  bool score_is_sum = false;  // the score is the parts' sum (no `score:`)
  std::vector<ScorePart> score_parts;
  std::vector<int32_t> tiebreak_nodes;
  std::vector<std::string> tiebreak_names;  // beside each node: its name, or "" (unnamed)
  std::vector<ScoreNote> score_notes;
  bool lowest_wins = false;
  int64_t max_decisions = 10000;
  int64_t max_steps = 1000000;
  int32_t card_count = 0;
  Layout layout;
  Program program;
  std::shared_ptr<const Sources> sources;
  std::string path;  // the rule file
  std::string text;  // its text, for the log's checksum
  // The program compiled to machine code by a back-end (native/compile_native), or null:
  // the interpreter runs it.
  std::shared_ptr<const CompiledCode> native;
  // The layout and zone tables the kernel's card functions read (runtime/kernel.hpp),
  // made from the rest by make_kernel_tables once the game is compiled.
  KernelTables kernel;
  // For each player count from min_players, the slots initial_state sets with the default
  // options, less the random generator's (make_initial_slots, once the game is compiled):
  // a new game copies them instead of filling every card and variable in anew. Empty for
  // a count whose set-up fails (an initial value's error is then raised by each new game).
  std::vector<InitialSlots> initial_slots;
  // A number no other game compiled in this process has (a ReusedState holds a state of
  // the game with its serial: engine.hpp).
  uint64_t serial = 0;

  std::string symbol_name(int64_t v) const;
  int zone_instance(int zone, int seat) const {
    return zones[zone].first_instance + (zones[zone].per_player ? seat : 0);
  }
  std::string instance_name(int instance) const;  // "deck", "P2.hand", "Port.side(P1)"
  // The name a person reads: a board point's zone (`board: zone:`) is named by its point
  // ("4/-5", not "4/-5.spot"); a zone with a `label:` by it ("P1's side of North"); any
  // other zone by instance_name. A label's holder is named by its title where its kind has
  // one ("P1's side of Gold Mine"); for a screen (`units`), as one unit that wrapping never
  // splits (runtime/wrap.hpp). For narration and views; the log's JSON and the notation
  // keep instance_name.
  std::string place_name(int instance, bool units = false) const;
  // What screens call `n` components of kind `kind` (-1: of several kinds, or none known),
  // by the kind's `noun:`: "a tile", "an order", "3 tiles", "2 cards". `word` only: "tiles".
  std::string counted(size_t n, int kind) const;
  const std::string& noun(int kind, bool many) const;
  // The one kind of all `cards` (a list of card numbers), or -1 if they are of several.
  template <class Cards, class Card>
  int kind_of_all(const Cards& cards, Card card) const {
    int k = -2;
    for (const auto& c : cards) {
      int kc = card(c);
      k = k == -2 || k == kc ? kc : -1;
    }
    return k < 0 ? -1 : k;
  }
  // What a component variable's value (or a component zone's instance) is indexed by.
  int component_index(int32_t kind, bool per_player, int card, int seat) const {
    return (card - kinds[kind].first_card) * (per_player ? max_players : 1) + (per_player ? seat : 0);
  }
};

// Formats a seat the way users read it: P1, P2, ...
std::string seat_name(int seat);

}  // namespace kata
