// The interface of a compiled back-end: what the runtime runs a game through when its
// program has been compiled to machine code. The runtime owns it; native/ implements it
// (the C++ generator and the system compiler), and another back-end could.
//
// The boundary is one plain struct, the same text on both sides: the host compiles it
// here; generated source receives the very same text (KATA_NATIVE_ABI_TEXT), so the two
// cannot drift apart.
#pragma once

#include <cstdint>

// What failed in compiled code; the host turns it into the interpreter's own message
// (backend.cpp, native_fail), positioned at the node or instruction `where`.
#define KATA_NATIVE_ABI(...)                                                                  \
  enum KataFail {                                                                             \
    kata_bad_player, kata_bad_card, kata_bad_zone, kata_bad_division, kata_bad_kind,          \
    kata_not_a_value, kata_nested, kata_nested_functions, kata_long_range, kata_long_loop,    \
    kata_steps, kata_too_large, kata_bad_position, kata_no_legal, kata_too_many_decisions,     \
    kata_overflow, kata_too_many_legal, kata_work                                             \
  };                                                                                          \
  struct KataCtx {                                                                            \
    int32_t* s;         /* the state's slots */                                               \
    const void* host;   /* the Game, for the callbacks */                                     \
    int32_t n;          /* players */                                                         \
    int32_t args[5];    /* the chooser and parameters of the decision being checked */        \
    int64_t work;       /* the expressions' budget left (limits.steps, Evaluator::spend) */  \
    int64_t env[256];   /* the evaluation frame (Program::frame_size) */                      \
  };                                                                                          \
  /* What compiled code calls back into the interpreter for, given once (kata_init). */       \
  struct KataHost {                                                                           \
    /* Throws the interpreter's RuntimeError for `kind`; never returns. */                    \
    void (*fail)(const void* host, const int32_t* s, int kind, int where, int64_t a, int64_t b); \
    /* A node the generator leaves to the interpreter, with the frame as it stands; what it  \
       spends of the expressions' budget is taken from *work. */                              \
    int64_t (*eval)(const void* host, const int32_t* s, const int32_t* args, const int64_t* env, int base, int node, int64_t* work); \
    /* A list node left to the interpreter: its elements into out (at most cap). */           \
    int (*list)(const void* host, const int32_t* s, const int32_t* args, const int64_t* env, int base, int node, int32_t* out, int cap, int64_t* work); \
    /* A playout's choice among `count` listed decisions where cards are offered: blind   \
       picks made one decision, one drawn with *rng, a blind pick's card with the state's  \
       generator; the decision taken into out (5 int32). */                                 \
    void (*pick)(const void* host, int32_t* s, const int32_t* list, int count, uint64_t* rng, int32_t* out); \
    /* A playout's decision: the position it is made in remembered (remember_position). */    \
    void (*remember)(const void* host, int32_t* s);                                          \
  };

#define KATA_NATIVE_STR2(...) #__VA_ARGS__
#define KATA_NATIVE_STR(...) KATA_NATIVE_STR2(__VA_ARGS__)
#define KATA_NATIVE_ABI_TEXT KATA_NATIVE_STR(KATA_NATIVE_ABI())

namespace kata {
KATA_NATIVE_ABI()

// A game's program compiled by a back-end (Game::native). The runtime runs effects and
// lists legal decisions through it wherever no event is being recorded (simulations,
// random playouts, bots' searches); states stay the interpreter's, slot for slot, so the
// two take turns on one game. Released when the last Game holding it goes.
struct CompiledCode {
  // Runs effects from the state's pc, or, given a decision (five int32: a Decision), from
  // the start of its action.
  void (*run)(KataCtx*, const int32_t* decision) = nullptr;
  // Writes at most `cap` legal decisions (five int32 each) to out; returns how many there are.
  int (*legal)(KataCtx*, int32_t* out, int cap) = nullptr;
  // Plays to the end with random decisions (play_randomly in runtime/engine.hpp).
  void (*playout)(KataCtx*, uint64_t* rng) = nullptr;
  virtual ~CompiledCode() = default;
};

// The interpreter's side of the boundary (runtime/backend.cpp): what compiled code calls
// back for, handed to it once when it is loaded.
const KataHost* native_host();
}  // namespace kata
