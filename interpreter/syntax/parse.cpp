// From text to AST: PEGTL builds a parse tree of the rules that carry meaning (selector
// below), then small functions turn each kind of tree node into an Expr or a Stmt.
#include "syntax/parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <optional>

#include <tao/pegtl/contrib/limit_depth.hpp>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "syntax/errors.hpp"
#include "syntax/grammar.hpp"

namespace kata {

namespace pegtl = tao::pegtl;
namespace g = grammar;
namespace pt = pegtl::parse_tree;

Locator::Locator(const Sources& sources, int file, size_t start, const std::string& value)
    : sources_(&sources), file_(file) {
  const std::string& src = sources.at(file).text;
  size_t j = std::min(start, src.size());
  if (j < src.size() && (src[j] == '|' || src[j] == '>')) {  // block scalar: skip its header
    while (j < src.size() && src[j] != '\n') ++j;
    if (j < src.size()) ++j;
  } else if (j < src.size() && (src[j] == '"' || src[j] == '\'')) {
    ++j;
  }
  offsets_.reserve(value.size() + 1);
  for (char c : value) {
    size_t k = j;
    // Skip what the YAML layer dropped: indentation, quotes, escapes, folded line breaks.
    while (k < src.size() && k - j < 256 && src[k] != c && !(c == ' ' && src[k] == '\n')) ++k;
    if (k < src.size() && k - j < 256) j = k;
    offsets_.push_back(j);
    if (j < src.size()) ++j;
  }
  offsets_.push_back(j);
}

Locator Locator::plain(int file) {
  Locator l;
  l.file_ = file;
  return l;
}

Locator Locator::after(size_t n) const {
  Locator l = *this;
  l.skip_ += n;
  return l;
}

Pos Locator::at(size_t offset) const {
  offset = offset >= skip_ ? offset - skip_ : 0;
  if (!sources_) return Pos{file_, 1, static_cast<int>(offset) + 1};
  size_t o = offsets_.empty() ? 0 : offsets_[std::min(offset, offsets_.size() - 1)];
  return sources_->at(file_).pos_at(file_, o);
}

namespace {

template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<g::int_lit, g::true_lit, g::false_lit, g::none_lit, g::name_ref, g::callee,
                          g::call, g::aggregate, g::agg_op, g::min_op, g::max_op, g::agg_var, g::for_var,
                          g::agg_for, g::agg_in, g::agg_values, g::where_part, g::walk, g::walk_where,
                          g::member_name, g::member_call, g::from_op, g::neg, g::not_form,
                          g::mul_op, g::add_op, g::cmp_op, g::if_expr, g::let_stmt, g::let_name,
                          g::assign_or_call, g::assign_op, g::if_stmt, g::if_block, g::else_block,
                          g::loop_body, g::block, g::for_stmt, g::loop_var, g::loop_where,
                          g::repeat_until, g::repeat_times, g::while_stmt, g::move_stmt,
                          g::move_all, g::face_up, g::face_down, g::at_bottom, g::at_position, g::shuffle_stmt,
                          g::flip_stmt, g::reveal_stmt, g::look_stmt, g::eliminate_stmt,
                          g::choose_stmt, g::action_name, g::choice_args, g::phase_stmt, g::phase_name,
                          g::win_stmt, g::end_stmt, g::give_stmt, g::take_stmt, g::deal_stmt,
                          g::counter_name, g::say_stmt, g::return_stmt, g::say_to, g::message_text, g::hole>,
    pt::fold_one::on<g::product, g::sum, g::range, g::comparison, g::conjunction, g::disjunction,
                     g::postfix, g::from_expr, g::from_start>>;

using Node = pt::node;

// Every rule counts towards a nesting limit, so chains of prefix operators ("not not
// not ...") cannot exhaust the stack either.
template <typename Rule>
struct depth_limit : pegtl::limit_depth<3000> {};

// A message (`say "..."`) starting at text[i]: its braces pair within it (`{{` and `}}` are
// braces of its text) and it ends on its line, or the error says where the unclosed one was
// opened. Leaves i on the closing quote.
bool message_ok(const std::string& text, size_t& i, const Locator& where, Diagnostics& diags) {
  auto never_closed = [&](size_t at, const char* hint) {
    Pos p = where.at(at);
    diags.error(p, fmt::format("'{}' at line {}, column {} is never closed ({})", text[at], p.line, p.col, hint));
    return false;
  };
  size_t start = i, hole = std::string::npos;
  for (++i; i < text.size() && text[i] != '\n'; ++i) {
    char c = text[i];
    bool open = hole != std::string::npos;
    if (c == '"') return open ? never_closed(hole, "write '{{' for a brace in a message") : true;
    if (!open && (c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      ++i;
    } else if (c == '{' && !open) {
      hole = i;
    } else if (c == '}' && open) {
      hole = std::string::npos;
    } else if (c == '#' && open) {  // a comment would run past the message's end
      diags.error(where.at(i), "'#' cannot stand in a value of a message");
      return false;
    } else if (c == '}') {
      diags.error(where.at(i), "'}' closes nothing in the message (write '}}' for a brace)");
      return false;
    }
  }
  if (hole != std::string::npos) return never_closed(hole, "write '{{' for a brace in a message");
  return never_closed(start, "a message is one line");
}

// The blanks that start the line holding text[at].
size_t indent_of(const std::string& text, size_t at) {
  size_t start = text.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  size_t i = start;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i - start;
}

// When a '{' is left open, the block that lacks its '}' is often an inner one: its '}' went
// missing, and the one meant for the block around it closed it instead. The indentation
// says so: a '}' that starts a line indented less than the line of the '{' it closed.
// Moves `open` to the first such '{' inside the one left open, and sets `close` to its '}'.
void misplaced_close(const std::string& text, size_t& open,
                     const std::vector<std::pair<size_t, size_t>>& closed, size_t& close) {
  size_t best = std::string::npos;
  for (auto [o, c] : closed) {
    if (o < open || o >= best || indent_of(text, c) >= indent_of(text, o)) continue;
    size_t line = text.rfind('\n', c);
    bool first_on_line =
        text.find_first_not_of(" \t", line == std::string::npos ? 0 : line + 1) == c;
    if (first_on_line && text.find('\n', o) < c) best = o, close = c;
  }
  if (best != std::string::npos) open = best;
}

// Rejects nesting deeper than max_nesting before PEGTL recurses into it, and brackets that
// do not pair up, saying where the unclosed one was opened (Lua's "'end' expected (to
// close 'while' at line 3)"): the parser alone would only see the text run out.
bool nesting_ok(const std::string& text, const Locator& where, Diagnostics& diags) {
  std::vector<size_t> open;  // offsets of the brackets not closed yet
  std::vector<std::pair<size_t, size_t>> closed;  // each pair of braces: its '{' and its '}'
  auto opened_at = [&](size_t at) {
    Pos p = where.at(at);
    return fmt::format("'{}' at line {}, column {}", text[at], p.line, p.col);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"') {
      if (!message_ok(text, i, where, diags)) return false;
    } else if (c == '(' || c == '{') {
      open.push_back(i);
      if (static_cast<int>(open.size()) > max_nesting) {
        diags.error(where.at(i), fmt::format("nesting deeper than {} levels", max_nesting));
        return false;
      }
    } else if (c == ')' || c == '}') {
      char want = c == ')' ? '(' : '{';
      if (open.empty()) {
        diags.error(where.at(i), fmt::format("'{}' closes nothing", c));
        return false;
      }
      if (text[open.back()] != want) {
        diags.error(where.at(i), fmt::format("expected '{}' (to close {})", text[open.back()] == '(' ? ')' : '}', opened_at(open.back())));
        return false;
      }
      if (c == '}') closed.push_back({open.back(), i});
      open.pop_back();
    }
  }
  if (!open.empty()) {
    size_t at = open.back(), close = std::string::npos;
    if (text[at] == '{') misplaced_close(text, at, closed, close);
    std::vector<Note> notes;
    if (close != std::string::npos)
      notes.push_back({where.at(close), "this '}' is indented for the block around it"});
    diags.error(where.at(at), fmt::format("{} is never closed", opened_at(at)), std::move(notes));
    return false;
  }
  if (text.size() > max_text_length) {
    diags.error(where.at(0), "text longer than 1 MiB");
    return false;
  }
  return true;
}

class Builder {
 public:
  explicit Builder(const Locator& where) : where_(where) {}

  Pos pos(const Node& n) const { return where_.at(n.begin().byte); }
  // The node's first token: its text up to blank space or a comment.
  static std::string word(const Node& n) {
    std::string_view s = n.string_view();
    size_t end = 0;
    while (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end])) && s[end] != '#')
      ++end;
    return std::string(s.substr(0, end));
  }

  ExprPtr make(ExprKind kind, const Node& n) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->pos = pos(n);
    return e;
  }

  // One level deeper for what is built in its scope; `levels` more for the first operand
  // of a chain, which ends up that far down the tree.
  class Deeper {
   public:
    Deeper(Builder& b, const Node& n, int levels = 1) : b_(b), saved_(b.depth_) {
      if ((b.depth_ += levels) > max_depth)
        throw pegtl::parse_error(fmt::format("nested too deeply (at most {} levels, counting each operator of a chain)", max_depth), n.begin());
    }
    ~Deeper() { b_.depth_ = saved_; }
    Deeper(const Deeper&) = delete;
    Deeper& operator=(const Deeper&) = delete;

   private:
    Builder& b_;
    int saved_;
  };

  ExprPtr expr(const Node& n) {
    Deeper d(*this, n);
    if (n.is_type<g::int_lit>()) {
      auto e = make(ExprKind::integer, n);
      std::string digits = word(n);
      if (digits.size() > 10 || std::stoll(digits) > INT32_MAX)
        throw pegtl::parse_error("number too large (at most 2147483647)", n.begin());
      e->value = std::stoll(digits);
      return e;
    }
    if (n.is_type<g::true_lit>() || n.is_type<g::false_lit>()) {
      auto e = make(ExprKind::boolean, n);
      e->value = n.is_type<g::true_lit>();
      return e;
    }
    if (n.is_type<g::none_lit>()) return make(ExprKind::none, n);
    if (n.is_type<g::name_ref>()) {
      auto e = make(ExprKind::name, n);
      e->name = word(n);
      return e;
    }
    if (n.is_type<g::call>()) return call(n);
    if (n.is_type<g::aggregate>()) return aggregate(n);
    if (n.is_type<g::walk>()) {
      auto e = make(ExprKind::walk, n);
      e->args.push_back(expr(*n.children.at(0)));
      e->args.push_back(expr(*n.children.at(1)));
      e->name = word(*n.children.at(2));
      e->args.push_back(n.children.size() > 3 ? expr(*n.children[3]->children.at(0)) : nullptr);
      return e;
    }
    if (n.is_type<g::if_expr>()) {
      auto e = make(ExprKind::conditional, n);
      for (const auto& c : n.children) e->args.push_back(expr(*c));
      return e;
    }
    if (n.is_type<g::neg>() || n.is_type<g::not_form>()) {
      auto e = make(ExprKind::unary, n);
      e->op = n.is_type<g::neg>() ? "-" : "not";
      e->args.push_back(expr(*n.children.at(0)));
      return e;
    }
    if (n.is_type<g::postfix>() || n.is_type<g::from_start>()) return members(n);
    if (n.is_type<g::from_expr>()) {
      auto e = make(ExprKind::from, *n.children.at(1));
      e->args.push_back(expr(*n.children.at(0)));
      e->args.push_back(expr(*n.children.at(1)->children.at(0)));
      return e;
    }
    if (n.is_type<g::range>()) {
      auto e = make(ExprKind::range, n);
      e->args.push_back(expr(*n.children.at(0)));
      e->args.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::product>() || n.is_type<g::sum>() || n.is_type<g::comparison>())
      return chain(n, "");
    if (n.is_type<g::conjunction>()) return chain(n, "and");
    if (n.is_type<g::disjunction>()) return chain(n, "or");
    throw pegtl::parse_error("unexpected syntax in expression", n.begin());
  }

  // a OP b OP c, left-associative; `op` names the operator when the tree has no node for it.
  ExprPtr chain(const Node& n, const char* op) {
    // The operands of `a OP b OP c`, the first the deepest.
    int steps = static_cast<int>(*op ? n.children.size() - 1 : (n.children.size() - 1) / 2);
    ExprPtr left;
    {
      Deeper d(*this, n, std::max(steps - 1, 0));
      left = expr(*n.children.at(0));
    }
    for (size_t i = 1; i < n.children.size(); ++i) {
      Deeper d(*this, n, --steps);
      std::string o = op;
      const Node* at = n.children[i].get();
      if (o.empty()) {
        o = word(*at);
        at = n.children.at(++i).get();
      }
      auto e = make(ExprKind::binary, *at);
      e->pos = left->pos;
      e->op = o;
      e->args.push_back(std::move(left));
      e->args.push_back(expr(*at));
      left = std::move(e);
    }
    return left;
  }

  ExprPtr members(const Node& n) {
    int steps = static_cast<int>(n.children.size()) - 1;
    ExprPtr e;
    {
      Deeper d(*this, n, std::max(steps - 1, 0));
      e = expr(*n.children.at(0));
    }
    for (size_t i = 1; i < n.children.size(); ++i) {
      Deeper d(*this, n, steps - static_cast<int>(i));
      if (n.children[i]->is_type<g::member_call>()) {  // b.side(p): the argument of the member before
        e->args.push_back(expr(*n.children[i]->children.at(0)));
        continue;
      }
      auto m = make(ExprKind::member, *n.children[i]);
      m->name = word(*n.children[i]);
      m->args.push_back(std::move(e));
      e = std::move(m);
    }
    return e;
  }

  ExprPtr call(const Node& n) {
    auto e = make(ExprKind::call, n);
    e->name = word(*n.children.at(0));
    for (size_t i = 1; i < n.children.size(); ++i) e->args.push_back(expr(*n.children[i]));
    return e;
  }

  // `op(first rest)`: rest is `for x in LIST [where C]` (first is the value), `in LIST
  // [where C]` (first is the variable) or `, b, c` (min and max of values: a call).
  ExprPtr aggregate(const Node& n) {
    const Node& first = *n.children.at(1);
    const Node& rest = *n.children.at(2);
    if (rest.is_type<g::agg_values>()) {
      auto e = make(ExprKind::call, n);
      e->name = word(*n.children[0]);
      e->args.push_back(expr(first));
      for (const auto& v : rest.children) e->args.push_back(expr(*v));
      return e;
    }
    auto e = make(ExprKind::aggregate, n);
    e->op = word(*n.children[0]);
    e->args.resize(3);
    const Node* list = &rest;
    if (rest.is_type<g::agg_for>()) {
      e->args[2] = expr(first);
      e->name = word(*rest.children.at(0));
      list = rest.children.at(1).get();
    } else if (first.is_type<g::name_ref>()) {
      e->name = word(first);
    } else {
      throw pegtl::parse_error("expected a variable name before 'in'", first.begin());
    }
    e->args[0] = expr(*list->children.at(0));
    if (list->children.size() > 1) e->args[1] = expr(*list->children[1]->children.at(0));
    return e;
  }

  // ---- statements ----
  StmtPtr make_stmt(StmtKind kind, const Node& n) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->pos = pos(n);
    return s;
  }

  void block(const Node& n, Block& out) {
    for (const auto& c : n.children) out.push_back(stmt(*c));
  }

  StmtPtr stmt(const Node& n) {
    Deeper d(*this, n);
    const auto& ch = n.children;
    if (n.is_type<g::let_stmt>()) {
      auto s = make_stmt(StmtKind::let, n);
      s->name = word(*ch.at(0));
      s->exprs.push_back(expr(*ch.at(1)));
      return s;
    }
    if (n.is_type<g::assign_or_call>()) {
      if (ch.size() == 1) {
        auto s = make_stmt(StmtKind::call, n);
        s->exprs.push_back(expr(*ch[0]));
        return s;
      }
      auto s = make_stmt(StmtKind::assign, n);
      s->name = word(*ch.at(1));
      s->exprs.push_back(expr(*ch[0]));
      s->exprs.push_back(expr(*ch.at(2)));
      return s;
    }
    if (n.is_type<g::if_stmt>()) {
      auto s = make_stmt(StmtKind::if_, n);
      s->exprs.push_back(expr(*ch.at(0)));
      block(*ch.at(1), s->body);
      if (ch.size() > 2) {
        const Node& alt = *ch[2];
        if (alt.is_type<g::if_stmt>()) s->orelse.push_back(stmt(alt));
        else block(alt, s->orelse);
      }
      return s;
    }
    if (n.is_type<g::for_stmt>()) {
      auto s = make_stmt(StmtKind::for_, n);
      s->name = word(*ch.at(0));
      s->exprs.push_back(expr(*ch.at(1)));
      size_t i = 2;
      if (ch.at(i)->is_type<g::loop_where>()) s->exprs.push_back(expr(*ch[i++]->children.at(0)));
      block(*ch.at(i), s->body);
      return s;
    }
    if (n.is_type<g::repeat_until>() || n.is_type<g::repeat_times>() ||
        n.is_type<g::while_stmt>()) {
      auto kind = n.is_type<g::repeat_until>()   ? StmtKind::repeat_until
                  : n.is_type<g::repeat_times>() ? StmtKind::repeat_times
                                                 : StmtKind::while_;
      auto s = make_stmt(kind, n);
      s->exprs.push_back(expr(*ch.at(0)));
      block(*ch.at(1), s->body);
      return s;
    }
    if (n.is_type<g::move_stmt>()) {
      size_t i = 0;
      bool all = ch.at(0)->is_type<g::move_all>();
      auto s = make_stmt(all ? StmtKind::move_all : StmtKind::move, n);
      if (all) ++i;
      s->exprs.push_back(expr(*ch.at(i++)));
      s->exprs.push_back(expr(*ch.at(i++)));
      for (; i < ch.size(); ++i) {
        if (ch[i]->is_type<g::face_up>()) s->face = Face::up;
        if (ch[i]->is_type<g::face_down>()) s->face = Face::down;
        if (ch[i]->is_type<g::at_bottom>()) {
          if (ch[i]->children.empty()) s->bottom = true;
          else s->exprs.push_back(expr(*ch[i]->children.at(0)->children.at(0)));
        }
      }
      return s;
    }
    if (n.is_type<g::flip_stmt>()) {
      auto s = make_stmt(StmtKind::flip, n);
      s->exprs.push_back(expr(*ch.at(0)));
      if (ch.size() > 1) s->face = ch[1]->is_type<g::face_up>() ? Face::up : Face::down;
      return s;
    }
    if (n.is_type<g::shuffle_stmt>() || n.is_type<g::reveal_stmt>() ||
        n.is_type<g::eliminate_stmt>() || n.is_type<g::win_stmt>() || n.is_type<g::look_stmt>()) {
      auto kind = n.is_type<g::shuffle_stmt>()  ? StmtKind::shuffle
                  : n.is_type<g::reveal_stmt>() ? StmtKind::reveal
                  : n.is_type<g::win_stmt>()    ? StmtKind::win
                  : n.is_type<g::look_stmt>()   ? StmtKind::look
                                                : StmtKind::eliminate;
      auto s = make_stmt(kind, n);
      for (const auto& c : ch) s->exprs.push_back(expr(*c));
      return s;
    }
    if (n.is_type<g::choose_stmt>()) {
      auto s = make_stmt(StmtKind::choose, n);
      s->exprs.push_back(expr(*ch.at(0)));
      for (size_t i = 1; i < ch.size(); ++i) {
        if (ch[i]->is_type<g::choice_args>()) {  // the values of the action just named
          for (const auto& a : ch[i]->children) s->exprs.push_back(expr(*a));
          s->arg_counts.back() = static_cast<int>(ch[i]->children.size());
          continue;
        }
        s->names.push_back(word(*ch[i]));
        s->name_pos.push_back(pos(*ch[i]));
        s->arg_counts.push_back(0);
      }
      return s;
    }
    if (n.is_type<g::phase_stmt>()) {
      auto s = make_stmt(StmtKind::phase, n);
      s->name = word(*ch.at(0));
      s->name_pos.push_back(pos(*ch.at(0)));
      return s;
    }
    if (n.is_type<g::end_stmt>()) return make_stmt(StmtKind::end_game, n);
    if (n.is_type<g::return_stmt>()) {
      auto s = make_stmt(StmtKind::return_, n);
      s->exprs.push_back(expr(*ch.at(0)));
      return s;
    }
    if (n.is_type<g::give_stmt>() || n.is_type<g::take_stmt>()) {
      // give N v to p  =>  p.v += N;   take N v from p  =>  p.v -= N
      auto s = make_stmt(StmtKind::assign, n);
      s->name = n.is_type<g::give_stmt>() ? "+=" : "-=";
      auto target = make(ExprKind::member, *ch.at(1));
      target->name = word(*ch.at(1));
      target->args.push_back(expr(*ch.at(2)));
      s->exprs.push_back(std::move(target));
      s->exprs.push_back(expr(*ch.at(0)));
      return s;
    }
    if (n.is_type<g::deal_stmt>()) {
      // deal N cards from a to b  =>  repeat N times { move top(a) to b }
      auto s = make_stmt(StmtKind::repeat_times, n);
      s->exprs.push_back(expr(*ch.at(0)));
      auto move = make_stmt(StmtKind::move, n);
      auto top = make(ExprKind::call, *ch.at(1));
      top->name = "top";
      top->args.push_back(expr(*ch.at(1)));
      move->exprs.push_back(std::move(top));
      move->exprs.push_back(expr(*ch.at(2)));
      s->body.push_back(std::move(move));
      return s;
    }
    if (n.is_type<g::say_stmt>()) return say(n);
    throw pegtl::parse_error("unexpected syntax in statement", n.begin());
  }

  // say [to P] "TEXT {VALUE} TEXT": the text around the values, and the values, then P.
  StmtPtr say(const Node& n) {
    auto s = make_stmt(StmtKind::say, n);
    ExprPtr to;
    std::string text;
    size_t length = 0;
    for (const auto& c : n.children) {
      if (c->is_type<g::say_to>()) {
        to = expr(*c->children.at(0));
      } else if (c->is_type<g::hole>()) {
        if (s->exprs.size() == max_message_values)
          throw pegtl::parse_error(fmt::format("a message holds at most {} values", max_message_values), c->begin());
        s->exprs.push_back(expr(*c->children.at(0)));
        s->text.push_back(std::move(text));
        text.clear();
      } else {
        for (std::string_view t = c->string_view(); !t.empty(); t.remove_prefix(1)) {
          text += t[0];
          if ((t[0] == '{' || t[0] == '}') && t.size() > 1 && t[1] == t[0]) t.remove_prefix(1);
        }
      }
      if ((length += c->string_view().size()) > max_message_length)
        throw pegtl::parse_error(fmt::format("a message is at most {} characters long", max_message_length), c->begin());
    }
    s->text.push_back(std::move(text));
    if (to) {
      s->name = "to";
      s->exprs.push_back(std::move(to));
    }
    return s;
  }

 private:
  const Locator& where_;
  int depth_ = 0;  // levels of the tree above what is being built
};

// The words that range a variable over a list, `count(p in players)`.
const std::vector<std::string> aggregate_words = {"sum", "count", "min",   "max", "any",
                                                  "all", "best",  "worst", "find"};

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `cuont(p in players)` parses as a call that meets 'in' where it wants ')': the real cause
// is the name before the '(' that 'in' (or 'for') stands in. Moves `at` to that name.
std::string not_an_aggregate(const std::string& text, size_t& at) {
  auto word_at = [&](const char* w) {
    size_t n = std::char_traits<char>::length(w);
    return text.compare(at, n, w) == 0 && (at + n == text.size() || !name_char(text[at + n]));
  };
  if (!word_at("in") && !word_at("for")) return {};
  size_t i = at;
  for (int depth = 0; i-- > 0;) {
    if (text[i] == ')')
      ++depth;
    else if (text[i] == '(' && depth-- == 0)
      break;
  }
  if (i == std::string::npos) return {};
  size_t end = i;
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  size_t begin = end;
  while (begin > 0 && name_char(text[begin - 1])) --begin;
  if (begin == end || (begin > 0 && text[begin - 1] == '.')) return {};
  std::string name = text.substr(begin, end - begin);
  std::string near = closest_name(name, aggregate_words);
  at = begin;
  if (!near.empty()) return fmt::format("unknown aggregate '{}'; did you mean '{}'?", name, near);
  return fmt::format(
      "'{}' is not an aggregate: only sum, count, min, max, any, all, best, worst and find range a "
      "variable ('x in LIST')",
      name);
}

// What a newcomer from another language writes, named where the parse stopped at it with
// what to write instead (`&&` for `and`, `=` for `==`); empty when the text is no such
// mistake. May move `at` to the real cause.
std::string hint(const std::string& text, size_t& at, const std::string& message) {
  auto starts = [&](const char* s) {
    return text.compare(at, std::char_traits<char>::length(s), s) == 0;
  };
  if (starts("&&")) return "'&&' is not an operator; write 'and' (a and b)";
  if (starts("||")) return "'||' is not an operator; write 'or' (a or b)";
  if (starts("!") && !starts("!=")) return "'!' is not an operator; write 'not' (not a)";
  if (starts("=") && !starts("==")) {
    size_t i = at;
    while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1]))) --i;
    if (i == 0 || std::string_view("=!<>+-*/%").find(text[i - 1]) == std::string_view::npos)
      return "'=' sets a variable; write '==' to compare (a == b)";
  }
  if (message == g::error_message<g::close_paren>) return not_an_aggregate(text, at);
  return {};
}

// Parses and builds `text` (its brackets already paired); on a syntax error, reports it and
// returns where the parse stopped.
template <typename Rule, typename Build>
std::optional<size_t> parse(const std::string& text, const Locator& where, Diagnostics& diags,
                            Build build) {
  pegtl::memory_input in(text, "text");
  bool parsed = false;  // errors after parsing are limits, never a habit to hint at
  try {
    auto root = pt::parse<Rule, selector, depth_limit, g::control>(in);
    if (!root) {
      diags.error(where.at(0), "could not parse this text");
      return 0;
    }
    parsed = true;
    Builder b(where);
    build(b, *root);
    return std::nullopt;
  } catch (const pegtl::parse_error& e) {
    size_t stopped = e.positions().empty() ? 0 : e.positions().front().byte, at = stopped;
    std::string message(e.message());
    if (message.find("nesting depth") != std::string::npos) message = "text nested too deeply";
    else if (std::string better = parsed ? "" : hint(text, at, message); !better.empty()) message = std::move(better);
    diags.error(where.at(at), message);
    return stopped;
  }
}

// Where the next statement of the text's outer level starts after offset `after`: a line
// outside every bracket, indented as the text's first line, that does not go on with
// what came before ('}', ')', 'else'). npos when there is none.
size_t next_statement_line(const std::string& text, size_t after) {
  size_t base = std::string::npos;
  int depth = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    size_t first = text.find_first_not_of(" \t\r", start);
    if (first < end && text[first] != '#') {
      if (base == std::string::npos) base = first - start;
      bool goes_on = text[first] == '}' || text[first] == ')' ||
                     (text.compare(first, 4, "else") == 0 &&
                      (first + 4 == end || !name_char(text[first + 4])));
      if (start > after && depth == 0 && first - start == base && !goes_on) return start;
      for (size_t i = first; i < end && text[i] != '#'; ++i) {
        if (text[i] == '"')
          i = std::min(text.find('"', i + 1), end);
        else if (text[i] == '(' || text[i] == '{')
          ++depth;
        else if (text[i] == ')' || text[i] == '}')
          --depth;
      }
    }
    start = end + 1;
  }
  return std::string::npos;
}

template <typename Rule, typename Build>
bool run(const std::string& text, const Locator& where, Diagnostics& diags, Build build) {
  if (!nesting_ok(text, where, diags)) return false;
  return !parse<Rule>(text, where, diags, build);
}

}  // namespace

std::vector<TemplateField> template_fields(const std::string& text) {
  auto name_start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  auto name_char = [&](char c) { return name_start(c) || (c >= '0' && c <= '9'); };
  std::vector<TemplateField> out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{' || i + 1 >= text.size() || !name_start(text[i + 1])) continue;
    size_t j = i + 1;
    while (j < text.size() && name_char(text[j])) ++j;
    if (j < text.size() && text[j] == '}') {
      out.push_back({i, j + 1, text.substr(i + 1, j - i - 1)});
      i = j;
    }
  }
  return out;
}

int seat_named(std::string_view name) {
  if (name.size() < 2 || name.size() > 3 || name[0] != 'P' || name[1] < '1' || name[1] > '9') return 0;
  if (name.size() == 3 && (name[2] < '0' || name[2] > '9')) return 0;
  int n = name[1] - '0';
  if (name.size() == 3) n = n * 10 + (name[2] - '0');
  return n <= 16 ? n : 0;
}

std::string name_fault(std::string_view text, bool in_expressions) {
  auto whole = [&](auto rule) {
    using Rule = decltype(rule);
    pegtl::memory_input in(text.data(), text.size(), "name");
    return pegtl::parse<pegtl::seq<Rule, pegtl::eof>>(in);
  };
  if (!whole(g::identifier{}))
    return "is not a name: a name is a letter or '_', then letters, digits and '_'";
  if (!in_expressions) return {};
  if (!whole(g::name{})) return "is a reserved word of the language";
  // The names every expression may use (the checker's name lookup): a declaration of one of
  // them would hide the language's meaning in some places and not others.
  static const char* const given[] = {"players", "all_players", "player_count", "player", "viewer"};
  if (seat_named(text) > 0 || std::find(std::begin(given), std::end(given), text) != std::end(given))
    return "is a name the language gives (players, the player choosing, seats P1 to P16)";
  return {};
}

ExprPtr parse_expression(const std::string& text, const Locator& where, Diagnostics& diags) {
  ExprPtr out;
  run<g::expression_text>(text, where, diags, [&](Builder& b, const Node& root) {
    out = b.expr(*root.children.at(0));
  });
  return out;
}

bool parse_program(const std::string& text, const Locator& where, Diagnostics& diags, Block& out) {
  if (!nesting_ok(text, where, diags)) return false;
  auto stopped = parse<g::program>(text, where, diags,
                                   [&](Builder& b, const Node& root) { b.block(root, out); });
  if (!stopped) return true;
  // A syntax error does not hide those of the statements after it: they are read again
  // from the next statement on, with what comes before blanked out so that positions stay
  // (read only: the text as a whole is not checked).
  std::string rest = text;
  size_t blanked = 0;
  for (int more = 0; more < max_more_syntax_errors; ++more) {
    size_t from = next_statement_line(text, *stopped);
    if (from == std::string::npos) break;
    for (; blanked < from; ++blanked)
      if (rest[blanked] != '\n') rest[blanked] = ' ';
    Block ignored;
    stopped = parse<g::program>(rest, where, diags,
                                [&](Builder& b, const Node& root) { b.block(root, ignored); });
    if (!stopped) break;
  }
  return false;
}

}  // namespace kata
