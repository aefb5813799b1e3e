// Menus from labels and a view. The labels are read back with the Game's names only (a
// card's name may have spaces, so each card value is the longest name the text goes on
// with), and cards are compared through what the view shows of them.
#include "agents/menu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include "runtime/wrap.hpp"

namespace kata {

namespace {

bool ends_word(const std::string& text, size_t at) { return at == text.size() || text[at] == ' '; }

// The length of the card value `rest` starts with: a card's name, "none", a hidden card's
// place ("P2.hand#3"), a blind pick ("a card from P2.hand") or "a card out of play"; 0 if
// none.
size_t card_value_length(const Game& g, const std::string& rest,
                         const std::vector<std::string>& places) {
  size_t best = 0;
  auto consider = [&](const std::string& name) {
    if (name.size() > best && rest.compare(0, name.size(), name) == 0 &&
        ends_word(rest, name.size()))
      best = name.size();
  };
  for (const std::string& name : g.card_names) consider(name);
  consider("none");
  consider("a card out of play");
  for (const std::string& place : places) consider("a card from " + place);
  for (const std::string& place : places) {
    if (rest.compare(0, place.size(), place) != 0 || rest.size() <= place.size() + 1 ||
        rest[place.size()] != '#')
      continue;
    size_t end = place.size() + 1;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end]))) ++end;
    if (end > place.size() + 1 && ends_word(rest, end) && end > best) best = end;
  }
  return best;
}

std::vector<std::string> place_names(const Game& g) {
  std::vector<std::string> out;
  for (size_t z = 0; z < g.instance_zone.size(); ++z)
    out.push_back(g.instance_name(static_cast<int>(z)));
  return out;
}

std::optional<std::vector<std::string>> split(const Game& g, const std::string& label,
                                              const std::vector<std::string>& places) {
  std::string head = label.substr(0, label.find(' '));
  auto action = std::find_if(g.program.actions.begin(), g.program.actions.end(),
                             [&](const Action& a) { return a.name == head; });
  if (action == g.program.actions.end()) return std::nullopt;
  std::vector<std::string> parts{head};
  std::string rest = label.substr(head.size());
  for (const Param& p : action->params) {
    if (rest.size() < 2 || rest[0] != ' ') return std::nullopt;
    rest.erase(0, 1);
    size_t n = p.type == Type::card ? card_value_length(g, rest, places)
                                    : std::min(rest.find(' '), rest.size());
    if (n == 0) return std::nullopt;
    parts.push_back(rest.substr(0, n));
    rest.erase(0, n);
  }
  if (!rest.empty()) return std::nullopt;
  return parts;
}

std::string joined(const std::vector<std::string>& parts, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && i < parts.size(); ++i) out += (i ? " " : "") + parts[i];
  return out;
}

// What the viewer sees of each card it sees, for telling interchangeable cards apart.
struct Seen {
  const Game& g;
  const PlayerView& view;
  std::unordered_map<int, std::pair<int, size_t>> where;  // card -> zone instance, place
  std::unordered_map<std::string, std::vector<int>> named;
  std::set<int> distinct;  // cards held by a variable or owning a zone: never merged

  Seen(const Game& game, const PlayerView& v) : g(game), view(v) {
    for (const ZoneView& z : v.zones)
      for (size_t i = 0; i < z.cards.size(); ++i)
        if (int c = z.cards[i].card; c >= 0 && c < g.card_count) {
          where[c] = {z.instance, i};
          named[g.card_names[c]].push_back(c);
        }
    auto hold = [&](VarType t, int64_t x) {
      if (t == VarType::card && x >= 0) distinct.insert(static_cast<int>(x));
    };
    for (size_t i = 0; i < g.globals.size() && i < v.globals.size(); ++i)
      hold(g.globals[i].type, v.globals[i]);
    for (size_t i = 0; i < g.player_vars.size() && i < v.player_vars.size(); ++i)
      for (int64_t x : v.player_vars[i]) hold(g.player_vars[i].type, x);
    for (size_t i = 0; i < g.card_vars.size() && i < v.card_vars.size(); ++i)
      for (int64_t x : v.card_vars[i]) hold(g.card_vars[i].type, x);
    for (int32_t c : g.instance_card)
      if (c >= 0) distinct.insert(c);
  }

  // The card a value names, if the viewer sees exactly one card of that name.
  int card(const std::string& name) const {
    auto it = named.find(name);
    return it != named.end() && it->second.size() == 1 ? it->second[0] : -1;
  }

  // Equal for interchangeable cards (see menu_items).
  std::string key(int c) const {
    if (distinct.count(c)) return fmt::format("card {}", c);
    int kind = g.card_kind[c];
    auto [zone, place] = where.at(c);
    const ZoneView* z = nullptr;
    for (const ZoneView& zv : view.zones)
      if (zv.instance == zone) z = &zv;
    // Where a card lies tells it apart in a row (a place on the table) and on top of a
    // stack (what the top is); below the top of a stack, or in a set, it does not.
    ZoneOrder order = g.zones[g.instance_zone[zone]].order;
    size_t at = order == ZoneOrder::row     ? place
                : order == ZoneOrder::stack ? (place + 1 == z->cards.size() ? 1 : 0)
                                            : 0;
    std::string k = fmt::format("{} {} {} {} {} {}", kind, g.card_owner[c], zone,
                                z->cards[place].face_up, static_cast<int>(order), at);
    for (size_t p = 0; p < g.properties.size(); ++p)
      k += fmt::format(" {}", g.card_props[p * g.card_count + c]);
    k += " links";
    if (!g.link_start.empty())
      for (int32_t i = g.link_start[c]; i < g.link_start[c + 1]; ++i)
        k += fmt::format(" {}", g.link_to[i]);
    k += " vars";
    for (size_t i = 0; i < g.card_vars.size(); ++i) {
      const VarInfo& info = g.card_vars[i];
      if (info.kind != kind) continue;
      int seats = info.per_player ? g.max_players : 1;
      for (int p = 0; p < seats; ++p)
        k += fmt::format(" {}", view.card_vars[i][g.component_index(kind, info.per_player, c, p)]);
    }
    return k;
  }
};

// Beside each value of the item that is a point of the board: the top card of the
// point's zone as the view shows it (nothing when the point is free or its top card is
// hidden from the viewer).
std::vector<std::string> board_notes(const Game& g, const PlayerView& view, const MenuItem& item) {
  std::vector<std::string> notes(item.parts.size());
  const BoardInfo& b = g.board;
  if (b.kind < 0 || b.zone < 0 || item.params.empty()) return notes;
  const KindInfo& kind = g.kinds[b.kind];
  const ZoneInfo& zone = g.zones[b.zone];
  if (zone.kind != b.kind || zone.per_player) return notes;
  for (size_t k = 1; k < item.parts.size(); ++k)
    for (int c = kind.first_card; c < kind.first_card + kind.card_count; ++c) {
      if (g.card_names[c] != item.parts[k]) continue;
      int instance = zone.first_instance + (c - kind.first_card);
      for (const ZoneView& z : view.zones)
        if (z.instance == instance && !z.cards.empty() && z.cards.back().card >= 0 && z.cards.back().card < g.card_count)
          notes[k] = g.card_plain_names[z.cards.back().card];
      break;
    }
  return notes;
}

// Where "#" begins the number of a hidden card's place in `value` ("Port.side(P2)#1", as
// card_text writes it), or npos when the value is no place.
size_t place_hash(const std::string& value) {
  size_t hash = value.rfind('#');
  if (hash == std::string::npos || hash == 0 || hash + 1 >= value.size() ||
      value.find_first_not_of("0123456789", hash + 1) != std::string::npos)
    return std::string::npos;
  return hash;
}

// A hidden card's place as a menu shows it: "#1" for "Port.side(P2)#1", the words beside
// it saying where; any other value as it is.
std::string place_number(const std::string& value) {
  size_t hash = place_hash(value);
  return hash == std::string::npos ? value : value.substr(hash);
}

// Beside each part of the item that is a hidden card's place in a zone with a label: the
// place in words, as a message tells it (hidden_card_text). The place is in the notation
// already: this tells nothing more.
std::vector<std::string> place_words(const Game& g, const std::vector<std::string>& places, const MenuItem& item) {
  std::vector<std::string> out(item.parts.size());
  for (size_t k = 1; k < item.parts.size(); ++k) {
    const std::string& part = item.parts[k];
    size_t hash = place_hash(part);
    if (hash == std::string::npos) continue;
    auto it = std::find(places.begin(), places.end(), part.substr(0, hash));
    if (it == places.end()) continue;
    int zone = static_cast<int>(it - places.begin());
    if (g.zones[g.instance_zone[zone]].label.empty()) continue;
    out[k] = fmt::format("card {} from the bottom of {}", part.substr(hash + 1), g.place_name(zone, true));
  }
  return out;
}

// The first sentence of a `doc:` text, on one line and whole (a screen wraps it; cut, it
// could lose what it says), then the action's name in brackets; the name alone without a
// doc.
std::string heading(const Action& a) {
  std::string doc;
  for (char c : a.doc) doc += c == '\n' ? ' ' : c;
  while (!doc.empty() && doc.back() == ' ') doc.pop_back();
  if (doc.empty()) return a.name;
  for (size_t i = 0; i + 1 < doc.size(); ++i)
    if ((doc[i] == '.' || doc[i] == ';' || doc[i] == ':') && doc[i + 1] == ' ') {
      doc.erase(doc[i] == '.' ? i + 1 : i);
      break;
    }
  return fmt::format("{} ({})", doc, a.name);
}

}  // namespace

std::optional<std::vector<std::string>> label_parts(const Game& g, const std::string& label) {
  return split(g, label, place_names(g));
}

std::string MenuItem::text() const { return plain(screen_text()); }

std::string MenuItem::part_text(size_t k) const {
  if (k >= parts.size()) return {};
  if (k >= places.size() || places[k].empty()) return parts[k];
  return fmt::format("{} ({})", place_number(parts[k]), plain(places[k]));
}

std::string MenuItem::screen_text() const {
  // A hidden card's place reads as its number ("#1", which may be typed too), the words
  // beside it saying whose and where: the notation's zone ids are not for reading.
  std::vector<std::string> units;
  for (size_t k = 0; k < parts.size(); ++k) {
    bool place = k < places.size() && !places[k].empty();
    units.push_back(unbroken(place ? place_number(parts[k]) : parts[k]));
  }
  std::string out = joined(units, units.size());
  std::string pieces;
  for (size_t k = 0; k < notes.size() && k < parts.size(); ++k)
    if (!notes[k].empty())
      pieces += fmt::format("{}{} on {}", pieces.empty() ? "" : ", ", unbroken(notes[k]), units[k]);
  if (!pieces.empty()) out += " (" + pieces + ")";
  std::vector<std::string> said;
  for (const std::string& words : places)
    if (!words.empty() && std::find(said.begin(), said.end(), words) == said.end()) {
      out += " (" + unbroken(words) + ")";
      said.push_back(words);
    }
  return decisions.size() > 1 ? fmt::format("{} (x{})", out, decisions.size()) : out;
}

std::string param_words(const Game& g, const Param& p, int card) {
  std::string doc;
  for (char c : p.doc)
    if (!(std::isspace(static_cast<unsigned char>(c)) && (doc.empty() || doc.back() == ' ')))
      doc += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  // Its first words, up to a pause: "the face-down card, by its place ..." is "the
  // face-down card", one line above the values.
  if (size_t pause = doc.find_first_of(".,;:("); pause != std::string::npos) doc.erase(pause);
  while (!doc.empty() && doc.back() == ' ') doc.pop_back();
  if (!doc.empty()) return doc;
  // A card by its kind's noun where the rule file gives one ("a tile"), else by its kind's
  // name, which says more than "a card".
  if (p.type == Type::card && card >= 0 && card < g.card_count) {
    const KindInfo& kind = g.kinds[g.card_kind[card]];
    if (kind.noun_one != "card") return g.counted(1, g.card_kind[card]);
    bool vowel = std::string_view("aeioAEIO").find(kind.name[0]) != std::string_view::npos;
    return fmt::format("{} {}", vowel ? "an" : "a", kind.name);
  }
  return p.type == Type::card ? "a card" : p.type == Type::player ? "a player" : p.type == Type::integer ? "a number" : "a value";
}

std::vector<MenuItem> menu_items(const Game& g, const PlayerView& view,
                                 const std::vector<std::string>& labels) {
  Seen seen(g, view);
  std::vector<std::string> places = place_names(g);
  std::vector<MenuItem> items;
  std::vector<std::vector<std::vector<int>>> cards;  // [item][part] -> the cards it stands for
  std::map<std::string, size_t> by_key;
  for (size_t i = 0; i < labels.size(); ++i) {
    auto parts = split(g, labels[i], places);
    std::string key;
    std::vector<int> named;
    if (!parts) {
      parts = std::vector<std::string>{labels[i]};
      key = "label " + labels[i];
    } else {
      const Action& a = *std::find_if(g.program.actions.begin(), g.program.actions.end(),
                                      [&](const Action& x) { return x.name == (*parts)[0]; });
      key = (*parts)[0];
      named.push_back(-1);
      for (size_t k = 0; k < a.params.size(); ++k) {
        int c = a.params[k].type == Type::card ? seen.card((*parts)[k + 1]) : -1;
        named.push_back(c);
        key += '\x1f' + (c >= 0 ? seen.key(c) : "value " + (*parts)[k + 1]);
      }
    }
    auto [at, fresh] = by_key.try_emplace(key, items.size());
    if (fresh) {
      MenuItem item;
      item.parts = *parts;
      for (const Action& a : g.program.actions)
        if (a.name == (*parts)[0]) {
          item.heading = heading(a);
          if (parts->size() > 1)
            for (size_t k = 0; k < a.params.size(); ++k) {
              item.params.push_back(a.params[k].name);
              item.param_words.push_back(
                  param_words(g, a.params[k], k + 1 < named.size() ? named[k + 1] : -1));
            }
        }
      items.push_back(std::move(item));
      cards.emplace_back(parts->size());
    }
    items[at->second].decisions.push_back(static_cast<int>(i));
    for (size_t k = 0; k < named.size(); ++k)
      if (named[k] >= 0) cards[at->second][k].push_back(named[k]);
  }
  // A card is named without its copy number ("P1 Guard", also for the last Guard in
  // hand: its number tells nothing), and so is a card that stands for several, if they
  // share that name.
  for (size_t i = 0; i < items.size(); ++i)
    for (size_t k = 0; k < cards[i].size(); ++k) {
      const std::vector<int>& cs = cards[i][k];
      if (cs.empty()) continue;
      const std::string& plain = g.card_plain_names[cs[0]];
      if (std::all_of(cs.begin(), cs.end(), [&](int c) { return g.card_plain_names[c] == plain; }))
        items[i].parts[k] = plain;
    }
  // Items shown alike would be two lines the person cannot tell apart: they keep the
  // first label's names.
  std::map<std::string, int> shown;
  for (const MenuItem& item : items) ++shown[joined(item.parts, item.parts.size())];
  for (MenuItem& item : items)
    if (shown[joined(item.parts, item.parts.size())] > 1) {
      auto parts = split(g, labels[item.decisions[0]], places);
      item.parts = parts ? *parts : std::vector<std::string>{labels[item.decisions[0]]};
    }
  for (MenuItem& item : items) {
    item.notes = board_notes(g, view, item);
    item.places = place_words(g, places, item);
  }
  return items;
}

Menu::Menu(std::vector<MenuItem> items, size_t page) : items_(std::move(items)), page_(page) {
  settle();
}

std::vector<int> Menu::candidates() const {
  std::vector<int> out;
  for (size_t i = 0; i < items_.size(); ++i) {
    const auto& parts = items_[i].parts;
    bool fits = parts.size() >= path_.size();
    for (size_t k = 0; fits && k < path_.size(); ++k) fits = parts[k] == path_[k].value;
    if (fits) out.push_back(static_cast<int>(i));
  }
  return out;
}

// Works out the entries of the current step, taking the steps that offer one value.
void Menu::settle() {
  for (;;) {
    std::vector<int> cands = candidates();
    entries_.clear();
    size_t level = path_.size();
    std::vector<Entry> values;
    std::vector<int> first;  // the first item under each value
    // A list shown whole takes a line for each item, and one for each action's heading
    // when there are several actions.
    std::set<std::string> actions;
    for (int i : cands) actions.insert(items_[i].parts.empty() ? "" : items_[i].parts[0]);
    size_t lines = cands.size() + (actions.size() > 1 ? actions.size() : 0);
    for (int i : cands) {
      const auto& parts = items_[i].parts;
      if (lines <= page_ || parts.size() == level) {
        entries_.push_back({{}, i, 1, {}});
        continue;
      }
      auto same = std::find_if(values.begin(), values.end(),
                               [&](const Entry& e) { return e.value == parts[level]; });
      // Beside the value: the piece on it (a point), or its place in words (a hidden card).
      const auto& notes = items_[i].notes;
      const auto& places = items_[i].places;
      std::string note = level < notes.size() ? notes[level] : "";
      if (note.empty() && level < places.size()) note = places[level];
      if (same == values.end()) {
        values.push_back({parts[level], -1, 1, note});
        first.push_back(i);
      } else {
        ++same->count;
      }
    }
    if (values.size() == 1 && entries_.empty()) {
      path_.push_back({values[0].value, true});
      continue;
    }
    // A value with one item under it is shown as that item: "assault (1 choice)" hid what
    // choosing it plays at once.
    for (size_t k = 0; k < values.size(); ++k)
      entries_.push_back(values[k].count == 1 ? Entry{{}, first[k], 1, {}} : values[k]);
    return;
  }
}

std::string Menu::show() const { return plain(screen()); }

std::string Menu::screen() const {
  std::string out;
  // An action as the first step lists it: its heading, which ends with its name.
  auto action_heading = [&](const std::string& action) {
    for (const MenuItem& item : items_)
      if (!item.parts.empty() && item.parts[0] == action && !item.heading.empty()) return item.heading;
    return action;
  };
  size_t level = path_.size();
  bool values =
      std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.item < 0; });
  std::vector<std::string> chosen;
  for (const Step& s : path_) chosen.push_back(place_number(s.value));
  // The entries' one action, described as where a menu lists several (its doc's first
  // sentence): a menu of one action says what choosing does as well.
  std::set<std::string> actions;
  for (int i : candidates()) actions.insert(items_[i].parts.empty() ? "" : items_[i].parts[0]);
  const MenuItem* lone = actions.size() == 1 && !entries_.empty() ? &items_[candidates().front()] : nullptr;
  if (lone && !lone->parts.empty() && lone->heading != lone->parts[0]) out += lone->heading + ":\n";
  if (values && level == 0) {
    out += "Choose an action:\n";
  } else if (values) {
    // "play P1 Ace — choose the pile": what is chosen so far, then what the next
    // value is, in the rule file's words (the parameter's doc, or its kind).
    const auto& words = items_[candidates().front()].param_words;
    for (std::string& c : chosen) c = unbroken(c);
    std::string line = joined(chosen, chosen.size());
    out += level - 1 < words.size() ? fmt::format("{} — choose {}:\n", line, words[level - 1])
                                    : fmt::format("{} — choose:\n", line);
  } else if (!at_start()) {
    // The decisions in full, still named by what is chosen next ("play P1 Ace — choose
    // the pile").
    // The parameter named is the one the entries differ in, where there is one.
    std::vector<int> cands = candidates();
    const MenuItem& first = items_[cands.front()];
    std::set<size_t> differ;
    for (int i : cands)
      for (size_t k = 1; k < items_[i].parts.size() && k < first.parts.size(); ++k)
        if (items_[i].parts[k] != first.parts[k]) differ.insert(k - 1);
    for (std::string& c : chosen) c = unbroken(c);
    out += differ.size() == 1 && *differ.begin() < first.param_words.size() && lone
               ? fmt::format("{} — choose {}:\n", joined(chosen, chosen.size()), first.param_words[*differ.begin()])
               : fmt::format("{} — choose:\n", joined(chosen, chosen.size()));
  }
  // Headings when the entries are decisions of more than one action.
  actions.clear();
  for (const Entry& e : entries_)
    actions.insert(e.item >= 0 && !items_[e.item].parts.empty() ? items_[e.item].parts[0] : "");
  bool headed = !values && actions.size() > 1;
  std::string last;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    if (headed && items_[e.item].parts[0] != last) {
      last = items_[e.item].parts[0];
      out += fmt::format("  {}:\n", items_[e.item].heading.empty() ? last : items_[e.item].heading);
    }
    if (e.item >= 0 && values && level == 0 && items_[e.item].parts.size() == 1)
      out += fmt::format("  {:>2}) {}\n", i + 1, action_heading(items_[e.item].parts[0]));  // an action without values
    else if (e.item >= 0)
      out += fmt::format("{}{:>2}) {}\n", headed ? "    " : "  ", i + 1, items_[e.item].screen_text());
    else if (!e.note.empty())
      out += fmt::format("  {:>2}) {} ({}, {} choice{})\n", i + 1, unbroken(place_number(e.value)), unbroken(e.note), e.count,
                         e.count == 1 ? "" : "s");
    else
      out += fmt::format("  {:>2}) {}  ({} choice{})\n", i + 1, level == 0 ? action_heading(e.value) : unbroken(e.value), e.count,
                         e.count == 1 ? "" : "s");
  }
  if (!at_start()) out += "  ('back' for the step before)\n";
  return out;
}

int Menu::pick(size_t k) {
  const Entry e = entries_.at(k);
  if (e.item >= 0) return items_[e.item].decisions.front();
  path_.push_back({e.value, false});
  settle();
  std::vector<int> cands = candidates();
  return cands.size() == 1 ? items_[cands[0]].decisions.front() : -1;
}

bool Menu::at_start() const {
  return std::none_of(path_.begin(), path_.end(), [](const Step& s) { return !s.automatic; });
}

bool Menu::back() {
  size_t k = path_.size();
  while (k > 0 && path_[k - 1].automatic) --k;
  if (k == 0) return false;
  path_.resize(k - 1);
  settle();
  return true;
}

std::optional<int> Menu::typed(const std::string& text) {
  std::string want = normal(text);
  if (want.empty()) return std::nullopt;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].item < 0 && normal(entries_[i].value) == want) return pick(i);
  // A hidden card's place as the entry shows it ("#2"), where one entry shows it so.
  std::vector<size_t> shown_so;
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].item < 0 && place_number(entries_[i].value) != entries_[i].value &&
        normal(place_number(entries_[i].value)) == want)
      shown_so.push_back(i);
  if (shown_so.size() == 1) return pick(shown_so.front());
  // A step that lists whole items still asks for one value: "North" at "play P1 Guard —
  // choose a tile" picks the item whose value it is, when only one is.
  size_t level = path_.size();
  std::vector<size_t> having;
  for (size_t i = 0; i < entries_.size() && level > 0; ++i)
    if (int item = entries_[i].item; item >= 0 && level < items_[item].parts.size() &&
                                     normal(items_[item].parts[level]) == want)
      having.push_back(i);
  if (having.size() == 1) return pick(having.front());
  for (const MenuItem& item : items_)
    if (normal(item.text()) == want || normal(joined(item.parts, item.parts.size())) == want)
      return item.decisions.front();
  for (const MenuItem& item : items_)
    for (size_t n = 1; n < item.parts.size(); ++n)
      if (normal(joined(item.parts, n)) == want) {
        path_.clear();
        for (size_t k = 0; k < n; ++k) path_.push_back({item.parts[k], false});
        settle();
        std::vector<int> cands = candidates();
        return cands.size() == 1 ? items_[cands[0]].decisions.front() : -1;
      }
  return std::nullopt;
}

}  // namespace kata
