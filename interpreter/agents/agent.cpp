// The three kinds of agent kata ships. Humans read and type at a terminal given to them,
// so tests can drive them with string streams.
#include "agents/agent.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>

#include "agents/search.hpp"
#include "agents/typed.hpp"
#include "reference/reference.hpp"
#include "runtime/wrap.hpp"
#include "syntax/diagnostics.hpp"
#include "syntax/source.hpp"

namespace kata {

Choice RandomAgent::choose(const Game&, const PlayerView&, const std::vector<std::string>&, int count) {
  return {static_cast<int>(uniform(rng_, static_cast<uint32_t>(count))), {}};
}

void RandomAgent::undone(int times) {
  rng_ ^= 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(times);
  next_random(rng_);
}

void RandomAgent::replayed(int count) { (void)uniform(rng_, static_cast<uint32_t>(count)); }

std::unique_ptr<ScriptAgent> ScriptAgent::load(const std::string& path, std::string& error) {
  // A script is read as a source file is: a regular file of at most 4 MiB, so that a
  // device or a pipe named as a script cannot make kata read without end.
  std::string text, why;
  if (!read_source(path, text, why)) {
    error = why.rfind("cannot read", 0) == 0 ? fmt::format("cannot read script '{}'", path) : "script " + why;
    return nullptr;
  }
  std::vector<std::string> lines;
  std::vector<int> numbers;
  std::string line;
  std::istringstream in(text);
  for (int n = 1; std::getline(in, line); ++n) {
    // A comment starts with '#' at the start of a line or after blank space, so a hidden
    // card's place ("deck#2") is not one.
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '#' && (i == 0 || std::isspace(static_cast<unsigned char>(line[i - 1])))) {
        line.erase(i);
        break;
      }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    lines.push_back(line);
    numbers.push_back(n);
    if (lines.size() > 10000000) {
      error = fmt::format("script '{}' is too long", path);
      return nullptr;
    }
  }
  return std::make_unique<ScriptAgent>(path, std::move(lines), std::move(numbers));
}

Choice ScriptAgent::choose(const Game&, const PlayerView&, const std::vector<std::string>&, int) {
  if (next_ >= lines_.size()) return {-2, {}};
  return {-1, lines_[next_++]};
}

std::string ScriptAgent::where() const {
  return next_ == 0 ? path_ : fmt::format("{}:{}", path_, numbers_[next_ - 1]);
}

bool ScriptAgent::refused(const std::string&) { return false; }

namespace {

// Cursor home, erase the screen, and erase the scrollback too: the previous player's hand
// must not be one scroll away.
constexpr const char* clear_sequence = "\033[H\033[2J\033[3J";

// "unknown agent 'randm'; did you mean 'random'? the agents are human, random, script:FILE"
std::string unknown_agent(const std::string& spec) {
  size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  if (name == "script") return fmt::format("agent 'script' needs a file: script:FILE");
  std::string near = closest_name(name, {"human", "random", "script", "ismcts", "mcts", "greedy"});
  if (near == "script") near += colon == std::string::npos ? ":FILE" : spec.substr(colon);
  return fmt::format("unknown agent '{}'; {}the agents are human, {}", spec,
                     near.empty() ? "" : fmt::format("did you mean '{}'? ", near), bot_names());
}

}  // namespace

std::string bot_names() { return "random, script:FILE, ismcts[:N], mcts[:N], greedy"; }

void HumanAgent::hand_over() {
  if (t_.humans > 1 && t_.last_seat != seat_) {
    if (t_.clear_screen) t_.out << clear_sequence;
    t_.out << fmt::format("Pass the terminal to {}, then press Enter.", seat_name(seat_)) << std::flush;
    std::string ignore;
    std::getline(t_.in, ignore);
    if (t_.clear_screen) t_.out << clear_sequence;
  }
  t_.last_seat = seat_;
}

namespace {

// A line longer than this is refused unread: nothing typed at a prompt is that long.
constexpr size_t longest_line = 1000;

// Reads one line, keeping at most longest_line characters of it (`length` is its whole
// length). False at the end of input with nothing read.
bool read_line(std::istream& in, std::string& line, size_t& length) {
  line.clear();
  length = 0;
  bool any = false;
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return true;
    if (length++ < longest_line) line += static_cast<char>(c);
  }
  return any;
}

// Well-formed UTF-8 as far as a terminal needs: lead bytes and their continuation bytes.
bool valid_utf8(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    int more = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
    if (more < 0) return false;
    for (; more > 0; --more)
      if (++i >= s.size() || (static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) return false;
  }
  return true;
}

// A refusal with its list of choices ("(choices: Queen of hearts, rank 2)", "for example:
// ...") as one line of a screen: wrapping breaks it after a comma, never inside a choice.
std::string choices_whole(std::string why) {
  for (const char* list : {"(choices: ", "choices, for example: "}) {
    size_t open = why.find(list);
    if (open == std::string::npos) continue;
    // To the bracket that closes the list: a choice may hold brackets ("#1 (card 1 ...)").
    int depth = why[open] == '(' ? 1 : 0;
    for (size_t i = open + std::string(list).size(); i < why.size(); ++i) {
      if (why[i] == '(') ++depth;
      if (why[i] == ')' && --depth <= 0) break;
      if (why[i] == ' ' && why[i - 1] != ',') why[i] = unbroken_space;
    }
  }
  return why;
}

std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void HumanAgent::observe(const std::string& line) {
  news_.push_back(line);
  told_.push_back(line);
  if (told_.size() > log_lines) told_.pop_front();
}

void HumanAgent::asked(const std::string& line) {
  asked_ = line;
  asked_new_ = true;
}

// "Since your last turn" starts after this seat's last decision, as it would have.
void HumanAgent::replayed(int) {
  news_.clear();
  asked_.clear();  // its decision is made
  asked_new_ = false;
}

void HumanAgent::tell_news() {
  if (news_.empty()) return;
  t_.out << "Since your last turn:\n";
  for (auto& n : news_) print_screen(t_.out, "  " + n + '\n');
  news_.clear();
}

Choice HumanAgent::choose(const Game& g, const PlayerView& view, const std::vector<std::string>& labels, int) {
  if (!retry_) {
    hand_over();
    tell_news();
    t_.out << '\n';
    print_screen(t_.out, describe_screen(g, view));
    menu_.emplace(menu_items(g, view, labels));
    if (!asked_new_) asked_.clear();  // told before an earlier decision: not about this one
    asked_new_ = false;
    print_screen(t_.out, menu_screen());
  }
  retry_ = false;
  for (;;) {
    t_.out << fmt::format("{}> ", seat_name(seat_)) << std::flush;
    std::string line;
    size_t length = 0;
    // The end of input (Ctrl-D) ends the prompt's line, as Enter would have.
    if (!read_line(t_.in, line, length)) {
      t_.out << '\n' << std::flush;
      return {-2, {}};
    }
    if (length > longest_line) {
      t_.out << fmt::format("That line is {} characters long; type a number, a decision or 'help'.\n", length);
      continue;
    }
    if (auto c = answer(g, view, line, labels)) return *c;
  }
}

std::optional<Choice> HumanAgent::answer(const Game& g, const PlayerView& view,
                                         const std::string& typed,
                                         const std::vector<std::string>& labels) {
  if (!valid_utf8(typed)) {
    t_.out << "That line is not valid UTF-8; type a number, a decision or 'help'.\n";
    return std::nullopt;
  }
  std::string line = trimmed(typed);
  if (std::any_of(line.begin(), line.end(), [](char c) { return std::iscntrl(static_cast<unsigned char>(c)) && c != '\t'; })) {
    t_.out << "That line holds control characters (arrow keys?); type it again without them.\n";
    return std::nullopt;
  }
  std::string word = lower(line);
  if (line.empty()) {
    print_screen(t_.out, menu_screen());
    t_.out << "(Type a number, a decision, or 'help'.)\n";
  } else if (word == "help" || word == "?") {
    t_.out << "Type:\n"
           << "  a number        the entry with that number in the list above\n"
           << "  a decision      in its notation, for example: " << labels.front() << "\n"
           << "  its start       the decisions it begins, one value at a time (for example: "
           << labels.front().substr(0, labels.front().find(' ')) << ")\n"
           << "  back            the step before, when choosing one value at a time\n"
           << "  undo            take back your last decision and what followed it\n"
           << fmt::format("  log             the last {} lines you were told\n", log_lines)
           << "  rules           what each card, action and option does: the game's reference (what 'kata rules' prints)\n"
           << "  rules NAME      only what the card, action or option NAME does (for example: rules "
           << labels.front().substr(0, labels.front().find(' ')) << ")\n"
           << "  quit            stop the game (asks first; the end of input, Ctrl-D, stops at once)\n"
           << "  an empty line   the list again\n";
  } else if (word == "log") {
    if (told_.empty()) t_.out << "You have been told nothing yet.\n";
    else t_.out << fmt::format("The last {} lines you were told:\n", told_.size());
    for (auto& n : told_) print_screen(t_.out, "  " + n + '\n');
  } else if (word == "rules") {
    t_.out << write_reference(make_reference(g), ReferenceFormat::text, t_.width ? t_.width : reference_width);
  } else if (word.rfind("rules ", 0) == 0) {
    std::string name = trimmed(line.substr(6));
    std::string entry = reference_entry(make_reference(g), name, t_.width ? t_.width : reference_width);
    if (entry.empty())
      t_.out << fmt::format("Nothing in the game's reference is called '{}'; 'rules' alone prints all of it.\n", name);
    t_.out << entry;
  } else if (word == "undo") {
    if (t_.humans <= 1) return Choice{Choice::undo, {}};
    t_.out << "There is no undo with several people at this terminal: it would take back "
              "another's turn.\n";
  } else if (word == "quit") {
    if (confirm_quit()) return Choice{-2, {}};
  } else if (word == "back") {
    if (menu_->back()) print_screen(t_.out, menu_screen());
    else t_.out << "There is no step before this one.\n";
  } else if (line.find_first_not_of("0123456789") == std::string::npos) {
    size_t k = line.size() > 9 ? 0 : std::stoul(line);
    if (k >= 1 && k <= menu_->size()) {
      int d = menu_->pick(k - 1);
      if (d >= 0) return Choice{d, {}};
      print_screen(t_.out, menu_screen());
    } else {
      t_.out << fmt::format("Choose a number from 1 to {}.\n", menu_->size());
    }
  } else if (auto d = menu_->typed(line)) {
    if (*d >= 0) return Choice{*d, {}};
    print_screen(t_.out, menu_screen());
  } else if (std::string why; auto k = short_form(g, view, labels, line, why)) {
    return Choice{*k, {}};
  } else if (auto start = short_start(menu_->items(), line)) {
    std::string text;
    for (const std::string& part : *start) text += (text.empty() ? "" : " ") + part;
    if (auto e = menu_->typed(text); e && *e >= 0) return Choice{*e, {}};
    print_screen(t_.out, menu_screen());
  } else {
    return Choice{-1, line};
  }
  return std::nullopt;
}

std::string HumanAgent::menu_screen() const {
  return (asked_.empty() ? "" : "» " + asked_ + "\n") + menu_->screen();
}

void HumanAgent::restart() {
  t_.out << "Undone: your last decision and what followed it are taken back.\n";
  news_.clear();
  asked_.clear();
  asked_new_ = false;
  told_.clear();
  menu_.reset();
  retry_ = false;
}


bool HumanAgent::confirm_quit() {
  t_.out << "Really quit? (y/n) " << std::flush;
  std::string line;
  size_t length = 0;
  if (!read_line(t_.in, line, length)) {
    t_.out << '\n' << std::flush;
    return true;
  }
  std::string word = lower(trimmed(line));
  if (word == "y" || word == "yes") return true;
  t_.out << "Not quitting.\n";
  return false;
}

bool HumanAgent::refused(const std::string& why) {
  print_screen(t_.out, "Refused: " + choices_whole(why) + '\n');
  retry_ = true;
  return true;
}

void HumanAgent::game_over(const Game& g, const PlayerView& view) {
  // Several humans share the screen: no one's private view is shown. The last player's
  // screen is cleared once, and the caller shows what everyone may see.
  if (t_.humans > 1) {
    if (t_.last_seat != -1) t_.out << (t_.clear_screen ? clear_sequence : "\n") << std::flush;
    t_.last_seat = -1;
    news_.clear();
    return;
  }
  tell_news();
  t_.out << '\n';
  print_screen(t_.out, describe_screen(g, view));
}

std::unique_ptr<Agent> make_agent(const std::string& spec, int seat, uint64_t seed, Terminal& t,
                                  std::string& error, const Game* game) {
  if (spec == "human") {
    ++t.humans;
    return std::make_unique<HumanAgent>(t, seat);
  }
  if (spec == "random") {
    uint64_t s = seed ^ (0x5851f42d4c957f2dULL * static_cast<uint64_t>(seat + 1));
    next_random(s);
    return std::make_unique<RandomAgent>(s);
  }
  if (spec.rfind("script:", 0) == 0) return ScriptAgent::load(spec.substr(7), error);
  if (auto bot = make_search_agent(spec, seat, seed, game, error); bot || !error.empty()) return bot;
  error = unknown_agent(spec);
  return nullptr;
}

}  // namespace kata
