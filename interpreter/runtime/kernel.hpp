// The kernel: the random generator, checked arithmetic, who sees a card, and moving,
// turning and shuffling cards, over a state's slots. One text, compiled here for the
// interpreter and pasted into every generated file (native/codegen.cpp, as
// KATA_KERNEL_TEXT), so the two back-ends cannot drift apart: the same draws, the same
// numbers and errors, the same knowledge, the same order.
//
// The card functions read the state's layout and the zones' tables through `T`: here a
// KernelTables (in each Game), in generated code a struct whose members are constants,
// which the compiler folds. Being macro text, the kernel has no `//` comments and no
// names but its own and the standard integer types. The functions a move of a card runs
// are always inlined: generated code moves cards in many places, and a call to a shared
// copy cost a compiled card game an eighth of its playouts (docs/performance.md).
#pragma once

#include <cstdint>
#include <vector>

#define KATA_KERNEL(FN)                                                                       \
  /* splitmix64: the generator every chance of a game draws from. */                          \
  FN uint64_t next_random(uint64_t& x) {                                                      \
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);                                                \
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;                                              \
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;                                              \
    return z ^ (z >> 31);                                                                     \
  }                                                                                           \
  /* A uniform integer in [0, n), without modulo bias (Lemire's method). */                   \
  FN uint32_t uniform(uint64_t& x, uint32_t n) {                                              \
    uint64_t m = (uint64_t)(uint32_t)next_random(x) * n;                                      \
    uint32_t low = (uint32_t)m;                                                               \
    if (low < n) {                                                                            \
      uint32_t t = (0u - n) % n;                                                              \
      while (low < t) {                                                                       \
        m = (uint64_t)(uint32_t)next_random(x) * n;                                           \
        low = (uint32_t)m;                                                                    \
      }                                                                                       \
    }                                                                                         \
    return (uint32_t)(m >> 32);                                                               \
  }                                                                                           \
  /* Checked arithmetic: numbers are worked out in 64 bits, and a result beyond them is an    \
     error of the game, not a wrapped number (nor a trap, for the lowest number / -1); so is  \
     a division by zero. Each puts the result in *r; add, sub, mul, neg and abs give true     \
     when it is too large (a bool, so the test is the processor's overflow flag), div and     \
     mod 0, else TOO_LARGE (1) or DIVISION (2). */                                            \
  FN bool checked_add(int64_t a, int64_t b, int64_t* r) {                                     \
    return __builtin_add_overflow(a, b, r);                                                   \
  }                                                                                           \
  FN bool checked_sub(int64_t a, int64_t b, int64_t* r) {                                     \
    return __builtin_sub_overflow(a, b, r);                                                   \
  }                                                                                           \
  FN bool checked_mul(int64_t a, int64_t b, int64_t* r) {                                     \
    return __builtin_mul_overflow(a, b, r);                                                   \
  }                                                                                           \
  FN int checked_div(int64_t a, int64_t b, int64_t* r) {                                     \
    if (b == 0) return 2;                                                                     \
    if (a == INT64_MIN && b == -1) return 1;                                                  \
    *r = a / b;                                                                               \
    return 0;                                                                                 \
  }                                                                                           \
  FN int checked_mod(int64_t a, int64_t b, int64_t* r) {                                     \
    if (b == 0) return 2;                                                                     \
    if (a == INT64_MIN && b == -1) return 1;                                                  \
    *r = a % b;                                                                               \
    return 0;                                                                                 \
  }                                                                                           \
  FN bool checked_neg(int64_t a, int64_t* r) {                                               \
    if (a == INT64_MIN) return 1;                                                             \
    *r = -a;                                                                                  \
    return 0;                                                                                 \
  }                                                                                           \
  FN bool checked_abs(int64_t a, int64_t* r) {                                               \
    if (a == INT64_MIN) return 1;                                                             \
    *r = a < 0 ? -a : a;                                                                      \
    return 0;                                                                                 \
  }                                                                                           \
  /* Whether a number fits a slot of the state (32 bits), where variables are kept. */        \
  FN bool fits_slot(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }                   \
  /* Whether seat `viewer` (-1: the referee) sees card `card`: face up, known to it, or in a \
     zone that shows it (the owner's; the top of a `top` zone). VIS: 0 everyone (cards turn  \
     face up as they enter; one put there face down stays hidden), 1 owner, 2 nobody, 3 top. */ \
  template <class Tb>                                                                         \
  FN bool is_visible(const Tb& T, const int32_t* s, int viewer, int card) {                  \
    if (viewer < 0) return true;                                                              \
    int z = s[T.CZ + card];                                                                   \
    if (z < 0) return false;                                                                  \
    if (s[T.FACE + card]) return true;                                                        \
    if (s[T.KNOWN + card] & (1u << viewer)) return true;                                      \
    if (T.VIS[z] == 1) return T.IOWNER[z] == viewer;                                          \
    if (T.VIS[z] == 3) return s[T.ZC + z * T.CC + s[T.ZS + z] - 1] == card;                   \
    return false;                                                                             \
  }                                                                                           \
  /* The seats (of n) that see a card: is_visible for every seat at once. OWNBIT: the owner's \
     bit of a zone its owner sees; ISTOP: whether a zone shows its top card. */              \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN uint32_t seen_mask(const Tb& T, const int32_t* s, int n,          \
                                               int card) {                                    \
    uint32_t all = (1u << n) - 1;                                                             \
    int z = s[T.CZ + card];                                                                   \
    if (z < 0) return 0;                                                                      \
    if (s[T.FACE + card]) return all;                                                         \
    if (T.ISTOP[z] && s[T.ZC + z * T.CC + s[T.ZS + z] - 1] == card) return all;               \
    return ((uint32_t)s[T.KNOWN + card] | T.OWNBIT[z]) & all;                                 \
  }                                                                                           \
  /* PUBLIC if every seat sees the card now in a way all are shown (face up, the top of a   \
     `top` zone) or has known it so since the last shuffle, else 0. */                        \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN int32_t seen_publicly(const Tb& T, const int32_t* s, int card) { \
    int z = s[T.CZ + card];                                                                   \
    bool seen = (s[T.KNOWN + card] & T.PUBLIC) ||                                             \
                (z >= 0 && (s[T.FACE + card] || (T.ISTOP[z] && s[T.ZC + z * T.CC + s[T.ZS + z] - 1] == card))); \
    return seen ? T.PUBLIC : 0;                                                               \
  }                                                                                           \
  /* What a card's knowledge gains from being seen in zone z (-1: out of play), face `up`,   \
     `top` if it is the zone's top card, by all who see it there: every seat and PUBLIC if it \
     is shown to all (face up, the top of a `top` zone), else the owner's bit in a zone its   \
     owner sees, else nothing (seen_mask's seats less those that know it already, with      \
     seen_publicly). */                                                                       \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN int32_t seen_gain(const Tb& T, int n, int z, int32_t up, bool top) { \
    uint32_t all = (1u << n) - 1;                                                             \
    if (z < 0) return 0;                                                                      \
    if (up || (T.ISTOP[z] && top)) return (int32_t)all | T.PUBLIC;                            \
    return (int32_t)(T.OWNBIT[z] & all);                                                      \
  }                                                                                           \
  /* Moves a card into zone z at index `at` (0 the bottom; -1 or past the top: on top; a set \
     keeps card order), face 1 up, 2 down, 0 as the zone shows cards. Whoever saw it before  \
     still knows it after (only a shuffle makes a card forgotten); covering the top card of  \
     a `top` zone, whoever saw it there remembers it (all did). The layout is read once: in  \
     the interpreter, each store to a slot could otherwise change it for the compiler.       \
     `from` is the card's zone (s[CZ + card]); `is_top` true tells that it is that zone's top \
     card (generated code that took it from there knows both: move_card reads them). */      \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN void move_card_from(const Tb& T, int32_t* s, int n, int card,     \
                                                 int from, bool is_top, int z, int face,      \
                                                 int at) {                                    \
    int cc = T.CC;                                                                            \
    int32_t* sizes = s + T.ZS;                                                                \
    int32_t* zc = s + T.ZC;                                                                   \
    int32_t* where = s + T.CZ + card;                                                         \
    int32_t* up = s + T.FACE + card;                                                          \
    int32_t* known = s + T.KNOWN;                                                             \
    if (from >= 0) {                                                                          \
      int32_t* fs = zc + from * cc;                                                           \
      int fn = sizes[from];                                                                   \
      bool top = is_top || fs[fn - 1] == card;                                                \
      known[card] |= seen_gain(T, n, from, *up, top);                                         \
      if (!top) {                                                                             \
        int32_t above = fs[fn - 1];                                                           \
        int i = fn - 2;                                                                       \
        for (int32_t c; (c = fs[i]) != card; --i) {                                          \
          fs[i] = above;                                                                      \
          above = c;                                                                          \
        }                                                                                     \
        fs[i] = above;                                                                        \
      }                                                                                       \
      sizes[from] = fn - 1;                                                                   \
    }                                                                                         \
    int32_t* cs = zc + z * cc;                                                                \
    int size = sizes[z];                                                                      \
    int vis = T.VIS[z];                                                                       \
    if (T.ISET[z]) {                                                                          \
      at = size;                                                                              \
      while (at > 0 && cs[at - 1] > card) {                                                   \
        cs[at] = cs[at - 1];                                                                  \
        --at;                                                                                 \
      }                                                                                       \
    } else {                                                                                  \
      if (at < 0 || at > size) at = size;                                                     \
      for (int i = size; i > at; --i) cs[i] = cs[i - 1];                                      \
    }                                                                                         \
    if (vis == 3 && at == size && size > 0)                                                   \
      known[cs[size - 1]] |= (int32_t)((1u << n) - 1) | T.PUBLIC;                             \
    cs[at] = card;                                                                            \
    sizes[z] = size + 1;                                                                      \
    *where = z;                                                                               \
    *up = face == 1 ? 1 : face == 2 ? 0 : vis == 0;                                           \
  }                                                                                           \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN void move_card(const Tb& T, int32_t* s, int n, int card, int z,   \
                                            int face, int at) {                               \
    move_card_from(T, s, n, card, s[T.CZ + card], false, z, face, at);                        \
  }                                                                                           \
  /* Moves every card of zone `from`, bottom first, onto the top of zone z, which is neither  \
     `from` nor a set, as move_card_from moves them one at a time: each gains what being seen \
     in `from` gives (the last one was its top there), each but the last is covered by the    \
     next (in a `top` zone), and `from`'s slots are left as those moves leave them, each      \
     holding its last card. One pass, the tables read once for all the cards.                 */ \
  template <class Tb>                                                                         \
  [[gnu::always_inline]] FN void move_all_on_top(const Tb& T, int32_t* s, int n, int from,    \
                                                 int z, int face) {                           \
    int32_t* sizes = s + T.ZS;                                                                \
    int k = sizes[from];                                                                      \
    if (k == 0) return;                                                                       \
    int32_t* fs = s + T.ZC + from * T.CC;                                                     \
    int32_t* cs = s + T.ZC + z * T.CC;                                                        \
    int32_t* known = s + T.KNOWN;                                                             \
    int size = sizes[z];                                                                      \
    int vis = T.VIS[z];                                                                       \
    uint32_t all = (1u << n) - 1;                                                             \
    int32_t shown = (int32_t)all | T.PUBLIC;                                                  \
    int32_t owned = (int32_t)(T.OWNBIT[from] & all);                                          \
    int32_t up = face == 1 ? 1 : face == 2 ? 0 : vis == 0;                                    \
    int32_t last = fs[k - 1];                                                                 \
    if (vis == 3 && size > 0) known[cs[size - 1]] |= shown;                                   \
    if (k == 1) {                                                                             \
      int32_t* f = s + T.FACE + last;                                                         \
      known[last] |= *f || T.ISTOP[from] ? shown : owned;                                     \
      cs[size] = last;                                                                        \
      s[T.CZ + last] = z;                                                                     \
      *f = up;                                                                                \
      sizes[from] = 0;                                                                        \
      sizes[z] = size + 1;                                                                    \
      return;                                                                                 \
    }                                                                                         \
    for (int i = 0; i < k; ++i) {                                                             \
      int card = fs[i];                                                                       \
      int32_t* f = s + T.FACE + card;                                                         \
      bool top = i == k - 1;                                                                  \
      known[card] |= *f || (T.ISTOP[from] && top) || (vis == 3 && !top) ? shown : owned;      \
      cs[size + i] = card;                                                                    \
      s[T.CZ + card] = z;                                                                     \
      *f = up;                                                                                \
      fs[i] = last;                                                                           \
    }                                                                                         \
    sizes[from] = 0;                                                                          \
    sizes[z] = size + k;                                                                      \
  }                                                                                           \
  /* Turns a card: face 0 over, 1 up, 2 down. Turned down, it stays known to whoever saw it;  \
     up, to everyone. */                                                                      \
  template <class Tb>                                                                         \
  FN void flip(const Tb& T, int32_t* s, int n, int card, int face) {                         \
    int32_t& f = s[T.FACE + card];                                                            \
    int z = s[T.CZ + card];                                                                   \
    bool top = z >= 0 && s[T.ZC + z * T.CC + s[T.ZS + z] - 1] == card;                       \
    int32_t gain = seen_gain(T, n, z, f, top);                                                \
    f = face == 0 ? !f : face == 1;                                                           \
    s[T.KNOWN + card] |= f ? (int32_t)((1u << n) - 1) | T.PUBLIC : gain;                      \
  }                                                                                           \
  /* One draw of a shuffle, Fisher-Yates from the top: the card that lands at index i, of the \
     cards at 0..i. */                                                                        \
  [[gnu::always_inline]] FN int32_t shuffle_step(uint64_t& rng, int32_t* cs, int i) {         \
    int j = (int)uniform(rng, (uint32_t)(i + 1));                                             \
    int32_t t = cs[j];                                                                        \
    cs[j] = cs[i];                                                                            \
    cs[i] = t;                                                                                \
    return t;                                                                                 \
  }                                                                                           \
  /* A shuffle's draws, with the state's generator. Everyone forgets the cards: the zone      \
     holds the same cards whatever order a log or a scenario then fixes. Each is forgotten as \
     it lands (one pass over them costs half of two), unless the zone holds every card (a     \
     deck gathered whole), whose knowledge is all cleared at once. */                         \
  template <class Tb>                                                                         \
  FN void shuffle_draw(const Tb& T, int32_t* s, int z) {                                      \
    int32_t* cs = s + T.ZC + z * T.CC;                                                        \
    int32_t* known = s + T.KNOWN;                                                             \
    int n = s[T.ZS + z];                                                                      \
    uint64_t rng = ((uint64_t)(uint32_t)s[T.RNG_HI] << 32) | (uint32_t)s[T.RNG_LO];           \
    if (n == T.CC) {                                                                          \
      for (int c = 0; c < n; ++c) known[c] = 0;                                               \
      for (int i = n - 1; i > 0; --i) shuffle_step(rng, cs, i);                               \
    } else {                                                                                  \
      for (int i = n - 1; i > 0; --i) known[shuffle_step(rng, cs, i)] = 0;                    \
      if (n > 0) known[cs[0]] = 0;                                                            \
    }                                                                                         \
    s[T.RNG_HI] = (int32_t)(rng >> 32);                                                       \
    s[T.RNG_LO] = (int32_t)rng;                                                               \
  }                                                                                           \
  /* A shuffle's end: a set is mixed but keeps card order (the draws are made all the same,   \
     so that later chances do not depend on a zone's order). */                               \
  template <class Tb>                                                                         \
  FN void shuffle_end(const Tb& T, int32_t* s, int z) {                                       \
    int32_t* cs = s + T.ZC + z * T.CC;                                                        \
    int n = s[T.ZS + z];                                                                      \
    if (T.ISET[z])                                                                            \
      for (int i = 1; i < n; ++i) {                                                           \
        int32_t t = cs[i];                                                                    \
        int j = i;                                                                            \
        for (; j > 0 && cs[j - 1] > t; --j) cs[j] = cs[j - 1];                                \
        cs[j] = t;                                                                            \
      }                                                                                       \
  }

#define KATA_KERNEL_STR2(...) #__VA_ARGS__
#define KATA_KERNEL_STR(...) KATA_KERNEL_STR2(__VA_ARGS__)
// The kernel as generated code receives it (its functions `static inline`).
#define KATA_KERNEL_TEXT KATA_KERNEL_STR(KATA_KERNEL(static inline))

namespace kata {

// The layout and zone tables the card functions read (Game::kernel, made once by
// make_kernel_tables): offsets of the state's sections, and per zone instance its
// visibility (VIS), owner (IOWNER), the owner's bit where the owner sees it (OWNBIT),
// whether it shows its top card (ISTOP) and whether it is a set (ISET).
struct KernelTables {
  int CC = 0, ZS = 0, ZC = 0, CZ = 0, FACE = 0, KNOWN = 0, RNG_HI = 0, RNG_LO = 0;
  int32_t PUBLIC = 0;
  std::vector<uint8_t> VIS, ISTOP, ISET;
  std::vector<int32_t> IOWNER;
  std::vector<uint32_t> OWNBIT;
};

KATA_KERNEL(inline)

}  // namespace kata
