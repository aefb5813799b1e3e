// What the files of runtime/ share and nothing outside uses: the errors several of them
// throw, the hand-over between interpreted and compiled code, and the parts of listing
// legal decisions that taking one needs. The public interface is engine.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/backend.hpp"
#include "runtime/engine.hpp"

namespace kata::detail {

// Errors (machine.cpp), each positioned at the instruction or choice at fault.
[[noreturn]] void no_legal_action(const Game& g, int chooser, const ChoiceSite& site);
[[noreturn]] void too_many_decisions(const Game& g, const ChoiceSite& site);
[[noreturn]] void too_many_legal(const ChoiceSite& site);
[[noreturn]] void too_many_steps(const Instr& in, int64_t budget);
[[noreturn]] void too_large(int64_t v, const Instr& in);

// Compiled code (backend.cpp): whether it runs here (nothing listens to events and no
// shuffle is fixed), and the context it runs in, its budget full.
bool use_native(const Game& g, const Hooks* hooks);
void native_context(const Game& g, int32_t* s, KataCtx& c);

// The register code's XIns::go, each its instruction's code in the machine's loop
// (machine.cpp; build_xcode calls it last).
void thread_xcode(Game& g);

// Listing legal decisions (legal.cpp).
// Every combination of parameters for which the conditions hold, a hidden card of a set
// as itself (before blind picks are made one decision).
void raw_legal(const Game& g, const State& st, std::vector<Decision>& out);
// Whether decision d has a blind pick among its parameters.
bool has_blind(const Game& g, const Decision& d);
// The decision a blind pick d stands for, drawn among the raw legal decisions.
Decision pick_blind(const Game& g, int32_t* s, const Decision& d, const Decision* raw, int count, Hooks* hooks);
// The events that tell who drew what when d was picked as `chosen`.
void record_picks(const Game& g, const State& st, const Decision& d, const Decision& chosen, std::vector<Event>& events);
// KataHost::pick: a random playout's choice in compiled code.
void native_pick(const void* host, int32_t* s, const int32_t* list, int count, uint64_t* rng, int32_t* out);

}  // namespace kata::detail
