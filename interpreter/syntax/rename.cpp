// Renaming an imported file's declarations, and every use of them, so that one library
// piece (a betting round staking from `reserve`) can serve games with other words for
// things (`chips`). It works on the AST, so positions stay those of the imported text.
// The words of the imported file's messages follow (docs/language.md, "Imports"): "{player}
// joins" reads "P2 calls" once `join` is renamed `call`.
//
// Renaming is hygienic: a name bound inside the imported file (a parameter, a `let`, a
// loop's or an aggregate's variable, `player` in an action) is not a declaration, so it is
// never renamed, nor is a use of it, whatever its spelling. The walk keeps the names in
// scope as the checker does (check/checker.cpp: locals first, a `let` to the end of its
// block, a loop's or an aggregate's variable inside it), without resolving anything else:
// the imported file is renamed before the file that imports it is read, so what its free
// names mean is not known yet. A use of a declaration whose new name a local in scope
// there already has would name the local instead: that is an error, at the rename. So is
// a new name that the file uses without declaring it (a name of the file that imports it,
// a symbol, a builtin): there, it would name the renamed declaration instead.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "syntax/rulefile.hpp"
#include "syntax/visit.hpp"

namespace kata {

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

// "file:line:col", as diagnostics name a place.
std::string place(const Sources& sources, Pos p) {
  return fmt::format("{}:{}:{}", printable(sources.at(p.file).name), p.line, p.col);
}

// Every name a file declares, with where: what an import may rename. A property is
// declared by each kind that has it.
std::vector<std::pair<std::string, Pos>> declarations(const RuleFile& rf) {
  std::vector<std::pair<std::string, Pos>> out;
  auto add = [&](const auto& list) {
    for (const auto& d : list) out.emplace_back(d.name, d.pos);
  };
  for (const auto& c : rf.components) {
    out.emplace_back(c.kind, c.pos);
    for (const auto& p : c.properties) out.emplace_back(p, c.pos);
  }
  add(rf.options), add(rf.zones), add(rf.variables), add(rf.actions);
  add(rf.functions), add(rf.procedures), add(rf.phases), add(rf.invariants);
  return out;
}

class Renamer {
 public:
  Renamer(const RuleFile& rf, const Renames& map, const Sources& sources, Diagnostics& diags)
      : map_(map), sources_(sources), diags_(diags) {
    for (const auto& d : declarations(rf)) declared_.insert(d.first);
    auto bare = [&](const auto& list) {
      for (const auto& d : list) bare_.insert(d.name);
    };
    bare(rf.options), bare(rf.variables), bare(rf.zones);
    values_is_builtin_ = std::none_of(rf.functions.begin(), rf.functions.end(),
                                      [](auto& f) { return f.name == "values"; });
  }

  // A name that can only be a declaration's: a kind, a zone, a member after '.', a
  // function or procedure called, an action, a phase.
  void name(std::string& n) const {
    if (auto it = map_.find(n); it != map_.end()) n = it->second.to;
  }

  // A text with the names bound around it (visit.hpp), and what it binds inside.
  void text(ExprPtr& e, const Bounds& bounds) {
    scope_ = bounds;
    expr(e.get());
  }
  void text(Block& b, const Bounds& bounds) {
    scope_ = bounds;
    block(b);
  }

  // Each word of a message's text that is a renamed name: words a person reads, not names
  // that expressions use (a local's spelling is no matter).
  void prose(std::string& t) const { t = words(t, Spelling::word); }

  // A template ("Your side of {t} is full.", "{player}'s {reserve}"): its words as prose(),
  // and the names in braces as names, which are declarations (a kind's label names its
  // properties and variables, a zone's its kind).
  void templ(std::string& t) const { t = template_words(t, Spelling::name); }
  // A refusal ("You cannot grab {c}"): its braces name the action's parameters or
  // `player`, which are not renamed.
  void refusal(std::string& t) const { t = template_words(t, Spelling::kept); }
  // A card's name template ("{x}/{y}"): the notation's, so only its braces (properties).
  void braces(std::string& t) const { t = template_words(t, Spelling::name, Spelling::kept); }

  // Once the texts are walked, each capture at its first place in the file: of a use of a
  // renamed declaration by a local of its new name, and of a name that the file uses
  // without declaring it (a name of the file that imports it, a symbol, a builtin) by the
  // renamed declaration, which would name it there instead.
  void report_captures(const std::string& file_name) {
    for (const auto& [from, c] : captured_) {
      const Rename& r = map_.at(from);
      diags_.error(
          r.pos,
          fmt::format(
              "renaming {} to {} would make its use at {} name {} instead; choose another name",
              in_quotes(from), in_quotes(r.to), place(sources_, c.at), c.captor),
          {{c.at,
            fmt::format("the use of {} that {} would capture", in_quotes(from), in_quotes(r.to))}});
    }
    for (const auto& [from, r] : map_) {
      auto it = free_.find(r.to);
      if (it == free_.end() || declared_.count(r.to) || captured_.count(from)) continue;
      diags_.error(r.pos,
                   fmt::format("renaming {} to {} would make {} at {}, a name {} uses but does not "
                               "declare, name the renamed declaration instead; choose another name",
                               in_quotes(from), in_quotes(r.to), in_quotes(r.to),
                               place(sources_, it->second), in_quotes(file_name)),
                   {{it->second, fmt::format("the use of {} it would capture", in_quotes(r.to))}});
    }
  }

 private:
  // How a word is renamed: as a name (the whole word), as a word of prose (endings
  // kept: see word()), or not at all.
  enum class Spelling { name, word, kept };

  const Renames& map_;
  const Sources& sources_;
  Diagnostics& diags_;
  std::set<std::string> declared_;  // every name the file declares
  // What it declares that a name alone in an expression may mean (checker.cpp's name()):
  // options, variables and zones; and a kind's properties where they are bound (Bound).
  std::set<std::string> bare_;
  bool values_is_builtin_ = true;  // `values(p)` names a property (no function of that name)
  Bounds scope_;                   // the names bound where the walk is, innermost last
  // For each rename a local would capture, the first use captured in the file, and what.
  struct Capture {
    Pos at;
    std::string captor;
  };
  std::map<std::string, Capture> captured_;
  // The names the texts use that the file does not declare, each with its first use.
  std::map<std::string, Pos> free_;

  static bool earlier(Pos a, Pos b) {
    return a.file == b.file && (a.line < b.line || (a.line == b.line && a.col < b.col));
  }

  void note_free(const std::string& n, Pos at) {
    auto [it, added] = free_.try_emplace(n, at);
    if (!added && earlier(at, it->second)) it->second = at;
  }

  // A name of a text that only a declaration can have (a member after '.', a function or
  // procedure called, an action chosen, a phase entered): renamed if the file declares it.
  void used(std::string& n, Pos at) {
    if (!declared_.count(n)) note_free(n, at);
    name(n);
  }

  // What `n` names where the walk is: a local, a property bound there, or (null) neither.
  const Bound* bound(const std::string& n) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->name == n) return &*it;
    return nullptr;
  }

  // A name alone in an expression: a local's, left alone, or a declaration's, renamed (a
  // local of its new name in scope here would capture it: report_captures).
  void use(std::string& n, Pos at) {
    const Bound* b = bound(n);
    if (b && !b->property) return;
    if (!b && !bare_.count(n)) {
      note_free(n, at);
      return;
    }
    auto it = map_.find(n);
    if (it == map_.end()) return;
    // (A property of the new name is a declaration: check_renames refuses that.)
    if (const Bound* captor = bound(it->second.to); captor && !captor->property) {
      auto [c, added] = captured_.try_emplace(n, Capture{at, captor->what});
      if (!added && earlier(at, c->second.at)) c->second = {at, captor->what};
    }
    n = it->second.to;
  }

  void bind(const std::string& n, Pos at, std::string what) {
    scope_.push_back({n, at, std::move(what)});
  }

  void expr(Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case ExprKind::name: use(e->name, e->pos); return;
      case ExprKind::member: used(e->name, e->pos); break;
      case ExprKind::call:
        used(e->name, e->pos);
        // `values(p)`: the checker reads p as a property, whatever is in scope.
        if (e->name == "values" && values_is_builtin_ && e->args.size() == 1 &&
            e->args[0]->kind == ExprKind::name) {
          used(e->args[0]->name, e->args[0]->pos);
          return;
        }
        break;
      case ExprKind::aggregate:
      case ExprKind::walk: {
        // The variable is bound in what comes after the list (aggregate: where, value) or
        // after the start and steps (walk: the condition).
        size_t inner = e->kind == ExprKind::aggregate ? 1 : 2;
        for (size_t i = 0; i < inner; ++i) expr(e->args[i].get());
        size_t mark = scope_.size();
        bind(e->name, e->pos,
             fmt::format("the variable {} of '{}'", in_quotes(e->name),
                         e->kind == ExprKind::walk ? "walk" : e->op));
        for (size_t i = inner; i < e->args.size(); ++i) expr(e->args[i].get());
        scope_.resize(mark);
        return;
      }
      case ExprKind::integer:
      case ExprKind::boolean:
      case ExprKind::none:
      case ExprKind::unary:
      case ExprKind::binary:
      case ExprKind::conditional:
      case ExprKind::range:
      case ExprKind::from: break;
    }
    for (auto& a : e->args) expr(a.get());
  }

  // A block's `let`s are bound to its end.
  void block(Block& b) {
    size_t mark = scope_.size();
    for (auto& s : b) stmt(*s);
    scope_.resize(mark);
  }

  void stmt(Stmt& s) {
    switch (s.kind) {
      case StmtKind::let:
        expr(s.exprs[0].get());
        bind(s.name, s.pos, fmt::format("the 'let' variable {}", in_quotes(s.name)));
        return;
      case StmtKind::for_: {
        expr(s.exprs[0].get());
        size_t mark = scope_.size();
        bind(s.name, s.pos, fmt::format("the loop variable {}", in_quotes(s.name)));
        for (size_t i = 1; i < s.exprs.size(); ++i) expr(s.exprs[i].get());
        block(s.body);
        scope_.resize(mark);
        return;
      }
      case StmtKind::phase: used(s.name, s.name_pos.empty() ? s.pos : s.name_pos[0]); break;
      case StmtKind::choose:
        for (size_t i = 0; i < s.names.size(); ++i)
          used(s.names[i], i < s.name_pos.size() ? s.name_pos[i] : s.pos);
        break;
      case StmtKind::say:
        for (auto& t : s.text) prose(t);
        break;
      case StmtKind::assign:  // (its `name` is the operator)
      case StmtKind::call:
      case StmtKind::if_:
      case StmtKind::repeat_times:
      case StmtKind::repeat_until:
      case StmtKind::while_:
      case StmtKind::move:
      case StmtKind::move_all:
      case StmtKind::shuffle:
      case StmtKind::flip:
      case StmtKind::reveal:
      case StmtKind::look:
      case StmtKind::eliminate:
      case StmtKind::win:
      case StmtKind::return_:
      case StmtKind::end_game: break;
    }
    for (auto& e : s.exprs) expr(e.get());
    block(s.body);
    block(s.orelse);
  }

  // A word as `name`'s new name says it: the name alone, or with the ending "s" or "es"
  // (a verb's third person, a noun's plural) spelt again for the new name ("passes" of
  // `pass` renamed `fold` is "folds"); a capital first letter is kept. Empty if the word is
  // no renamed name.
  std::string word(const std::string& w) const {
    for (const auto& [from, rename] : map_) {
      const std::string& to = rename.to;
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

  // `t` with each word (a run of letters, digits and '_') renamed as `how` says.
  std::string words(const std::string& t, Spelling how) const {
    if (how == Spelling::kept) return t;
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
      if (how == Spelling::name)
        name(renamed);
      else if (std::string said = word(w); !said.empty())
        renamed = said;
      out += renamed;
      i = j;
    }
    return out;
  }

  // A template's words outside braces as `outside` says, inside as `inside`.
  std::string template_words(const std::string& t, Spelling inside,
                             Spelling outside = Spelling::word) const {
    std::string out;
    for (size_t i = 0; i < t.size();) {
      size_t open = t.find('{', i);
      size_t close = open == std::string::npos ? std::string::npos : t.find('}', open);
      if (close == std::string::npos) {
        out += words(t.substr(i), outside);
        break;
      }
      out += words(t.substr(i, open - i), outside) + "{" +
             words(t.substr(open + 1, close - open - 1), inside) + "}";
      i = close + 1;
    }
    return out;
  }
};

// Each name to rename is declared by the file, and its new name is not, unless that is
// renamed too: two declarations of one name would leave one (a later declaration replaces
// an earlier one), or make a property's name capture a variable's in a `where:`.
void check_renames(const RuleFile& rf, const Renames& renames, const std::string& file_name,
                   const Sources& sources, Diagnostics& diags) {
  auto decls = declarations(rf);
  std::vector<std::string> names;
  for (const auto& d : decls) names.push_back(d.first);
  std::map<std::string, std::string> taken;  // new name -> the name renamed to it
  for (const auto& [from, r] : renames) {
    if (std::find(names.begin(), names.end(), from) == names.end()) {
      // A name the file does not declare is a typo: nothing would change.
      std::string near = diags.wants_suggestions() ? closest_name(from, names) : "";
      diags.error(
          r.pos,
          fmt::format("{} declares no {} to rename{}", in_quotes(file_name), in_quotes(from),
                      near.empty() ? "" : fmt::format("; did you mean {}?", in_quotes(near))));
      continue;
    }
    if (r.to == from) continue;
    if (auto [it, added] = taken.emplace(r.to, from); !added) {
      diags.error(
          r.pos,
          fmt::format(
              "{} and {} are both renamed {}: two declarations of one name; choose another name",
              in_quotes(it->second), in_quotes(from), in_quotes(r.to)));
      continue;
    }
    if (renames.count(r.to)) continue;  // that one is renamed away
    auto same = std::find_if(decls.begin(), decls.end(),
                             [&to = r.to](const auto& d) { return d.first == to; });
    if (same != decls.end())
      diags.error(r.pos,
                  fmt::format("renaming {} to {}: {} declares {} already (at {}); rename that too, "
                              "or choose another name",
                              in_quotes(from), in_quotes(r.to), in_quotes(file_name),
                              in_quotes(r.to), place(sources, same->second)),
                  {{same->second, fmt::format("{} is declared here", in_quotes(r.to))}});
  }
}

}  // namespace

void rename_all(RuleFile& rf, const Renames& renames, const std::string& file_name,
                const Sources& sources, Diagnostics& diags) {
  check_renames(rf, renames, file_name, sources, diags);
  Renamer r(rf, renames, sources, diags);
  // The texts first: the names bound around them are those the file writes (a kind's
  // properties in its `where:`).
  for_each_scoped_text(
      rf, [&](ExprPtr& e, const Bounds& b) { r.text(e, b); },
      [&](Block& b, const Bounds& bounds) { r.text(b, bounds); });
  r.report_captures(file_name);
  for (auto& o : rf.options) r.name(o.name);
  for (auto& c : rf.components) {
    r.name(c.kind);
    r.name(c.start_zone);
    for (auto* list : {&c.properties, &c.shown, &c.bookkeeping})
      for (auto& p : *list) r.name(p);
    r.braces(c.name_template);
  }
  for (auto& l : rf.links) r.name(l.kind);
  for (auto& z : rf.zones) {
    r.name(z.name);
    r.name(z.per_kind);
  }
  for (auto& v : rf.variables) {
    r.name(v.name);
    r.name(v.per_kind);
  }
  for (auto& a : rf.actions) r.name(a.name);
  // The words a person reads: labels, titles and refusals, as messages are (Renamer::stmt).
  for (auto& c : rf.components) {
    r.templ(c.label.text);
    r.templ(c.title_template);
  }
  for (auto& z : rf.zones) r.templ(z.label.text);
  for (auto& v : rf.variables) r.prose(v.label);
  for (auto& a : rf.actions)
    for (auto& t : a.refusals) r.refusal(t.text);
  for (auto& n : rf.scoring.notes) r.prose(n.text);
  for (auto* list : {&rf.functions, &rf.procedures, &rf.phases})
    for (auto& f : *list) r.name(f.name);
  for (auto& i : rf.invariants) r.name(i.name);
  if (rf.board) {
    r.name(rf.board->kind);
    r.name(rf.board->zone);
    r.name(rf.board->label);
    for (auto& c : rf.board->coordinates) r.name(c);
  }
}

}  // namespace kata
