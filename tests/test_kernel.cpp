// The kernel's card functions (runtime/kernel.hpp) against their definitions, written here
// the plain way: a move or a flip adds to a card's knowledge whoever saw it before
// (seen_mask) and whether all were shown it (seen_publicly), a move onto the top of a `top`
// zone whatever was seen of the card it covers, and a shuffle forgets each card it draws.
// The kernel computes the same with fewer loads; every slot must come out the same, on
// random states and tables, since logs, lockstep runs and hidden information depend on it,
// also where a move is told the card's zone and that the card is its top (move_card_from),
// and where a whole zone moves onto the top of another (move_all_on_top).
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "runtime/kernel.hpp"

using namespace kata;

namespace {

namespace plain {

void move_card(const KernelTables& T, int32_t* s, int n, int card, int z, int face, int at) {
  uint32_t before = seen_mask(T, s, n, card);
  int32_t was_public = seen_publicly(T, s, card);
  int from = s[T.CZ + card];
  if (from >= 0) {
    int32_t* fs = s + T.ZC + from * T.CC;
    int32_t& fn = s[T.ZS + from];
    std::copy(std::find(fs, fs + fn, card) + 1, fs + fn, std::find(fs, fs + fn, card));
    --fn;
  }
  int32_t* cs = s + T.ZC + z * T.CC;
  int size = s[T.ZS + z];
  if (at < 0 || at > size) at = size;
  if (T.ISET[z]) at = static_cast<int>(std::lower_bound(cs, cs + size, card) - cs);
  if (size > 0 && at == size && T.VIS[z] == 3)
    s[T.KNOWN + cs[size - 1]] |= static_cast<int32_t>(seen_mask(T, s, n, cs[size - 1])) | T.PUBLIC;
  std::copy_backward(cs + at, cs + size, cs + size + 1);
  cs[at] = card;
  s[T.ZS + z] = size + 1;
  s[T.CZ + card] = z;
  s[T.FACE + card] = face == 1 ? 1 : face == 2 ? 0 : T.VIS[z] == 0;
  s[T.KNOWN + card] |= static_cast<int32_t>(before) | was_public;
}

void flip(const KernelTables& T, int32_t* s, int n, int card, int face) {
  int32_t& f = s[T.FACE + card];
  uint32_t before = seen_mask(T, s, n, card);
  int32_t was_public = seen_publicly(T, s, card);
  f = face == 0 ? !f : face == 1;
  s[T.KNOWN + card] |=
      static_cast<int32_t>(f ? (1u << n) - 1 : before) | (f ? T.PUBLIC : was_public);
}

void shuffle(const KernelTables& T, int32_t* s, int z) {
  int32_t* cs = s + T.ZC + z * T.CC;
  int n = s[T.ZS + z];
  uint64_t rng = (static_cast<uint64_t>(static_cast<uint32_t>(s[T.RNG_HI])) << 32) |
                 static_cast<uint32_t>(s[T.RNG_LO]);
  for (int i = n - 1; i > 0; --i) std::swap(cs[uniform(rng, static_cast<uint32_t>(i + 1))], cs[i]);
  for (int i = 0; i < n; ++i) s[T.KNOWN + cs[i]] = 0;
  if (T.ISET[z]) std::sort(cs, cs + n);
  s[T.RNG_HI] = static_cast<int32_t>(rng >> 32);
  s[T.RNG_LO] = static_cast<int32_t>(rng);
}

}  // namespace plain

// A game of `cards` cards, `zones` zone instances of random visibility, owner and order,
// and a state whose cards are spread over them (or all in zone 0, or out of play), face
// up or down, known to random seats.
struct Table {
  KernelTables t;
  std::vector<int32_t> s;
  int seats = 0;
};

Table random_table(std::mt19937_64& r) {
  Table x;
  int cards = 1 + static_cast<int>(r() % 16), zones = 1 + static_cast<int>(r() % 7);
  x.seats = 1 + static_cast<int>(r() % 6);
  KernelTables& t = x.t;
  t.CC = cards;
  t.RNG_HI = 0;
  t.RNG_LO = 1;
  t.ZS = 2;
  t.ZC = t.ZS + zones;
  t.CZ = t.ZC + zones * cards;
  t.FACE = t.CZ + cards;
  t.KNOWN = t.FACE + cards;
  t.PUBLIC = 1 << 30;
  for (int z = 0; z < zones; ++z) {
    int vis = static_cast<int>(r() % 4), owner = static_cast<int>(r() % (x.seats + 1)) - 1;
    t.VIS.push_back(static_cast<uint8_t>(vis));
    t.ISTOP.push_back(vis == 3);
    t.ISET.push_back(r() % 3 == 0);
    t.IOWNER.push_back(owner);
    t.OWNBIT.push_back(vis == 1 && owner >= 0 ? 1u << owner : 0u);
  }
  std::vector<int32_t>& s = x.s;
  s.assign(static_cast<size_t>(t.KNOWN + cards), 0);
  s[0] = static_cast<int32_t>(r());
  s[1] = static_cast<int32_t>(r());
  bool whole = r() % 4 == 0;
  for (int c = 0; c < cards; ++c) {
    int z = whole ? 0 : static_cast<int>(r() % (zones + 1)) - 1;
    s[t.CZ + c] = z;
    s[t.FACE + c] = static_cast<int32_t>(r() % 2);
    s[t.KNOWN + c] =
        static_cast<int32_t>(r() & ((1u << x.seats) - 1)) | (r() % 4 == 0 ? t.PUBLIC : 0);
    if (z >= 0) s[t.ZC + z * cards + s[t.ZS + z]++] = c;
  }
  for (int z = 0; z < zones; ++z)
    if (t.ISET[z])
      std::sort(s.begin() + t.ZC + z * cards, s.begin() + t.ZC + z * cards + s[t.ZS + z]);
  return x;
}

}  // namespace

TEST_CASE("the kernel's moves, flips and shuffles leave every slot as their plain definitions do",
          "[kernel]") {
  std::mt19937_64 r(20261129);
  for (int trial = 0; trial < 3000; ++trial) {
    Table x = random_table(r);
    const KernelTables& t = x.t;
    std::vector<int32_t> a = x.s, b = x.s;
    int zones = static_cast<int>(t.VIS.size());
    for (int step = 0; step < 40; ++step) {
      int n = 1 + static_cast<int>(r() % x.seats), card = static_cast<int>(r() % t.CC);
      int z = static_cast<int>(r() % zones), op = static_cast<int>(r() % 6);
      if (op <= 2) {
        int face = static_cast<int>(r() % 3), at = static_cast<int>(r() % (t.CC + 3)) - 2;
        // Told the card's zone (as generated code is, having taken it from there), and that
        // it is that zone's top card where it is (op 2), the same.
        int from = a[t.CZ + card];
        bool top = from >= 0 && a[t.ZC + from * t.CC + a[t.ZS + from] - 1] == card;
        if (op == 0) move_card(t, a.data(), n, card, z, face, at);
        else move_card_from(t, a.data(), n, card, from, op == 2 && top, z, face, at);
        plain::move_card(t, b.data(), n, card, z, face, at);
      } else if (op == 3) {
        int face = static_cast<int>(r() % 3);
        flip(t, a.data(), n, card, face);
        plain::flip(t, b.data(), n, card, face);
      } else if (op == 4) {
        shuffle_draw(t, a.data(), z);
        shuffle_end(t, a.data(), z);
        plain::shuffle(t, b.data(), z);
      } else {
        // A whole zone onto the top of another that is not a set: the cards one by one, bottom
        // first.
        int from = static_cast<int>(r() % zones);
        if (from == z || t.ISET[z]) continue;
        int face = static_cast<int>(r() % 3);
        move_all_on_top(t, a.data(), n, from, z, face);
        std::vector<int32_t> cards(b.begin() + t.ZC + from * t.CC,
                                   b.begin() + t.ZC + from * t.CC + b[t.ZS + from]);
        for (int32_t c : cards) plain::move_card(t, b.data(), n, c, z, face, -1);
      }
      INFO("trial " << trial << ", step " << step << ", operation " << op);
      REQUIRE(a == b);
    }
  }
}
