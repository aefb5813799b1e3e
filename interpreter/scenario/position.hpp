// A scenario's `position:` (docs/scenarios.md, "Starting from a position"): cards placed in
// zones with their faces and who knows them, variables set, and the phase where the flow
// resumes. Read from the scenario's YAML first, then checked against the compiled game and
// set on a state before its flow runs; every mistake is an error positioned in the
// scenario file. Running the game from there is left to the scenario runner.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "runtime/engine.hpp"
#include "syntax/diagnostics.hpp"

namespace kata {

struct PositionSpec {
  struct Card {
    std::string name;
    Pos pos;
    std::string face;  // "up", "down", or "" for the zone's default
    Pos face_pos;
    bool known_given = false;  // `known:` written: exactly these seats know it
    std::vector<std::pair<std::string, Pos>> known;
  };
  struct Zone {
    std::string name;  // as instance_name writes it: "deck", "P1.hand", "Port.side(P1)"
    Pos pos;
    std::vector<Card> cards;  // bottom first
  };
  struct Variable {
    std::string name;  // "round", "P1.vp", "Port.seat_a", "Port.port_bonus(P1)"
    Pos pos;
    std::string value;
    Pos value_pos;
  };
  bool given = false;
  Pos pos;
  std::string at;  // the phase, or "" for the flow's start
  Pos at_pos;
  std::vector<Zone> zones;
  std::vector<Variable> variables;
};

// Reads `position:` (a mapping). Errors about its shape go to `d`, at positions in `file`.
void read_position(const YAML::Node& n, int file, PositionSpec& out, Diagnostics& d);

// Sets the position on `s`, a state from initial_state, and returns the instruction where
// the flow resumes (-1 after errors, reported to `d`).
int set_position(const Game& g, const PositionSpec& spec, State& s, Diagnostics& d);

}  // namespace kata
