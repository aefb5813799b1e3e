// The declarations of a rule file, as read from its YAML: names, positions and the text
// of every expression and effect, parsed into AST. This layer knows YAML and the shape of
// a rule file; what names mean is the checker's business.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/ast.hpp"
#include "syntax/diagnostics.hpp"
#include "syntax/parse.hpp"

namespace YAML {
class Node;
}

namespace kata {

// The most legal decisions one choice may offer (all actions, all combinations of their
// parameters): a choice with more is refused when the file is checked, where the
// parameters' lists are known then, and when the decisions are listed otherwise.
inline constexpr int64_t max_legal_decisions = 1 << 20;
// The most positions a game may remember for repetitions() (limits.positions).
inline constexpr int64_t max_remembered_positions = 4096;

// A value written in YAML that the text language reads: its raw text and where it stands.
struct Text {
  std::string text;
  Pos pos;
  Locator where;
  bool present() const { return pos.valid(); }
};

// A property value of a component or an option: a number or a symbol (a bare word).
struct Value {
  bool is_symbol = false;
  bool is_bool = false;
  int64_t number = 0;
  std::string symbol;
  Pos pos;
};

struct OptionDecl {
  std::string name;
  Pos pos;
  Value default_value;
  std::vector<Value> choices;  // if not empty: the allowed values
  std::optional<int64_t> min, max;
  int min_players = 1, max_players = 16;  // `players:` the counts its other values are for
  bool max_is_players = false;             // `max: players`: at most the player count
  std::string doc;
};

struct ComponentDecl {
  std::string kind;
  Pos pos;
  bool per_player = false;  // one set of these components for each player (property `owner`)
  std::string name_template;  // "{clan} {rank}"; default: the kind and a number
  Pos name_pos;
  std::vector<std::string> properties;
  // `show: {vp: true, hx: false}`: the properties a screen writes beside each component
  // (true), and those that are the rule file's bookkeeping, left out of the reference too
  // (false). A property not named is in the reference only.
  std::vector<std::string> shown, bookkeeping;
  // `show: false`: the whole kind is the rule file's bookkeeping (lots drawn for the first
  // player, markers): the reference leaves it out.
  bool unshown = false;
  // `label: "{name} (vp {vp}) between {seat_a} and {seat_b}"`: how screens write each of
  // these components where the viewer sees it, with each {field} its value: the card's
  // name, a property, or a variable of each component of the kind (a player as "P1").
  Text label;
  // `title: "rank {rank}"`: how screens name each of these components in words, in place of
  // its name (the notation's): a template like the name's; a `list:` entry's own `title:`
  // (row_titles) comes first. Empty: screens write the name.
  std::string title_template;
  Pos title_pos;
  // `noun: tile` or `noun: [die, dice]`: what screens call one and several of these
  // components ("6 tiles move", "3 hidden dice"); empty: card, cards.
  std::string noun_one, noun_many;
  Pos noun_pos;
  // One row a component: its property values, in `properties` order.
  std::vector<std::vector<Value>> rows;
  // Beside each row, the `doc:` of its `list:` entry (what that card does), or "".
  std::vector<std::string> row_docs;
  // Beside each row, the `title:` of its `list:` entry, or "" (then the kind's title).
  std::vector<std::string> row_titles;
  std::string start_zone;  // `in:` the zone they start in (the owner's, if per player)
  Pos start_pos;
  // `where:` keeps only the rows for which it holds, worked out at load time with the
  // row's properties as names (a board's points out of a grid of coordinates).
  Text where;
  ExprPtr where_expr;
  std::string doc;
};

// `links: {point: CONDITION}`: which components of a kind are joined by a line (a board's
// graph), worked out at load time with `a` and `b` two of them; links go both ways.
struct LinkDecl {
  std::string kind;
  Pos pos;
  Text text;
  ExprPtr expr;
};

enum class ZoneOrder : uint8_t { stack, row, set };
enum class Visibility : uint8_t { everyone, owner, nobody, top };
// `show:` whether a player's screen lists a zone or a variable: always, never (the rule
// file's bookkeeping), or only when it holds something (a zone that is not empty, a value
// that is not 0, false or none). It changes only the printed page, never what a view
// holds: agents still receive everything their seat may know.
enum class Show : uint8_t { always, never, when_set };

struct ZoneDecl {
  std::string name;
  Pos pos;
  bool per_player = false;
  std::string per_kind;  // `per: KIND`: one for each component of that kind (and player)
  Pos per_pos;
  ZoneOrder order = ZoneOrder::stack;
  Visibility visibility = Visibility::nobody;
  Show show = Show::always;  // `when_set`: written `when_not_empty`
  // `label: "{player}'s side of {tile}"`: how screens and narration name each instance of
  // the zone to a person, {player} its owner (per player) and {KIND} the component it
  // belongs to (`per: KIND`); absent: its name ("P1.hand", "North.side(P1)").
  Text label;
  std::string doc;
};

enum class VarType : uint8_t { integer, boolean, player, card };

struct VarDecl {
  std::string name;
  Pos pos;
  bool per_player = false;
  std::string per_kind;  // `per: KIND`: one for each component of that kind (and player)
  Pos per_pos;
  VarType type = VarType::integer;
  Text initial;  // an expression; options may appear in it
  ExprPtr initial_expr;  // parsed and checked by the checker
  // `initial: [1, -1]` on a per-player variable: one expression for each seat, P1's first.
  std::vector<Text> seat_initials;
  std::vector<ExprPtr> seat_initial_exprs;
  Pos seat_initials_pos;
  // `constant: true`: no statement may assign it (it keeps its initial values).
  bool constant = false;
  // `position: false`: not part of the position that repetitions() compares (a counter of
  // moves, say).
  bool in_position = true;
  Show show = Show::always;
  // `show: {if: CONDITION}`: listed where the condition holds, the variable's own name
  // standing for its value (a seat's, a component's); it reads nothing else but options.
  Text show_if;
  ExprPtr show_if_expr;
  // `label: first player`: the words a screen writes for the variable in place of its
  // name ("first player: P2", not "first = P2"); empty for the name.
  std::string label;
  std::string doc;
};

struct ParamDecl {
  std::string name;
  Pos pos;
  Text domain;
  ExprPtr domain_expr;
  std::string doc;  // what the value means, for a refused player (long form's `doc:`)
};

struct ActionDecl {
  std::string name;
  Pos pos;
  std::string doc;
  std::vector<ParamDecl> params;
  std::vector<Text> when;
  std::vector<ExprPtr> when_exprs;
  // For each `when`, what a refused player is told ({if: COND, refuse: TEXT}), or empty.
  std::vector<Text> refusals;
  Text effect;
  // `say:`, what every seat is told of the decision in place of its notation: a message
  // said as the effect begins (its first statement in `body`).
  Text say;
  Block body;
};

// A named function (a pure expression with parameters) or procedure (a block of effects).
struct RoutineDecl {
  std::string name;
  Pos pos;
  std::vector<std::string> params;
  Text body;
  ExprPtr expr;  // functions
  Block block;   // procedures and phases, and functions computed by statements (`do:`)
  bool computed = false;  // a function's `do:`: statements that end with `return VALUE`
  bool broken = false;    // its body has a syntax error, already reported: not checked
  std::string doc;
  // A procedure's `show: false`: what its calls do is bookkeeping, which screens do not
  // tell (the log does).
  bool shown = true;
};

struct InvariantDecl {
  std::string name;
  Pos pos;
  Text text;
  ExprPtr expr;
};

// `parts:` one named part of the score, per player with `p` bound; shown at the end.
struct ScorePartDecl {
  std::string name;
  Pos pos;
  Text text;
  ExprPtr expr;
};

// `notes:` a sentence shown under the end of the game's score table when its condition
// holds in the final state (why nobody won, which rule decided).
struct ScoreNoteDecl {
  Pos pos;
  std::string text;
  Text when;
  ExprPtr when_expr;
};

struct ScoringDecl {
  Pos pos;
  Text score;  // per player, with `p` bound; without it, the sum of the parts
  ExprPtr score_expr;
  std::vector<ScorePartDecl> parts;
  std::vector<Text> tiebreak;  // per player; compared in order when scores tie
  std::vector<ExprPtr> tiebreak_exprs;
  // Each tie-break's name where written as a mapping (`tiebreak: {conquests: ...}`), for
  // the end's table; "" where it was written as an expression.
  std::vector<std::string> tiebreak_names;
  std::vector<ScoreNoteDecl> notes;
  Pos parts_pos, notes_pos;  // where `parts:` and `notes:` were written, if they were
  bool lowest_wins = false;
  // Whether the section decides anything or shows anything: a score, parts or notes.
  bool present() const { return score_expr || !parts.empty() || !notes.empty(); }
};

// `board:` how to draw a board of points: where each point of a kind stands (load-time
// expressions of its properties), the zone on each point whose top card is drawn there,
// the property whose first letter marks a piece, which points are marked when empty and
// what the mark means, the properties a point's name is made of (drawn as coordinates), and
// how a seat's view turns the drawing (an expression of `viewer`).
struct BoardDecl {
  Pos pos;
  std::string kind;
  Text x, y, marked, turn;
  ExprPtr x_expr, y_expr, marked_expr, turn_expr;
  std::string zone;
  Pos zone_pos;
  std::string label;
  Pos label_pos;
  std::string marked_name;
  std::string empty_name;  // `empty_name:`, what the legend calls an empty point
  std::vector<std::string> seats;  // `seats:`, how each seat's pieces are drawn
  std::optional<bool> lines;  // `lines:`, the links drawn in the text (default true)
  std::vector<std::string> coordinates;
  Pos coordinates_pos;
};

struct RuleFile {
  int file = -1;
  std::string game;
  Pos game_pos;
  std::string doc;
  int min_players = 2, max_players = 2;
  Pos players_pos;
  std::vector<OptionDecl> options;
  std::vector<ComponentDecl> components;
  std::vector<LinkDecl> links;
  std::optional<BoardDecl> board;
  std::vector<ZoneDecl> zones;
  std::vector<VarDecl> variables;
  std::vector<ActionDecl> actions;
  std::vector<RoutineDecl> functions;
  std::vector<RoutineDecl> procedures;
  std::vector<RoutineDecl> phases;
  std::vector<InvariantDecl> invariants;
  ScoringDecl scoring;
  Text flow;
  Block flow_block;
  int64_t max_decisions = 10000;  // a game that has not ended by then stops with an error
  int64_t max_steps = 1000000;    // effect steps between two decisions
  int64_t max_positions = 256;    // the positions repetitions() remembers (limits.positions)
  // Whether an expression calls repetitions() (set by the checker): then each decision
  // remembers the position it was made in.
  bool remembers_positions = false;
};

// The YAML of `file` (its text already in `sources`) into `root`, read as every YAML file
// kata reads is (rule files, the files they import, scenarios, with their positions): UTF-8
// text without control characters, mappings and lists at most 100 deep, text values at
// most 1 MiB, and at most 1048576 nodes and characters repeated by aliases in all
// (docs/language.md §7). Past a limit, or on malformed YAML, one positioned error in
// `diags` and false. `kind` names the file in messages: "a rule file", "a scenario".
bool read_yaml(const Sources& sources, int file, Diagnostics& diags, YAML::Node& root, std::string_view kind);

// Reads a rule file and the files it imports; every problem goes to `diags`. Returns the
// declarations even when there were errors, so the checker can report more.
std::unique_ptr<RuleFile> load_rule_file(const std::string& path, Sources& sources,
                                         Diagnostics& diags);

// The standard library's directory, where `import:` looks for a file that is not beside
// the importing one: $KATA_STDLIB if it is set and not empty; else the first directory
// that exists of `../share/kata/stdlib` from the running program's own (an installed
// kata, or a program installed beside it) and the stdlib/ of the source tree kata was
// built from; "" when neither does (docs/language.md, "Imports").
std::string stdlib_dir();

// One entry of an import's `rename: {old: new}`: the new name, and where the entry is
// written (in the importing file), keyed by the old name.
struct Rename {
  std::string to;
  Pos pos;
};
using Renames = std::map<std::string, Rename>;

// Renames the declarations of `rf`, the file `file_name` imports, and every use of them
// (an import's `rename:`), never a name bound inside the file (a parameter, a `let`, a
// loop's or an aggregate's variable) nor a use of one. Errors, at the rename: a name the
// file does not declare, a new name that it declares already or that two names take, a
// new name that a local would capture where the old one is used, and a new name that the
// file uses without declaring it (the renamed declaration would capture that use).
void rename_all(RuleFile& rf, const Renames& renames, const std::string& file_name, const Sources& sources,
                Diagnostics& diags);

// Reads YAML text (for scenario files and tests). `name` is used in messages.
std::unique_ptr<RuleFile> load_rule_text(const std::string& name, const std::string& text,
                                         Sources& sources, Diagnostics& diags);

}  // namespace kata
