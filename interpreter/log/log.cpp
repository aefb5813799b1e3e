// Writing and replaying logs. A replay runs the game afresh from the header's seed and
// options, applies the logged decisions through the same notation parser players use,
// and compares every chance outcome and the result with what the log says.
#include "log/log.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "compile/compiler.hpp"
#include "runtime/wrap.hpp"
#include "syntax/source.hpp"

namespace kata {

namespace {

std::string card_name(const Game& g, int c) { return c >= 0 && c < g.card_count ? g.card_names[c] : "?"; }

// A card as a seat is told it: without its copy number (Game::card_plain_names). Copies
// are alike on the table; which copy moved is the notation's business, and it follows
// from what the chooser played before, which others may not know. The log and an
// onlooker (`viewer` < 0) keep the name whole.
std::string told_name(const Game& g, int c, int viewer) {
  if (c < 0 || c >= g.card_count) return "?";
  return viewer < 0 ? g.card_names[c] : g.card_plain_names[c];
}

// A card as a line names it: for a screen (`units`), one unit that wrapping never splits
// (runtime/wrap.hpp).
std::string named(const std::string& text, bool units) { return units ? unbroken(text) : text; }

std::vector<std::string> order_names(const Game& g, const std::vector<int32_t>& order) {
  std::vector<std::string> names;
  for (auto it = order.rbegin(); it != order.rend(); ++it) names.push_back(card_name(g, *it));
  return names;  // top first
}

// A value of a message as `viewer` is told it.
std::string said_value(const Game& g, Type t, const SaidValue& v, int viewer, bool units) {
  if (v.failed) return "?";
  switch (t) {
    case Type::card:
      if (v.value < 0 || v.value >= g.card_count) return "none";
      return named(viewer < 0 || (v.seen_by >> viewer) & 1u ? told_name(g, static_cast<int>(v.value), viewer) : v.hidden, units);
    case Type::zone:
      return v.value >= 0 && v.value < static_cast<int64_t>(g.instance_zone.size()) ? named(g.place_name(static_cast<int>(v.value)), units) : "?";
    default: return value_text(g, t, v.value);
  }
}

std::string said_text(const Game& g, const Event& e, int viewer, bool units) {
  const Message& m = g.program.messages.at(e.from);
  std::string out = m.text.at(0);
  for (size_t i = 0; i < e.said.size() && i < m.types.size(); ++i)
    out += said_value(g, m.types[i], e.said[i], viewer, units) + m.text.at(i + 1);
  return out;
}

}  // namespace

std::string said_text(const Game& g, const Event& e, int viewer) { return said_text(g, e, viewer, false); }

nlohmann::json event_json(const Game& g, const Event& e) {
  using nlohmann::json;
  switch (e.kind) {
    case Event::shuffle:
      return {{"type", "shuffle"}, {"zone", g.instance_name(e.from)}, {"order", order_names(g, e.order)}};
    case Event::move:
      return {{"type", "move"}, {"card", card_name(g, e.card)}, {"from", g.instance_name(e.from)}, {"to", g.instance_name(e.to)}};
    case Event::flip: return {{"type", "flip"}, {"card", card_name(g, e.card)}, {"zone", g.instance_name(e.from)}, {"face", e.to ? "up" : "down"}};
    case Event::reveal: return {{"type", "reveal"}, {"card", card_name(g, e.card)}, {"zone", g.instance_name(e.from)}};
    case Event::look:
      return {{"type", "look"}, {"player", seat_name(e.player)}, {"card", card_name(g, e.card)}, {"zone", g.instance_name(e.from)}};
    case Event::eliminate: return {{"type", "eliminate"}, {"player", seat_name(e.player)}};
    case Event::phase: return {{"type", "phase"}, {"phase", g.phases.at(e.player)}};
    case Event::pick:
      return {{"type", "pick"}, {"player", seat_name(e.player)}, {"card", card_name(g, e.card)}, {"zone", g.instance_name(e.from)}};
    case Event::say:
      if (e.player >= 0) return {{"type", "say"}, {"to", seat_name(e.player)}, {"text", said_text(g, e, -1)}};
      return {{"type", "say"}, {"text", said_text(g, e, -1)}};
    case Event::win:
    case Event::over:
    case Event::decision:
    case Event::done:
    case Event::quiet: return nullptr;
  }
  return nullptr;
}

namespace {

std::string describe_event(const Game& g, const Event& e, int viewer, bool units) {
  bool sees = viewer < 0 || (e.seen_by >> viewer) & 1u;
  bool a_card = e.card >= 0 && e.card < g.card_count;
  std::string card = sees ? named(told_name(g, e.card, viewer), units) : g.counted(1, a_card ? g.card_kind[e.card] : -1);
  switch (e.kind) {
    case Event::shuffle: return fmt::format("{} is shuffled", g.place_name(e.from, units));
    case Event::move: return fmt::format("{} moves from {} to {}", card, g.place_name(e.from, units), g.place_name(e.to, units));
    case Event::flip: return fmt::format("{} is turned face {} in {}", card, e.to ? "up" : "down", g.place_name(e.from, units));
    case Event::reveal: return fmt::format("{} is revealed in {}", card, g.place_name(e.from, units));
    case Event::look:
      if (viewer == e.player) return fmt::format("you look at {} in {}", card, g.place_name(e.from, units));
      return fmt::format("{} looks at {} in {}", seat_name(e.player), g.counted(1, a_card ? g.card_kind[e.card] : -1), g.place_name(e.from, units));
    case Event::eliminate: return fmt::format("{} is eliminated", seat_name(e.player));
    case Event::phase: return fmt::format("— {} —", g.phases.at(e.player));
    case Event::pick:
      return fmt::format("{} {} {} from {}", viewer == e.player ? "you" : seat_name(e.player), viewer == e.player ? "draw" : "draws",
                         card, g.place_name(e.from, units));
    case Event::say:
      if (e.player < 0 || viewer == e.player) return said_text(g, e, viewer, units);
      if (viewer < 0) return fmt::format("to {}: {}", seat_name(e.player), said_text(g, e, viewer, units));
      return {};
    case Event::decision:
    case Event::win:
    case Event::over:
    case Event::done:
    case Event::quiet: return {};
  }
  return {};
}

// "4, 9 and 12"
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// The cards of one zone of a grouped line.
struct Part {
  int zone;
  size_t count = 0;
  std::vector<std::string> seen;
  int kind = -2;  // the kind of all its cards, -1 if several (Game::counted)
  void add(const Game& g, int card) {
    int k = card >= 0 && card < g.card_count ? g.card_kind[card] : -1;
    kind = kind == -2 || kind == k ? k : -1;
    ++count;
  }
};

// The kind of all the cards of a run of events, or -1.
int run_kind(const Game& g, const std::vector<Event>& run) {
  return g.kind_of_all(run, [&](const Event& e) { return e.card >= 0 && e.card < g.card_count ? g.card_kind[e.card] : -1; });
}

// "4, 9 and a card": the cards the viewer saw by name, the others counted ("2 cards"), so
// that a number is always a card's name (cards are often named by numbers).
// "3, 10 and 2 unseen cards": said "unseen" only beside cards named, so that the count
// does not read as more of them.
std::string content(const Game& g, const Part& p) {
  std::vector<std::string> items = p.seen;
  size_t hidden = p.count - p.seen.size();
  int kind = std::max(p.kind, -1);
  if (hidden && p.seen.empty()) items.push_back(g.counted(hidden, kind));
  else if (hidden) items.push_back(hidden == 1 ? "an unseen " + g.noun(kind, false) : fmt::format("{} unseen {}", hidden, g.noun(kind, true)));
  return listed(items);
}

// A run of moves that all leave one zone (`same_from`) or all enter one: "4 cards move
// from deck: 3 to P1.hand; to P2.hand a card; ..." reads badly when cards are numbers, so
// each zone is followed by what it got: "4 cards move from deck — to P1.hand: 3; to
// P2.hand: a card; to pile: 10" ("6 tiles move to field — from bag1: ...; from bag2: ...":
// the other zones are where they came from).
std::string describe_run(const Game& g, const std::vector<Event>& run, bool same_from, int viewer, bool units) {
  std::vector<Part> parts;
  for (const Event& e : run) {
    int other = same_from ? e.to : e.from;
    auto it = std::find_if(parts.begin(), parts.end(), [&](const Part& p) { return p.zone == other; });
    if (it == parts.end()) it = parts.insert(parts.end(), Part{other, 0, {}});
    it->add(g, e.card);
    if (viewer < 0 || ((e.seen_by >> viewer) & 1u)) it->seen.push_back(named(told_name(g, e.card, viewer), units));
  }
  int here = same_from ? run.front().from : run.front().to;
  if (parts.size() == 1) {
    const Part& p = parts.front();
    return fmt::format("{} move from {} to {}: {}", g.counted(p.count, std::max(p.kind, -1)), g.place_name(same_from ? here : p.zone, units),
                       g.place_name(same_from ? p.zone : here, units), content(g, p));
  }
  std::string joined;
  for (const Part& p : parts)
    joined += fmt::format("{}{} {}: {}", joined.empty() ? "" : "; ", same_from ? "to" : "from", g.place_name(p.zone, units), content(g, p));
  return fmt::format("{} move {} {} — {}", g.counted(run.size(), run_kind(g, run)), same_from ? "from" : "to", g.place_name(here, units), joined);
}

// Whether the event happens in a zone that screens leave out (`show: false`): bookkeeping,
// whose moves and shuffles the page does not tell either (the rule file says what matters).
bool unshown(const Game& g, const Event& e) {
  auto never = [&](int instance) {
    return instance >= 0 && instance < static_cast<int>(g.instance_zone.size()) &&
           g.zones[g.instance_zone[instance]].show == Show::never;
  };
  switch (e.kind) {
    case Event::move: return never(e.from) || never(e.to);
    case Event::shuffle:
    case Event::flip:
    case Event::reveal:
    case Event::look:
    case Event::pick: return never(e.from);
    case Event::eliminate:
    case Event::phase:
    case Event::say:
    case Event::decision:
    case Event::win:
    case Event::over:
    case Event::done:
    case Event::quiet: return false;
  }
  return false;
}

bool sees(const Event& e, int viewer) { return viewer < 0 || ((e.seen_by >> viewer) & 1u); }

// The cards a message (`say`) names to `viewer` by name: those it saw when it was said.
std::vector<int32_t> named_cards(const Game& g, const Event& e, int viewer) {
  std::vector<int32_t> named;
  const Message& m = g.program.messages.at(e.from);
  for (size_t v = 0; v < e.said.size() && v < m.types.size(); ++v)
    if (m.types[v] == Type::card && !e.said[v].failed &&
        (viewer < 0 || ((e.said[v].seen_by >> viewer) & 1u)))
      named.push_back(static_cast<int32_t>(e.said[v].value));
  return named;
}

bool told_to(const Event& e, int viewer) {
  return e.kind == Event::say && (viewer < 0 || e.player < 0 || e.player == viewer);
}

// The events a message may tell of a card: its moves, its turns and looks at it.
bool of_a_card(const Event& e) {
  return e.kind == Event::move || e.kind == Event::flip || e.kind == Event::look;
}

bool names(const std::vector<int32_t>& named, const Event& e) {
  return std::find(named.begin(), named.end(), e.card) != named.end();
}

// Told once (docs/language.md, "A decision told once"): a message (`say`) of a decision's
// effect that `viewer` is told is what it is told of the decision, so it is not told again
// the decision's notation ("P1 chose: ...", the decision's own event), nor a move, turn or
// look of that effect whose card it does not see ("a card moves from P2.hand to ..."), nor one of a
// card the message names to it by name. Only what the viewer is shown decides it: whether
// it is told a message, which cards it sees move and which the message names to it; never
// a card's identity it cannot see. Sets `out` for each event left out; returns where the
// effect ends.
size_t told_decision(const Game& g, const std::vector<Event>& events, size_t i, int viewer,
                     std::vector<bool>& out) {
  size_t end = i + 1;
  while (end < events.size() && events[end].kind != Event::done &&
         events[end].kind != Event::decision)
    ++end;
  bool said = false;
  std::vector<int32_t> named;
  for (size_t k = i + 1; k < end; ++k) {
    if (!told_to(events[k], viewer)) continue;
    said = true;
    std::vector<int32_t> more = named_cards(g, events[k], viewer);
    named.insert(named.end(), more.begin(), more.end());
  }
  if (!said) return end;
  out[i] = true;
  for (size_t k = i + 1; k < end; ++k)
    if (of_a_card(events[k]) && (!sees(events[k], viewer) || names(named, events[k])))
      out[k] = true;
  return end;
}

// A message of the flow (said outside any decision's effect) tells the next move, turn or
// look of each card it names to `viewer` by name, up to the next message, decision or phase: that
// event is left out. Only a move the viewer sees is matched, by the card's identity it knows.
void told_by_flow(const Game& g, const std::vector<Event>& events, size_t i, int viewer,
                  std::vector<bool>& out) {
  std::vector<int32_t> named = named_cards(g, events[i], viewer);
  for (size_t k = i + 1; k < events.size() && !named.empty(); ++k) {
    const Event& e = events[k];
    if (e.kind == Event::say || e.kind == Event::decision || e.kind == Event::phase) break;
    if (!of_a_card(e) || !sees(e, viewer) || !names(named, e)) continue;
    out[k] = true;
    named.erase(std::find(named.begin(), named.end(), e.card));
  }
}

// True for each event told already: by a message of its decision's effect, or by one of
// the flow.
std::vector<bool> told_before(const Game& g, const std::vector<Event>& events, int viewer) {
  std::vector<bool> out(events.size());
  for (size_t i = 0; i < events.size();) {
    if (events[i].kind == Event::decision) {
      i = told_decision(g, events, i, viewer, out);
      continue;
    }
    if (told_to(events[i], viewer)) told_by_flow(g, events, i, viewer, out);
    ++i;
  }
  return out;
}

std::vector<std::string> describe_events(const Game& g, const std::vector<Event>& all, int viewer, bool units) {
  std::vector<Event> events;
  std::vector<bool> told = told_before(g, all, viewer);
  // The calls of `show: false` procedures: their events are bookkeeping, but a message is
  // told. A call that asks a decision is quiet up to it (the events go in one batch).
  int quiet = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].kind == Event::quiet) quiet = std::max(0, quiet + (all[i].to ? 1 : -1));
    else if (!unshown(g, all[i]) && !told[i] && (quiet == 0 || all[i].kind == Event::say)) events.push_back(all[i]);
  }
  std::vector<std::string> out;
  // Each line kata words is a sentence: "The deck is shuffled" where a zone's label starts
  // it, "A card moves ...". A message is as the rule file writes it.
  auto sentence = [&](std::string line, const Event& e) {
    if (e.kind != Event::say && !line.empty() && line[0] >= 'a' && line[0] <= 'z')
      line[0] = static_cast<char>(line[0] - 'a' + 'A');
    out.push_back(std::move(line));
  };
  for (size_t i = 0; i < events.size();) {
    const Event& e = events[i];
    size_t j = i + 1;
    bool same_from = true;
    if (e.kind == Event::move && j < events.size() && events[j].kind == Event::move) {
      same_from = events[j].from == e.from;
      bool same_to = events[j].to == e.to;
      if (same_from || same_to)
        while (j < events.size() && events[j].kind == Event::move &&
               (same_from ? events[j].from == e.from : events[j].to == e.to))
          ++j;
    }
    // Cards turned the same way or revealed one after another in one zone: one line too.
    if ((e.kind == Event::flip || e.kind == Event::reveal) && j < events.size())
      while (j < events.size() && events[j].kind == e.kind && events[j].from == e.from && (e.kind != Event::flip || events[j].to == e.to)) ++j;
    if (j - i > 1 && e.kind != Event::move) {
      Part p{e.from, 0, {}};
      for (size_t k = i; k < j; ++k) {
        p.add(g, events[k].card);
        if (viewer < 0 || ((events[k].seen_by >> viewer) & 1u)) p.seen.push_back(named(told_name(g, events[k].card, viewer), units));
      }
      sentence(fmt::format("{} {} in {}: {}", g.counted(p.count, std::max(p.kind, -1)), e.kind != Event::flip ? "are revealed" : e.to ? "are turned face up" : "are turned face down",
                           g.place_name(e.from, units), content(g, p)), e);
    } else if (j - i > 1) {
      sentence(describe_run(g, std::vector<Event>(events.begin() + static_cast<long>(i), events.begin() + static_cast<long>(j)), same_from, viewer, units), e);
    } else if (std::string line = describe_event(g, e, viewer, units); !line.empty()) {
      sentence(std::move(line), e);
    }
    i = j;
  }
  return out;
}

}  // namespace

std::string describe_event(const Game& g, const Event& e, int viewer) { return describe_event(g, e, viewer, false); }

std::vector<std::string> describe_events(const Game& g, const std::vector<Event>& events, int viewer) {
  return describe_events(g, events, viewer, false);
}

std::vector<std::string> screen_events(const Game& g, const std::vector<Event>& events, int viewer) {
  return describe_events(g, events, viewer, true);
}

std::string last_message_to(const Game& g, const std::vector<Event>& events, int viewer) {
  for (auto e = events.rbegin(); e != events.rend(); ++e)
    if (e->kind == Event::say && e->player == viewer && viewer >= 0) return said_text(g, *e, viewer, true);
  return {};
}

bool told_by_message(const Game& g, const std::vector<Event>& events, int viewer) {
  auto d = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == Event::decision; });
  return d != events.end() && told_before(g, events, viewer)[static_cast<size_t>(d - events.begin())];
}

std::string option_text(const Game& g, size_t option, int64_t value) {
  const OptionInfo& o = g.options.at(option);
  if (o.is_bool) return value ? "true" : "false";
  return g.symbol_name(value);
}

LogHeader make_header(const Game& g, int players, uint64_t seed, const std::vector<int64_t>& options,
                      const std::vector<std::string>& agents) {
  LogHeader h;
  h.rules = g.path;
  h.sha256 = sha256_hex(g.text);
  h.game = g.name;
  h.players = players;
  h.seed = seed;
  for (size_t i = 0; i < g.options.size(); ++i) h.options.emplace_back(g.options[i].name, option_text(g, i, options[i]));
  h.agents = agents;
  return h;
}

// A string that is not UTF-8 (a rule file's path, a script's name) is written with each
// bad byte as U+FFFD (docs/log-format.md): JSON holds only UTF-8, and a log is still written.
void LogWriter::line(const nlohmann::json& j) {
  std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (held_) kept_ += text + '\n';
  else out_ << text << '\n';
}

void LogWriter::flush() {
  out_ << kept_ << std::flush;
  kept_.clear();
  held_ = false;
}

void LogWriter::header(const LogHeader& h) {
  nlohmann::json opts = nlohmann::json::object();
  for (auto& [k, v] : h.options) opts[k] = v;
  line({{"type", "header"}, {"kata", KATA_VERSION}, {"rules", h.rules}, {"sha256", h.sha256}, {"game", h.game},
        {"players", h.players}, {"seed", h.seed}, {"options", opts}, {"agents", h.agents}, {"forced", h.forced}});
}

void LogWriter::events(const Game& g, const std::vector<Event>& events) {
  for (const Event& e : events) {
    nlohmann::json j = event_json(g, e);
    if (!j.is_null()) line(j);
  }
}

void LogWriter::decision(int number, int player, const std::string& text) {
  line({{"type", "decision"}, {"n", number}, {"player", seat_name(player)}, {"action", text}});
}

void LogWriter::result(const Game& g, const State& s) {
  nlohmann::json sc = nlohmann::json::object();
  auto v = scores(g, s);
  for (size_t p = 0; p < v.size(); ++p) sc[seat_name(static_cast<int>(p))] = v[p];
  std::vector<std::string> w;
  for (int p = 0; p < s.players(); ++p)
    if (winners(s) & (1u << p)) w.push_back(seat_name(p));
  line({{"type", "result"}, {"scores", sc}, {"winners", w}, {"decisions", s.decisions()}});
}

void LogWriter::error(const std::string& message) { line({{"type", "error"}, {"message", message}}); }

void LogWriter::resume(int decisions, const std::string& stopped,
                       const std::vector<std::string>& agents) {
  line({{"type", "resume"}, {"decisions", decisions}, {"stopped", stopped}, {"agents", agents}});
}

namespace {

struct LogLine {
  int number;
  nlohmann::json j;
};

// Log lines nest two levels (the header's options); comparing and printing JSON recurse,
// so a line nested deeper than this is refused before it is parsed.
constexpr int max_json_depth = 32;

// How deeply `text`'s arrays and objects nest (brackets inside strings do not count).
int json_depth(const std::string& text) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Each field the replay reads has one JSON type: anything else is a malformed log, reported
// at its line, never a nlohmann exception.
template <typename T>
bool has_type(const nlohmann::json& j) {
  if constexpr (std::is_same_v<T, std::string>) {
    return j.is_string();
  } else if constexpr (std::is_same_v<T, bool>) {
    return j.is_boolean();
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return j.is_number_unsigned();
  } else if constexpr (std::is_same_v<T, int>) {
    if (j.is_number_unsigned()) return j.get<uint64_t>() <= static_cast<uint64_t>(INT32_MAX);
    return j.is_number_integer() && j.get<int64_t>() >= INT32_MIN && j.get<int64_t>() <= INT32_MAX;
  } else {
    static_assert(std::is_same_v<T, std::vector<std::string>>);
    return j.is_array() && std::all_of(j.begin(), j.end(), [](const nlohmann::json& x) { return x.is_string(); });
  }
}

template <typename T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::string>) return "a string";
  else if constexpr (std::is_same_v<T, bool>) return "true or false";
  else if constexpr (std::is_same_v<T, uint64_t>) return "a number from 0 to 2^64-1";
  else if constexpr (std::is_same_v<T, int>) return "a whole number";
  else return "an array of strings";
}

}  // namespace

LogText read_log(const std::string& path) {
  LogText log;
  std::string text;
  if (!read_source(path, text, log.error, max_log_size)) {
    if (log.error.find("larger than") != std::string::npos)
      log.error = fmt::format("the log is larger than {} MiB", max_log_size >> 20);
    else if (log.error.rfind("cannot read", 0) == 0)
      log.error = "cannot read the log";
    return log;
  }
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    if (end - start > max_log_line) {
      log.error = fmt::format("a line longer than {} MiB", max_log_line >> 20);
      log.error_line = static_cast<int>(log.lines.size()) + 1;
      log.lines.clear();
      return log;
    }
    log.lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return log;
}

namespace {

class Replayer {
 public:
  Replayer(std::string path, int viewer, Refusal refusal)
      : path_(std::move(path)), viewer_(viewer), refusal_(refusal) {}

  // Every message of a replay is made here. It may quote the log, whose strings (JSON
  // escapes) can hold terminal controls: it is kept printable.
  bool fail(int line, const std::string& message) {
    result_.error = printable(fmt::format("{}:{}: {}", path_, line, message));
    return false;
  }

  bool read() {
    LogText log = read_log(path_);
    if (!log.error.empty()) return fail(log.error_line, log.error);
    for (int n = 1; n <= static_cast<int>(log.lines.size()); ++n) {
      const std::string& text = log.lines[n - 1];
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
      if (json_depth(text) > max_json_depth)
        return fail(n, fmt::format("not a log line (JSON nested deeper than {} levels)", max_json_depth));
      auto j = nlohmann::json::parse(text, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string())
        return fail(n, "not a log line (expected a JSON object with a \"type\")");
      lines_.push_back({n, std::move(j)});
    }
    if (lines_.empty() || lines_[0].j["type"] != "header") return fail(1, "the log does not start with a header");
    return true;
  }

  template <typename T>
  bool field(const LogLine& l, const char* key, T& out) {
    auto it = l.j.find(key);
    if (it == l.j.end()) return fail(l.number, fmt::format("\"{}\" is missing", key));
    if (!has_type<T>(*it)) return fail(l.number, fmt::format("\"{}\" must be {}", key, type_name<T>()));
    out = it->get<T>();
    return true;
  }

  // A field that may be left out, keeping `out` as it is.
  template <typename T>
  bool optional_field(const LogLine& l, const char* key, T& out) {
    return !l.j.contains(key) || field(l, key, out);
  }

  // With a seat as viewer the log's lines are not quoted: they may name cards that seat
  // could not see.
  bool private_view() const { return viewer_ >= 0; }

  bool run(std::shared_ptr<Sources>& sources, Diagnostics& diags) {
    const LogLine& h = lines_[0];
    std::string rules, sha;
    int players = 0;
    uint64_t seed = 0;
    if (!field(h, "rules", rules) || !field(h, "sha256", sha) || !field(h, "players", players) || !field(h, "seed", seed) ||
        !optional_field(h, "forced", forced_))
      return false;
    if (h.j.contains("options") && !h.j["options"].is_object())
      return fail(h.number, "\"options\" must be an object (option name -> value as a string)");
    result_.players = players;
    result_.seed = seed;
    result_.forced = forced_;
    // Not checked (see docs/log-format.md): only `kata play --resume` reads them.
    if (auto a = h.j.find("agents"); a != h.j.end() && has_type<std::vector<std::string>>(*a))
      result_.agents = a->get<std::vector<std::string>>();
    result_.agents_since.assign(result_.agents.size(), 0);
    if (viewer_ != -1 && (viewer_ < 0 || viewer_ >= players)) {
      result_.bad_viewer = true;
      return false;
    }
    std::string resolved = rules;
    std::error_code ec;
    if (!std::filesystem::exists(resolved, ec)) {
      auto beside = std::filesystem::path(path_).parent_path() / std::filesystem::path(rules).filename();
      if (std::filesystem::exists(beside, ec)) resolved = beside.string();
    }
    // The path is the log's: whoever wrote the log chose it, so it is said to come from there.
    std::string text, why;
    if (!read_source(resolved, text, why)) return fail(h.number, fmt::format("the rule file named by the log: {}", why));
    game_ = load_game_text(resolved, text, sources, diags);
    if (!game_) return fail(h.number, fmt::format("the rule file '{}' named by the log does not load", resolved));
    const Game& g = *game_;
    result_.game = game_;
    if (sha256_hex(g.text) != sha)
      return fail(h.number, fmt::format("'{}' is not the rule file this log was made with (SHA-256 differs)", resolved));
    auto options = default_options(g);
    if (h.j.contains("options") && h.j["options"].is_object())
      for (auto& [k, v] : h.j["options"].items()) {
        std::string why;
        if (!v.is_string()) return fail(h.number, fmt::format("the option \"{}\" must be a string", k));
        if (!set_option(g, options, k, v.get<std::string>(), why)) return fail(h.number, why);
      }
    if (std::string why = setup_error(g, players, options); !why.empty()) return fail(h.number, why);
    result_.options = options;
    // Shuffles and blind picks are drawn from the seed and checked against the log; a log
    // made with fixed outcomes instead supplies them.
    if (forced_) {
      for (auto& l : lines_)
        if (l.j["type"] == "pick") {
          std::string n;
          if (!field(l, "card", n)) return false;
          auto card = std::find(g.card_names.begin(), g.card_names.end(), n);
          if (card == g.card_names.end())
            return fail(l.number, private_view() ? "the pick names a card the game does not have"
                                                 : fmt::format("the pick names '{}', which is not a card of the game", n));
          forced_picks_.push_back(static_cast<int32_t>(card - g.card_names.begin()));
          pick_lines_.push_back(l.number);
        } else if (l.j["type"] == "shuffle") {
          std::vector<std::string> names;
          if (!field(l, "order", names)) return false;
          std::vector<int32_t> ids;
          for (auto& n : names) {
            auto card = std::find(g.card_names.begin(), g.card_names.end(), n);
            if (card == g.card_names.end())
              return fail(l.number, private_view() ? "the shuffle names a card the game does not have"
                                                   : fmt::format("the shuffle names '{}', which is not a card of the game", n));
            ids.push_back(static_cast<int32_t>(card - g.card_names.begin()));
          }
          forced_shuffles_.push_back(std::move(ids));
          forced_lines_.push_back(l.number);
        }
    }
    hooks_.events = &events_;
    hooks_.forced_shuffles = forced_ ? &forced_shuffles_ : nullptr;
    hooks_.forced_picks = forced_ ? &forced_picks_ : nullptr;
    next_ = 1;
    try {
      result_.final = new_game(g, players, seed, options, &hooks_);
      if (!check_events()) return false;
      while (!result_.final.over()) {
        if (!skip_resumes()) return false;
        if (at_stop()) return stop();
        if (!decide()) return false;
        if (!check_events()) return false;
      }
    } catch (const ForcedOrderError& e) {
      // The shuffle line just taken (the machine checks an order before using it).
      size_t taken = forced_lines_.size() - forced_shuffles_.size();
      int line = taken > 0 ? forced_lines_[taken - 1] : h.number;
      return fail(line, private_view() ? "the shuffle's order is not the zone's cards, each once"
                                       : fmt::format("the shuffle's order cannot be used: {}", e.what()));
    } catch (const ForcedPickError& e) {
      // The pick line just taken.
      size_t taken = pick_lines_.size() - forced_picks_.size();
      int line = taken > 0 ? pick_lines_[taken - 1] : h.number;
      return fail(line, private_view() ? "the pick is not a card the decision could draw"
                                       : fmt::format("the pick cannot be used: {}", e.what()));
    } catch (const RuntimeError& e) {
      // A runtime error's message may hold values the viewer could not see.
      return fail(next_ < lines_.size() ? lines_[next_].number : lines_.back().number,
                  private_view() ? "the game stopped with a runtime error (replay without --as to see it)"
                                 : fmt::format("the game stopped: {}", e.what()));
    }
    return check_result();
  }

  // Compares the chance outcomes just produced with the log's next lines.
  bool check_events() {
    const Game& g = *game_;
    for (std::string& line : screen_events(g, events_, viewer_)) result_.shown.push_back(std::move(line));
    for (const Event& e : events_) {
      if (e.kind == Event::decision) continue;
      nlohmann::json j = event_json(g, e);
      if (j.is_null()) continue;
      while (next_ < lines_.size() && lines_[next_].j["type"] == "error") ++next_;
      if (next_ >= lines_.size()) return fail(lines_.back().number, "the log ends before the game does");
      if (lines_[next_].j != j) return fail(lines_[next_].number, divergence(lines_[next_].j, j));
      ++next_;
    }
    events_.clear();
    return true;
  }

  std::string divergence(const nlohmann::json& logged, const nlohmann::json& replayed) const {
    if (!private_view())
      return fmt::format("the game diverges: the log says {} but the replay gives {}", logged.dump(), replayed.dump());
    return fmt::format("the game diverges: the log's {} line differs from the replay's {} event (not shown: it may name "
                       "cards {} could not see)",
                       logged["type"].dump(), replayed["type"].dump(), seat_name(viewer_));
  }

  // `resume` lines stand where a decision was awaited: from there on, their agents played.
  bool skip_resumes() {
    for (; next_ < lines_.size() && lines_[next_].j["type"] == "resume"; ++next_) {
      std::vector<std::string> agents;
      if (!field(lines_[next_], "agents", agents)) return false;
      result_.agents_since.resize(agents.size(), 0);
      for (size_t seat = 0; seat < agents.size(); ++seat)
        if (seat >= result_.agents.size() || agents[seat] != result_.agents[seat])
          result_.agents_since[seat] = result_.decisions;
      result_.agents = std::move(agents);
    }
    return true;
  }

  // Only `error` lines are left where a decision is awaited: a player stopped the game.
  bool at_stop() const {
    size_t i = next_;
    while (i < lines_.size() && lines_[i].j["type"] == "error") ++i;
    return i == lines_.size() && i > next_;
  }

  bool stop() {
    const Game& g = *game_;
    const State& s = result_.final;
    // A game that cannot go on here (no legal decision) stopped with a runtime error.
    std::vector<Decision> legal;
    legal_decisions(g, s, legal);
    const LogLine& l = lines_[next_];
    std::string message;
    if (!field(l, "message", message)) return false;
    std::string seat = seat_name(s.chooser());
    bool plain =
        message.rfind(seat + " (", 0) == 0 && message.ends_with(") stopped before the end");
    // Printed as the replay's verdict: kept printable, as fail's messages are.
    result_.stop_reason =
        viewer_ < 0 || viewer_ == s.chooser() || plain
            ? printable(message)
            : fmt::format("{} stopped before the end (replay without --as for the reason)", seat);
    result_.stop_line = l.number;
    result_.stopped = true;
    result_.ok = true;
    return true;
  }

  bool decide() {
    const Game& g = *game_;
    State& s = result_.final;
    if (next_ >= lines_.size()) return fail(lines_.back().number, "the log ends before the game does");
    const LogLine& l = lines_[next_];
    if (l.j["type"] != "decision")
      return fail(l.number, fmt::format("the game waits for a decision by {}, but the log has a {} here", seat_name(s.chooser()), l.j["type"].dump()));
    std::string player, action;
    int number = 0;
    if (!field(l, "n", number) || !field(l, "player", player) || !field(l, "action", action)) return false;
    // The number ties each line to its place: decisions moved about are caught even where
    // they leave no other trace.
    if (number != s.decisions() + 1)
      return fail(l.number, fmt::format("this is decision {} of the game, but the log numbers it {}", s.decisions() + 1, number));
    if (player != seat_name(s.chooser()))
      return fail(l.number, fmt::format("the log has {} deciding, but it is {}'s decision", player, seat_name(s.chooser())));
    // The choice is listed as when the game was played: one that cannot be (too many
    // decisions, none, limits.steps run out) stops the game here, whatever the log says.
    legal_decisions(g, s, legal_);
    std::string why;
    auto d = parse_decision(g, s, action, why);
    if (!d && private_view()) return fail(l.number, fmt::format("{}'s logged decision is not legal here", player));
    if (!d && refusal_) why = refusal_(g, s, action);
    if (!d) return fail(l.number, fmt::format("{}'s decision '{}' is not legal: {}", player, action, why));
    // Shown as the viewer may be told of it (card_text), unless a message of its effect
    // tells it (told_by_message).
    std::string chose = fmt::format("{} chose: {}", player, viewer_ < 0 ? action : decision_screen_text(g, s, *d, viewer_));
    result_.actions.emplace_back(s.chooser(), action);
    ++next_;
    apply(g, s, *d, &hooks_);
    if (!told_by_message(g, events_, viewer_)) result_.shown.push_back(std::move(chose));
    ++result_.decisions;
    return true;
  }

  bool check_result() {
    const Game& g = *game_;
    while (next_ < lines_.size() && lines_[next_].j["type"] != "result") {
      if (lines_[next_].j["type"] != "error") return fail(lines_[next_].number, "the game is over but the log goes on");
      ++next_;
    }
    if (next_ >= lines_.size()) return fail(lines_.back().number, "the log has no result line");
    std::ostringstream expect;
    LogWriter(expect).result(g, result_.final);
    auto j = nlohmann::json::parse(expect.str());
    if (lines_[next_].j != j && private_view()) return fail(lines_[next_].number, "the result differs from the replay's");
    if (lines_[next_].j != j)
      return fail(lines_[next_].number, fmt::format("the result differs: the log says {} but the replay gives {}", lines_[next_].j.dump(), j.dump()));
    result_.ok = true;
    return true;
  }

  ReplayResult result_;

 private:
  std::string path_;
  int viewer_;
  Refusal refusal_;
  std::vector<LogLine> lines_;
  std::shared_ptr<const Game> game_;
  std::vector<Event> events_;
  std::vector<Decision> legal_;  // the choice of the decision being read
  std::deque<std::vector<int32_t>> forced_shuffles_;
  std::vector<int> forced_lines_;  // the log line of each forced shuffle, in order
  std::deque<int32_t> forced_picks_;
  std::vector<int> pick_lines_;  // the log line of each forced pick, in order
  Hooks hooks_;
  bool forced_ = false;
  size_t next_ = 1;
};

}  // namespace

ReplayResult replay_log(const std::string& path, int viewer, std::shared_ptr<Sources>& sources,
                        Diagnostics& diags, Refusal refusal) {
  Replayer r(path, viewer, refusal);
  if (r.read()) r.run(sources, diags);
  return std::move(r.result_);
}

}  // namespace kata
