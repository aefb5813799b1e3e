// The words of the language, without the grammar that matches them: grammar.hpp makes a
// rule of each (kw_let, ...), and editors complete from keyword_texts.
#pragma once

// Each word once, as X(identifier, "text").
#define KATA_KEYWORDS(X) \
  X(let, "let") \
  X(if, "if") \
  X(then, "then") \
  X(else, "else") \
  X(for, "for") \
  X(each, "each") \
  X(in, "in") \
  X(where, "where") \
  X(repeat, "repeat") \
  X(times, "times") \
  X(until, "until") \
  X(while, "while") \
  X(move, "move") \
  X(to, "to") \
  X(face, "face") \
  X(shuffle, "shuffle") \
  X(flip, "flip") \
  X(reveal, "reveal") \
  X(look, "look") \
  X(eliminate, "eliminate") \
  X(choose, "choose") \
  X(phase, "phase") \
  X(win, "win") \
  X(end, "end") \
  X(and, "and") \
  X(or, "or") \
  X(not, "not") \
  X(true, "true") \
  X(false, "false") \
  X(none, "none") \
  X(from, "from") \
  /* Contextual words: reserved only where they stand. */ \
  X(all, "all") \
  X(up, "up") \
  X(down, "down") \
  X(at, "at") \
  X(bottom, "bottom") \
  X(game, "game") \
  X(sum, "sum") \
  X(count, "count") \
  X(min, "min") \
  X(max, "max") \
  X(any, "any") \
  X(best, "best") \
  X(worst, "worst") \
  X(find, "find") \
  X(walk, "walk") \
  X(position, "position") \
  X(give, "give") \
  X(take, "take") \
  X(deal, "deal") \
  X(card, "card") \
  X(cards, "cards") \
  X(say, "say") \
  X(return, "return")

namespace kata {

inline constexpr const char* keyword_texts[] = {
#define KATA_KEYWORD_TEXT(id, text) text,
    KATA_KEYWORDS(KATA_KEYWORD_TEXT)
#undef KATA_KEYWORD_TEXT
};

}  // namespace kata
