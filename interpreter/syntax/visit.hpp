// Every expression and every block of statements a rule file holds, each visited once: the
// one list of where the texts of a RuleFile live, for the walks that need them all
// (renaming an import's names, the cross-reference of `kata lsp`). A new place for an
// expression is added here, and every walk sees it.
#pragma once

#include <string>
#include <vector>

#include "syntax/rulefile.hpp"

namespace kata {

// A name bound around a whole text, not declared by the file: a parameter of a routine or
// an action, or one the language gives there (`player` in an action, `p` in a score, `a`
// and `b` in a link, `viewer` in the board's turn). Inside the text it names that and
// not a declaration (the checker's scope order: locals first). `what` says which, for
// messages: "the parameter 'n' of procedure 'deal'". In a kind's `where:` and the
// board's `x:`, `y:` and `marked:`, the kind's properties are bound too, to the values of
// the component at hand: those are the file's declarations (`property`), not locals.
struct Bound {
  std::string name;
  Pos pos;
  std::string what;
  bool property = false;
};
using Bounds = std::vector<Bound>;

// Calls on_expr(ExprPtr&, const Bounds&) for each top-level expression (not null) and
// on_block(Block&, const Bounds&) for each top-level block, with the names bound around
// it; neither descends: the caller walks what it is given, and the names its statements
// and aggregates bind. A variable's own name in its `show: {if:}` is its declaration's,
// not among the bounds.
template <class RuleFileT, class OnExpr, class OnBlock>
void for_each_scoped_text(RuleFileT& rf, OnExpr on_expr, OnBlock on_block) {
  const Bounds none;
  auto expr = [&](auto& e, const Bounds& b) {
    if (e) on_expr(e, b);
  };
  auto in_quotes = [](const std::string& s) { return "'" + s + "'"; };
  auto properties = [&](const auto& c) {
    Bounds b;
    for (const auto& p : c.properties)
      b.push_back({p, c.pos, "the property " + in_quotes(p) + " of " + in_quotes(c.kind), true});
    return b;
  };
  for (auto& c : rf.components) expr(c.where_expr, properties(c));
  for (auto& l : rf.links) {
    std::string of = " (a card of the link of " + in_quotes(l.kind) + ")";
    expr(l.expr, Bounds{{"a", l.pos, "'a'" + of}, {"b", l.pos, "'b'" + of}});
  }
  for (auto& v : rf.variables) {
    expr(v.initial_expr, none);
    for (auto& e : v.seat_initial_exprs) expr(e, none);
    expr(v.show_if_expr, none);
  }
  for (auto& a : rf.actions) {
    // Each parameter's list sees the player and the parameters before it.
    Bounds b{{"player", a.pos, "'player' (the player choosing action " + in_quotes(a.name) + ")"}};
    for (auto& p : a.params) {
      expr(p.domain_expr, b);
      b.push_back({p.name, p.pos,
                   "the parameter " + in_quotes(p.name) + " of action " + in_quotes(a.name)});
    }
    for (auto& w : a.when_exprs) expr(w, b);
    on_block(a.body, b);
  }
  auto routines = [&](auto& list, const char* kind) {
    for (auto& f : list) {
      Bounds b;
      for (auto& p : f.params)
        b.push_back(
            {p, f.pos, "the parameter " + in_quotes(p) + " of " + kind + " " + in_quotes(f.name)});
      expr(f.expr, b);
      on_block(f.block, b);
    }
  };
  routines(rf.functions, "function");
  routines(rf.procedures, "procedure");
  // A phase takes no arguments (`phase NAME`): what its key writes in parentheses binds
  // nothing, for the checker either.
  for (auto& f : rf.phases) on_block(f.block, none);
  for (auto& i : rf.invariants) expr(i.expr, none);
  if (rf.board) {
    Bounds drawn;
    for (const auto& c : rf.components)
      if (c.kind == rf.board->kind) drawn = properties(c);
    expr(rf.board->x_expr, drawn);
    expr(rf.board->y_expr, drawn);
    expr(rf.board->marked_expr, drawn);
    expr(rf.board->turn_expr,
         Bounds{{"viewer", rf.board->pos, "'viewer' (the seat the board is turned for)"}});
  }
  on_block(rf.flow_block, none);
  const Bounds scored{{"p", rf.scoring.pos, "'p' (the player a score is for)"}};
  expr(rf.scoring.score_expr, scored);
  for (auto& t : rf.scoring.tiebreak_exprs) expr(t, scored);
  for (auto& part : rf.scoring.parts) expr(part.expr, scored);
  for (auto& note : rf.scoring.notes) expr(note.when_expr, none);
}

// The same texts, without the names bound around them.
template <class RuleFileT, class OnExpr, class OnBlock>
void for_each_text(RuleFileT& rf, OnExpr on_expr, OnBlock on_block) {
  for_each_scoped_text(
      rf, [&](auto& e, const Bounds&) { on_expr(e); },
      [&](auto& b, const Bounds&) { on_block(b); });
}

}  // namespace kata
