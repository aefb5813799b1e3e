// Reading a rule file's YAML into declarations. Every key is checked against what its
// section allows, every value against the type it must have; each problem becomes a
// positioned diagnostic and reading goes on, so one run reports every error.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "syntax/rulefile.hpp"
#include "syntax/keys.hpp"

namespace kata {

namespace {

namespace fs = std::filesystem;

constexpr size_t max_import_depth = 16;
constexpr int max_yaml_depth = 100;  // mappings and lists, one inside another
constexpr size_t max_alias_repeats = 1 << 20;  // nodes and characters repeated by aliases

// ---- small scanners (std::regex recurses on long input) ----

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }
bool is_word(std::string_view s) {
  return !s.empty() && name_start(s[0]) && std::all_of(s.begin(), s.end(), name_char);
}
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A whole number as a file writes it: an optional '-', then digits. Numbers are kept in
// 32 bits, so one beyond them is too large, not cut short.
enum class Number { ok, not_a_number, too_large };
Number read_number(std::string_view s, int64_t& out) {
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return Number::not_a_number;
  while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
  if (s.size() > 10) return Number::too_large;
  int64_t v = std::stoll(std::string(s));
  if (neg) v = -v;
  if (v > INT32_MAX || v < INT32_MIN) return Number::too_large;
  out = v;
  return Number::ok;
}
const char* const too_large_number = "number too large (at most 2147483647, at least -2147483648)";

// `LOW..HIGH`, blank space allowed around the dots: false if `s` is not written so.
bool split_range(std::string_view s, std::string_view& low, std::string_view& high) {
  size_t dots = s.find("..");
  if (dots == std::string_view::npos) return false;
  low = trim(s.substr(0, dots));
  high = trim(s.substr(dots + 2));
  int64_t ignored;
  return read_number(low, ignored) != Number::not_a_number && read_number(high, ignored) != Number::not_a_number;
}

// A control character other than tab and line ends: it would reach a terminal raw.
bool forbidden_control(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F; }

// A C1 control character, U+0080-U+009F (two bytes, C2 80 to C2 9F): U+009B is CSI, which
// a terminal reads as ESC [.
bool c1_control(std::string_view s, size_t i, size_t n) {
  return n == 2 && static_cast<unsigned char>(s[i]) == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
}

// A rule file is UTF-8 text without control characters: the first place it is not, or
// npos. Printed or put in JSON, its names must come out as they were written.
size_t bad_byte(std::string_view s, bool& invalid_utf8) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8_length(s, i);
    if (n == 0 || (n == 1 && forbidden_control(static_cast<unsigned char>(s[i]))) || c1_control(s, i, n)) {
      invalid_utf8 = n == 0;
      return i;
    }
    i += n;
  }
  return std::string_view::npos;
}
unsigned control_code(std::string_view s, size_t at) {
  auto c = static_cast<unsigned char>(s[at]);
  return c == 0xC2 ? static_cast<unsigned char>(s[at + 1]) : c;
}
// `kind` names the file: "a rule file", "a scenario".
std::string bad_byte_message(std::string_view s, size_t at, bool invalid_utf8, std::string_view kind) {
  return invalid_utf8 ? fmt::format("not UTF-8 text (byte 0x{:02X}): {} is UTF-8", static_cast<unsigned char>(s[at]), kind)
                      : fmt::format("control character U+{:04X} in {}", control_code(s, at), kind);
}

// What the files of one load share: the chain of imports being read (to report a cycle
// at once) and every file read already, by canonical path (each file is read once, so a
// file imported from many places, or many times, costs one read).
struct Imports {
  std::vector<std::pair<std::string, std::string>> chain;  // canonical path, name as written
  std::set<std::string> loaded;
  // Each declaration written with `override: true`, by where it is: whether it has
  // replaced one yet, and the error to report if it never does. It may do so where its
  // file is read, or, that file importing one read already, where its file is merged into
  // the file that imports it: so these are settled once the whole load is done.
  struct Claim {
    bool done = false;
    std::string nothing;  // "... overrides nothing ..."
  };
  std::map<std::tuple<int, int, int>, Claim> overrides;
  // The name a declaration renamed by an import has where it is written, by where that is.
  std::map<std::tuple<int, int, int>, std::string> written_as;
};

std::tuple<int, int, int> key_of(Pos p) { return {p.file, p.line, p.col}; }

std::string canonical(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : p.string();
}

class Loader {
 public:
  Loader(Sources& sources, Diagnostics& diags, int file, RuleFile& rf, Imports& imports)
      : sources_(sources), diags_(diags), file_(file), rf_(rf), imports_(imports) {}

  void load_root(const YAML::Node& root) {
    if (!root.IsMap()) {
      error(root, "a rule file is a YAML mapping of sections (game:, players:, zones:, ...)");
      return;
    }
    check_keys(root, keys::rule_file, "a rule file");
    // `kata: 1`, the version of the language the file is written in: 1 is the only one.
    if (auto n = root["kata"]; n && !(n.IsScalar() && n.Scalar() == "1"))
      error(n, fmt::format("this file is written for version '{}' of the kata language; this kata reads version 1 "
                           "(write `kata: 1`, or leave the key out)",
                           n.IsScalar() ? printable(n.Scalar()) : std::string("?")));
    if (auto n = root["import"]) imports(n);
    if (auto n = root["game"]) rf_.game = scalar(n, "the game's name"), rf_.game_pos = pos(n);
    if (auto n = root["doc"]) rf_.doc = scalar(n, "a description");
    if (auto n = root["players"]) players(n);
    for_each_entry(root["options"], "options", [&](auto& k, auto& v) { option(k, v); });
    for_each_entry(root["components"], "components", [&](auto& k, auto& v) { component(k, v); });
    for_each_entry(root["links"], "links", [&](auto& k, auto& v) { link(k, v); });
    for_each_entry(root["zones"], "zones", [&](auto& k, auto& v) { zone(k, v); });
    for_each_entry(root["variables"], "variables", [&](auto& k, auto& v) { variable(k, v); });
    for_each_entry(root["actions"], "actions", [&](auto& k, auto& v) { action(k, v); });
    for_each_entry(root["functions"], "functions",
                   [&](auto& k, auto& v) { routine(k, v, rf_.functions, "function"); });
    for_each_entry(root["procedures"], "procedures",
                   [&](auto& k, auto& v) { routine(k, v, rf_.procedures, "procedure"); });
    for_each_entry(root["phases"], "phases",
                   [&](auto& k, auto& v) { routine(k, v, rf_.phases, "phase"); });
    for_each_entry(root["invariants"], "invariants", [&](auto& k, auto& v) { invariant(k, v); });
    if (auto n = root["flow"]) {
      rf_.flow = text(n);
      if (rf_.flow.present()) parse_program(rf_.flow.text, rf_.flow.where, diags_, rf_.flow_block);
    }
    if (auto n = root["scoring"]) scoring(n);
    if (auto n = root["limits"]) limits(n);
    if (auto n = root["board"]) board(n);
  }

 private:
  Pos pos(const YAML::Node& n) const {
    auto m = n.Mark();
    if (m.is_null()) return Pos{file_, 1, 1};
    return Pos{file_, m.line + 1, m.column + 1};
  }
  void error(const YAML::Node& n, std::string message, std::vector<Note> notes = {}) {
    diags_.error(pos(n), std::move(message), std::move(notes));
  }

  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& what) {
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, "keys must be plain names");
        continue;
      }
      std::string key = it->first.Scalar();
      if (!seen.insert(key).second) error(it->first, fmt::format("duplicate key '{}'", key));
      if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::string near = diags_.wants_suggestions() ? closest_name(key, allowed) : "";
      error(it->first, fmt::format("unknown key '{}' in {}{}", key, what,
                                   near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
    }
  }

  template <typename F>
  void for_each_entry(const YAML::Node& n, const char* section, F f) {
    if (!n || n.IsNull()) return;
    if (!n.IsMap()) {
      error(n, fmt::format("'{}' must be a mapping of names to declarations", section));
      return;
    }
    std::set<std::string> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, "names must be plain words");
        continue;
      }
      if (!seen.insert(it->first.Scalar()).second)
        error(it->first, fmt::format("'{}' is declared twice in '{}'", it->first.Scalar(), section));
      f(it->first, it->second);
    }
  }

  std::string scalar(const YAML::Node& n, const char* what) {
    if (!n.IsScalar()) {
      error(n, fmt::format("expected {} (a single value)", what));
      return {};
    }
    return n.Scalar();
  }

  Text text(const YAML::Node& n) {
    if (!n.IsScalar()) {
      error(n, "expected text in the rules language");
      return {};
    }
    auto m = n.Mark();
    Text t{n.Scalar(), pos(n), Locator(sources_, file_, m.is_null() ? 0 : m.pos, n.Scalar())};
    if (t.text.find_first_not_of(" \t\r\n") == std::string::npos) t.pos = t.where.at(0);
    return t;
  }

  // `[holds(player, Priest), ok(player)]`: YAML ends a flow list's item at every ',', even
  // one inside a call, so `holds(player` and `Priest)` arrive as two items. When the plain
  // item at `i` opens a '(' that later items of the same line-up close, says so at the
  // comma and gives them back as the one text that was meant (so it is still checked),
  // leaving `i` on its last item.
  std::optional<Text> rejoin(const YAML::Node& list, const std::vector<YAML::Node>& items,
                             size_t& i) {
    auto plain = [](const YAML::Node& n) {
      return n.IsScalar() && n.Tag() == "?" && !n.Mark().is_null();
    };
    if (list.Style() != YAML::EmitterStyle::Flow || !plain(items[i])) return std::nullopt;
    const std::string& src = sources_.at(file_).text;
    auto balance = [](const std::string& t) {
      int b = 0;
      for (char c : t) b += c == '(' ? 1 : c == ')' ? -1 : 0;
      return b;
    };
    int open = balance(items[i].Scalar());
    if (open <= 0) return std::nullopt;
    size_t start = items[i].Mark().pos, end = start + items[i].Scalar().size();
    std::string joined = items[i].Scalar();
    for (size_t j = i + 1; j < items.size() && open > 0; ++j) {
      if (!plain(items[j]) || static_cast<size_t>(items[j].Mark().pos) < end) return std::nullopt;
      std::string between = src.substr(end, items[j].Mark().pos - end);
      if (between.find_first_not_of(" \t\r\n,") != std::string::npos) return std::nullopt;
      joined += between + items[j].Scalar();
      end = items[j].Mark().pos + items[j].Scalar().size();
      if ((open += balance(items[j].Scalar())) == 0) {
        Text t{joined, pos(items[i]), Locator(sources_, file_, start, joined)};
        std::string one_line = joined;
        for (char& c : one_line)
          if (c == '\n' || c == '\r') c = ' ';
        diags_.error(
            t.where.at(items[i].Scalar().size()),
            fmt::format(
                "YAML splits the list at this ',' inside '{0}': quote the item (\"{0}\") or write "
                "the list one item a line (- {0})",
                one_line));
        i = j;
        return t;
      }
    }
    return std::nullopt;
  }

  std::optional<int64_t> integer(const YAML::Node& n, const char* what) {
    std::string s = scalar(n, what);
    if (!n.IsScalar()) return std::nullopt;
    int64_t v = 0;
    switch (read_number(s, v)) {
      case Number::ok: return v;
      case Number::too_large: error(n, too_large_number); return std::nullopt;
      case Number::not_a_number: break;
    }
    error(n, fmt::format("expected {} (a whole number), found '{}'", what, s));
    return std::nullopt;
  }

  std::optional<bool> boolean(const YAML::Node& n, const char* what) {
    std::string s = scalar(n, what);
    if (s == "true" || s == "yes") return true;
    if (s == "false" || s == "no") return false;
    if (n.IsScalar()) error(n, fmt::format("expected {} (true or false), found '{}'", what, s));
    return std::nullopt;
  }

  Value value(const YAML::Node& n) {
    Value v;
    v.pos = pos(n);
    std::string s = scalar(n, "a number or a word");
    switch (read_number(s, v.number)) {
      case Number::ok: return v;
      case Number::too_large: error(n, too_large_number); return v;
      case Number::not_a_number: break;
    }
    if (s == "true" || s == "false") {
      v.number = s == "true";
      v.is_bool = true;
    } else if (is_word(s)) {
      v.is_symbol = true;
      v.symbol = s;
    } else if (n.IsScalar()) {
      error(n, fmt::format("expected a number or a word, found '{}'", s));
    }
    return v;
  }

  // A list of values: [a, b], or "lo..hi", or one value.
  std::vector<Value> values(const YAML::Node& n) {
    std::vector<Value> out;
    if (n.IsSequence()) {
      for (const auto& e : n) out.push_back(value(e));
      return out;
    }
    std::string s = n.IsScalar() ? n.Scalar() : std::string();
    if (std::string_view low, high; split_range(s, low, high)) {
      int64_t lo = 0, hi = 0;
      if (read_number(low, lo) != Number::ok || read_number(high, hi) != Number::ok) {
        error(n, too_large_number);
        return out;
      }
      if (hi < lo || hi - lo + 1 > 4096) {
        error(n, "a range must go from low to high and hold at most 4096 values");
        return out;
      }
      for (int64_t i = lo; i <= hi; ++i) out.push_back(Value{false, false, i, {}, pos(n)});
      return out;
    }
    out.push_back(value(n));
    return out;
  }

  // `import: [FILE, {file: FILE, rename: {old: new}}]`: each file's declarations are read
  // first, renamed if asked, and then this file's own declarations replace any of the same
  // name (that is how a file overrides what it imports).
  void imports(const YAML::Node& n) {
    std::vector<YAML::Node> items;
    if (n.IsSequence()) {
      for (const auto& e : n) items.push_back(e);
    } else {
      items.push_back(n);
    }
    for (const auto& e : items) {
      // (A YAML::Node assigned to writes through to the node it refers to: never reassign.)
      const YAML::Node file_node = e.IsMap() ? e["file"] : e;
      Renames renames;
      if (e.IsMap()) {
        check_keys(e, keys::import, "an import");
        if (!file_node) {
          error(e, "an import needs 'file:'");
          continue;
        }
        if (auto r = e["rename"]) {
          if (!r.IsMap()) error(r, "'rename' maps names in the imported file to names in this one");
          else
            for (auto it = r.begin(); it != r.end(); ++it)
              renames[it->first.Scalar()] = {scalar(it->second, "a new name"), pos(it->first)};
        }
      }
      std::string name = scalar(file_node, "a file to import");
      if (name.empty()) continue;
      std::string path = resolve(name);
      if (path.empty()) {
        error(file_node, fmt::format("cannot find '{}' (looked beside this file and in the stdlib)", name));
        continue;
      }
      std::string key = canonical(path);
      auto& chain = imports_.chain;
      auto cycle = std::find_if(chain.begin(), chain.end(), [&](auto& c) { return c.first == key; });
      if (cycle != chain.end()) {
        std::string names;
        for (auto it = cycle; it != chain.end(); ++it) names += it->second + " -> ";
        error(file_node, fmt::format("circular import: {}{}", names, name));
        continue;
      }
      if (imports_.loaded.count(key)) {
        // Read once, where first imported: its declarations are in the game already.
        if (!renames.empty())
          error(file_node, fmt::format("'{}' is imported already; a file is read once, so rename it where it is first imported", name));
        continue;
      }
      if (chain.size() > max_import_depth) {
        error(file_node, fmt::format("imports nested more than {} levels deep", max_import_depth));
        continue;
      }
      std::string source, why;
      if (!read_source(path, source, why)) {
        error(file_node, why);
        continue;
      }
      imports_.loaded.insert(key);
      int file = sources_.add(name, path, std::move(source), pos(e));
      RuleFile imported;
      imported.file = file;
      chain.emplace_back(key, name);
      load_yaml(sources_, diags_, file, imported, imports_);
      chain.pop_back();
      if (!renames.empty()) {
        rename_all(imported, renames, name, sources_, diags_);
        remember_renamed(imported, renames);
      }
      merge(std::move(imported));
    }
  }

  // Where each declaration of `rf` that `renames` renamed stands, with the name it has
  // there (the first rename's, for a file renamed by each import on the way).
  void remember_renamed(const RuleFile& rf, const Renames& renames) {
    std::map<std::string, std::string> old;
    for (const auto& [from, r] : renames) old[r.to] = from;
    auto note = [&](const std::string& name, Pos at) {
      if (auto it = old.find(name); it != old.end()) imports_.written_as.emplace(key_of(at), it->second);
    };
    auto each = [&](const auto& list) {
      for (const auto& d : list) note(d.name, d.pos);
    };
    for (const auto& c : rf.components) note(c.kind, c.pos);
    each(rf.options), each(rf.zones), each(rf.variables), each(rf.actions);
    each(rf.functions), each(rf.procedures), each(rf.phases), each(rf.invariants);
  }

  void merge(RuleFile&& from) {
    if (!from.game.empty() && rf_.game.empty()) rf_.game = from.game, rf_.game_pos = from.game_pos;
    if (from.players_pos.valid() && !rf_.players_pos.valid())
      rf_.min_players = from.min_players, rf_.max_players = from.max_players, rf_.players_pos = from.players_pos;
    for (auto& x : from.options) replace(rf_.options, std::move(x), "option");
    for (auto& x : from.components) replace(rf_.components, std::move(x), "component kind", &ComponentDecl::kind);
    for (auto& x : from.links) replace(rf_.links, std::move(x), "link", &LinkDecl::kind);
    for (auto& x : from.zones) replace(rf_.zones, std::move(x), "zone");
    for (auto& x : from.variables) replace(rf_.variables, std::move(x), "variable");
    for (auto& x : from.actions) replace(rf_.actions, std::move(x), "action");
    for (auto& x : from.functions) replace(rf_.functions, std::move(x), "function");
    for (auto& x : from.procedures) replace(rf_.procedures, std::move(x), "procedure");
    for (auto& x : from.phases) replace(rf_.phases, std::move(x), "phase");
    for (auto& x : from.invariants) replace(rf_.invariants, std::move(x), "invariant");
    if (from.flow.present() && !rf_.flow.present()) rf_.flow = from.flow, rf_.flow_block = std::move(from.flow_block);
    if (from.scoring.present() && !rf_.scoring.present()) rf_.scoring = std::move(from.scoring);
    if (from.board && !rf_.board) rf_.board = std::move(from.board);
  }

  std::string resolve(const std::string& name) const {
    fs::path here = fs::path(sources_.at(file_).path).parent_path();
    std::vector<fs::path> tries = {here / name};
    std::string lib = stdlib_dir();
    std::string rest = name.rfind("stdlib/", 0) == 0 ? name.substr(7) : name;
    if (!lib.empty()) tries.push_back(fs::path(lib) / rest);
    // The first that exists, whatever it is: read_source refuses a directory or a device
    // with a message that says so.
    for (const auto& p : tries) {
      std::error_code ec;
      if (fs::exists(p, ec)) return p.string();
    }
    return {};
  }

  void players(const YAML::Node& n) {
    rf_.players_pos = pos(n);
    player_range(n, rf_.min_players, rf_.max_players);
  }

  // `4` or `3..6`: a number of players or a range of them.
  void player_range(const YAML::Node& n, int& lo, int& hi) {
    std::string s = n.IsScalar() ? n.Scalar() : std::string();
    int64_t low = 0, high = 0;
    if (std::string_view l, h; split_range(s, l, h)) {
      if (read_number(l, low) == Number::ok && read_number(h, high) == Number::ok && low >= 1 && high <= 16) {
        lo = static_cast<int>(low);
        hi = static_cast<int>(high);
      } else {
        lo = 0;  // out of range, said below
      }
    } else if (auto v = integer(n, "the number of players, or a range such as 3..6")) {
      lo = hi = static_cast<int>(*v);
    }
    if (lo < 1 || hi < lo || hi > 16) error(n, "players must be between 1 and 16, the smaller number first");
  }

  void option(const YAML::Node& key, const YAML::Node& n) {
    OptionDecl o;
    o.name = key.Scalar();
    o.pos = pos(key);
    if (n.IsMap()) {
      check_keys(n, keys::option, "an option");
      if (auto v = n["players"]) player_range(v, o.min_players, o.max_players);
      if (auto d = n["default"]) o.default_value = value(d);
      else error(key, fmt::format("option '{}' needs a default", o.name));
      if (auto v = n["values"]) o.choices = values(v);
      if (auto v = n["min"]) o.min = integer(v, "a minimum");
      if (auto v = n["max"]) {
        // `max: players`: a seat number, at most the game's player count.
        if (v.IsScalar() && v.Scalar() == "players") o.max_is_players = true, o.max = 16;
        else o.max = integer(v, "a maximum, or 'players'");
      }
      if (auto v = n["doc"]) o.doc = scalar(v, "a description");
    } else {
      o.default_value = value(n);
    }
    override_key(n, o.pos);
    replace(rf_.options, std::move(o), "option");
  }

  void component(const YAML::Node& key, const YAML::Node& n) {
    ComponentDecl c;
    c.kind = key.Scalar();
    c.pos = pos(key);
    if (!n.IsMap()) {
      error(n, "a component kind is a mapping with 'each:' or 'list:'");
      return;
    }
    check_keys(n, keys::component, "a component kind");
    if (auto v = n["where"]) {
      c.where = text(v);
      if (c.where.present()) c.where_expr = parse_expression(c.where.text, c.where.where, diags_);
    }
    if (auto v = n["in"]) c.start_zone = scalar(v, "a zone"), c.start_pos = pos(v);
    if (auto v = n["per_player"]) c.per_player = boolean(v, "per_player").value_or(false);
    if (auto v = n["name"]) c.name_template = scalar(v, "a name template"), c.name_pos = pos(v);
    if (auto v = n["doc"]) c.doc = scalar(v, "a description");
    if (auto v = n["label"]) c.label = text(v);
    if (auto v = n["title"]) c.title_template = scalar(v, "a title template"), c.title_pos = pos(v);
    if (auto v = n["noun"]) noun(v, c);
    if (auto each = n["each"]) {
      component_product(each, c);
    } else if (auto list = n["list"]) {
      component_list(list, c);
    } else {
      error(key, fmt::format("component kind '{}' needs 'each:' or 'list:'", c.kind));
    }
    if (c.rows.size() > 1024) error(key, "at most 1024 components of one kind");
    if (auto v = n["show"]) property_show(v, c);
    override_key(n, c.pos);
    replace(rf_.components, std::move(c), "component kind", &ComponentDecl::kind);
  }

  // `show: {vp: true, hx: false}`: each of the kind's properties that a screen shows, or
  // that is bookkeeping.
  void property_show(const YAML::Node& n, ComponentDecl& c) {
    if (n.IsScalar() && (n.Scalar() == "false" || n.Scalar() == "true")) {
      c.unshown = n.Scalar() == "false";  // the whole kind
      return;
    }
    if (!n.IsMap()) {
      error(n, "'show' of a component kind maps its properties to true or false ({vp: true}), or is false (the whole kind is bookkeeping)");
      return;
    }
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string name = it->first.Scalar();
      if (std::find(c.properties.begin(), c.properties.end(), name) == c.properties.end()) {
        error(it->first, fmt::format("'{}' is not a property of {}; its properties are {}", name, c.kind,
                                     c.properties.empty() ? std::string("none") : fmt::format("{}", fmt::join(c.properties, ", "))));
        continue;
      }
      std::optional<bool> on = boolean(it->second, "show");
      if (on) (*on ? c.shown : c.bookkeeping).push_back(name);
    }
  }

  // `noun: tile` (several: tiles) or `noun: [die, dice]` (one, several).
  void noun(const YAML::Node& n, ComponentDecl& c) {
    c.noun_pos = pos(n);
    if (n.IsSequence() && n.size() == 2 && n[0].IsScalar() && n[1].IsScalar()) {
      c.noun_one = n[0].Scalar(), c.noun_many = n[1].Scalar();
    } else if (n.IsScalar()) {
      c.noun_one = n.Scalar();
      bool es = c.noun_one.ends_with("s") || c.noun_one.ends_with("x") || c.noun_one.ends_with("ch") || c.noun_one.ends_with("sh");
      c.noun_many = c.noun_one + (es ? "es" : "s");
    } else {
      error(n, "a noun is a word (tile), or two: one and several ([die, dice])");
      return;
    }
    auto word = [](const std::string& w) {
      return !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char ch) { return std::isalpha(ch) || ch == '-' || ch == ' '; });
    };
    if (!word(c.noun_one) || !word(c.noun_many)) error(n, "a noun is written in letters (tile, [die, dice])");
  }

  // `each: {clan: [a, b], rank: 1..4}`: one component per combination.
  void component_product(const YAML::Node& each, ComponentDecl& c) {
    if (!each.IsMap()) {
      error(each, "'each' maps property names to their values");
      return;
    }
    std::vector<std::vector<Value>> columns;
    for (auto it = each.begin(); it != each.end(); ++it) {
      c.properties.push_back(it->first.Scalar());
      columns.push_back(values(it->second));
    }
    size_t total = 1;
    for (const auto& col : columns) total *= std::max<size_t>(col.size(), 1);
    if (total > 1024) {
      error(each, "at most 1024 components of one kind");
      return;
    }
    for (size_t i = 0; i < total; ++i) {
      std::vector<Value> row;
      size_t rest = i;
      for (size_t k = columns.size(); k-- > 0;) {
        size_t size = std::max<size_t>(columns[k].size(), 1);
        row.insert(row.begin(), columns[k].empty() ? Value{} : columns[k][rest % size]);
        rest /= size;
      }
      c.rows.push_back(std::move(row));
    }
  }

  // `list: [{name: Lord, strength: 2, count: 1, doc: TEXT}, ...]`: rows given one by one,
  // each with what that card does.
  void component_list(const YAML::Node& list, ComponentDecl& c) {
    if (!list.IsSequence()) {
      error(list, "'list' is a sequence of components");
      return;
    }
    for (const auto& e : list) {
      if (!e.IsMap()) {
        error(e, "each entry of 'list' maps property names to values");
        continue;
      }
      for (auto it = e.begin(); it != e.end(); ++it) {
        std::string k = it->first.Scalar();
        if (k != "count" && k != "doc" && k != "title" && std::find(c.properties.begin(), c.properties.end(), k) == c.properties.end())
          c.properties.push_back(k);
      }
    }
    for (const auto& e : list) {
      if (!e.IsMap()) continue;
      int64_t count = 1;
      if (auto v = e["count"]) count = integer(v, "a count").value_or(1);
      if (count < 0 || count > 1024) {
        error(e["count"], "a count must be between 0 and 1024");
        continue;
      }
      std::vector<Value> row;
      for (const auto& p : c.properties) row.push_back(e[p] ? value(e[p]) : Value{});
      std::string doc = e["doc"] ? scalar(e["doc"], "a description") : "";
      std::string title = e["title"] ? scalar(e["title"], "a title") : "";
      if (e["title"] && title.empty()) error(e["title"], "a title is the words screens name the card by: it cannot be empty");
      for (int64_t i = 0; i < count && c.rows.size() <= 1024; ++i) {
        c.rows.push_back(row);
        c.row_docs.push_back(doc);
        c.row_titles.push_back(title);
      }
    }
  }

  void zone(const YAML::Node& key, const YAML::Node& n) {
    ZoneDecl z;
    z.name = key.Scalar();
    z.pos = pos(key);
    if (n.IsMap()) {
      check_keys(n, keys::zone, "a zone");
      if (auto v = n["per_player"]) z.per_player = boolean(v, "per_player").value_or(false);
      if (auto v = n["per"]) z.per_kind = scalar(v, "a component kind"), z.per_pos = pos(v);
      if (auto v = n["order"]) {
        std::string s = scalar(v, "an order");
        if (s == "stack") z.order = ZoneOrder::stack;
        else if (s == "row") z.order = ZoneOrder::row;
        else if (s == "set") z.order = ZoneOrder::set;
        else error(v, fmt::format("unknown order '{}'; expected stack, row or set", s));
      }
      if (auto v = n["visibility"]) {
        std::string s = scalar(v, "a visibility");
        if (s == "everyone") z.visibility = Visibility::everyone;
        else if (s == "owner") z.visibility = Visibility::owner;
        else if (s == "nobody") z.visibility = Visibility::nobody;
        else if (s == "top") z.visibility = Visibility::top;
        else error(v, fmt::format("unknown visibility '{}'; expected everyone, owner, nobody or top", s));
        if (z.visibility == Visibility::top && z.order == ZoneOrder::set)
          error(v, "a set has no top card to show: declare the zone with order: stack");
      }
      if (auto v = n["show"]) z.show = show(v, "when_not_empty", "a zone");
      if (auto v = n["label"]) z.label = text(v);
      if (auto v = n["doc"]) z.doc = scalar(v, "a description");
    } else if (!n.IsNull()) {
      error(n, "a zone is a mapping (per_player:, per:, order:, visibility:, show:, label:, doc:)");
    }
    override_key(n, z.pos);
    replace(rf_.zones, std::move(z), "zone");
  }

  // `show: true | false | WORD`, WORD being when_not_empty (zones) or when_set (variables).
  Show show(const YAML::Node& n, const char* word, const char* what) {
    std::string s = scalar(n, "true, false or a word");
    if (s == "true") return Show::always;
    if (s == "false") return Show::never;
    if (s == word) return Show::when_set;
    if (n.IsScalar())
      error(n, fmt::format("unknown show '{}' for {}; expected true, false or {}", s, what, word));
    return Show::always;
  }

  // A variable's `show:` is a word (show()) or `{if: CONDITION}`.
  void variable_show(const YAML::Node& n, VarDecl& v) {
    if (!n.IsMap()) {
      v.show = show(n, "when_set", "a variable");
      return;
    }
    check_keys(n, keys::variable_show, "a variable's show condition");
    auto x = n["if"];
    if (!x) {
      error(n, "a variable's 'show' condition is written {if: CONDITION}");
      return;
    }
    v.show_if = text(x);
    if (v.show_if.present()) v.show_if_expr = parse_expression(v.show_if.text, v.show_if.where, diags_);
  }

  void variable(const YAML::Node& key, const YAML::Node& n) {
    VarDecl v;
    v.name = key.Scalar();
    v.pos = pos(key);
    if (n.IsMap()) {
      check_keys(n, keys::variable, "a variable");
      if (auto x = n["per_player"]) v.per_player = boolean(x, "per_player").value_or(false);
      if (auto x = n["per"]) v.per_kind = scalar(x, "a component kind"), v.per_pos = pos(x);
      if (auto x = n["type"]) {
        std::string s = scalar(x, "a type");
        if (s == "int") v.type = VarType::integer;
        else if (s == "bool") v.type = VarType::boolean;
        else if (s == "player") v.type = VarType::player;
        else if (s == "card") v.type = VarType::card;
        else error(x, fmt::format("unknown type '{}'; expected int, bool, player or card", s));
      }
      if (auto x = n["initial"]; x && x.IsSequence()) {
        // One value for each seat, P1's first.
        v.seat_initials_pos = pos(x);
        std::vector<YAML::Node> items(x.begin(), x.end());
        for (size_t i = 0; i < items.size(); ++i) {
          if (auto joined = rejoin(x, items, i)) v.seat_initials.push_back(*joined);
          else v.seat_initials.push_back(text(items[i]));
        }
        if (items.empty()) error(x, "a list of initial values needs one for each seat");
      } else if (x) {
        v.initial = text(x);
      }
      if (auto x = n["constant"]) v.constant = boolean(x, "constant").value_or(false);
      if (auto x = n["position"]) v.in_position = boolean(x, "position").value_or(true);
      if (auto x = n["show"]) variable_show(x, v);
      if (auto x = n["label"]) v.label = scalar(x, "a label");
      if (auto x = n["doc"]) v.doc = scalar(x, "a description");
    } else {
      v.initial = text(n);
    }
    if (v.initial.present()) v.initial_expr = parse_expression(v.initial.text, v.initial.where, diags_);
    for (const Text& t : v.seat_initials)
      v.seat_initial_exprs.push_back(t.present() ? parse_expression(t.text, t.where, diags_) : nullptr);
    override_key(n, v.pos);
    replace(rf_.variables, std::move(v), "variable");
  }

  // `name: LIST`, or in long form `name: {from: LIST, doc: TEXT}`.
  ParamDecl param(const YAML::Node& key, const YAML::Node& n) {
    ParamDecl p{key.Scalar(), pos(key), {}, nullptr, {}};
    if (!n.IsMap()) {
      p.domain = text(n);
      return p;
    }
    check_keys(n, keys::parameter, "a parameter");
    if (auto x = n["from"])
      p.domain = text(x);
    else
      error(n, fmt::format("parameter '{}' needs 'from:', the list it is chosen from", p.name));
    if (auto x = n["doc"]) p.doc = scalar(x, "a description");
    return p;
  }

  void action(const YAML::Node& key, const YAML::Node& n) {
    ActionDecl a;
    a.name = key.Scalar();
    a.pos = pos(key);
    if (!n.IsMap()) {
      a.effect = text(n);
    } else {
      check_keys(n, keys::action, "an action");
      if (auto x = n["say"]) {
        a.say = text(x);
        while (!a.say.text.empty() && std::isspace(static_cast<unsigned char>(a.say.text.back()))) a.say.text.pop_back();
      }
      if (auto x = n["doc"]) a.doc = scalar(x, "a description");
      if (auto x = n["params"]) {
        if (!x.IsMap()) error(x, "'params' maps each parameter to the list it is chosen from");
        else
          for (auto it = x.begin(); it != x.end(); ++it)
            a.params.push_back(param(it->first, it->second));
      }
      if (auto x = n["when"]) {
        if (x.IsSequence()) {
          std::vector<YAML::Node> items(x.begin(), x.end());
          for (size_t i = 0; i < items.size(); ++i) {
            if (auto joined = rejoin(x, items, i)) {
              a.when.push_back(std::move(*joined));
              a.refusals.emplace_back();
            } else {
              when(a, items[i]);
            }
          }
        } else {
          when(a, x);
        }
      }
      if (auto x = n["do"]) a.effect = text(x);
    }
    for (auto& p : a.params)
      if (p.domain.present()) p.domain_expr = parse_expression(p.domain.text, p.domain.where, diags_);
    for (auto& w : a.when)
      if (w.present()) a.when_exprs.push_back(parse_expression(w.text, w.where, diags_));
    if (a.effect.present()) parse_program(a.effect.text, a.effect.where, diags_, a.body);
    if (a.say.present()) said_first(a);
    override_key(n, a.pos);
    replace(rf_.actions, std::move(a), "action");
  }

  // `say: TEXT` is the statement `say "TEXT"` put before the effect, with its positions in
  // the file (the message's rules and errors are the statement's).
  void said_first(ActionDecl& a) {
    if (a.say.text.find('"') != std::string::npos) {
      diags_.error(a.say.where.at(a.say.text.find('"')), "an action's 'say:' is the message alone, without '\"'");
      return;
    }
    Block said;
    if (!parse_program("say \"" + a.say.text + "\"", a.say.where.after(5), diags_, said)) return;
    for (auto it = said.rbegin(); it != said.rend(); ++it) a.body.insert(a.body.begin(), std::move(*it));
  }

  // A condition of an action: `COND`, or `{if: COND, refuse: MESSAGE}` where the message
  // is what a player is told when the condition fails, `{name}` standing for a parameter's
  // value or the chooser (`{player}`).
  void when(ActionDecl& a, const YAML::Node& n) {
    if (!n.IsMap()) {
      a.when.push_back(text(n));
      a.refusals.emplace_back();
      return;
    }
    check_keys(n, keys::condition, "a condition");
    auto cond = n["if"], message = n["refuse"];
    if (!cond) error(n, "a condition written as a mapping needs 'if:', the condition, and 'refuse:', what a refused player is told");
    a.when.push_back(cond ? text(cond) : Text{});
    Text m = message ? text(message) : Text{};
    if (m.present()) check_template(a, m);
    a.refusals.push_back(std::move(m));
  }

  // Each `{name}` of a refusal names a parameter of the action, or `player`.
  void check_template(const ActionDecl& a, const Text& m) {
    for (size_t i = 0; i < m.text.size(); ++i) {
      if (m.text[i] == '}') {
        diags_.error(m.where.at(i), "'}' closes nothing; a refusal's '{name}' names a parameter");
        continue;
      }
      if (m.text[i] != '{') continue;
      size_t end = m.text.find('}', i);
      if (end == std::string::npos) {
        diags_.error(m.where.at(i), "'{' is never closed; a refusal's '{name}' names a parameter");
        return;
      }
      std::string name = m.text.substr(i + 1, end - i - 1);
      std::vector<std::string> names = {"player"};
      for (const ParamDecl& p : a.params) names.push_back(p.name);
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string near = closest_name(name, names);
        diags_.error(m.where.at(i + 1), fmt::format("'{}' is not a parameter of '{}'{}", name, a.name,
                                                    near.empty() ? fmt::format("; its parameters are {}", fmt::join(names, ", "))
                                                                 : fmt::format("; did you mean '{}'?", near)));
      }
      i = end;
    }
  }

  // `NAME` or `NAME(PARAMS)`, blank space around: the name and what is between the
  // parentheses (which holds no ')').
  static bool signature(std::string_view k, std::string_view& name, std::string_view& params) {
    k = trim(k);
    size_t end = 0;
    while (end < k.size() && name_char(k[end])) ++end;
    name = k.substr(0, end);
    if (!is_word(name)) return false;
    std::string_view rest = trim(k.substr(end));
    params = {};
    if (rest.empty()) return true;
    if (rest.front() != '(' || rest.back() != ')') return false;
    params = rest.substr(1, rest.size() - 2);
    return params.find(')') == std::string_view::npos;
  }

  // `name: body`, `name(a, b): body`, or `name: {params: [a, b], do: body, doc: ...}`.
  void routine(const YAML::Node& key, const YAML::Node& n, std::vector<RoutineDecl>& into, const char* what) {
    bool is_function = std::string_view(what) == "function";
    RoutineDecl r;
    r.pos = pos(key);
    std::string k = key.Scalar();
    std::string_view name, params;
    if (!signature(k, name, params)) {
      error(key, fmt::format("'{}' is not a name, or a name with parameters like total(p)", k));
      return;
    }
    r.name = std::string(name);
    for (size_t i = 0; i < params.size();) {
      if (!name_start(params[i])) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < params.size() && name_char(params[j])) ++j;
      r.params.emplace_back(params.substr(i, j - i));
      i = j;
    }
    if (n.IsMap()) {
      check_keys(n, is_function ? keys::function : keys::procedure, is_function ? "a function" : "a procedure");
      if (auto x = n["params"]; x && x.IsSequence())
        for (const auto& e : x) r.params.push_back(scalar(e, "a parameter name"));
      if (is_function && n["value"] && n["do"])
        error(n["do"], fmt::format("'{}' has 'value:' and 'do:': a function is one or the other", r.name));
      else if (is_function && n["do"])
        r.body = text(n["do"]), r.computed = true;
      else if (auto x = n[is_function ? "value" : "do"])
        r.body = text(x);
      else
        error(key, is_function ? fmt::format("'{}' needs 'value:' (an expression) or 'do:' (statements ending with 'return')", r.name)
                               : fmt::format("'{}' needs 'do:'", r.name));
      if (auto x = n["doc"]) r.doc = scalar(x, "a description");
      if (auto x = n["show"]; x && !is_function) r.shown = boolean(x, "show").value_or(true);
    } else {
      r.body = text(n);
    }
    if (r.body.present()) {
      if (is_function && !r.computed) r.expr = parse_expression(r.body.text, r.body.where, diags_);
      else r.broken = !parse_program(r.body.text, r.body.where, diags_, r.block);
    }
    override_key(n, r.pos);
    replace(into, std::move(r), what);
  }

  // A condition, or in long form `{if: CONDITION, override: true}` (links and invariants).
  Text condition(const YAML::Node& n, const char* what) {
    if (!n.IsMap()) return text(n);
    check_keys(n, keys::overriding_condition, what);
    if (auto x = n["if"]) return text(x);
    error(n, fmt::format("{} written as a mapping needs 'if:', the condition", what));
    return {};
  }

  void link(const YAML::Node& key, const YAML::Node& n) {
    LinkDecl l{key.Scalar(), pos(key), condition(n, "a link"), nullptr};
    if (l.text.present()) l.expr = parse_expression(l.text.text, l.text.where, diags_);
    override_key(n, l.pos);
    replace(rf_.links, std::move(l), "link", &LinkDecl::kind);
  }

  void invariant(const YAML::Node& key, const YAML::Node& n) {
    InvariantDecl inv{key.Scalar(), pos(key), condition(n, "an invariant"), nullptr};
    if (inv.text.present()) inv.expr = parse_expression(inv.text.text, inv.text.where, diags_);
    override_key(n, inv.pos);
    replace(rf_.invariants, std::move(inv), "invariant");
  }

  void scoring(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(n, "'scoring' is a mapping (score:, parts:, tiebreak:, winners:, notes:)");
      return;
    }
    check_keys(n, keys::scoring, "scoring");
    ScoringDecl& s = rf_.scoring;
    s.pos = pos(n);
    if (auto x = n["score"]) {
      s.score = text(x);
      if (s.score.present()) s.score_expr = parse_expression(s.score.text, s.score.where, diags_);
    }
    if (auto x = n["parts"]) s.parts_pos = pos(x), score_parts(x, s);
    if (auto x = n["tiebreak"]) {
      // An expression, a list of them, or a mapping that names each (`{conquests: ...}`).
      std::vector<std::pair<std::string, YAML::Node>> items;
      std::vector<std::optional<Text>> joined;  // for each item, the text of items rejoined there
      std::set<std::string> seen;
      if (x.IsSequence()) {
        std::vector<YAML::Node> list(x.begin(), x.end());
        for (size_t i = 0; i < list.size(); ++i) {
          items.emplace_back("", list[i]);
          joined.resize(items.size());
          joined.back() = rejoin(x, list, i);
        }
      } else if (x.IsMap()) {
        for (auto it = x.begin(); it != x.end(); ++it) {
          if (!it->first.IsScalar()) {
            error(it->first, "keys must be plain names");
            continue;
          }
          if (!seen.insert(it->first.Scalar()).second)
            error(it->first, fmt::format("'{}' is declared twice in 'tiebreak'", it->first.Scalar()));
          items.emplace_back(it->first.Scalar(), it->second);
        }
      } else {
        items.emplace_back("", x);
      }
      s.tiebreak.clear();
      s.tiebreak_exprs.clear();
      s.tiebreak_names.clear();
      joined.resize(items.size());
      for (size_t i = 0; i < items.size(); ++i) {
        const auto& [name, e] = items[i];
        s.tiebreak.push_back(joined[i] ? std::move(*joined[i]) : text(e));
        if (s.tiebreak.back().present()) {
          s.tiebreak_exprs.push_back(parse_expression(s.tiebreak.back().text, s.tiebreak.back().where, diags_));
          s.tiebreak_names.push_back(name);
        }
      }
    }
    if (auto x = n["winners"]) {
      std::string w = scalar(x, "highest or lowest");
      if (w == "lowest") s.lowest_wins = true;
      else if (w != "highest") error(x, fmt::format("unknown winners rule '{}'; expected highest or lowest", w));
    }
    if (auto x = n["notes"]) s.notes_pos = pos(x), score_notes(x, s);
  }

  // `parts: {NAME: EXPRESSION, ...}`: the score's parts, in the order written.
  void score_parts(const YAML::Node& x, ScoringDecl& s) {
    s.parts.clear();
    if (!x.IsMap()) return error(x, "'parts' maps each part's name to its value for player p");
    std::set<std::string> seen;
    for (auto it = x.begin(); it != x.end(); ++it) {
      if (!it->first.IsScalar()) {
        error(it->first, "keys must be plain names");
        continue;
      }
      ScorePartDecl part{it->first.Scalar(), pos(it->first), text(it->second), nullptr};
      if (!seen.insert(part.name).second)
        error(it->first, fmt::format("'{}' is declared twice in 'parts'", part.name));
      if (part.text.present())
        part.expr = parse_expression(part.text.text, part.text.where, diags_);
      s.parts.push_back(std::move(part));
    }
  }

  // `notes: [{text: SENTENCE, when: CONDITION}, ...]`.
  void score_notes(const YAML::Node& x, ScoringDecl& s) {
    s.notes.clear();
    if (!x.IsSequence()) return error(x, "'notes' is a list of {text:, when:}");
    for (const auto& e : x) {
      if (!e.IsMap()) {
        error(e, "a note is a mapping (text:, when:)");
        continue;
      }
      check_keys(e, keys::note, "a note");
      ScoreNoteDecl note{pos(e), {}, {}, nullptr};
      if (auto t = e["text"])
        note.text = scalar(t, "a sentence");
      else
        error(e, "a note needs 'text:', the sentence shown");
      if (auto w = e["when"])
        note.when = text(w);
      else
        error(e, "a note needs 'when:', the condition under which it is shown");
      if (note.when.present())
        note.when_expr = parse_expression(note.when.text, note.when.where, diags_);
      s.notes.push_back(std::move(note));
    }
  }

  void board(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(n, "'board' is a mapping (points:, x:, y:, zone:, label:, seats:, marked:, marked_name:, empty_name:, coordinates:, turn:, lines:)");
      return;
    }
    check_keys(n, keys::board, "a board");
    BoardDecl b;
    b.pos = pos(n);
    auto expr = [&](const char* key, Text& t, ExprPtr& e) {
      if (auto v = n[key]) {
        t = text(v);
        if (t.present()) e = parse_expression(t.text, t.where, diags_);
      }
    };
    if (auto v = n["points"]) b.kind = scalar(v, "a component kind");
    else error(n, "a board needs 'points:', the kind of its points");
    expr("x", b.x, b.x_expr);
    expr("y", b.y, b.y_expr);
    expr("marked", b.marked, b.marked_expr);
    expr("turn", b.turn, b.turn_expr);
    if (!b.x_expr || !b.y_expr) error(n, "a board needs 'x:' and 'y:', where each point is drawn");
    if (auto v = n["zone"]) b.zone = scalar(v, "a zone"), b.zone_pos = pos(v);
    if (auto v = n["label"]) b.label = scalar(v, "a property"), b.label_pos = pos(v);
    if (auto v = n["seats"]) board_seats(v, b);
    if (auto v = n["marked_name"]) b.marked_name = scalar(v, "a word or two, what a marked point is");
    if (auto v = n["empty_name"]) b.empty_name = scalar(v, "a word or two, what an empty point is");
    if (auto v = n["lines"]) b.lines = boolean(v, "whether the text drawing draws the links");
    if (auto v = n["coordinates"]) {
      b.coordinates_pos = pos(v);
      if (!v.IsSequence()) error(v, "a board's 'coordinates:' is a list of the points' properties");
      else
        for (const auto& e : v) b.coordinates.push_back(scalar(e, "a property"));
    }
    rf_.board = std::move(b);
  }

  // `seats: [X, O]`: how each seat's pieces are drawn, in place of its number: one or two
  // characters, or one before the `label:` initial, so that a piece stays two wide.
  void board_seats(const YAML::Node& v, BoardDecl& b) {
    if (!v.IsSequence()) {
      error(v, "a board's 'seats:' is a list, how the pieces of P1, P2, ... are drawn ([X, O])");
      return;
    }
    size_t most = b.label.empty() ? 2 : 1;
    for (const auto& e : v) {
      std::string s = scalar(e, "a mark of one or two characters");
      bool plain = !s.empty() && s.size() <= most &&
                   std::all_of(s.begin(), s.end(), [](char c) { return c > ' ' && c < 127 && c != '.' && c != '*' && c != '?'; });
      if (!plain)
        error(e, most == 1 ? fmt::format("a seat's mark '{}' must be one character (not . * or ?): the piece's initial (label:) follows it", s)
                           : fmt::format("a seat's mark '{}' must be one or two characters (not . * or ?)", s));
      b.seats.push_back(s);
    }
  }

  void limits(const YAML::Node& n) {
    if (!n.IsMap()) {
      error(n, "'limits' is a mapping (decisions:, steps:, positions:)");
      return;
    }
    check_keys(n, keys::limits, "limits");
    if (auto x = n["decisions"]) rf_.max_decisions = integer(x, "a number of decisions").value_or(10000);
    if (auto x = n["steps"]) rf_.max_steps = integer(x, "a number of steps").value_or(1000000);
    if (rf_.max_decisions < 1 || rf_.max_decisions > 100000000) error(n, "decisions must be 1 to 100000000");
    if (rf_.max_steps < 1 || rf_.max_steps > 100000000) error(n, "steps must be 1 to 100000000");
    if (auto x = n["positions"]) {
      rf_.max_positions = integer(x, "a number of positions").value_or(256);
      if (rf_.max_positions < 1 || rf_.max_positions > max_remembered_positions)
        error(x, fmt::format("positions must be 1 to {}", max_remembered_positions));
    }
  }

  // A later declaration with the same name replaces an earlier one: this is how a file
  // overrides what it imported. Replacing one from another file without `override: true`
  // is a warning, at the declaration that replaces (the same file's twice is an error,
  // reported as it is read: for_each_entry).
  template <typename T, typename Field = std::string T::*>
  void replace(std::vector<T>& into, T item, const char* what, Field field = &T::name) {
    auto claim = imports_.overrides.find(key_of(item.pos));
    const std::string& name = item.*field;
    for (auto& e : into)
      if (e.*field == name) {
        if (claim != imports_.overrides.end()) claim->second.done = true;
        else if (e.pos.file != item.pos.file) overridden(e.pos, item.pos, what, name);
        e = std::move(item);
        return;
      }
    if (claim != imports_.overrides.end() && claim->second.nothing.empty()) {
      std::vector<std::string> imported;
      for (const auto& e : into)
        if (e.pos.file != item.pos.file) imported.push_back(e.*field);
      std::string near = diags_.wants_suggestions() ? closest_name(name, imported) : "";
      claim->second.nothing = fmt::format("{} '{}' is declared with 'override: true' but overrides nothing: no imported {} is named '{}'{}",
                                          what, name, what, name, near.empty() ? "" : fmt::format("; did you mean '{}'?", near));
    }
    into.push_back(std::move(item));
  }

  void overridden(Pos imported, Pos at, const char* what, const std::string& name) {
    const SourceFile& from = sources_.at(imported.file);
    auto was = imports_.written_as.find(key_of(imported));
    std::string as = was == imports_.written_as.end() ? "" : fmt::format(" as '{}'", was->second);
    diags_.warning(at,
                   fmt::format("{} '{}' overrides the one imported from '{}' (declared at {}:{}:{}{}); declare it with "
                               "'override: true' if that is meant",
                               what, name, printable(from.name), printable(from.name), imported.line, imported.col, as),
                   {{imported, "the imported declaration"}});
  }

  // `override: true` in a declaration's mapping: it replaces one of the same name that an
  // import declares (replace()).
  void override_key(const YAML::Node& n, Pos declared) {
    if (!n.IsMap()) return;
    if (auto x = n["override"]; x && boolean(x, "override").value_or(false)) imports_.overrides[key_of(declared)];
  }

 public:
  // Each `override: true` that replaced nothing, once the whole load is done.
  static void unfulfilled_overrides(const Imports& imports, Diagnostics& diags) {
    for (const auto& [at, claim] : imports.overrides)
      if (!claim.done) diags.error(Pos{std::get<0>(at), std::get<1>(at), std::get<2>(at)}, claim.nothing);
  }

 private:
  // Every key and value of the file, before any is read: mappings and lists at most
  // max_yaml_depth deep, text values at most max_text_length long, and no control
  // characters (which YAML's escapes, "\e", can write). Iterative, in the file's order.
  //
  // An alias (`*name`) stands for the whole node its anchor (`&name`) names, and the loader
  // reads it there again, so aliases are counted: each node reached again through one
  // counts one, and a text value also its length, at most max_alias_repeats in all. Beyond,
  // the file is refused at the mapping or list that holds the alias: a "billion laughs"
  // (anchors naming lists of aliases of anchors) is a few lines that stand for 10^9 nodes,
  // and a 1 MiB text named by thousands of aliases for gigabytes. A node is checked the
  // first time only.
  static bool values_ok(const YAML::Node& root, int file, Diagnostics& diags, std::string_view kind) {
    auto at = [&](const YAML::Node& n) {
      auto m = n.Mark();
      return m.is_null() ? Pos{file, 1, 1} : Pos{file, m.line + 1, m.column + 1};
    };
    struct Visit {
      YAML::Node node;
      int depth;
      Pos written;  // the innermost mapping or list around it that the file writes out
    };
    std::vector<Visit> stack = {{root, 1, Pos{file, 1, 1}}};
    std::set<std::pair<int, int>> seen;  // by position and kind: an alias is its anchor's node
    size_t repeated = 0;
    std::vector<YAML::Node> kids;
    while (!stack.empty()) {
      Visit v = std::move(stack.back());
      stack.pop_back();
      const YAML::Node& n = v.node;
      bool first = seen.insert({n.Mark().pos, static_cast<int>(n.Type())}).second;
      if (!first) {
        repeated += 1 + (n.IsScalar() ? n.Scalar().size() : 0);
        if (repeated > max_alias_repeats) {
          diags.error(v.written, fmt::format("aliases repeat too much: more than {} nodes and characters in all "
                                             "(each '*name' counts all that its anchor names, each time)",
                                             max_alias_repeats));
          return false;
        }
      }
      if (n.IsScalar()) {
        if (!first) continue;
        const std::string& s = n.Scalar();
        if (s.size() > max_text_length) {
          diags.error(at(n), "a text value longer than 1 MiB");
          return false;
        }
        bool invalid_utf8 = false;
        if (size_t b = bad_byte(s, invalid_utf8); b != std::string::npos) {
          diags.error(at(n), bad_byte_message(s, b, invalid_utf8, kind) + " (written with an escape)");
          return false;
        }
        continue;
      }
      if (!n.IsMap() && !n.IsSequence()) continue;
      if (v.depth > max_yaml_depth) {
        diags.error(at(n), fmt::format("nested too deeply (at most {} levels of mappings and lists)", max_yaml_depth));
        return false;
      }
      kids.clear();
      for (auto it = n.begin(); it != n.end(); ++it) {
        if (n.IsMap()) {
          kids.push_back(it->first);
          kids.push_back(it->second);
        } else {
          kids.push_back(*it);
        }
      }
      Pos written = first ? at(n) : v.written;
      // Pushed last first, so that they come off the stack in the file's order: an anchor is
      // met before its aliases.
      for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back({*k, v.depth + 1, written});
    }
    return true;
  }

 public:
  // See read_yaml (rulefile.hpp).
  static bool read(const Sources& sources, int file, Diagnostics& diags, YAML::Node& root, std::string_view kind) {
    const std::string& text = sources.at(file).text;
    bool invalid_utf8 = false;
    if (size_t at = bad_byte(text, invalid_utf8); at != std::string::npos) {
      diags.error(sources.at(file).pos_at(file, at), bad_byte_message(text, at, invalid_utf8, kind));
      return false;
    }
    try {
      root = YAML::Load(text);
    } catch (const YAML::DeepRecursion& e) {
      Pos p{file, e.mark.is_null() ? 1 : e.mark.line + 1, e.mark.is_null() ? 1 : e.mark.column + 1};
      diags.error(p, fmt::format("nested too deeply (at most {} levels of mappings and lists)", max_yaml_depth));
      return false;
    } catch (const YAML::Exception& e) {
      Pos p{file, e.mark.is_null() ? 1 : e.mark.line + 1, e.mark.is_null() ? 1 : e.mark.column + 1};
      diags.error(p, fmt::format("malformed YAML: {}", e.msg));
      return false;
    }
    return values_ok(root, file, diags, kind);
  }

  static void load_yaml(Sources& sources, Diagnostics& diags, int file, RuleFile& rf, Imports& imports) {
    YAML::Node root;
    if (!read(sources, file, diags, root, "a rule file")) return;
    try {
      Loader(sources, diags, file, rf, imports).load_root(root);
    } catch (const YAML::Exception& e) {
      // Every access is guarded; this is the net under them, so no input can crash kata.
      Pos p{file, e.mark.is_null() ? 1 : e.mark.line + 1, e.mark.is_null() ? 1 : e.mark.column + 1};
      diags.error(p, fmt::format("unexpected YAML here: {}", e.msg));
    }
  }

 private:
  Sources& sources_;
  Diagnostics& diags_;
  int file_;
  RuleFile& rf_;
  Imports& imports_;
};

std::unique_ptr<RuleFile> load(int file, Sources& sources, Diagnostics& diags) {
  auto rf = std::make_unique<RuleFile>();
  rf->file = file;
  Imports imports;
  std::string key = canonical(sources.at(file).path);
  imports.chain.emplace_back(key, sources.at(file).name);
  imports.loaded.insert(key);
  Loader::load_yaml(sources, diags, file, *rf, imports);
  Loader::unfulfilled_overrides(imports, diags);
  if (rf->game.empty() && !diags.has_errors())
    diags.error(Pos{file, 1, 1}, "a rule file needs 'game:', the game's name");
  return rf;
}

}  // namespace

std::string stdlib_dir() {
  if (const char* env = std::getenv("KATA_STDLIB"); env && *env) return env;
  std::vector<fs::path> tries;
  // Installed, the stdlib is at the same place relative to the program whatever the
  // prefix (GNUInstallDirs' bin/ and share/, KATA_STDLIB_FROM_BINDIR), so a moved
  // installation still finds it; in the build tree, that place does not exist.
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) tries.push_back((exe.parent_path() / KATA_STDLIB_FROM_BINDIR).lexically_normal());
  tries.push_back(KATA_STDLIB_DIR);
  for (const auto& p : tries)
    if (fs::is_directory(p, ec)) return p.string();
  return {};
}

bool read_yaml(const Sources& sources, int file, Diagnostics& diags, YAML::Node& root, std::string_view kind) {
  return Loader::read(sources, file, diags, root, kind);
}

std::unique_ptr<RuleFile> load_rule_file(const std::string& path, Sources& sources,
                                         Diagnostics& diags) {
  std::string text, why;
  if (!read_source(path, text, why)) {
    // At the file's start, so that every output (--json too) has a position to name.
    diags.error(Pos{sources.add(path, path, std::string()), 1, 1}, why);
    return nullptr;
  }
  return load(sources.add(path, path, std::move(text)), sources, diags);
}

std::unique_ptr<RuleFile> load_rule_text(const std::string& name, const std::string& text,
                                         Sources& sources, Diagnostics& diags) {
  return load(sources.add(name, name, text), sources, diags);
}

}  // namespace kata
