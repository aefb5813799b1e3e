// kata lsp: a Language Server Protocol server over standard input and output, for editors.
// It reads JSON-RPC messages framed by `Content-Length:` headers (nlohmann-json parses
// them), keeps the text of each open rule file or scenario, and on every open and change
// loads and checks it as `kata check` does (runs a scenario as `kata test` does),
// publishing each error and warning with its range; and answers hover, go to definition
// references, rename and completion from the checked file's cross-reference (check/xref).
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "check/checker.hpp"
#include "check/xref.hpp"
#include "compile/compiler.hpp"
#include "scenario/scenario.hpp"
#include "syntax/keys.hpp"
#include "syntax/keywords.hpp"
#include "syntax/parse.hpp"
#include "syntax/source.hpp"

namespace kata::cli {

namespace {

using nlohmann::json;

// The largest message read: a rule file is at most 4 MiB (max_source_size), and JSON may
// escape each of its bytes in six.
constexpr size_t max_message = 32u << 20;
// The most diagnostics published for one document, the first found.
constexpr size_t max_published = 1000;

// JSON-RPC error codes (the LSP specification's).
constexpr int parse_error = -32700, invalid_request = -32600, method_not_found = -32601,
              invalid_params = -32602, server_not_initialized = -32002, request_failed = -32803;

// The LSP's CompletionItemKind of each kind of declaration.
int completion_kind(const std::string& what) {
  if (what == "function") return 3;
  if (what == "procedure" || what == "phase") return 2;  // method
  if (what == "component") return 7;                     // class
  if (what == "zone" || what == "variable") return 6;    // variable
  if (what == "option") return 21;                       // constant
  if (what == "action") return 23;                       // event
  return 1;
}

// Reads one message's body; false at the end of input or when the framing is broken
// (`why` says how: there is no way to find the next message then).
bool read_message(std::istream& in, std::string& body, std::string& why) {
  size_t length = 0;
  bool has_length = false;
  for (std::string line;;) {
    if (!std::getline(in, line)) {
      if (has_length) why = "the input ended inside a message's header";
      return false;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    if (line.size() > 1000) {
      why = "a header line longer than 1000 characters";
      return false;
    }
    const std::string key = "Content-Length:";
    if (line.size() >= key.size() && strncasecmp(line.c_str(), key.c_str(), key.size()) == 0) {
      std::string digits = line.substr(key.size());
      digits.erase(0, digits.find_first_not_of(' '));
      if (digits.empty() || digits.size() > 10 || digits.find_first_not_of("0123456789") != std::string::npos) {
        why = "a Content-Length that is not a number: '" + printable(digits) + "'";
        return false;
      }
      length = std::stoull(digits);
      has_length = true;
    }
  }
  if (!has_length) {
    why = "a message without a Content-Length header";
    return false;
  }
  if (length > max_message) {
    why = "a message of " + std::to_string(length) + " bytes, more than the 32 MiB kata lsp reads";
    return false;
  }
  body.assign(length, '\0');
  if (!in.read(body.data(), static_cast<std::streamsize>(length))) {
    why = "the input ended inside a message";
    return false;
  }
  return true;
}

void send(const json& message) {
  std::string body = message.dump(-1, ' ', false, json::error_handler_t::replace);
  std::cout << "Content-Length: " << body.size() << "\r\n\r\n" << body << std::flush;
}

void respond(const json& id, const json& result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}); }

void fail(const json& id, int code, const std::string& message) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

// The path a `file://` URI names (percent-escapes decoded); another URI as it is.
std::string uri_path(const std::string& uri) {
  const std::string scheme = "file://";
  if (uri.rfind(scheme, 0) != 0) return uri;
  std::string out;
  for (size_t i = scheme.size(); i < uri.size(); ++i) {
    auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); };
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) && hex(uri[i + 2])) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// The UTF-16 code units (LSP's default unit of a character offset) in the first `bytes`
// bytes of `line`: a four-byte UTF-8 sequence is two units, a malformed byte one.
int utf16_units(std::string_view line, size_t bytes) {
  int units = 0;
  for (size_t i = 0; i < std::min(bytes, line.size());) {
    size_t n = utf8_length(line, i);
    units += n == 4 ? 2 : 1;
    i += n ? n : 1;
  }
  return units;
}

// Whether a line of `text` starts with `key` (a top-level key of a YAML mapping).
bool has_key_line(const std::string& text, const std::string& key) {
  for (size_t at = 0; at < text.size(); ++at) {
    if (text.compare(at, key.size(), key) == 0) return true;
    at = text.find('\n', at);
    if (at == std::string::npos) break;
  }
  return false;
}

// The byte column (1-based) of UTF-16 offset `units` in `line`.
int byte_column(std::string_view line, int units) {
  size_t i = 0;
  for (int u = 0; u < units && i < line.size();) {
    size_t n = utf8_length(line, i);
    u += n == 4 ? 2 : 1;
    i += n ? n : 1;
  }
  return static_cast<int>(i) + 1;
}

// A file:// URI for a path, with what a URI cannot hold escaped.
std::string path_uri(const std::string& path) {
  std::string out = "file://";
  for (unsigned char c : path)
    if (std::isalnum(c) || std::strchr("/-._~", c)) out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  return out;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

// A line's indentation, counting a list item's "- " as indentation.
size_t indent_of(std::string_view line, bool* item = nullptr) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos) return line.size();
  if (item) *item = false;
  while (i + 1 < line.size() && line[i] == '-' && line[i + 1] == ' ') {
    if (item) *item = true;
    i = line.find_first_not_of(' ', i + 1);
    if (i == std::string_view::npos) return line.size();
  }
  return i;
}

// The keys of the YAML mappings that enclose line `n` of `lines`, outermost first, read
// from the indentation (a list's items belong to the key above the list): on the `do:` line
// of an action, {"actions", "take"}.
std::vector<std::string> key_path(const std::vector<std::string_view>& lines, size_t n, size_t indent) {
  std::vector<std::string> path;
  for (size_t i = n; i-- > 0 && indent > 0;) {
    std::string_view l = lines[i];
    size_t first = l.find_first_not_of(' ');
    if (first == std::string_view::npos || l[first] == '#') continue;
    bool item = false;
    size_t at = indent_of(l, &item);
    size_t dash = first;
    if (item && dash < indent) {
      // A list item above: its keys are the cursor's siblings if the cursor is inside it.
      indent = dash;
      continue;
    }
    if (at >= indent) continue;
    size_t colon = l.find(':', at);
    if (colon == std::string_view::npos) continue;
    std::string key(l.substr(at, colon - at));
    while (!key.empty() && key.back() == ' ') key.pop_back();
    if (auto paren = key.find('('); paren != std::string::npos) key = key.substr(0, paren);  // twice(n)
    if (!key.empty() && (key.front() == '"' || key.front() == '\'')) key = key.substr(1, key.size() - 2);
    path.insert(path.begin(), key);
    indent = item ? dash : at;
  }
  return path;
}

// The text of the value the cursor is in, from just after its key's ':' to the cursor:
// the key is the nearest line above (or the cursor's own) that holds `key:` and is less
// indented than the text below it.
std::string text_before(const std::vector<std::string_view>& lines, size_t n, std::string_view before) {
  std::string text(before);
  size_t indent = indent_of(before);
  auto key_colon = [](std::string_view l, size_t at) {
    size_t colon = l.find(':', at);
    bool key = colon != std::string_view::npos && (colon + 1 == l.size() || l[colon + 1] == ' ') &&
               l.substr(at, colon - at).find_first_of(" \"'{[(") == std::string_view::npos;
    return key ? colon : std::string_view::npos;
  };
  if (size_t c = key_colon(before, indent); c != std::string_view::npos) return text.substr(c + 1);
  for (size_t i = n; i-- > 0;) {
    std::string_view l = lines[i];
    size_t at = indent_of(l);
    if (at >= l.size()) {
      text.insert(0, "\n");
      continue;
    }
    if (size_t c = key_colon(l, at); at < indent && c != std::string_view::npos)
      return std::string(l.substr(c + 1)) + "\n" + text;
    text.insert(0, std::string(l) + "\n");
    indent = std::min(indent, at);
  }
  return text;
}

// The names that `let`, `for NAME in` and aggregates (`count(p in ...)`, `sum(x.v for x in
// ...)`) bind where the text ends: each `{`, `(` or `[` opens a scope its closing bracket
// ends; a statement's `for` binds in the block it opens, an aggregate's in its brackets.
// Strings (whose `{...}` are templates) and comments are skipped.
std::vector<std::string> locals_in_scope(const std::string& text) {
  std::vector<std::vector<std::string>> scopes(1);
  std::vector<char> opened;
  std::vector<std::string> pending;  // a statement's `for` names, for the `{` to come
  std::vector<std::string> words;    // the words since the last bracket
  std::vector<std::pair<size_t, std::string>> lets;  // `let` names and their depth, until the line ends
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
      i = j + 1;
    } else if (c == '#') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
    } else if (word_char(c)) {
      size_t j = i;
      while (j < text.size() && word_char(text[j])) ++j;
      std::string w = text.substr(i, j - i);
      size_t n = words.size();
      bool in_brackets = !opened.empty() && opened.back() != '{';
      if (w == "in" && n >= 1 && (n == 1 || words[n - 2] == "for") && !std::isdigit(static_cast<unsigned char>(words[n - 1][0]))) {
        if (n >= 2 && !in_brackets) pending.push_back(words[n - 1]);
        else if (n == 1 && !in_brackets) {
        } else scopes.back().push_back(words[n - 1]);
      } else if (n >= 1 && words[n - 1] == "let") {
        lets.emplace_back(opened.size(), w);  // in scope from the next line: not in its own value
      }
      words.push_back(w);
      i = j;
    } else {
      if (c == '{' || c == '(' || c == '[') {
        opened.push_back(c);
        scopes.emplace_back();
        if (c == '{') scopes.back().swap(pending), pending.clear();
        words.clear();
      } else if ((c == '}' || c == ')' || c == ']') && !opened.empty()) {
        opened.pop_back();
        scopes.pop_back();
        std::erase_if(lets, [&](const auto& l) { return l.first > opened.size(); });
        words.clear();
      } else if (c == '\n' || c == ',') {
        if (opened.empty() || opened.back() == '{') words.clear();
        if (c == '\n')
          std::erase_if(lets, [&](const auto& l) {
            if (l.first != opened.size()) return false;
            scopes.back().push_back(l.second);
            return true;
          });
      }
      ++i;
    }
  }
  std::vector<std::string> out;
  for (auto s = scopes.rbegin(); s != scopes.rend(); ++s) out.insert(out.end(), s->rbegin(), s->rend());
  return out;
}

// The keys a mapping at `path` may hold (syntax/keys.hpp), or none.
const keys::List* keys_at(const std::vector<std::string>& path, bool scenario) {
  size_t n = path.size();
  auto is = [&](size_t i, const char* key) { return i < n && path[i] == key; };
  if (scenario) {
    if (n == 0) return &keys::scenario;
    if (n == 1 && is(0, "position")) return &keys::position;
    if (n == 3 && is(0, "position") && is(1, "zones")) return &keys::position_card;
    if (n == 1 && is(0, "steps")) return &keys::step;
    return nullptr;
  }
  if (n == 0) return &keys::rule_file;
  if (n == 1) {
    if (is(0, "scoring")) return &keys::scoring;
    if (is(0, "board")) return &keys::board;
    if (is(0, "limits")) return &keys::limits;
    if (is(0, "import")) return &keys::import;
  }
  if (n == 2) {
    if (is(0, "options")) return &keys::option;
    if (is(0, "components")) return &keys::component;
    if (is(0, "zones")) return &keys::zone;
    if (is(0, "variables")) return &keys::variable;
    if (is(0, "actions")) return &keys::action;
    if (is(0, "functions")) return &keys::function;
    if (is(0, "procedures") || is(0, "phases")) return &keys::procedure;
    if (is(0, "scoring") && is(1, "notes")) return &keys::note;
  }
  if (n == 3 && is(0, "variables") && is(2, "show")) return &keys::variable_show;
  if (n == 3 && is(0, "actions") && is(2, "when")) return &keys::condition;
  if (n == 4 && is(0, "actions") && is(2, "params")) return &keys::parameter;
  return nullptr;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// An LSP range for a diagnostic at `pos`: from it to the end of the word there (one
// character if none starts there), in the document's lines.
json range_at(const SourceFile& file, Pos pos) {
  int line = std::max(pos.line, 1);
  std::string_view text = line <= static_cast<int>(file.line_starts.size()) ? file.line(line) : std::string_view();
  size_t start = std::min(static_cast<size_t>(std::max(pos.col, 1) - 1), text.size());
  size_t end = start;
  while (end < text.size() && word_char(text[end])) ++end;
  if (end == start && end < text.size()) end += std::max<size_t>(utf8_length(text, end), 1);
  auto position = [&](size_t byte) { return json{{"line", line - 1}, {"character", utf16_units(text, byte)}}; };
  return {{"start", position(start)}, {"end", position(end)}};
}

class Server {
 public:
  // Handles one message; false when the server is to exit (`exit`), with `status` set.
  bool handle(const json& m, int& status) {
    if (!m.is_object() || !m.contains("method") || !m["method"].is_string()) {
      if (m.is_object() && m.contains("id")) fail(m["id"], invalid_request, "a request needs a method");
      return true;  // a response from the client, or nothing we can answer
    }
    std::string method = m["method"];
    bool request = m.contains("id");
    json id = request ? m["id"] : json();
    const json params = m.value("params", json::object());
    if (method == "exit") {
      status = shut_down_ ? 0 : 1;
      return false;
    }
    if (method == "initialize") {
      initialized_ = true;
      respond(id, {{"capabilities",
                    {{"textDocumentSync", {{"openClose", true}, {"change", 1}}},
                     {"hoverProvider", true},
                     {"definitionProvider", true},
                     {"referencesProvider", true},
                     {"renameProvider", true},
                     {"completionProvider", json::object()}}},
                   {"serverInfo", {{"name", "kata"}, {"version", KATA_VERSION}}}});
      return true;
    }
    if (!initialized_) {
      if (request) fail(id, server_not_initialized, "the server has not been initialized");
      return true;
    }
    if (method == "shutdown") {
      shut_down_ = true;
      respond(id, nullptr);
      return true;
    }
    try {
      if (method == "textDocument/didOpen" || method == "textDocument/didChange") {
        const json& doc = params.at("textDocument");
        std::string uri = doc.at("uri").get<std::string>();
        std::string text = method == "textDocument/didOpen" ? doc.at("text").get<std::string>()
                                                             : params.at("contentChanges").back().at("text").get<std::string>();
        documents_[uri] = text;
        publish(uri);
        return true;
      }
      if (method == "textDocument/completion") {
        const json& position = params.at("position");
        respond(id, completion(params.at("textDocument").at("uri").get<std::string>(), position.at("line").get<int>(),
                               position.at("character").get<int>()));
        return true;
      }
      if (method == "textDocument/rename") {
        std::string uri = params.at("textDocument").at("uri").get<std::string>();
        const json& position = params.at("position");
        std::string error;
        json edit = rename(uri, position.at("line").get<int>(), position.at("character").get<int>(),
                           params.at("newName").get<std::string>(), error);
        if (error.empty()) respond(id, edit);
        else fail(id, request_failed, error);
        return true;
      }
      if (method == "textDocument/hover" || method == "textDocument/definition" ||
          method == "textDocument/references") {
        std::string uri = params.at("textDocument").at("uri").get<std::string>();
        const json& position = params.at("position");
        int line = position.at("line").get<int>(), character = position.at("character").get<int>();
        respond(id, answer(method, uri, line, character, params.value("context", json::object()).value("includeDeclaration", true)));
        return true;
      }
      if (method == "textDocument/didClose") {
        std::string uri = params.at("textDocument").at("uri").get<std::string>();
        documents_.erase(uri);
        indexes_.erase(uri);
        send({{"jsonrpc", "2.0"},
              {"method", "textDocument/publishDiagnostics"},
              {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
        return true;
      }
    } catch (const json::exception& e) {
      if (request) fail(id, invalid_params, std::string("bad parameters: ") + e.what());
      return true;
    }
    if (request) fail(id, method_not_found, "kata lsp does not serve " + printable(method));
    return true;  // notifications it does not know are ignored, as the protocol says
  }

 private:
  // Checks the document and publishes its diagnostics; those found in a file it imports
  // are shown at its first line, naming the file and the place.
  void publish(const std::string& uri) {
    std::string path = uri_path(uri);
    const std::string& text = documents_[uri];
    std::shared_ptr<Sources> sources;
    Diagnostics rule_diags;
    ScenarioResult scenario;
    bool is_scenario = !is_rule_text(text) && has_key_line(text, "rules:");
    if (is_scenario) {
      scenario = run_scenario_text(path, text);
      sources = scenario.sources;
    } else {
      load_game_text(path, text, sources, rule_diags);
    }
    index(uri, path, text, is_scenario);
    const Diagnostics& diags = is_scenario ? scenario.diags : rule_diags;
    json list = json::array();
    for (const Diagnostic& d : diags.items()) {
      if (list.size() >= max_published) break;
      json item = {{"severity", d.severity == Severity::error ? 1 : 2}, {"source", "kata"}, {"message", d.message}};
      const SourceFile* file = sources && d.pos.valid() ? &sources->at(d.pos.file) : nullptr;
      if (file && d.pos.file == 0) {
        item["range"] = range_at(*file, d.pos);
      } else {
        item["range"] = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}};
        if (file)
          item["message"] = fmt::format("in {}:{}:{}: {}", file->name, d.pos.line, d.pos.col, d.message);
      }
      json related = json::array();
      for (const Note& n : d.notes)
        if (sources && n.pos.valid() && n.pos.file == 0)
          related.push_back({{"location", {{"uri", uri}, {"range", range_at(sources->at(0), n.pos)}}}, {"message", n.message}});
      if (!related.empty()) item["relatedInformation"] = related;
      list.push_back(item);
    }
    send({{"jsonrpc", "2.0"},
          {"method", "textDocument/publishDiagnostics"},
          {"params", {{"uri", uri}, {"diagnostics", list}}}});
  }

  // The cross-reference of a rule file (not of a scenario), read and checked again on its
  // own Sources: the game's load hands its RuleFile to the compiler.
  struct Index {
    Sources sources;
    std::unique_ptr<RuleFile> rules;  // as checked
    XRef xref;
  };

  void index(const std::string& uri, const std::string& path, const std::string& text, bool is_scenario) {
    indexes_.erase(uri);
    if (is_scenario) return;
    auto idx = std::make_unique<Index>();
    Diagnostics ignored;
    auto rf = load_rule_text(path, text, idx->sources, ignored);
    if (!rf) return;
    Symbols symbols;
    check_rules(*rf, symbols, ignored);
    idx->xref = cross_reference(*rf);
    idx->rules = std::move(rf);
    indexes_[uri] = std::move(idx);
  }

  // A Location: in the document (`uri`) or in a file it imports.
  json location(const std::string& uri, const Index& idx, Pos pos, int length) const {
    const SourceFile& f = idx.sources.at(pos.file);
    json r = range_at(f, pos);
    std::string_view text = f.line(pos.line);
    r["end"]["character"] = utf16_units(text, static_cast<size_t>(pos.col - 1 + length));
    return {{"uri", pos.file == 0 ? uri : path_uri(f.path)}, {"range", r}};
  }

  json answer(const std::string& method, const std::string& uri, int line, int character, bool with_declaration) {
    auto it = indexes_.find(uri);
    if (it == indexes_.end() || line < 0 || line >= static_cast<int>(it->second->sources.at(0).line_starts.size()))
      return method == "textDocument/references" ? json::array() : json(nullptr);
    const Index& idx = *it->second;
    Pos pos{0, line + 1, byte_column(idx.sources.at(0).line(line + 1), character)};
    int d = idx.xref.at(pos);
    if (d < 0) return method == "textDocument/references" ? json::array() : json(nullptr);
    const XDeclaration& decl = idx.xref.declarations[static_cast<size_t>(d)];
    int length = static_cast<int>(decl.name.size());
    if (method == "textDocument/definition") return location(uri, idx, decl.pos, length);
    if (method == "textDocument/references") {
      json list = json::array();
      if (with_declaration) list.push_back(location(uri, idx, decl.pos, length));
      for (const XUse& u : idx.xref.uses)
        if (u.declaration == d) list.push_back(location(uri, idx, u.pos, u.length));
      std::sort(list.begin(), list.end(), [](const json& a, const json& b) {
        auto key = [](const json& l) {
          return std::make_tuple(l["uri"].get<std::string>(), l["range"]["start"]["line"].get<int>(),
                                 l["range"]["start"]["character"].get<int>());
        };
        return key(a) < key(b);
      });
      return list;
    }
    std::string value = fmt::format("**{}** `{}`", decl.what, decl.name);
    if (!decl.detail.empty()) value += "\n\n```\n" + decl.detail + "\n```";
    if (!decl.doc.empty()) value += "\n\n" + decl.doc;
    if (decl.pos.file != 0) value += "\n\n(from " + idx.sources.at(decl.pos.file).name + ")";
    return {{"contents", {{"kind", "markdown"}, {"value", value}}}};
  }

  // Every name declared for the document (its own and its imports'), the built-in
  // functions and the words of the language; the editor filters them by what is typed.
  //
  // Where a key of a YAML mapping is being typed (only a word so far on the line), the keys
  // that mapping may hold instead. Inside an action, function or procedure, its parameters
  // (and an action's `player`) come first.
  json completion(const std::string& uri, int line, int character) const {
    json items = json::array();
    std::set<std::string> seen;
    auto add = [&](const std::string& label, int kind, const std::string& detail) {
      if (seen.insert(label).second) items.push_back({{"label", label}, {"kind", kind}, {"detail", detail}});
    };
    auto doc = documents_.find(uri);
    std::vector<std::string_view> lines = doc == documents_.end() ? std::vector<std::string_view>{} : lines_of(doc->second);
    std::vector<std::string> path;
    if (line >= 0 && static_cast<size_t>(line) < lines.size()) {
      std::string_view l = lines[static_cast<size_t>(line)];
      std::string_view before = l.substr(0, static_cast<size_t>(byte_column(l, character) - 1));
      size_t indent = indent_of(before);
      path = key_path(lines, static_cast<size_t>(line), indent);
      std::string_view typed = before.substr(std::min(indent, before.size()));
      bool at_key = std::all_of(typed.begin(), typed.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
      bool scenario = !is_rule_text(doc->second) && has_key_line(doc->second, "rules:");
      if (at_key)
        if (const keys::List* keys = keys_at(path, scenario)) {
          for (const std::string& k : *keys) add(k, 10, "key");
          return items;
        }
    }
    if (line >= 0 && static_cast<size_t>(line) < lines.size()) {
      std::string_view l = lines[static_cast<size_t>(line)];
      std::string_view before = l.substr(0, static_cast<size_t>(byte_column(l, character) - 1));
      for (const std::string& name : locals_in_scope(text_before(lines, static_cast<size_t>(line), before)))
        add(name, 6, "a name bound here (let, for or an aggregate)");
    }
    auto it = indexes_.find(uri);
    if (it != indexes_.end() && path.size() >= 2) {
      const RuleFile& rf = *it->second->rules;
      if (path[0] == "actions")
        for (const ActionDecl& a : rf.actions)
          if (a.name == path[1]) {
            for (const ParamDecl& p : a.params) add(p.name, 6, "parameter of " + a.name);
            add("player", 6, "the player who takes " + a.name);
          }
      for (const char* section : {"functions", "procedures", "phases"})
        if (path[0] == section)
          for (const auto* list : {&rf.functions, &rf.procedures, &rf.phases})
            for (const RoutineDecl& r : *list)
              if (r.name == path[1])
                for (const std::string& p : r.params) add(p, 6, "parameter of " + r.name);
    }
    if (it != indexes_.end())
      for (const XDeclaration& d : it->second->xref.declarations)
        add(d.name, completion_kind(d.what), d.what + (d.doc.empty() ? "" : ": " + d.doc.substr(0, 80)));
    for (const std::string& b : builtin_names()) add(b, 3, "built-in function");
    for (const char* k : keyword_texts) add(k, 14, "keyword");
    return items;
  }

  // A WorkspaceEdit renaming the declaration under the cursor and every use of it, or
  // `error` saying why not: only a name declared in the document itself, to a name that is
  // an identifier, not a word of the language and not declared already; every place must
  // still read as the old name (a place that does not is refused rather than half renamed).
  json rename(const std::string& uri, int line, int character, const std::string& to, std::string& error) {
    auto it = indexes_.find(uri);
    if (it == indexes_.end() || line < 0 || line >= static_cast<int>(it->second->sources.at(0).line_starts.size())) {
      error = "nothing to rename here";
      return nullptr;
    }
    const Index& idx = *it->second;
    int d = idx.xref.at(Pos{0, line + 1, byte_column(idx.sources.at(0).line(line + 1), character)});
    if (d < 0) {
      error = "only a declared name (an option, component, zone, variable, action, function, procedure or phase) can be renamed";
      return nullptr;
    }
    const XDeclaration& decl = idx.xref.declarations[static_cast<size_t>(d)];
    if (decl.pos.file != 0) {
      error = "'" + decl.name + "' is declared in " + idx.sources.at(decl.pos.file).name + "; rename it there (or with the import's rename:)";
      return nullptr;
    }
    // The checker's rule for a declared name (name_fault), and not longer than a person types.
    std::string fault = to.size() > 200 ? "is not a name: longer than 200 characters" : name_fault(to);
    if (!fault.empty()) {
      error = "'" + printable(to) + "' " + fault;
      return nullptr;
    }
    for (const XDeclaration& other : idx.xref.declarations)
      if (other.name == to) {
        error = "'" + to + "' is already the name of a " + other.what;
        return nullptr;
      }
    std::vector<std::pair<Pos, int>> places = {{decl.pos, static_cast<int>(decl.name.size())}};
    for (const XUse& u : idx.xref.uses)
      if (u.declaration == d) places.push_back({u.pos, u.length});
    json edits = json::array();
    for (const auto& [pos, length] : places) {
      if (pos.file != 0) {  // an imported file uses it: renaming here would break that file
        error = fmt::format("'{}' is used in {} (line {}), which this file imports; rename it there too, by hand",
                            decl.name, idx.sources.at(pos.file).name, pos.line);
        return nullptr;
      }
      std::string_view l = idx.sources.at(0).line(pos.line);
      if (static_cast<size_t>(pos.col - 1 + length) > l.size() || l.substr(static_cast<size_t>(pos.col - 1), static_cast<size_t>(length)) != decl.name) {
        error = fmt::format("'{}' at line {}, column {} is not written as the name; rename it by hand", decl.name, pos.line, pos.col);
        return nullptr;
      }
      edits.push_back({{"range", location(uri, idx, pos, length)["range"]}, {"newText", to}});
    }
    return {{"changes", {{uri, edits}}}};
  }

  std::map<std::string, std::unique_ptr<Index>> indexes_;  // by URI
  bool initialized_ = false, shut_down_ = false;
  std::map<std::string, std::string> documents_;  // by URI: the text the editor holds
};

}  // namespace

int lsp() {
  std::ios::sync_with_stdio(false);
  Server server;
  std::string body, why;
  while (read_message(std::cin, body, why)) {
    json m = json::parse(body, nullptr, false);
    if (m.is_discarded()) {
      send({{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", parse_error}, {"message", "not JSON"}}}});
      continue;
    }
    int status = 0;
    if (!server.handle(m, status)) return status;
  }
  if (!why.empty()) {
    std::cerr << "kata lsp: error: " << why << "\n";
    return input_error;
  }
  return 1;  // the input ended without `exit`
}

}  // namespace kata::cli
