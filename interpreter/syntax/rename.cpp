// Renaming an imported file's declarations, and every use of them, so that one library
// piece (a betting round staking from `reserve`) can serve games with other words for
// things (`chips`). It works on the AST, so positions stay those of the imported text.
#include "syntax/rulefile.hpp"
#include "syntax/visit.hpp"

namespace kata {

namespace {

struct Renamer {
  const std::map<std::string, std::string>& map;

  void name(std::string& n) const {
    if (auto it = map.find(n); it != map.end()) n = it->second;
  }

  void expr(Expr* e) const {
    if (!e) return;
    if (e->kind == ExprKind::name || e->kind == ExprKind::member || e->kind == ExprKind::call ||
        e->kind == ExprKind::aggregate)
      name(e->name);
    for (auto& a : e->args) expr(a.get());
  }

  void block(Block& b) const {
    for (auto& s : b) stmt(*s);
  }

  void stmt(Stmt& s) const {
    if (s.kind == StmtKind::let || s.kind == StmtKind::for_ || s.kind == StmtKind::phase) name(s.name);
    for (auto& n : s.names) name(n);
    for (auto& e : s.exprs) expr(e.get());
    block(s.body);
    block(s.orelse);
  }
};

}  // namespace

void rename_all(RuleFile& rf, const std::map<std::string, std::string>& map) {
  Renamer r{map};
  for (auto& o : rf.options) r.name(o.name);
  for (auto& c : rf.components) {
    r.name(c.kind);
    r.name(c.start_zone);
    for (auto& p : c.properties) r.name(p);
  }
  for (auto& l : rf.links) r.name(l.kind);
  for (auto& z : rf.zones) r.name(z.name);
  for (auto& v : rf.variables) r.name(v.name);
  for (auto& a : rf.actions) {
    r.name(a.name);
    for (auto& p : a.params) r.name(p.name);
  }
  for (auto* list : {&rf.functions, &rf.procedures, &rf.phases})
    for (auto& f : *list) {
      r.name(f.name);
      for (auto& p : f.params) r.name(p);
    }
  for (auto& i : rf.invariants) r.name(i.name);
  if (rf.board) {
    r.name(rf.board->kind);
    r.name(rf.board->zone);
    r.name(rf.board->label);
    for (auto& c : rf.board->coordinates) r.name(c);
  }
  for_each_text(rf, [&](ExprPtr& e) { r.expr(e.get()); }, [&](Block& b) { r.block(b); });
}

}  // namespace kata
