// Running a scenario. Its expectations are compiled together with the rule file, as extra
// invariants, so they are checked by the same checker and evaluated by the same machine
// as the rules, and their errors point into the scenario file.
#include "scenario/scenario.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "agents/perft.hpp"
#include "agents/typed.hpp"
#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "log/log.hpp"
#include "runtime/engine.hpp"
#include "runtime/view.hpp"
#include "scenario/position.hpp"
#include "syntax/rulefile.hpp"
#include "syntax/source.hpp"
#include "syntax/keys.hpp"

namespace kata {

namespace fs = std::filesystem;

namespace {

struct Step {
  std::string kind;  // play, refuse, expect, over, winners, said, perft
  std::string text;
  std::vector<uint64_t> counts;  // perft: the counts at depth 1, 2, ...
  bool turns = false;            // perft: counted by turns (`turns: true`)
  Pos turns_pos;
  std::string because;
  std::string as;     // said: the seat the message is told to (empty: the record, every card named)
  Pos as_pos;
  std::vector<std::string> list;
  Pos pos;        // of the value
  int invariant = -1;
};

class Runner {
 public:
  Runner(ScenarioResult& r, const ScenarioOptions& o) : r_(r), d_(r.diags), limits_(o) {}

  void run(const std::string& path) {
    std::string text, why;
    if (!read_source(path, text, why)) {
      r_.sources = std::make_shared<Sources>();
      r_.name = fs::path(path).stem().string();
      return d_.error(Pos{}, why);
    }
    run_text(path, std::move(text));
  }

  // The scenario `text`, as if read from `path` (its `rules:` is found beside it).
  void run_text(const std::string& path, std::string text) {
    r_.sources = std::make_shared<Sources>();
    r_.name = fs::path(path).stem().string();
    if (text.size() > max_source_size)
      return d_.error(Pos{}, fmt::format("'{}' is larger than {} MiB", printable(path), max_source_size >> 20));
    file_ = r_.sources->add(path, path, std::move(text));
    YAML::Node root;
    if (!read_yaml(*r_.sources, file_, d_, root, "a scenario")) return;
    if (!root.IsMap()) return d_.error(Pos{file_, 1, 1}, "a scenario is a YAML mapping (scenario:, rules:, steps:)");
    if (!read(root, path)) return;
    if (!setup()) return;
    play();
  }

 private:
  Pos pos(const YAML::Node& n) const { return Pos{file_, n.Mark().line + 1, n.Mark().column + 1}; }

  // A whole number from `low` to `high` written as digits, or an error at it saying so.
  template <typename T>
  bool whole(const YAML::Node& n, T low, T high, const char* what, T& out) {
    std::string text = n.IsScalar() ? n.Scalar() : "";
    T v{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < low || v > high) {
      d_.error(pos(n), fmt::format("'{}' must be a whole number from {} to {}", what, low, high));
      return false;
    }
    out = v;
    return true;
  }

  bool read(const YAML::Node& root, const std::string& path) {
    const std::vector<std::string>& keys = keys::scenario;
    for (auto it = root.begin(); it != root.end(); ++it) {
      std::string k = it->first.as<std::string>("");
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
        std::string near = closest_name(k, keys);
        d_.error(pos(it->first), fmt::format("unknown key '{}' in a scenario{}", k, near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
      }
    }
    try {
      if (root["scenario"]) r_.name = root["scenario"].as<std::string>();
      if (!root["rules"]) return d_.error(Pos{file_, 1, 1}, "a scenario needs 'rules:', the rule file it tests"), false;
      rules_ = (fs::path(path).parent_path() / root["rules"].as<std::string>()).lexically_normal().string();
      rules_pos_ = pos(root["rules"]);
      if (root["players"] && whole(root["players"], 1, 16, "players", players_)) players_pos_ = pos(root["players"]);
      if (root["seed"]) whole<uint64_t>(root["seed"], 0, UINT64_MAX, "seed", seed_);
      if (auto o = root["options"]; o && o.IsMap())
        for (auto it = o.begin(); it != o.end(); ++it)
          options_.push_back({it->first.as<std::string>(), it->second.as<std::string>(), pos(it->first)});
      if (auto s = root["shuffles"]; s && s.IsSequence())
        for (const auto& order : s) {
          std::vector<std::string> names;
          for (const auto& c : order) names.push_back(c.as<std::string>());
          shuffles_.push_back({names, pos(order)});
        }
      if (auto p = root["position"]) {
        read_position(p, file_, position_, d_);
        if (const YAML::Node e = p.IsMap() ? p["expect"] : YAML::Node(); p.IsMap() && e) {
          if (!e.IsSequence())
            d_.error(pos(e), "a position's 'expect:' is a list of conditions, checked on the position as it is set");
          else
            for (const auto& x : e) position_checks_.push_back(expectation(x));
        }
      }
      if (auto s = root["steps"]; s && s.IsSequence())
        for (const auto& step : s) read_step(step);
    } catch (const YAML::Exception& e) {
      d_.error(Pos{file_, e.mark.line + 1, e.mark.column + 1}, fmt::format("malformed scenario: {}", e.msg));
    }
    return !d_.has_errors();
  }

  void read_step(const YAML::Node& n) {
    if (!n.IsMap() || n.size() == 0) return d_.error(pos(n), "a step is one of: play:, refuse:, expect:, over:, winners:, said:, perft:");
    Step st;
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string k = it->first.as<std::string>();
      if (k == "because") {
        st.because = it->second.as<std::string>();
        continue;
      }
      if (k == "as") {
        st.as = it->second.as<std::string>();
        st.as_pos = pos(it->second);
        continue;
      }
      if (k == "turns") {
        std::string t = it->second.IsScalar() ? it->second.Scalar() : "";
        if (t != "true" && t != "false") return d_.error(pos(it->second), "'turns:' is true or false");
        st.turns = t == "true";
        st.turns_pos = pos(it->first);
        continue;
      }
      if (!st.kind.empty() || std::find(keys::step_kinds.begin(), keys::step_kinds.end(), k) == keys::step_kinds.end())
        return d_.error(pos(it->first), fmt::format("unknown step '{}'; expected play, refuse, expect, over, winners, said or perft", k));
      st.kind = k;
      // A copy: `it->second` belongs to a temporary that a range-for would outlive.
      const YAML::Node value = it->second;
      st.pos = pos(value);
      if (k == "winners") {
        if (value.IsSequence())
          for (const auto& w : value) st.list.push_back(w.as<std::string>());
        else st.list.push_back(value.as<std::string>());
      } else if (k == "perft") {
        if (!value.IsSequence() || value.size() == 0 || value.size() > max_perft_depth)
          return d_.error(st.pos, fmt::format("'perft:' is a list of 1 to {} counts, of the decision sequences 1, 2, "
                                              "... deep from here", max_perft_depth));
        for (const auto& c : value) {
          uint64_t n = 0;
          if (!whole<uint64_t>(c, 0, UINT64_MAX, "a perft count", n)) return;
          st.counts.push_back(n);
        }
      } else {
        st.text = value.as<std::string>();
      }
      if (k == "expect") st = expectation(value);
    }
    if (st.turns_pos.line && st.kind != "perft") return d_.error(st.turns_pos, "'turns:' goes with a perft: step");
    steps_.push_back(st);
  }

  // An `expect:` condition, compiled later with the rule file.
  Step expectation(const YAML::Node& value) {
    Step st;
    st.kind = "expect";
    st.text = value.as<std::string>();
    st.pos = pos(value);
    expects_.push_back({st.text, st.pos, Locator(*r_.sources, file_, value.Mark().pos, st.text)});
    st.invariant = static_cast<int>(expects_.size()) - 1;
    return st;
  }

  bool setup() {
    std::string text, why;
    if (!read_source(rules_, text, why)) return d_.error(rules_pos_, fmt::format("the scenario's rule file: {}", why)), false;
    // The pipeline every command loads with (compile/compiler.hpp), the expectations added
    // as invariants; of its diagnostics, the errors (a rule file's warnings are `kata
    // check`'s business).
    bool parsed = false;
    Diagnostics load_diags;
    game_ = load_game_text(rules_, text, r_.sources, load_diags, [&](RuleFile& rf) {
      parsed = true;
      first_invariant_ = static_cast<int>(rf.invariants.size());
      for (size_t i = 0; i < expects_.size(); ++i) {
        InvariantDecl inv{fmt::format("expect {}", i + 1), expects_[i].pos, expects_[i], nullptr};
        inv.expr = parse_expression(inv.text.text, inv.text.where, load_diags);
        if (inv.expr) rf.invariants.push_back(std::move(inv));
      }
      return !load_diags.has_errors();
    });
    for (auto& d : load_diags.items())
      if (d.severity == Severity::error) d_.add(d);
    if (!parsed && !d_.has_errors()) d_.error(rules_pos_, fmt::format("cannot load the rule file '{}'", rules_));
    if (!game_) return false;
    if (players_ < game_->min_players || players_ > game_->max_players)
      return d_.error(players_pos_, setup_error(*game_, players_, {})), false;  // the count alone
    options_values_ = default_options(*game_);
    for (auto& [k, v, p] : options_) {
      std::string why;
      if (!set_option(*game_, options_values_, k, v, why)) d_.error(p, why);
    }
    if (std::string why = setup_error(*game_, players_, options_values_); !why.empty() && !d_.has_errors())
      d_.error(players_pos_, why);
    for (auto& [names, p] : shuffles_) {
      std::vector<int32_t> ids;
      std::set<std::string> named;
      for (auto& name : names) {
        auto it = std::find(game_->card_names.begin(), game_->card_names.end(), name);
        if (it == game_->card_names.end()) d_.error(p, fmt::format("no card is named '{}'", name));
        else if (!named.insert(name).second) d_.error(p, fmt::format("the fixed order names '{}' more than once", name));
        ids.push_back(static_cast<int32_t>(it - game_->card_names.begin()));
      }
      forced_.push_back(std::move(ids));
    }
    return !d_.has_errors();
  }

  void play() {
    const Game& g = *game_;
    Hooks hooks{&events_, &forced_};
    State s;
    try {
      if (position_.given) {
        // The position's own expectations look at it as it is set; then the flow resumes
        // and runs to its first decision, as a new game's set-up does.
        s = initial_state(g, players_, seed_, options_values_);
        int pc = set_position(g, position_, s, d_);
        if (pc < 0 || !invariants_hold(g, s, position_.pos, "in the position")) return;
        for (const Step& st : position_checks_)
          if (!step(g, s, st, hooks)) return;
        run_from(g, s, pc, &hooks);
        keep_messages();
        if (!invariants_hold(g, s, position_.pos, "once the flow resumed from the position")) return;
      } else {
        s = new_game(g, players_, seed_, options_values_, &hooks);
        keep_messages();
        if (!invariants_hold(g, s, Pos{file_, 1, 1})) return;
      }
      for (const Step& st : steps_) {
        if (!step(g, s, st, hooks)) return;
        ++r_.steps;
      }
    } catch (const RuntimeError& e) {
      d_.error(e.pos, fmt::format("the game stopped: {}", e.what()), {{steps_.empty() ? Pos{} : steps_[std::min<size_t>(r_.steps, steps_.size() - 1)].pos, "while running this step"}});
      return;
    }
    r_.passed = true;
  }

  // The messages of the set-up or of the last decision played: the other events go.
  void keep_messages() {
    said_.clear();
    for (Event& e : events_)
      if (e.kind == Event::say) said_.push_back(std::move(e));
    events_.clear();
  }

  // `said: TEXT`: one of those messages is TEXT, in the record (every card named), or as
  // the seat of `as:` was told it.
  bool said(const Game& g, const Step& st) {
    int viewer = -1;
    if (!st.as.empty()) {
      viewer = -2;
      for (int p = 0; p < players_; ++p)
        if (st.as == seat_name(p)) viewer = p;
      if (viewer == -2)
        return d_.error(st.as_pos, fmt::format("'as:' names a seat, P1 to P{}, not '{}'", players_, st.as)), false;
    }
    std::vector<Note> notes;
    for (const Event& e : said_) {
      if (viewer >= 0 && e.player >= 0 && e.player != viewer) continue;
      std::string text = said_text(g, e, viewer);
      if (text == st.text) return true;
      notes.push_back({Pos{}, fmt::format("said: {}", text)});
    }
    if (notes.empty()) notes.push_back({Pos{}, viewer < 0 ? "nothing was said" : fmt::format("nothing was said to {}", st.as)});
    std::string to = viewer < 0 ? "" : fmt::format(" to {}", st.as);
    return d_.error(st.pos, fmt::format("expected the message '{}'{} after the last decision", st.text, to), notes), false;
  }

  // `perft: [20, 400]`: the numbers of decision sequences (or turns) 1, 2, ... deep from
  // the current state. The count stops at the first depth that passes its number, so the
  // work is bounded by the numbers asked for, and by `max_perft_positions` whatever they are.
  bool perft_counts(const Game& g, const State& s, const Step& st) {
    BoundedPerft p = perft_at_most(g, s, st.counts, limits_.max_perft_positions,
                                   st.turns ? PerftUnit::turn : PerftUnit::decision);
    const char* by = st.turns ? " by turns" : "";
    if (p.out_of_positions)
      return d_.error(st.pos, fmt::format("perft{} stopped after visiting {} positions, the most a scenario's "
                                          "perft: step may visit (`kata perft` counts further)",
                                          by, limits_.max_perft_positions)), false;
    if (p.over_depth >= 0)
      return d_.error(st.pos, fmt::format("perft{} at depth {} is more than {}", by, p.over_depth + 1,
                                          st.counts[p.over_depth]),
                      {{Pos{}, "the count stopped there"}}), false;
    std::string all;
    for (uint64_t n : p.counts) all += (all.empty() ? "" : ", ") + std::to_string(n);
    for (size_t i = 0; i < p.counts.size(); ++i)
      if (p.counts[i] != st.counts[i])
        return d_.error(st.pos, fmt::format("perft{} at depth {} is {}, not {}", by, i + 1, p.counts[i], st.counts[i]),
                        {{Pos{}, fmt::format("actual: {}", all)}}), false;
    return true;
  }

  bool invariants_hold(const Game& g, const State& s, Pos at, const char* when = "after this step") {
    for (int i = 0; i < first_invariant_; ++i)
      if (!evaluate(g, s, g.invariants[i].node)) {
        std::vector<Note> notes{{g.invariants[i].pos, "the invariant"}};
        if (std::string sides = comparison_sides(g, s, g.invariants[i]); !sides.empty())
          notes.push_back({Pos{}, "actual: " + sides});
        d_.error(at,
                 fmt::format("the rule file's invariant '{}' does not hold {}",
                             g.invariants[i].name, when),
                 notes);
        return false;
      }
    return true;
  }

  // "P1 flip" -> seat 0, "flip". A seat the game does not have is a mistake in the
  // scenario, not a refusal.
  bool split(const Step& st, int& seat, std::string& action) {
    std::istringstream in(st.text);
    std::string who;
    in >> who;
    std::getline(in, action);
    if (who.size() < 2 || who[0] != 'P' || who.find_first_not_of("0123456789", 1) != std::string::npos)
      return d_.error(st.pos, fmt::format("a decision starts with the player who makes it, like 'P1 {}'", st.text)), false;
    std::string digits = who.substr(1);
    seat = digits.size() > 3 ? -1 : std::stoi(digits) - 1;
    if (seat < 0 || seat >= players_)
      return d_.error(st.pos, fmt::format("there is no {} in a {}-player game; the seats are P1 to P{}", who, players_, players_)), false;
    return true;
  }

  bool step(const Game& g, State& s, const Step& st, Hooks& hooks) {
    if (st.kind == "play" || st.kind == "refuse") {
      int seat;
      std::string action;
      if (!split(st, seat, action)) return false;
      bool turn = s.status() == Status::waiting && s.chooser() == seat;
      std::string why = s.over() ? "the game is over" : fmt::format("it is {}'s decision", seat_name(s.chooser()));
      std::optional<Decision> d;
      if (turn) {
        // Listed as when played: a choice that cannot be stops the game here.
        legal_decisions(g, s, legal_);
        d = read_decision(g, s, action, why);
      }
      if (st.kind == "refuse") {
        if (d) return d_.error(st.pos, fmt::format("expected '{}' to be refused, but it is legal", st.text)), false;
        if (!st.because.empty() && why.find(st.because) == std::string::npos)
          return d_.error(st.pos, fmt::format("refused, but not because of '{}': {}", st.because, why)), false;
        return true;
      }
      if (!d) return d_.error(st.pos, fmt::format("cannot play '{}': {}", st.text, why)), false;
      apply(g, s, *d, &hooks);
      keep_messages();
      return invariants_hold(g, s, st.pos);
    }
    if (st.kind == "said") return said(g, st);
    if (st.kind == "perft") return perft_counts(g, s, st);
    if (st.kind == "expect") {
      const Invariant& inv = g.invariants[first_invariant_ + st.invariant];
      if (evaluate(g, s, inv.node)) return true;
      std::vector<Note> notes;
      if (std::string sides = comparison_sides(g, s, inv); !sides.empty())
        notes.push_back({Pos{}, "actual: " + sides});
      d_.error(st.pos, fmt::format("expected {}", st.text), notes);
      return false;
    }
    if (st.kind == "over") {
      bool want = st.text == "true" || st.text == "yes";
      if (s.over() == want) return true;
      return d_.error(st.pos, want ? fmt::format("expected the game to be over, but {} is to decide", seat_name(s.chooser()))
                                   : "expected the game to go on, but it is over"), false;
    }
    // winners
    if (!s.over()) return d_.error(st.pos, "expected winners, but the game is not over"), false;
    std::vector<std::string> actual;
    for (int p = 0; p < s.players(); ++p)
      if (winners(s) & (1u << p)) actual.push_back(seat_name(p));
    std::vector<std::string> want = st.list;
    auto by_seat = [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;  // P2 before P10
    };
    std::sort(want.begin(), want.end(), by_seat);
    if (want == actual) return true;
    auto join = [](const std::vector<std::string>& v) {
      std::string out;
      for (auto& x : v) out += (out.empty() ? "" : ", ") + x;
      return out.empty() ? std::string("none") : out;
    };
    return d_.error(st.pos, fmt::format("expected winners {}, actual winners {}", join(want), join(actual))), false;
  }

  ScenarioResult& r_;
  Diagnostics& d_;
  int file_ = -1;
  std::string rules_;
  Pos rules_pos_, players_pos_;
  int players_ = 0;
  uint64_t seed_ = 1;
  std::vector<std::tuple<std::string, std::string, Pos>> options_;
  std::vector<std::pair<std::vector<std::string>, Pos>> shuffles_;
  PositionSpec position_;
  std::vector<Step> position_checks_;  // the position's `expect:`
  std::vector<Step> steps_;
  std::vector<Text> expects_;
  int first_invariant_ = 0;
  std::shared_ptr<const Game> game_;
  std::vector<int64_t> options_values_;
  std::deque<std::vector<int32_t>> forced_;
  std::vector<Event> events_, said_;
  std::vector<Decision> legal_;
  ScenarioOptions limits_;
};

}  // namespace

ScenarioResult run_scenario(const std::string& path, const ScenarioOptions& options) {
  ScenarioResult r;
  Runner(r, options).run(path);
  r.diags.sort();
  return r;
}

ScenarioResult run_scenario_text(const std::string& path, const std::string& text, const ScenarioOptions& options) {
  ScenarioResult r;
  Runner(r, options).run_text(path, text);
  r.diags.sort();
  return r;
}

bool is_rule_text(const std::string& text) {
  for (size_t at = 0; at != std::string::npos && at < text.size(); at = text.find('\n', at)) {
    if (text[at] == '\n') ++at;
    for (const char* key : {"game:", "\"game\":", "'game':"})
      if (text.compare(at, std::strlen(key), key) == 0) return true;
  }
  return false;
}

namespace {

// A rule file, not a scenario: a file with a `game:` key at the start of a line. Read
// within the limits of any source (read_source) and scanned, not parsed: parsing is
// run_scenario's, with its guards, and it reports what cannot be read.
bool is_rule_file(const std::string& path) {
  std::string text, why;
  return read_source(path, text, why) && is_rule_text(text);
}

void add_directory(const std::string& dir, std::vector<std::string>& out, std::string& error) {
  std::error_code ec;
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml" || e.path().extension() == ".yml") found.push_back(e.path().string());
  std::sort(found.begin(), found.end());
  if (found.empty()) error = fmt::format("no scenario files (*.yaml) in '{}'", dir);
  out.insert(out.end(), found.begin(), found.end());
}

}  // namespace

std::vector<std::string> scenario_files(const std::vector<std::string>& args, std::string& error) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      add_directory(a, out, error);
    } else if (fs::is_regular_file(a, ec) && is_rule_file(a)) {
      // A rule file stands for its scenarios, kept in tests/<stem>/ beside it.
      fs::path dir = fs::path(a).parent_path() / "tests" / fs::path(a).stem();
      if (fs::is_directory(dir, ec)) add_directory(dir.string(), out, error);
      else error = fmt::format("'{}' is a rule file, not a scenario; its scenarios would be in '{}/', which does not exist", a, dir.string());
    } else if (fs::is_regular_file(a, ec)) {
      out.push_back(a);
    } else {
      error = fmt::format("cannot find '{}'", a);
    }
  }
  return out;
}

}  // namespace kata
