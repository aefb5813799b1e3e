// The keys each mapping of a rule file (or an import, which is one), a scenario and a
// position may hold. The loaders refuse any other key with these lists, and the JSON
// Schemas editors validate with (docs/kata-rules.schema.json, docs/kata-scenario.schema.json)
// are tested against them (tests/test_schema.cpp), so that the two cannot drift.
#pragma once

#include <string>
#include <vector>

namespace kata::keys {

using List = std::vector<std::string>;

inline const List rule_file = {"kata",      "game",   "doc",        "players",    "import",
                               "options",   "components", "links",  "zones",      "variables",
                               "actions",   "functions",  "procedures", "phases", "flow",
                               "invariants", "scoring",   "limits",     "board"};
inline const List import = {"file", "rename"};
// A declaration's `override: true`: it replaces one of the same name that an import
// declares (without it, doing so is a warning).
inline const List option = {"default", "values", "min", "max", "players", "doc", "override"};
inline const List component = {"each", "list", "where", "per_player", "name", "title", "noun", "label", "in", "show", "doc", "override"};
inline const List zone = {"per_player", "per", "order", "visibility", "show", "label", "doc", "override"};
inline const List variable = {"per_player", "per", "type", "initial", "constant", "position", "show", "label", "doc", "override"};
inline const List variable_show = {"if"};
inline const List parameter = {"from", "doc"};
inline const List action = {"params", "when", "do", "say", "doc", "override"};
inline const List condition = {"if", "refuse"};
inline const List function = {"params", "value", "do", "doc", "override"};
// A procedure or phase: `show: false` makes its calls bookkeeping.
inline const List procedure = {"params", "do", "show", "doc", "override"};
// A link or an invariant in long form, to override an imported one: `{if: COND, override: true}`.
inline const List overriding_condition = {"if", "override"};
inline const List scoring = {"score", "parts", "tiebreak", "winners", "notes"};
inline const List note = {"text", "when"};
inline const List board = {"points", "x",     "y",           "zone", "label", "seats",
                           "marked", "marked_name", "empty_name", "coordinates", "turn", "lines"};
inline const List limits = {"decisions", "steps", "positions"};

inline const List scenario = {"scenario", "rules", "players", "seed", "options", "shuffles", "position", "steps"};
inline const List position = {"at", "zones", "variables", "expect"};
inline const List position_card = {"card", "face", "known"};
// A step: one of `kinds`, with `because:` (play, refuse), `as:` (said) or `turns:` (perft) beside it.
inline const List step_kinds = {"play", "refuse", "expect", "over", "winners", "said", "perft"};
inline const List step = {"play", "refuse", "expect", "over", "winners", "said", "perft", "because", "as", "turns"};

// Each list with the name of its definition in a schema: "rules:NAME" in
// kata-rules.schema.json's `definitions` ("rules:" alone: the top level), "scenario:NAME"
// in kata-scenario.schema.json's.
struct Set {
  const char* schema;
  const List* keys;
};
inline const std::vector<Set> all = {
    {"rules:", &rule_file},          {"rules:import", &import},
    {"rules:option", &option},       {"rules:component", &component},
    {"rules:zone", &zone},           {"rules:variable", &variable},
    {"rules:variable_show", &variable_show}, {"rules:parameter", &parameter},
    {"rules:action", &action},       {"rules:condition", &condition},
    {"rules:function", &function},  {"rules:procedure", &procedure},     {"rules:scoring", &scoring},
    {"rules:overriding_condition", &overriding_condition},
    {"rules:note", &note},           {"rules:board", &board},
    {"rules:limits", &limits},       {"scenario:", &scenario},
    {"scenario:position", &position}, {"scenario:position_card", &position_card},
    {"scenario:step", &step},
};

}  // namespace kata::keys
