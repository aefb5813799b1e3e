// Every expression and every block of statements a rule file holds, each visited once: the
// one list of where the texts of a RuleFile live, for the walks that need them all
// (renaming an import's names, the cross-reference of `kata lsp`). A new place for an
// expression is added here, and every walk sees it.
#pragma once

#include "syntax/rulefile.hpp"

namespace kata {

// Calls on_expr(ExprPtr&) for each top-level expression (not null) and on_block(Block&) for
// each top-level block; neither descends: the caller walks what it is given.
template <class RuleFileT, class OnExpr, class OnBlock>
void for_each_text(RuleFileT& rf, OnExpr on_expr, OnBlock on_block) {
  auto expr = [&](auto& e) {
    if (e) on_expr(e);
  };
  for (auto& c : rf.components) expr(c.where_expr);
  for (auto& l : rf.links) expr(l.expr);
  for (auto& v : rf.variables) {
    expr(v.initial_expr);
    expr(v.show_if_expr);
  }
  for (auto& a : rf.actions) {
    for (auto& p : a.params) expr(p.domain_expr);
    for (auto& w : a.when_exprs) expr(w);
    on_block(a.body);
  }
  for (auto* list : {&rf.functions, &rf.procedures, &rf.phases})
    for (auto& f : *list) {
      expr(f.expr);
      on_block(f.block);
    }
  for (auto& i : rf.invariants) expr(i.expr);
  if (rf.board) {
    expr(rf.board->x_expr);
    expr(rf.board->y_expr);
    expr(rf.board->marked_expr);
    expr(rf.board->turn_expr);
  }
  on_block(rf.flow_block);
  expr(rf.scoring.score_expr);
  for (auto& t : rf.scoring.tiebreak_exprs) expr(t);
  for (auto& part : rf.scoring.parts) expr(part.expr);
  for (auto& note : rf.scoring.notes) expr(note.when_expr);
}

}  // namespace kata
