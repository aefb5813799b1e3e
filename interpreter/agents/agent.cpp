// The three kinds of agent kata ships. Humans read and type at a terminal given to them,
// so tests can drive them with string streams.
#include "agents/agent.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <iostream>

#include "syntax/diagnostics.hpp"

namespace kata {

Choice RandomAgent::choose(const Game&, const PlayerView&, const std::vector<std::string>&, int count) {
  return {static_cast<int>(uniform(rng_, static_cast<uint32_t>(count))), {}};
}

std::unique_ptr<ScriptAgent> ScriptAgent::load(const std::string& path, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read script '{}'", path);
    return nullptr;
  }
  std::vector<std::string> lines;
  std::vector<int> numbers;
  std::string line;
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
  constexpr const char* agents = "the agents are human, random, script:FILE";
  size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  if (name == "script") return fmt::format("agent 'script' needs a file: script:FILE");
  std::string near = closest_name(name, {"human", "random", "script"});
  if (near == "script") near += colon == std::string::npos ? ":FILE" : spec.substr(colon);
  return fmt::format("unknown agent '{}'; {}{}", spec,
                     near.empty() ? "" : fmt::format("did you mean '{}'? ", near), agents);
}

}  // namespace

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

Choice HumanAgent::choose(const Game& g, const PlayerView& view, const std::vector<std::string>& labels, int) {
  hand_over();
  if (!news_.empty()) {
    t_.out << "Since your last turn:\n";
    for (auto& n : news_) t_.out << "  " << n << '\n';
    news_.clear();
  }
  t_.out << '\n' << describe_view(g, view);
  for (size_t i = 0; i < labels.size(); ++i) t_.out << fmt::format("  {:>2}) {}\n", i + 1, labels[i]);
  for (;;) {
    t_.out << fmt::format("{}> ", seat_name(seat_)) << std::flush;
    std::string line;
    if (!std::getline(t_.in, line)) return {-2, {}};
    size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos) continue;
    line = line.substr(start);
    if (line == "help" || line == "?") {
      t_.out << "Type the number of a choice, or the action in its notation (for example: "
             << labels.front() << "). 'quit' ends the game.\n";
      continue;
    }
    if (line == "quit") return {-2, {}};
    bool digits = line.find_first_not_of("0123456789 \r") == std::string::npos;
    if (digits) {
      int k = std::atoi(line.c_str());
      if (k >= 1 && k <= static_cast<int>(labels.size())) return {k - 1, {}};
      t_.out << fmt::format("Choose a number from 1 to {}.\n", labels.size());
      continue;
    }
    return {-1, line};
  }
}

bool HumanAgent::refused(const std::string& why) {
  t_.out << "Refused: " << why << '\n';
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
  if (!news_.empty()) {
    t_.out << "Since your last turn:\n";
    for (auto& n : news_) t_.out << "  " << n << '\n';
    news_.clear();
  }
  t_.out << '\n' << describe_view(g, view);
}

std::unique_ptr<Agent> make_agent(const std::string& spec, int seat, uint64_t seed, Terminal& t,
                                  std::string& error) {
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
  error = unknown_agent(spec);
  return nullptr;
}

}  // namespace kata
