// The message for every `must<>` in the grammar. The control below refuses to compile a
// grammar whose `must<>` lacks one, so a new rule cannot ship with a generic message.
#pragma once

#include "syntax/grammar.hpp"

namespace kata::grammar {

template <typename>
inline constexpr const char* error_message = nullptr;

#define KATA_ERROR(rule, text) \
  template <>                  \
  inline constexpr auto error_message<rule> = text;
KATA_ERROR(paren_body, "expected an expression after '('")
KATA_ERROR(close_paren, "expected ')'")
KATA_ERROR(condition, "expected a condition")
KATA_ERROR(then_word, "expected 'then' after the condition of 'if'")
KATA_ERROR(then_body, "expected an expression after 'then'")
KATA_ERROR(else_word, "expected 'else' (an 'if' expression needs both branches)")
KATA_ERROR(else_body, "expected an expression after 'else'")
KATA_ERROR(agg_domain, "expected a list after 'in'")
KATA_ERROR(agg_where, "expected a condition after 'where'")
KATA_ERROR(for_var, "expected a variable name after 'for'")
KATA_ERROR(more_value, "expected a value after ','")
KATA_ERROR(min_rest, "expected ',' and more values (min(a, b)), or 'for' (min(VALUE for x in LIST))")
KATA_ERROR(max_rest, "expected ',' and more values (max(a, b)), or 'for' (max(VALUE for x in LIST))")
KATA_ERROR(member_name, "expected a name after '.'")
KATA_ERROR(from_start, "expected a player after 'from'")
KATA_ERROR(neg_operand, "expected an expression after '-'")
KATA_ERROR(mul_operand, "expected an expression after the operator")
KATA_ERROR(add_operand, "expected an expression after the operator")
KATA_ERROR(range_end, "expected the end of the range after '..'")
KATA_ERROR(cmp_operand, "expected an expression after the comparison")
KATA_ERROR(one_comparison, "comparisons do not chain: write '1 <= x and x <= 7', not '1 <= x <= 7'")
KATA_ERROR(not_operand, "expected an expression after 'not'")
KATA_ERROR(and_operand, "expected an expression after 'and'")
KATA_ERROR(or_operand, "expected an expression after 'or'")
KATA_ERROR(expr, "expected an expression")
KATA_ERROR(pegtl::eof, "unexpected text after the expression")
KATA_ERROR(close_brace, "expected a statement or '}'")
KATA_ERROR(end_of_program, "expected a statement")
KATA_ERROR(let_name, "expected a name after 'let'")
KATA_ERROR(equals, "expected '=' after the name")
KATA_ERROR(assign_value, "expected a value after the assignment")
KATA_ERROR(else_tail, "expected '{' or 'if' after 'else'")
KATA_ERROR(if_block, "expected '{' to open the body of 'if'")
KATA_ERROR(loop_var, "expected a variable name")
KATA_ERROR(in_word, "expected 'in'")
KATA_ERROR(loop_body, "expected '{' to open the loop's body")
KATA_ERROR(repeat_tail, "expected 'until CONDITION' or 'N times' after 'repeat'")
KATA_ERROR(times_word, "expected 'times'")
KATA_ERROR(to_word, "expected 'to' and a zone")
KATA_ERROR(face_which, "expected 'up' or 'down' after 'face'")
KATA_ERROR(at_place, "expected 'bottom' or 'position N' after 'at'")
KATA_ERROR(position_value, "expected a number after 'position'")
KATA_ERROR(member_arg, "expected a player after '('")
KATA_ERROR(at_word, "expected 'at' and a card")
KATA_ERROR(colon, "expected ':' after the player")
KATA_ERROR(action_name, "expected an action name")
KATA_ERROR(choice, "expected an action name")
KATA_ERROR(phase_name, "expected a phase name")
KATA_ERROR(game_word, "expected 'game' after 'end'")
KATA_ERROR(counter_name, "expected the name of a player variable (give 2 coins to p)")
KATA_ERROR(from_word, "expected 'from'")
KATA_ERROR(cards_word, "expected 'cards' after the number (deal 2 cards from deck to p.hand)")
KATA_ERROR(hole_value, "expected an expression after '{' in the message (write '{{' for a brace)")
KATA_ERROR(hole_close, "expected '}' to close the value in the message")
KATA_ERROR(no_lone_brace, "'}' closes nothing in the message (write '}}' for a brace)")
KATA_ERROR(message_end, "expected '\"' to close the message (a message is one line)")
KATA_ERROR(say_target, "expected a player after 'say to'")
KATA_ERROR(say_message, "expected a message in double quotes after 'say'")
KATA_ERROR(return_value, "expected the function's value after 'return'")
#undef KATA_ERROR

struct error {
  template <typename Rule>
  static constexpr auto message = error_message<Rule>;
};

template <typename Rule>
using control = pegtl::must_if<error>::control<Rule>;

}  // namespace kata::grammar
