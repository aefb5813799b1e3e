// Short forms: each label is read back into its values (label_parts), each value gets the
// forms it may be typed in, and the typed words are split among the values every way they
// can be. Interchangeable decisions are told apart by menu_items, the human's menu.
#include "agents/typed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

namespace kata {

namespace {

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (char c : text + ' ') {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      w += c;
    } else if (!w.empty()) {
      out.push_back(w);
      w.clear();
    }
  }
  return out;
}


// The words from `from` on, as typed, one space between them: a value of several words.
std::string words_from(const std::vector<std::string>& w, size_t from) {
  std::string out;
  for (size_t i = from; i < w.size(); ++i) out += (i > from ? " " : "") + w[i];
  return out;
}

// The words of `text` after `prefix`, squashed; nothing when it does not begin with
// `prefix` or has nothing after it.
std::optional<std::string> without(const std::string& text,
                                   const std::vector<std::string>& prefix) {
  std::vector<std::string> w = words(text);
  if (w.size() <= prefix.size() || !std::equal(prefix.begin(), prefix.end(), w.begin()))
    return std::nullopt;
  std::string out;
  for (size_t i = prefix.size(); i < w.size(); ++i) out += squashed(w[i]);
  return out;
}

// The words all of an action's k-th values begin with, leaving each at least one.
using Prefixes = std::map<std::pair<std::string, size_t>, std::vector<std::string>>;

Prefixes common_prefixes(const std::vector<std::optional<std::vector<std::string>>>& parts) {
  Prefixes out;
  std::set<std::pair<std::string, size_t>> seen;
  for (const auto& p : parts) {
    if (!p) continue;
    for (size_t k = 1; k < p->size(); ++k) {
      std::vector<std::string> w = words((*p)[k]);
      if (!w.empty()) w.pop_back();
      auto key = std::make_pair((*p)[0], k);
      if (seen.insert(key).second) {
        out[key] = w;
        continue;
      }
      std::vector<std::string>& common = out[key];
      size_t n = 0;
      while (n < common.size() && n < w.size() && common[n] == w[n]) ++n;
      common.resize(n);
    }
  }
  return out;
}

// Whether typed[at..] splits into consecutive runs of words, the k-th run squashed one of
// forms[k].
bool fits(const std::vector<std::string>& typed, size_t at,
          const std::vector<std::set<std::string>>& forms, size_t k) {
  if (k == forms.size()) return at == typed.size();
  std::string run;
  for (size_t end = at; end < typed.size(); ++end) {
    run += squashed(typed[end]);
    if (forms[k].count(run) && fits(typed, end + 1, forms, k + 1)) return true;
  }
  return false;
}

// "X", "X or Y", "X, Y or Z".
std::string either(const std::vector<std::string>& texts) {
  std::string out;
  for (size_t i = 0; i < texts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == texts.size() ? " or " : ", ") + texts[i];
  return out;
}

// A blind pick's value, "a card from P2.hand" (card_text), may be typed as its set's name
// or, when the set is a player's, as that player: "p2.hand", "p2".
std::vector<std::string> blind_forms(const Game& g, const std::string& value) {
  const std::string lead = "a card from ";
  if (value.rfind(lead, 0) != 0) return {};
  std::string set = value.substr(lead.size());
  for (size_t z = 0; z < g.instance_zone.size(); ++z)
    if (g.instance_set[z] && g.instance_name(static_cast<int>(z)) == set) {
      std::vector<std::string> out{squashed(set)};
      if (g.instance_owner[z] >= 0) out.push_back(squashed(seat_name(g.instance_owner[z])));
      return out;
    }
  return {};
}

// The forms each value of a label may be typed in (see short_form).
std::vector<std::set<std::string>> value_forms(const Game& g, const std::vector<std::string>& parts,
                                               Prefixes& prefixes,
                                               const std::unordered_map<std::string, int>& cards) {
  std::vector<std::set<std::string>> forms;
  for (size_t k = 1; k < parts.size(); ++k) {
    const std::vector<std::string>& prefix = prefixes[{parts[0], k}];
    std::vector<std::string> names{parts[k]};
    // Only a card the label names is one the chooser sees.
    if (auto c = cards.find(parts[k]); c != cards.end())
      names.push_back(g.card_plain_names[c->second]);
    std::set<std::string> f;
    for (const std::string& name : names) {
      f.insert(squashed(name));
      if (auto w = without(name, prefix)) f.insert(*w);
    }
    for (const std::string& blind : blind_forms(g, parts[k])) f.insert(blind);
    // A hidden card's place ("North.side(P3)#1") also by its number alone ("#1"),
    // read as the one place with it that the rest of what is typed leaves.
    if (size_t hash = parts[k].rfind('#'); hash != std::string::npos && hash > 0 && hash + 1 < parts[k].size() &&
                                            parts[k].find_first_not_of("0123456789", hash + 1) == std::string::npos)
      f.insert(parts[k].substr(hash));
    forms.push_back(std::move(f));
  }
  return forms;
}

// How many values typed[at..] reads as forms[k..] at best, and the word it stops at.
size_t reach(const std::vector<std::string>& typed, size_t at,
             const std::vector<std::set<std::string>>& forms, size_t k, size_t& stop) {
  stop = at;
  if (k == forms.size()) return k;
  size_t best = k;
  std::string run;
  for (size_t end = at; end < typed.size(); ++end) {
    run += squashed(typed[end]);
    size_t there = 0;
    if (size_t r = forms[k].count(run) ? reach(typed, end + 1, forms, k + 1, there) : 0; r > best) {
      best = r;
      stop = there;
    }
  }
  return best;
}

// The text read in short against the labels: the labels it names, and otherwise how far
// it goes (the values read at best, the word it stops at, the choices there).
struct Reading {
  std::vector<std::string> typed;
  std::vector<int> matched;
  const Action* action = nullptr;
  size_t depth = 0, stop = 0;
  std::vector<int> reached;  // the labels read as far as `depth`, when it is not their end
};

Reading read_short(const Game& g, const std::vector<std::string>& labels, const std::string& text) {
  Reading r;
  r.typed = words(text);
  if (r.typed.empty()) return r;
  for (const Action& a : g.program.actions)
    if (squashed(a.name) == squashed(r.typed[0])) r.action = &a;
  std::vector<std::optional<std::vector<std::string>>> parts;
  for (const std::string& label : labels) parts.push_back(label_parts(g, label));
  Prefixes prefixes = common_prefixes(parts);
  std::unordered_map<std::string, int> cards;
  for (int c = 0; c < g.card_count; ++c) cards.emplace(g.card_names[c], c);
  for (size_t i = 0; i < labels.size(); ++i) {
    const auto& p = parts[i];
    if (!p || squashed((*p)[0]) != squashed(r.typed[0])) continue;
    std::vector<std::set<std::string>> forms = value_forms(g, *p, prefixes, cards);
    if (fits(r.typed, 1, forms, 0)) r.matched.push_back(static_cast<int>(i));
    size_t stop = 0, depth = reach(r.typed, 1, forms, 0, stop);
    if (depth > r.depth) {
      r.depth = depth;
      r.stop = stop;
      r.reached.clear();
    }
    if (depth == r.depth && depth < forms.size()) r.reached.push_back(static_cast<int>(i));
  }
  return r;
}

// The forms a card the chooser sees may be typed in without the labels' help: its name and
// its plain name, each also without its owner's seat ("guard" for "P1 Guard").
std::vector<std::string> card_forms(const Game& g, int c) {
  std::vector<std::string> out;
  std::string seat = g.card_owner[c] >= 0 ? seat_name(g.card_owner[c]) + " " : "";
  for (const std::string& name : {g.card_names[c], g.card_plain_names[c]}) {
    out.push_back(squashed(name));
    if (!seat.empty() && name.rfind(seat, 0) == 0) out.push_back(squashed(name.substr(seat.size())));
  }
  return out;
}

// Why the full notation refuses what `typed` names in short, when the short form stopped
// at a value no legal decision has: each run of up to four typed words that names a card
// the chooser sees ("guard", "queen of hearts") is tried as each such card, each word also
// as itself (at most 64 readings), and the first reading the notation reads to the end
// gives its reason: the `when:` refusal in the game's words ("P1 Spy must spy while ...")
// rather than "not a choice". Nothing when no reading gets that far.
std::optional<std::string> full_reason(const Game& g, const State& s, const Reading& r,
                                       std::string* not_a_choice_reading = nullptr) {
  constexpr size_t most_readings = 64, longest_run = 4, most_cards = 4;
  if (r.typed.size() < 2) return std::nullopt;
  std::unordered_map<std::string, std::vector<int>> named;  // a typed form: the cards it names
  for (int c = 0; c < g.card_count; ++c) {
    if (!visible(g, s, s.chooser(), c)) continue;
    for (const std::string& f : card_forms(g, c)) {
      std::vector<int>& cs = named[f];
      if (cs.size() < most_cards && std::find(cs.begin(), cs.end(), c) == cs.end()) cs.push_back(c);
    }
  }
  std::vector<std::pair<std::string, bool>> readings;  // the text; whether a run of words was read as one card
  // Every reading of typed[i..] after `text`, depth first, up to the limit.
  auto read = [&](auto& self, size_t i, const std::string& text, bool joined) -> void {
    if (readings.size() >= most_readings) return;
    if (i == r.typed.size()) {
      readings.emplace_back(text, joined);
      return;
    }
    self(self, i + 1, text + " " + r.typed[i], joined);
    std::string run;
    for (size_t end = i; end < r.typed.size() && end < i + longest_run; ++end) {
      run += squashed(r.typed[end]);
      if (auto it = named.find(run); it != named.end())
        for (int c : it->second)
          if (end > i || g.card_names[c] != r.typed[i]) self(self, end + 1, text + " " + g.card_names[c], joined || end > i);
    }
  };
  read(read, 1, r.typed[0], false);
  for (const auto& [text, joined] : readings) {
    std::string why;
    if (parse_decision(g, s, text, why)) continue;  // legal: the short form would have read it
    if (!why.empty() && why.find("' is not a choice for ") == std::string::npos &&
        why.find("' takes ") == std::string::npos)
      return why;
    // Words read as one card that is no choice ("play queen of hearts", a card not offered
    // now): the caller may say so, rather than count the words.
    if (not_a_choice_reading && not_a_choice_reading->empty() && joined &&
        why.find("' is not a choice for ") != std::string::npos)
      *not_a_choice_reading = text;
  }
  return std::nullopt;
}

// The longest list of values a refusal spells out; beyond it, how many and the first few.
constexpr size_t listed_values = 12, example_values = 6;

// At most this many of the choices an ambiguous word could be are named; "and N more".
constexpr size_t ambiguous_named = 4;

// The values `word` (squashed) begins without being one of them, as a person types the
// start of a name: "guard" for Guard1 and Guard2, "spear" for "P1 Spear" (each
// word of a value may start it).
std::vector<std::string> begun_by(const std::vector<std::string>& values, const std::string& word) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::vector<std::string> w = words(v);
    bool begins = false;
    for (size_t i = 0; i < w.size() && !begins; ++i) {
      std::string rest;
      for (size_t j = i; j < w.size(); ++j) rest += squashed(w[j]);
      if (rest == word) return {};  // the word is a value: not ambiguous
      begins = rest.size() > word.size() && rest.compare(0, word.size(), word) == 0;
    }
    if (begins) out.push_back(v);
  }
  return out;
}

// "ambiguous: 'guard' could be Guard1 or Guard2 (the card you give)"; the
// parameter is named only by its doc, which says what it is for.
std::string ambiguous(const Game& g, const std::string& word, std::vector<std::string> values, const Param& p) {
  size_t more = values.size() > ambiguous_named ? values.size() - ambiguous_named : 0;
  values.resize(values.size() - more);
  std::string list = more ? fmt::format("{} and {} more", fmt::join(values, ", "), more) : either(values);
  return fmt::format("ambiguous: '{}' could be {}{}", word, list,
                     p.doc.empty() ? "" : fmt::format(" ({})", param_words(g, p)));
}

// "'go' takes 2 values: the point of the piece you move, then the point where it lands":
// what a typed decision of `a` is made of, in the order it is typed.
std::string takes(const Game& g, const Action& a) {
  if (a.params.empty()) return fmt::format("'{}' takes no values: type {} alone", a.name, a.name);
  std::vector<std::string> parts;
  for (const Param& p : a.params) parts.push_back(param_words(g, p));
  return fmt::format("'{}' takes {} value{}: {}", a.name, a.params.size(), a.params.size() == 1 ? "" : "s",
                     fmt::join(parts, ", then "));
}

// "'0/0' is not a choice for the tile you play on (choices: North, South)":
// the values of parameter k that the legal decisions `reached` (indices into labels) take,
// as the chooser's menu names them (interchangeable cards once), and the parameter's doc.
// `dead_end`: the notation's reason why the values before k leave no legal decision
// (parse_decision), if it gave one.
// `seen`: a card the chooser sees that parameter k takes in a legal decision, or -1; its
// kind names a parameter without a doc ("a tile").
std::string not_a_choice(const Game& g, const PlayerView& view,
                         const std::vector<std::string>& labels, const Action& a, size_t k,
                         const std::vector<int>& reached, const std::string& word, int seen,
                         const std::string& dead_end = {}) {
  std::vector<MenuItem> items = menu_items(g, view, labels);
  std::vector<int> item_of(labels.size(), -1);
  for (size_t i = 0; i < items.size(); ++i)
    for (int d : items[i].decisions) item_of[d] = static_cast<int>(i);
  std::vector<std::string> values, shown;  // as typed; as read (a hidden card's place in words)
  for (int d : reached) {
    const MenuItem& item = items[item_of[d]];
    if (item.parts.size() > k + 1 &&
        std::find(values.begin(), values.end(), item.parts[k + 1]) == values.end()) {
      values.push_back(item.parts[k + 1]);
      shown.push_back(item.part_text(k + 1));
    }
  }
  // The start of several choices' names: the person meant one of them.
  if (std::vector<std::string> could = begun_by(values, squashed(word)); could.size() > 1)
    return ambiguous(g, word, could, a.params[k]);
  values = shown;
  std::string choices;
  if (values.empty() && k > 0 && !dead_end.empty()) {
    // The values before it leave no legal decision: say which, and why, since "no choice"
    // alone reads as a fault ("no choice: no go is legal with origin 8/-7: 7/-8 holds a
    // piece of yours").
    choices = "no choice: " + dead_end;
  } else if (values.empty() && k > 0) {
    choices = fmt::format("no choice: no {} is legal with the value{} before it", a.name, k == 1 ? "" : "s");
  } else if (values.empty()) {
    choices = fmt::format("no choice: no {} is legal now", a.name);
  } else if (values.size() <= listed_values) {
    choices = "choices: " + fmt::format("{}", fmt::join(values, ", "));
  } else {
    size_t n = values.size();
    values.resize(example_values);
    choices = fmt::format("{} choices, for example: {}", n, fmt::join(values, ", "));
  }
  return fmt::format("'{}' is not a choice for {} ({})", word, param_words(g, a.params[k], seen), choices);
}

// The labels of action `a` whose first k values, in full, begin `text` (normal()).
std::vector<int> begun(const Game& g, const std::vector<std::string>& labels, const Action& a,
                       size_t k, const std::string& text) {
  std::vector<int> out;
  std::string want = normal(text) + " ";
  for (size_t i = 0; i < labels.size(); ++i) {
    auto p = label_parts(g, labels[i]);
    if (!p || (*p)[0] != a.name || p->size() < k + 2) continue;
    std::string start;
    for (size_t j = 0; j <= k; ++j) start += (j ? " " : "") + (*p)[j];
    if (k == 0 ? normal(a.name) == normal(want.substr(0, want.find(' ')))
               : want.rfind(normal(start) + " ", 0) == 0)
      out.push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace

std::optional<int> short_form(const Game& g, const PlayerView& view,
                              const std::vector<std::string>& labels, const std::string& text,
                              std::string& why) {
  Reading r = read_short(g, labels, text);
  const std::vector<std::string>& typed = r.typed;
  const std::vector<int>& matched = r.matched;
  if (matched.empty()) return std::nullopt;

  // Decisions of one item are interchangeable: the first matched is as good as any.
  std::vector<MenuItem> items = menu_items(g, view, labels);
  std::vector<int> item_of(labels.size(), -1);
  for (size_t i = 0; i < items.size(); ++i)
    for (int d : items[i].decisions) item_of[d] = static_cast<int>(i);
  std::vector<std::string> different;
  std::set<int> seen;
  for (int d : matched)
    if (seen.insert(item_of[d]).second) different.push_back(labels[d]);
  if (different.size() == 1) return matched.front();
  std::string said;
  for (const std::string& w : typed) said += (said.empty() ? "" : " ") + w;
  why = fmt::format("ambiguous: '{}' could be {}", said, either(different));
  return std::nullopt;
}

std::optional<std::vector<std::string>> short_start(const std::vector<MenuItem>& items,
                                                    const std::string& text) {
  std::vector<std::string> typed = words(text);
  if (typed.size() < 2) return std::nullopt;
  std::vector<std::optional<std::vector<std::string>>> parts;
  for (const MenuItem& item : items) parts.push_back(item.parts);
  Prefixes prefixes = common_prefixes(parts);
  std::set<std::vector<std::string>> starts;
  for (const MenuItem& item : items) {
    const std::vector<std::string>& p = item.parts;
    if (p.size() < 3 || squashed(p[0]) != squashed(typed[0])) continue;
    std::vector<std::set<std::string>> forms;
    for (size_t n = 1; n + 1 < p.size(); ++n) {
      std::set<std::string> f{squashed(p[n])};
      if (auto w = without(p[n], prefixes[{p[0], n}])) f.insert(*w);
      forms.push_back(std::move(f));
      if (fits(typed, 1, forms, 0))
        starts.insert(std::vector<std::string>(p.begin(), p.begin() + n + 1));
    }
  }
  if (starts.size() != 1) return std::nullopt;
  return *starts.begin();
}

namespace {

// read_decision with the action's name as typed.
std::optional<Decision> read_named(const Game& g, const State& s, const std::string& text,
                                   std::string& why) {
  if (auto d = parse_decision(g, s, text, why)) return d;
  if (s.status() != Status::waiting) return std::nullopt;
  std::vector<Decision> legal;
  legal_decisions(g, s, legal);
  std::vector<std::string> labels;
  for (const Decision& d : legal) labels.push_back(decision_text(g, s, d));
  PlayerView view = make_view(g, s, s.chooser());
  if (auto k = short_form(g, view, labels, text, why)) return legal[*k];
  // The notation in full said "'W' is not a choice for NAME": which parameter, and W.
  Reading r = read_short(g, labels, text);
  // Words that name the cards the chooser sees, read so, may make a decision the rules
  // refuse: their reason, in the game's words ("play queen of hearts" is a play of
  // Queen/hearts, which a `when:` forbids), before any about the words.
  std::string as_card;  // the text with words read as a card that is no choice
  if (r.action && r.matched.empty())
    if (auto reason = full_reason(g, s, r, &as_card)) return why = *reason, std::nullopt;
  if (!as_card.empty() && as_card != text && why.rfind("'" + r.action->name + "' takes ", 0) == 0) {
    std::string reason;
    read_named(g, s, as_card, reason);
    // Of an action of one value, the value is what was typed after its name.
    if (size_t quote = reason.find('\'', 1); r.action->params.size() == 1 && !reason.empty() && reason[0] == '\'' && quote != std::string::npos)
      reason = "'" + words_from(r.typed, 1) + reason.substr(quote);
    if (!reason.empty()) return why = reason, std::nullopt;
  }
  // Too few or too many values, in the notation in full: what they are, in words.
  if (r.action && why.rfind("'" + r.action->name + "' takes ", 0) == 0) {
    why = takes(g, *r.action);
    return std::nullopt;
  }
  const std::string mark = "' is not a choice for ";
  size_t at = why.find(mark), open = why.find(" (", at);
  if (!r.action || why.empty() || why[0] != '\'' || at == std::string::npos ||
      open == std::string::npos)
    return std::nullopt;
  const Action& a = *r.action;
  // A card the chooser sees among the values of parameter k: what the kind is named by.
  auto seen = [&](size_t k) {
    for (const Decision& d : legal)
      if (&g.program.actions[d.action] == &a && a.params[k].type == Type::card &&
          d.args[k] >= 0 && d.args[k] < g.card_count && visible(g, s, s.chooser(), d.args[k]))
        return static_cast<int>(d.args[k]);
    return -1;
  };
  std::string word = why.substr(1, at - 1),
              name = why.substr(at + mark.size(), open - at - mark.size());
  size_t k = 0;
  while (k < a.params.size() && a.params[k].name != name) ++k;
  if (k == a.params.size()) return std::nullopt;
  // The notation in full stopped at the first value, which a short form reads: the reason
  // is the full notation's for the cards the words name (full_reason), or where the short
  // form stops ("play spear north" without a North), or that the values are too few
  // or too many.
  if (r.typed.size() >= 2 && word == squashed(r.typed[1]) && k == 0) {
    bool stopped = r.stop < r.typed.size() && r.depth < a.params.size();
    if (auto reason = stopped ? full_reason(g, s, r) : std::nullopt)
      return why = *reason, std::nullopt;
    if (r.depth > 0 && !stopped) {
      why = takes(g, a);
      return std::nullopt;
    }
    if (r.depth > 0) {
      // At the last value, all the words left are it ("gold mine", "queen of hearts").
      std::string word = r.depth + 1 == a.params.size() ? words_from(r.typed, r.stop) : squashed(r.typed[r.stop]);
      why = not_a_choice(g, view, labels, a, r.depth, r.reached, word, seen(r.depth));
      return std::nullopt;
    }
  }
  // "(choices: none: no go is legal with origin 8/-7: ...)": the notation's dead end.
  const std::string none = " (choices: none: ";
  size_t dead = why.find(none, at);
  std::string dead_end = dead == std::string::npos || why.back() != ')'
                             ? std::string()
                             : why.substr(dead + none.size(), why.size() - dead - none.size() - 1);
  // An action of one value: every word after its name is that value ("gold mine").
  if (k == 0 && a.params.size() == 1 && r.typed.size() > 2 && word == squashed(r.typed[1])) word = words_from(r.typed, 1);
  why = not_a_choice(g, view, labels, a, k, begun(g, labels, a, k, text), word, seen(k), dead_end);
  return std::nullopt;
}

}  // namespace

std::optional<Decision> read_decision(const Game& g, const State& s, const std::string& text,
                                      std::string& why) {
  if (auto d = read_named(g, s, text, why)) return d;
  if (s.status() != Status::waiting) return std::nullopt;
  // The action's name shortened ("d" for draw) or left out ("b2" for "mark b2"): read as
  // each action offered here whose name the first word begins, or with each name put in
  // front. Taken only when exactly one decision (one menu item) is read so.
  std::vector<std::string> w = words(text);
  if (w.empty()) return std::nullopt;
  std::vector<std::pair<std::string, Decision>> found;  // the text read, the decision
  auto attempt = [&](const std::string& full, std::string& reason) {
    if (auto d = read_named(g, s, full, reason))
      if (std::none_of(found.begin(), found.end(), [&](const auto& f) { return f.second == *d; }))
        found.emplace_back(full, *d);
  };
  std::string rest;
  for (size_t i = 1; i < w.size(); ++i) rest += " " + w[i];
  // The reasons the one action offered here whose name the first word begins refuses
  // the rest ("t north" where take_tile alone is offered: North is not a choice).
  std::vector<std::string> shortened;
  for (int a : g.program.sites[s[Layout::site]].actions) {
    const std::string& name = g.program.actions[a].name;
    std::string n = squashed(name), first = squashed(w[0]);
    if (n.size() > first.size() && n.compare(0, first.size(), first) == 0) {
      std::string reason;
      attempt(name + rest, reason);
      shortened.push_back(reason);
    }
    std::string ignored;
    if (n != first) attempt(name + " " + text, ignored);
  }
  if (found.empty() && shortened.size() == 1 && !shortened.front().empty()) why = shortened.front();
  if (found.size() == 1) return found.front().second;
  if (found.size() > 1) {
    std::vector<std::string> texts;
    for (const auto& f : found) texts.push_back(decision_text(g, s, f.second));
    why = fmt::format("ambiguous: '{}' could be {}", text, either(texts));
  }
  return std::nullopt;
}

std::string refusal_reason(const Game& g, const State& s, const std::string& text) {
  std::string why;
  if (read_decision(g, s, text, why))
    return fmt::format("'{}' is a decision written in short; a log holds each in full", text);
  return why;
}

}  // namespace kata
