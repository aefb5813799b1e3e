// Building the cross-reference: declarations from the RuleFile, uses from a walk of every
// text (syntax/visit.hpp), each name matched to its declaration by what the checker
// resolved it as and by its spelling.
#include "check/xref.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "syntax/visit.hpp"

namespace kata {

namespace {

class Builder {
 public:
  explicit Builder(XRef& x) : x_(x) {}

  void declare(const std::string& what, const std::string& name, Pos pos, const std::string& doc,
               std::string detail = "") {
    if (index_.count({what, name})) return;  // the first declaration of a name wins
    index_[{what, name}] = static_cast<int>(x_.declarations.size());
    x_.declarations.push_back({what, name, pos, doc, std::move(detail)});
  }

  void use(const std::string& what, const std::string& name, Pos pos) {
    auto it = index_.find({what, name});
    if (it == index_.end() || !pos.valid()) return;
    x_.uses.push_back({pos, static_cast<int>(name.size()), it->second});
  }

  void expr(const Expr* e) {
    if (!e) return;
    if (e->kind == ExprKind::name || e->kind == ExprKind::member || e->kind == ExprKind::call) {
      switch (e->sym.kind) {
        case SymKind::option: use("option", e->name, e->pos); break;
        case SymKind::global:
        case SymKind::player_var:
        case SymKind::card_var: use("variable", e->name, e->pos); break;
        case SymKind::zone:
        case SymKind::card_zone: use("zone", e->name, e->pos); break;
        case SymKind::function: use("function", e->name, e->pos); break;
        case SymKind::kind: use("component", e->name, e->pos); break;
        default: break;
      }
    }
    for (const auto& a : e->args) expr(a.get());
  }

  void block(const Block& b) {
    for (const auto& s : b) stmt(*s);
  }

  void stmt(const Stmt& s) {
    if (s.kind == StmtKind::call && !s.exprs.empty() && s.exprs[0]->kind == ExprKind::call)
      use("procedure", s.exprs[0]->name, s.exprs[0]->pos);
    if (s.kind == StmtKind::phase && !s.name_pos.empty()) use("phase", s.name, s.name_pos[0]);
    if (s.kind == StmtKind::choose)
      for (size_t i = 0; i < s.names.size() && i < s.name_pos.size(); ++i) use("action", s.names[i], s.name_pos[i]);
    for (const auto& e : s.exprs)
      if (!(s.kind == StmtKind::call && e == s.exprs[0])) expr(e.get());
    if (s.kind == StmtKind::call && !s.exprs.empty())
      for (const auto& a : s.exprs[0]->args) expr(a.get());
    block(s.body);
    block(s.orelse);
  }

 private:
  XRef& x_;
  std::map<std::pair<std::string, std::string>, int> index_;
};

std::string value_text(const Value& v) {
  if (v.is_bool) return v.number ? "true" : "false";
  return v.is_symbol ? v.symbol : std::to_string(v.number);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

int XRef::at(const Pos& pos) const {
  auto covers = [&](Pos start, int length) {
    return start.file == pos.file && start.line == pos.line && pos.col >= start.col && pos.col < start.col + length;
  };
  for (const XUse& u : uses)
    if (covers(u.pos, u.length)) return u.declaration;
  for (size_t i = 0; i < declarations.size(); ++i)
    if (covers(declarations[i].pos, static_cast<int>(declarations[i].name.size()))) return static_cast<int>(i);
  return -1;
}

XRef cross_reference(const RuleFile& rf) {
  XRef x;
  Builder b(x);
  for (const auto& o : rf.options) {
    std::string detail = "default " + value_text(o.default_value);
    if (o.min || o.max)
      detail += fmt::format(", from {} to {}", o.min ? std::to_string(*o.min) : "any",
                            o.max_is_players ? "players" : o.max ? std::to_string(*o.max) : "any");
    b.declare("option", o.name, o.pos, o.doc, detail);
  }
  for (const auto& c : rf.components)
    b.declare("component", c.kind, c.pos, c.doc,
              fmt::format("{} card{}{}; properties {}", c.rows.size(), c.rows.size() == 1 ? "" : "s",
                          c.per_player ? " per player" : "", joined(c.properties)));
  for (const auto& z : rf.zones) {
    std::string detail = z.per_player ? "one per player" : "";
    if (z.label.present()) detail += fmt::format("{}shown as \"{}\"", detail.empty() ? "" : "; ", z.label.text);
    b.declare("zone", z.name, z.pos, z.doc, detail);
  }
  for (const auto& v : rf.variables) {
    std::string initial = v.initial.text.empty() ? "default" : v.initial.text;
    if (!v.seat_initials.empty()) {
      std::vector<std::string> each;
      for (const Text& t : v.seat_initials) each.push_back(t.text);
      initial = fmt::format("[{}], one per seat", fmt::join(each, ", "));
    }
    b.declare("variable", v.name, v.pos, v.doc,
              std::string(v.constant ? "constant, " : "") + (v.per_player ? "per player, " : "") + "initial " + initial);
  }
  for (const auto& a : rf.actions) {
    std::vector<std::string> params;
    for (const auto& p : a.params) params.push_back(p.name + " in " + p.domain.text);
    b.declare("action", a.name, a.pos, a.doc, params.empty() ? "" : "parameters " + joined(params));
  }
  for (const auto& f : rf.functions) b.declare("function", f.name, f.pos, f.doc, f.name + "(" + joined(f.params) + ") = " + f.body.text);
  for (const auto& p : rf.procedures) b.declare("procedure", p.name, p.pos, p.doc, p.name + "(" + joined(p.params) + ")");
  for (const auto& p : rf.phases) b.declare("phase", p.name, p.pos, p.doc);
  for_each_text(
      rf, [&](const ExprPtr& e) { b.expr(e.get()); }, [&](const Block& block) { b.block(block); });
  // Names written as plain values, not in expressions: a kind's starting zone, the kind a
  // zone or variable is `per:`, a link's kind, the board's zone.
  for (const auto& c : rf.components) b.use("zone", c.start_zone, c.start_pos);
  for (const auto& z : rf.zones) b.use("component", z.per_kind, z.per_pos);
  for (const auto& v : rf.variables) b.use("component", v.per_kind, v.per_pos);
  for (const auto& l : rf.links) b.use("component", l.kind, l.pos);
  if (rf.board) b.use("zone", rf.board->zone, rf.board->zone_pos);
  return x;
}

}  // namespace kata
