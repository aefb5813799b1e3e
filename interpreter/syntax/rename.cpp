// Renaming an imported file's declarations, and every use of them, so that one library
// piece (a betting round staking from `reserve`) can serve games with other words for
// things (`chips`). It works on the AST, so positions stay those of the imported text.
// The words of the imported file's messages follow (docs/language.md, "Imports"): "{player}
// joins" reads "P2 calls" once `join` is renamed `call`.
#include <cctype>

#include "syntax/rulefile.hpp"
#include "syntax/visit.hpp"

namespace kata {

namespace {

struct Renamer {
  const std::map<std::string, std::string>& map;

  void name(std::string& n) const {
    if (auto it = map.find(n); it != map.end()) n = it->second;
  }

  // A word as `name`'s new name says it: the name alone, or with the ending "s" or "es"
  // (a verb's third person, a noun's plural) spelt again for the new name ("passes" of
  // `pass` renamed `fold` is "folds"); a capital first letter is kept. Empty if the word is
  // no renamed name.
  std::string word(const std::string& w) const {
    for (const auto& [from, to] : map) {
      if (w.size() < from.size() || !same_start(w, from) || to.empty()) continue;
      std::string end = w.substr(from.size());
      if (!end.empty() && end != "s" && end != "es") continue;
      if (end == "es" && !wants_es(from)) continue;
      std::string out = end.empty() ? to : to + (wants_es(to) ? "es" : "s");
      if (std::isupper(static_cast<unsigned char>(w[0])))
        out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
      return out;
    }
    return {};
  }

  // Whether `w` begins with `name`, its first letter in either case.
  static bool same_start(const std::string& w, const std::string& name) {
    if (std::tolower(static_cast<unsigned char>(w[0])) !=
        std::tolower(static_cast<unsigned char>(name[0])))
      return false;
    return w.compare(1, name.size() - 1, name, 1, name.size() - 1) == 0;
  }

  // English spelling: "passes", "matches", "boxes"; else "calls".
  static bool wants_es(const std::string& w) {
    auto ends = [&](const char* e) {
      std::string x(e);
      return w.size() >= x.size() && w.compare(w.size() - x.size(), x.size(), x) == 0;
    };
    return ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh");
  }

  // `t` with each word (a run of letters, digits and '_') renamed: in words, as word()
  // spells it (`exact` false), or as a name in an expression, the whole word only.
  std::string words(const std::string& t, bool exact) const {
    std::string out;
    for (size_t i = 0; i < t.size();) {
      auto letter = [&](size_t k) {
        return std::isalnum(static_cast<unsigned char>(t[k])) || t[k] == '_';
      };
      size_t j = i;
      while (j < t.size() && letter(j)) ++j;
      if (j == i) {
        out += t[i++];
        continue;
      }
      std::string w = t.substr(i, j - i), renamed = w;
      if (exact) name(renamed);
      else if (std::string said = word(w); !said.empty()) renamed = said;
      out += renamed;
      i = j;
    }
    return out;
  }

  // Each word of a message's text that is a renamed name.
  void text(std::string& t) const { t = words(t, false); }

  // A template ("Your side of {t} is full.", "{player}'s {reserve}"): its words as text(),
  // and the names in braces as names.
  void templ(std::string& t) const {
    std::string out;
    for (size_t i = 0; i < t.size();) {
      size_t open = t.find('{', i);
      size_t close = open == std::string::npos ? std::string::npos : t.find('}', open);
      if (close == std::string::npos) {
        out += words(t.substr(i), false);
        break;
      }
      out += words(t.substr(i, open - i), false) + "{" + words(t.substr(open + 1, close - open - 1), true) + "}";
      i = close + 1;
    }
    t = std::move(out);
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
    if (s.kind == StmtKind::say)
      for (auto& t : s.text) text(t);
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
  // The words a person reads: labels and refusals, as messages are (in Renamer::stmt).
  for (auto& c : rf.components) r.templ(c.label.text);
  for (auto& z : rf.zones) r.templ(z.label.text);
  for (auto& v : rf.variables) r.text(v.label);
  for (auto& a : rf.actions)
    for (auto& t : a.refusals) r.templ(t.text);
  for (auto& n : rf.scoring.notes) r.text(n.text);
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
