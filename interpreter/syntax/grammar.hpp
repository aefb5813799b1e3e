// The grammar of the text language inside rule files: expressions (conditions, values)
// and statements (effects and flow). PEGTL rules only; the parse tree they produce is
// turned into the AST by parse.cpp, and each `must<>` has its message in errors.hpp.
#pragma once

#include <tao/pegtl.hpp>

#include "syntax/keywords.hpp"

namespace kata::grammar {

namespace pegtl = tao::pegtl;
using namespace pegtl;

// A comment runs from '#' to the end of the line.
struct comment : seq<one<'#'>, until<eolf>> {};
// Blank space is spaces, tabs, line ends and comments; it may separate any two tokens.
struct sp : star<sor<space, comment>> {};

// A keyword is its letters not followed by another identifier character.
template <typename Word>
struct key : seq<Word, not_at<identifier_other>> {};

// Each word of the language (syntax/keywords.hpp) is a rule kw_WORD.
#define KATA_KEYWORD(id, text) \
  struct kw_##id : key<TAO_PEGTL_STRING(text)> {};
KATA_KEYWORDS(KATA_KEYWORD)
#undef KATA_KEYWORD

// The reserved words, which no name may be.
struct keyword
    : sor<kw_let, kw_if, kw_then, kw_else, kw_for, kw_each, kw_in, kw_where, kw_repeat, kw_times,
          kw_until, kw_while, kw_move, kw_to, kw_face, kw_shuffle, kw_flip, kw_reveal, kw_look,
          kw_eliminate, kw_choose, kw_phase, kw_win, kw_end, kw_and, kw_or, kw_not, kw_true,
          kw_false, kw_none, kw_from> {};

// A name is an identifier (a letter or '_', then letters, digits, '_') that is not reserved.
struct name : seq<not_at<keyword>, identifier> {};
// An integer is a non-empty sequence of decimal digits.
struct integer : plus<digit> {};

struct expr;

// Punctuation, each followed by blank space.
template <char C>
struct sym : seq<one<C>, sp> {};
struct close_paren : sym<')'> {};
struct comma : sym<','> {};
struct colon : sym<':'> {};
struct close_brace : sym<'}'> {};

// Operands that must follow something, each a rule of its own so its error says what;
// they are defined once `expr` is.
struct paren_body;
struct then_body;
struct else_body;
struct condition;
struct agg_domain;
struct agg_where;
struct agg_value;
struct neg_operand;
struct not_operand;
struct member_name : seq<identifier, sp> {};

// A parenthesised expression.
struct paren : seq<sym<'('>, must<paren_body>, must<close_paren>> {};
struct int_lit : seq<integer, sp> {};
struct true_lit : seq<kw_true, sp> {};
struct false_lit : seq<kw_false, sp> {};
struct none_lit : seq<kw_none, sp> {};
// `if C then A else B` chooses a value.
struct then_word : seq<kw_then, sp> {};
struct else_word : seq<kw_else, sp> {};
struct if_expr
    : seq<kw_if, sp, must<condition>, must<then_word>, must<then_body>, must<else_word>,
          must<else_body>> {};
// An aggregate ranges a variable over a list, like a comprehension:
// `sum(p.chips for p in players where alive(p))`, `count(p in players where p.folded)`.
// `min` and `max` also give the lowest or highest of two or more values: `max(a, b)`.
// The first expression is read once, and what follows it tells the forms apart: 'for'
// (it was the value), 'in' (it was the variable; parse.cpp checks that it is a name) or,
// after min and max, ',' (it was the first of the values). No form is tried and dropped,
// so nested aggregates are read in linear time.
struct agg_op : sor<kw_sum, kw_count, kw_any, kw_all, kw_best, kw_worst, kw_find> {};
struct agg_var : seq<name, sp> {};
struct for_var : seq<name, sp> {};
struct in_word : seq<kw_in, sp> {};
struct where_part : seq<kw_where, sp, must<agg_where>> {};
// `in LIST [where CONDITION]`
struct agg_in : seq<in_word, must<agg_domain>, opt<where_part>> {};
// `for x in LIST [where CONDITION]`, after the value.
struct agg_for : seq<kw_for, sp, must<for_var>, agg_in> {};
struct agg_rest : sor<agg_for, agg_in> {};
// `, b, c`: the values after the first one of `min(a, b, c)`.
struct more_value : seq<expr> {};
struct agg_values : plus<comma, must<more_value>> {};
struct min_rest : sor<agg_for, agg_values, seq<at<kw_in>, agg_in>> {};
struct max_rest : sor<agg_for, agg_values, seq<at<kw_in>, agg_in>> {};
struct min_op : seq<kw_min> {};
struct max_op : seq<kw_max> {};
struct aggregate
    : sor<seq<agg_op, sp, sym<'('>, agg_value, agg_rest, must<close_paren>>,
          seq<min_op, sp, sym<'('>, agg_value, must<min_rest>, must<close_paren>>,
          seq<max_op, sp, sym<'('>, agg_value, must<max_rest>, must<close_paren>>> {};
// `walk(START, N, q where CONDITION)`: the points reached from START in exactly N steps
// along links, never straight back, every point passed on the way satisfying CONDITION.
// Only `walk(` followed by two expressions and a name starts one, so `walk` stays free as
// a function's name.
struct walk_where : seq<kw_where, sp, must<agg_where>> {};
struct walk : seq<kw_walk, sp, sym<'('>, expr, comma, expr, comma, agg_var, opt<walk_where>, must<close_paren>> {};
// A call names a function and gives its arguments in parentheses.
struct callee : seq<name, sp> {};
struct call_args : seq<sym<'('>, opt<list<expr, comma>>, must<close_paren>> {};
struct call : seq<callee, call_args> {};
struct name_ref : seq<name, sp> {};
struct postfix_head : sor<paren, int_lit, true_lit, false_lit, none_lit, if_expr, aggregate, walk,
                          call, name_ref> {};
// `x.y` reads a property of a card, or a variable or zone of a player or of a card;
// `b.y(p)` reads the one of player p, where each card has one for each player.
struct member_arg : seq<expr> {};
struct member_call : seq<sym<'('>, must<member_arg>, must<close_paren>> {};
struct member : seq<one<'.'>, not_at<one<'.'>>, sp, must<member_name>, opt<member_call>> {};
struct postfix : seq<postfix_head, star<member>> {};
struct from_start : seq<postfix_head, star<member>> {};
// `players from p` lists the players in turn order starting with p.
struct from_op : seq<kw_from, sp, must<from_start>> {};
struct from_expr : seq<postfix, opt<from_op>> {};
struct unary;
struct neg : seq<one<'-'>, sp, must<neg_operand>> {};
struct unary : sor<neg, from_expr> {};
struct neg_operand : seq<unary> {};
// Products, sums, ranges and comparisons, tightest first; chains are left-associative.
struct mul_op : seq<one<'*', '/', '%'>, sp> {};
struct mul_operand : seq<unary> {};
struct product : seq<unary, star<mul_op, must<mul_operand>>> {};
struct add_op : seq<one<'+', '-'>, not_at<one<'='>>, sp> {};
struct add_operand : seq<product> {};
struct sum : seq<product, star<add_op, must<add_operand>>> {};
struct range_end : seq<sum> {};
struct range : seq<sum, opt<string<'.', '.'>, sp, must<range_end>>> {};
struct cmp_op
    : seq<sor<string<'=', '='>, string<'!', '='>, string<'<', '='>, string<'>', '='>, one<'<'>,
              one<'>'>>,
          sp> {};
struct cmp_operand : seq<range> {};
// Comparisons do not chain: `1 <= x <= 7` is refused at its second operator, with a hint.
struct one_comparison : not_at<cmp_op> {};
struct comparison : seq<range, opt<cmp_op, must<cmp_operand>, must<one_comparison>>> {};
struct not_form : seq<kw_not, sp, must<not_operand>> {};
struct negation : sor<not_form, comparison> {};
struct not_operand : seq<negation> {};
struct and_operand : seq<negation> {};
struct conjunction : seq<negation, star<kw_and, sp, must<and_operand>>> {};
struct or_operand : seq<conjunction> {};
struct disjunction : seq<conjunction, star<kw_or, sp, must<or_operand>>> {};
struct expr : seq<disjunction> {};

struct paren_body : seq<expr> {};
struct then_body : seq<expr> {};
struct else_body : seq<expr> {};
struct condition : seq<expr> {};
struct agg_domain : seq<expr> {};
struct agg_where : seq<expr> {};
struct agg_value : seq<expr> {};

// A whole expression text, as in `when:` or a function's body.
struct expression_text : seq<sp, must<expr>, must<eof>> {};

// ---- Statements ----
struct stmt;
struct stmt_list : star<sor<stmt, sym<';'>>> {};
// A block is statements between braces.
struct block : seq<sym<'{'>, stmt_list, must<close_brace>> {};

struct let_name : seq<name, sp> {};
struct equals : seq<one<'='>, not_at<one<'='>>, sp> {};
struct let_stmt : seq<kw_let, sp, must<let_name>, must<equals>, must<expr>> {};
// `target = value`, `target += value`, `target -= value`; or a procedure call alone.
struct assign_op : seq<sor<string<'+', '='>, string<'-', '='>, seq<one<'='>, not_at<one<'='>>>>, sp> {};
struct assign_value : seq<expr> {};
struct assign_or_call : seq<postfix, opt<assign_op, must<assign_value>>> {};
struct if_block : block {};
struct else_block : block {};
struct if_stmt;
struct else_tail : sor<if_stmt, else_block> {};
struct else_part : seq<kw_else, sp, must<else_tail>> {};
struct if_stmt : seq<kw_if, sp, must<condition>, must<if_block>, opt<else_part>> {};
struct loop_var : seq<name, sp> {};
struct loop_body : block {};
struct loop_where : seq<kw_where, sp, must<condition>> {};
struct for_stmt
    : seq<kw_for, sp, opt<kw_each, sp>, must<loop_var>, must<in_word>, must<expr>, opt<loop_where>,
          must<loop_body>> {};
struct times_word : seq<kw_times, sp> {};
struct repeat_until : seq<kw_until, sp, must<condition>, must<loop_body>> {};
struct repeat_times : seq<expr, must<times_word>, must<loop_body>> {};
struct repeat_tail : sor<repeat_until, repeat_times> {};
struct repeat_stmt : seq<kw_repeat, sp, must<repeat_tail>> {};
struct while_stmt : seq<kw_while, sp, must<condition>, must<loop_body>> {};
// `move CARD to ZONE [face up|face down] [at bottom | at position N]`; `move all LIST to ZONE ...`.
struct move_all : seq<kw_all, sp> {};
struct to_word : seq<kw_to, sp> {};
struct face_up : seq<kw_up, sp> {};
struct face_down : seq<kw_down, sp> {};
struct face_which : sor<face_up, face_down> {};
struct face_clause : seq<kw_face, sp, must<face_which>> {};
struct bottom_word : seq<kw_bottom, sp> {};
// `at position N` puts the card so that it is the N-th from the bottom.
struct position_value : seq<expr> {};
struct at_position : seq<kw_position, sp, must<position_value>> {};
struct at_place : sor<bottom_word, at_position> {};
struct at_bottom : seq<kw_at, sp, must<at_place>> {};
struct move_stmt
    : seq<kw_move, sp, opt<move_all>, must<expr>, must<to_word>, must<expr>, opt<face_clause>,
          opt<at_bottom>> {};
struct shuffle_stmt : seq<kw_shuffle, sp, must<expr>> {};
struct flip_stmt : seq<kw_flip, sp, must<expr>, opt<face_clause>> {};
struct reveal_stmt : seq<kw_reveal, sp, must<expr>> {};
struct at_word : seq<kw_at, sp> {};
struct look_stmt : seq<kw_look, sp, must<expr>, must<at_word>, must<expr>> {};
struct eliminate_stmt : seq<kw_eliminate, sp, must<expr>> {};
// `choose P: a | b` waits for player P to pick one of the legal instances of the actions;
// `choose P: jump(c)` offers only those whose first parameters have the values given.
struct action_name : seq<identifier, sp> {};
struct choice_args : seq<sym<'('>, opt<list<expr, comma>>, must<close_paren>> {};
struct choice : seq<action_name, opt<choice_args>> {};
struct choose_stmt
    : seq<kw_choose, sp, must<expr>, must<colon>, must<choice>,
          star<sym<'|'>, must<choice>>> {};
struct phase_name : seq<identifier, sp> {};
struct phase_stmt : seq<kw_phase, sp, must<phase_name>> {};
struct win_stmt : seq<kw_win, sp, must<expr>> {};
struct game_word : seq<kw_game, sp> {};
// Counters move between players: `give 2 coins to p`, `take 1 coins from p` (sugar for
// `p.coins += 2` and `p.coins -= 1`). These words start a statement only when no
// assignment follows them, so they stay free as names.
template <typename Word>
struct starter : seq<Word, sp, not_at<sor<one<'=', '(', '.', '['>, string<'+', '='>, string<'-', '='>>>> {};
struct counter_name : seq<name, sp> {};
struct from_word : seq<kw_from, sp> {};
struct give_stmt : seq<starter<kw_give>, must<expr>, must<counter_name>, must<to_word>, must<expr>> {};
struct take_stmt : seq<starter<kw_take>, must<expr>, must<counter_name>, must<from_word>, must<expr>> {};
// `deal N cards from ZONE to ZONE`: N times, the top card of one onto the other.
struct cards_word : seq<sor<kw_cards, kw_card>, sp> {};
struct deal_stmt
    : seq<starter<kw_deal>, must<expr>, must<cards_word>, must<from_word>, must<expr>, must<to_word>,
          must<expr>> {};
struct end_stmt : seq<kw_end, sp, must<game_word>> {};
// A message is one line between double quotes. Its text is any characters but '"', '{'
// and '}', where `{{` and `}}` stand for a brace; `{EXPR}` stands for the value of EXPR.
struct message_text : plus<sor<string<'{', '{'>, string<'}', '}'>, not_one<'"', '{', '}', '\n', '\r'>>> {};
struct hole_value : seq<expr> {};
struct hole_close : one<'}'> {};
struct hole : seq<one<'{'>, sp, must<hole_value>, must<hole_close>> {};
struct no_lone_brace : not_at<one<'}'>> {};
struct message_end : one<'"'> {};
struct message : seq<one<'"'>, star<sor<message_text, hole>>, must<no_lone_brace>, must<message_end>, sp> {};
// `say "TEXT"` tells every player what happened, `say to P "TEXT"` player P only. `say`
// starts a statement only before a message or `to`, so it stays free as a name.
struct say_target : seq<expr> {};
struct say_to : seq<kw_to, sp, must<say_target>> {};
struct say_message : seq<message> {};
struct say_stmt : seq<kw_say, sp, at<sor<one<'"'>, kw_to>>, opt<say_to>, must<say_message>> {};
// `return VALUE` ends a function's `do:` with its value. Like `say`, `return` starts a
// statement only where no assignment follows it, so it stays free as a name.
struct return_value : seq<expr> {};
struct return_stmt
    : seq<kw_return, sp, not_at<sor<seq<one<'='>, not_at<one<'='>>>, string<'+', '='>, string<'-', '='>, one<'.', '['>>>,
          must<return_value>> {};
struct stmt
    : sor<let_stmt, if_stmt, for_stmt, repeat_stmt, while_stmt, move_stmt, shuffle_stmt,
          flip_stmt, reveal_stmt, look_stmt, eliminate_stmt, choose_stmt, phase_stmt, win_stmt,
          end_stmt, give_stmt, take_stmt, deal_stmt, say_stmt, return_stmt, assign_or_call> {};

// A whole block of effects, as in `flow:`, a phase or an action's `do:`.
struct end_of_program : eof {};
struct program : seq<sp, stmt_list, must<end_of_program>> {};

}  // namespace kata::grammar
