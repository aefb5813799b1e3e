// A program that embeds kata: it loads a rule file through the library's load pipeline
// (read, check, compile), plays one game to its end with every decision drawn at random,
// and prints who won. Usage: embed RULE_FILE [PLAYERS [SEED]] (docs/embedding.md).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "compile/compiler.hpp"
#include "runtime/engine.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: embed RULE_FILE [PLAYERS [SEED]]\n";
    return 2;
  }
  // `import: stdlib/...` looks beside the program (../share/kata/stdlib) and in
  // $KATA_STDLIB: this program lives elsewhere, so it names the installed stdlib unless
  // the environment already does.
  setenv("KATA_STDLIB", EMBED_STDLIB, 0);

  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  std::shared_ptr<const kata::Game> game = kata::load_game(argv[1], sources, diags);
  std::cerr << kata::format_diagnostics(*sources, diags);  // errors and warnings, if any
  if (!game) return 1;

  int players = argc > 2 ? std::atoi(argv[2]) : game->min_players;
  uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  std::vector<int64_t> options = kata::default_options(*game);
  if (std::string why = kata::setup_error(*game, players, options); !why.empty()) {
    std::cerr << "embed: " << why << "\n";
    return 2;
  }

  try {
    kata::State state = kata::new_game(*game, players, seed, options);
    uint64_t rng = seed;  // the bots' own generator; the game's is in the state
    std::vector<kata::Decision> legal;
    while (!state.over()) {
      kata::legal_decisions(*game, state, legal);
      kata::apply(*game, state, legal[kata::uniform(rng, static_cast<uint32_t>(legal.size()))]);
    }
    std::cout << game->name << ", " << players << " players, seed " << seed << ": over after "
              << state.decisions() << " decisions\n";
    std::vector<int64_t> scores = kata::scores(*game, state);
    uint32_t winners = kata::winners(state);
    for (int seat = 0; seat < players; ++seat)
      std::cout << kata::seat_name(seat) << ": score " << scores[seat]
                << ((winners >> seat) & 1 ? ", wins" : "") << "\n";
  } catch (const kata::RuntimeError& e) {  // an error in the rule file's logic, positioned
    std::cerr << kata::format_diagnostic(*sources, {e.pos, kata::Severity::error, e.what(), {}});
    return 1;
  }
  return 0;
}
