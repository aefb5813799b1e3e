// kata lsp, driven through its standard input and output as an editor drives it: recorded
// sessions of framed JSON-RPC messages, and input that breaks the protocol.
#include <catch2/catch.hpp>
#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "support.hpp"

using nlohmann::json;
using kata::test::has;
using kata::test::run_kata;

namespace {

std::string frame(const json& m) {
  std::string body = m.dump();
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

json request(int id, const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
}

json notification(const std::string& method, const json& params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", params}};
}

json open(const std::string& uri, const std::string& text) {
  return notification("textDocument/didOpen",
                      {{"textDocument", {{"uri", uri}, {"languageId", "yaml"}, {"version", 1}, {"text", text}}}});
}

json change(const std::string& uri, const std::string& text) {
  return notification("textDocument/didChange",
                      {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", {{{"text", text}}}}});
}

struct Session {
  int status;
  std::vector<json> messages;  // what the server wrote, in order
  std::string rest;            // what was not a framed message (standard error, with 2>&1)
};

// Runs `kata lsp` on the messages (and `extra` raw bytes after them).
Session run(const std::vector<json>& messages, const std::string& extra = "") {
  std::string input;
  for (const json& m : messages) input += frame(m);
  input += extra;
  auto r = run_kata("lsp", input);
  Session s{r.status, {}, {}};
  std::string out = r.out;
  for (size_t at = 0; at < out.size();) {
    size_t header = out.find("Content-Length: ", at);
    if (header != at) {
      size_t next = header == std::string::npos ? out.size() : header;
      s.rest += out.substr(at, next - at);
      at = next;
      continue;
    }
    size_t blank = out.find("\r\n\r\n", at);
    size_t length = std::stoul(out.substr(at + 16, blank - at - 16));
    s.messages.push_back(json::parse(out.substr(blank + 4, length)));
    at = blank + 4 + length;
  }
  return s;
}

std::vector<json> diagnostics_of(const Session& s, const std::string& uri) {
  std::vector<json> out;
  for (const json& m : s.messages)
    if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
      out.push_back(m["params"]["diagnostics"]);
  return out;
}

const json initialize = request(1, "initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", json::object()}});
const json shutdown = request(99, "shutdown");
const json exit_ = notification("exit");


// A game that imports part.yaml (holding `part`) and calls its function `twice`, written
// in a scratch directory whose name has a space: the directory, and the URI of the game
// and of the part (the space escaped).
struct Imported {
  std::string dir, game, uri, part_uri;
};

Imported imported_game(const std::string& topic, const std::string& part) {
  Imported i;
  i.dir = kata::test::scratch_dir(topic);
  std::ofstream(i.dir + "/part.yaml") << part;
  i.game = kata::test::with("players: 2..3", "players: 2..3\nimport: part.yaml");
  i.game = kata::test::with("player.score += c.value", "player.score += twice(c.value)", i.game);
  std::string escaped = "file://" + std::string(i.dir).replace(i.dir.find(' '), 1, "%20");
  i.uri = escaped + "/game.yaml";
  i.part_uri = escaped + "/part.yaml";
  return i;
}

}  // namespace

TEST_CASE("kata lsp publishes kata check's diagnostics on open and on every change", "[lsp]") {
  const std::string& good = kata::test::tiny_game;
  std::string bad = kata::test::with("shuffle deck", "shuffle dekc");
  std::string uri = "file://" + kata::test::temp("lsp-game.yaml");
  auto s = run({initialize, notification("initialized"), open(uri, bad), change(uri, good), change(uri, bad),
                notification("textDocument/didClose", {{"textDocument", {{"uri", uri}}}}), shutdown, exit_});
  INFO(s.rest);
  CHECK(s.status == 0);
  REQUIRE(s.messages.size() == 6);
  CHECK(s.messages[0]["id"] == 1);
  CHECK(s.messages[0]["result"]["capabilities"]["textDocumentSync"]["change"] == 1);
  auto published = diagnostics_of(s, uri);
  REQUIRE(published.size() == 4);
  // The misspelt name: line 13, column 11 in kata's words; LSP counts from 0.
  REQUIRE(published[0].size() == 1);
  CHECK(published[0][0]["message"] == "unknown name 'dekc'; did you mean 'deck'?");
  CHECK(published[0][0]["severity"] == 1);
  CHECK(published[0][0]["range"] == json{{"start", {{"line", 12}, {"character", 10}}}, {"end", {{"line", 12}, {"character", 14}}}});
  CHECK(published[1].empty());  // fixed
  CHECK(published[2] == published[0]);
  CHECK(published[3].empty());  // closed: cleared
  CHECK(s.messages[5] == json{{"jsonrpc", "2.0"}, {"id", 99}, {"result", nullptr}});
}

TEST_CASE("kata lsp reads imports beside the document, and counts characters in UTF-16", "[lsp]") {
  // The document's path comes from its URI (percent-escapes decoded): its import is found.
  auto [dir, game, uri, part_uri] = imported_game("lsp dir", "functions:\n  twice(n): n * 2\n");
  auto s = run({initialize, open(uri, game), shutdown, exit_});
  auto published = diagnostics_of(s, uri);
  REQUIRE(published.size() == 1);
  CHECK(published[0].empty());
  // An error after an "é" (two bytes, one UTF-16 unit) and a "𝄞" (four bytes, two units):
  // `  say "é𝄞 {dekc}"` is 15 bytes before the name, 12 units.
  std::string wide = kata::test::with("  shuffle deck", "  say \"é𝄞 {dekc}\"\n  shuffle deck");
  s = run({initialize, open(uri, wide), shutdown, exit_});
  published = diagnostics_of(s, uri);
  REQUIRE(published.size() == 1);
  REQUIRE(published[0].size() == 1);
  CHECK(published[0][0]["range"]["start"] == json{{"line", 12}, {"character", 12}});
}

TEST_CASE("kata lsp answers what it does not serve, and survives broken input", "[lsp]") {
  std::string uri = "file://" + kata::test::temp("lsp-x.yaml");
  // Before initialize: refused. Unknown request: method not found. Bad parameters: said.
  auto s = run({request(5, "textDocument/hover"), initialize, request(6, "textDocument/signatureHelp"),
                notification("$/unknownNotification"), notification("textDocument/didOpen", {{"textDocument", 3}}),
                request(7, "textDocument/didOpen", {{"textDocument", {{"uri", 4}}}}), shutdown, exit_});
  CHECK(s.status == 0);
  REQUIRE(s.messages.size() == 5);
  CHECK(s.messages[0]["error"]["code"] == -32002);
  CHECK(s.messages[2]["error"]["code"] == -32601);
  CHECK(s.messages[3]["id"] == 7);
  CHECK(s.messages[3]["error"]["code"] == -32602);
  // A body that is not JSON gets a parse error, and the server reads on.
  s = run({initialize}, "Content-Length: 5\r\n\r\n{nope" + frame(shutdown) + frame(exit_));
  REQUIRE(s.messages.size() == 3);
  CHECK(s.messages[1]["error"]["code"] == -32700);
  CHECK(s.status == 0);
  // Bytes that are not UTF-8 inside a JSON string: not JSON either.
  std::string raw = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
                    "{\"uri\":\"file:///x.yaml\",\"text\":\"\xff\xfe\"}}}";
  s = run({initialize}, "Content-Length: " + std::to_string(raw.size()) + "\r\n\r\n" + raw + frame(shutdown) + frame(exit_));
  REQUIRE(s.messages.size() == 3);
  CHECK(s.messages[1]["error"]["code"] == -32700);
  // exit without shutdown, or input that ends: status 1.
  CHECK(run({initialize, exit_}).status == 1);
  CHECK(run({initialize}).status == 1);
  // Framing that cannot be followed: one message that says so on standard error, status 1,
  // and no attempt to read (or allocate) a body of the size claimed.
  for (const auto& [bytes, why] : std::vector<std::pair<std::string, std::string>>{
           {"Content-Length: 99999999999\r\n\r\n{}", "a Content-Length that is not a number: '99999999999'"},
           {"Content-Length: 4000000000\r\n\r\n{}", "a message of 4000000000 bytes, more than the 32 MiB kata lsp reads"},
           {"Content-Type: x\r\n\r\n{}", "a message without a Content-Length header"},
           {"Content-Length: -1\r\n\r\n", "a Content-Length that is not a number: '-1'"},
           {"Content-Length: 100\r\n\r\n{}", "the input ended inside a message"},
           {std::string(5000, 'x'), "a header line longer than 1000 characters"}}) {
    auto broken = run({initialize}, bytes);
    INFO(bytes.substr(0, 40));
    CHECK(broken.status == 1);
    CHECK(has(broken.rest, "kata lsp: error: " + why));
  }
  // A document that is not a rule file at all is diagnosed, not a crash.
  for (std::string text : {std::string(""), std::string("[1, 2"), std::string("game: \x01"), std::string(3000, '{')}) {
    s = run({initialize, open(uri, text), shutdown, exit_});
    CHECK(s.status == 0);
    auto published = diagnostics_of(s, uri);
    REQUIRE(published.size() == 1);
    CHECK_FALSE(published[0].empty());
  }
}

TEST_CASE("kata lsp runs a scenario as kata test does, its rule file found beside it", "[lsp]") {
  std::string path = KATA_SOURCE_DIR "/rules/tests/kobayakawa/worked_example.yaml";
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // As if edited in place, unsaved: the file on disk is not read.
  std::string uri = "file://" KATA_SOURCE_DIR "/rules/tests/kobayakawa/edited.yaml";
  std::string wrong = kata::test::with("  - expect: centre == 7", "  - expect: centre == 8", text);
  auto s = run({initialize, open(uri, text), change(uri, wrong), shutdown, exit_});
  auto published = diagnostics_of(s, uri);
  REQUIRE(published.size() == 2);
  CHECK(published[0].empty());
  REQUIRE(published[1].size() == 1);
  CHECK(published[1][0]["message"] == "expected centre == 8");
  size_t line = std::count(wrong.begin(), wrong.begin() + static_cast<long>(wrong.find("centre == 8")), '\n');
  CHECK(published[1][0]["range"]["start"]["line"] == line);
}

TEST_CASE("kata lsp: hover, go to definition and references, across an import", "[lsp]") {
  auto [dir, game, uri, part_uri] =
      imported_game("lsp xref", "functions:\n  twice(n):\n    doc: Twice a number.\n    value: n * 2\n");
  // Lines (from 0): 13 `  shuffle deck`, 14 `  for p in players { move top(deck) to p.hand }`,
  // 19 `    do: player.score += twice(c.value)`; `zones:` at 7, `  deck:` at 8.
  auto at = [&, uri = uri](int id, const std::string& method, int line, int character) {
    return request(id, method, {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}},
                                {"context", {{"includeDeclaration", true}}}});
  };
  auto s = run({initialize, open(uri, game), at(2, "textDocument/hover", 19, 27), at(3, "textDocument/definition", 19, 25),
                at(4, "textDocument/references", 13, 11), at(5, "textDocument/hover", 13, 7), at(6, "textDocument/references", 8, 3),
                shutdown, exit_});
  INFO(s.rest);
  std::map<int, json> answers;
  for (const json& m : s.messages)
    if (m.contains("id") && m["id"].is_number()) answers[m["id"].get<int>()] = m.value("result", json());
  std::string hover = answers[2]["contents"]["value"];
  CHECK(has(hover, "**function** `twice`"));
  CHECK(has(hover, "twice(n) = n * 2"));
  CHECK(has(hover, "Twice a number."));
  CHECK(has(hover, "(from "));
  // The definition is in the imported file, named by its own URI (the space escaped).
  CHECK(answers[3]["uri"] == part_uri);
  CHECK(answers[3]["range"]["start"] == json{{"line", 1}, {"character", 2}});
  // `deck`: declared at line 8, used at lines 13 and 14 and by the cards' `in: deck` at 6.
  std::vector<int> lines;
  for (const auto& loc : answers[4]) lines.push_back(loc["range"]["start"]["line"]);
  CHECK(lines == std::vector<int>{6, 8, 13, 14});
  CHECK(answers[6] == answers[4]);  // from the declaration too
  CHECK(answers[5].is_null());  // `shuffle` is a word of the language, not a declaration
}

TEST_CASE("kata lsp: rename a declaration and its uses, and completion of names", "[lsp]") {
  std::string uri = "file://" + kata::test::temp("lsp-rename.yaml");
  const std::string& game = kata::test::tiny_game;
  // `deck` (line 7, `  deck: {visibility: nobody}`) is used at 5 (`in: deck`), 12 and 13.
  auto rename = [&](int id, int line, int character, const std::string& to) {
    return request(id, "textDocument/rename",
                   {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}, {"newName", to}});
  };
  auto s = run({initialize, open(uri, game), rename(2, 12, 11, "pile"), rename(3, 12, 11, "for"), rename(4, 12, 11, "hand"),
                rename(5, 12, 4, "x"), rename(6, 12, 11, "9lives"),
                request(7, "textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 12}, {"character", 3}}}}),
                shutdown, exit_});
  std::map<int, json> answers;
  for (const json& m : s.messages)
    if (m.contains("id") && m["id"].is_number()) answers[m["id"].get<int>()] = m;
  const json& edits = answers[2]["result"]["changes"][uri];
  // Applied from the last to the first, the edits give the file with every `deck` renamed.
  std::vector<std::string> lines;
  for (size_t at = 0, next; at < game.size(); at = next + 1) {
    next = game.find('\n', at);
    if (next == std::string::npos) next = game.size();
    lines.push_back(game.substr(at, next - at));
  }
  std::vector<json> sorted(edits.begin(), edits.end());
  std::sort(sorted.begin(), sorted.end(), [](const json& a, const json& b) {
    return std::make_pair(a["range"]["start"]["line"].get<int>(), a["range"]["start"]["character"].get<int>()) >
           std::make_pair(b["range"]["start"]["line"].get<int>(), b["range"]["start"]["character"].get<int>());
  });
  for (const json& e : sorted) {
    auto& l = lines[e["range"]["start"]["line"].get<size_t>()];
    size_t from = e["range"]["start"]["character"], to = e["range"]["end"]["character"];
    CHECK(l.substr(from, to - from) == "deck");
    l.replace(from, to - from, e["newText"].get<std::string>());
  }
  CHECK(sorted.size() == 4);
  std::string renamed;
  for (const auto& l : lines) renamed += l + "\n";
  std::string expected = game;
  for (size_t at; (at = expected.find("deck")) != std::string::npos;) expected.replace(at, 4, "pile");
  CHECK(renamed == expected);
  auto l = kata::test::load_text(renamed);
  CHECK(l.messages().empty());
  // Refused: a word of the language, a name already declared, a place that is not a
  // declaration's name, a name that is not an identifier.
  CHECK(has(answers[3]["error"]["message"], "'for' is a reserved word of the language"));
  CHECK(has(answers[4]["error"]["message"], "'hand' is already the name of a zone"));
  CHECK(has(answers[5]["error"]["message"], "only a declared name"));
  CHECK(has(answers[6]["error"]["message"], "'9lives' is not a name"));
  // Completion: the file's names, the built-ins and the words of the language.
  std::set<std::string> labels;
  for (const json& item : answers[7]["result"]) labels.insert(item["label"]);
  for (const char* name : {"deck", "hand", "score", "keep", "card", "size", "top", "shuffle", "for", "where"}) {
    INFO(name);
    CHECK(labels.count(name));
  }
}

TEST_CASE("kata lsp completes the keys a mapping may hold, and the parameters in scope", "[lsp]") {
  std::string uri = "file://" + kata::test::temp("lsp-complete.yaml");
  // Lines (from 0): 15 `  keep:`, 16 `    params: {c: player.hand}`, 17 `    do: player.score += c.value`.
  std::string game = kata::test::with("    do: player.score += c.value", "    do: player.score += c.value\n    ");
  auto complete = [&](int id, int line, int character) {
    return request(id, "textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}});
  };
  // 18: the new line inside `keep:`; 17 after `+= `; 1 at column 2 of `players:`; 4 at the
  // start of `each:` inside the component `card:`.
  auto s = run({initialize, open(uri, game), complete(2, 18, 4), complete(3, 17, 27), complete(4, 1, 2), complete(5, 4, 4),
                shutdown, exit_});
  std::map<int, std::vector<std::string>> labels;
  for (const json& m : s.messages)
    if (m.contains("id") && m["id"].is_number() && m["result"].is_array())
      for (const json& item : m["result"]) labels[m["id"].get<int>()].push_back(item["label"]);
  CHECK(labels[2] == std::vector<std::string>{"params", "when", "do", "say", "doc", "override"});
  REQUIRE(labels[3].size() > 2);
  CHECK(labels[3][0] == "c");  // the action's parameter first, then `player`
  CHECK(labels[3][1] == "player");
  CHECK(std::find(labels[4].begin(), labels[4].end(), "components") != labels[4].end());  // the top level's keys
  CHECK(std::find(labels[4].begin(), labels[4].end(), "kata") != labels[4].end());
  CHECK(labels[5] == std::vector<std::string>{"each", "list", "where", "per_player", "name", "title", "noun", "label", "in", "show", "doc", "override"});
}

TEST_CASE("kata lsp completes the names let, for and aggregates bind where the cursor is", "[lsp]") {
  std::string uri = "file://" + kata::test::temp("lsp-locals.yaml");
  // Lines (from 0): 12 `  let total = 0 # let ghost`, 13 `  for p in players {`, 14 `    let mine = ...`,
  // 15 `    say "..."`, 16 the cursor inside the block, 17 `  }`, 18 the cursor after it.
  std::string game = kata::test::with("flow: |\n  shuffle deck\n",
                                      "flow: |\n"
                                      "  let total = 0 # let ghost\n"
                                      "  for p in players {\n"
                                      "    let mine = count(c in p.hand where c.value > sum(x.value for x in deck))\n"
                                      "    say \"{p} {mine} { let fake }\"\n"
                                      "    \n"
                                      "  }\n"
                                      "  \n"
                                      "  shuffle deck\n");
  auto complete = [&](int id, int line, int character) {
    return request(id, "textDocument/completion", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}});
  };
  // 14 at `c.value`, inside count( ) and before sum( ): c is bound, x not yet.
  auto s = run({initialize, open(uri, game), complete(2, 16, 4), complete(3, 18, 2), complete(4, 14, 42), shutdown, exit_});
  std::map<int, std::vector<std::string>> labels;
  for (const json& m : s.messages)
    if (m.contains("id") && m["id"].is_number() && m["result"].is_array())
      for (const json& item : m["result"]) labels[m["id"].get<int>()].push_back(item["label"]);
  auto first = [&](int id, size_t n) {
    REQUIRE(labels[id].size() >= n);
    return std::vector<std::string>(labels[id].begin(), labels[id].begin() + static_cast<long>(n));
  };
  auto offered = [&](int id, const std::string& name) {
    return std::find(labels[id].begin(), labels[id].end(), name) != labels[id].end();
  };
  // Innermost first; names of a closed scope, in a comment or a string are not offered.
  CHECK(first(2, 3) == std::vector<std::string>{"mine", "p", "total"});
  for (const char* gone : {"c", "x", "ghost", "fake"}) CHECK_FALSE(offered(2, gone));
  CHECK(first(3, 1) == std::vector<std::string>{"total"});
  for (const char* gone : {"p", "mine", "c"}) CHECK_FALSE(offered(3, gone));
  CHECK(first(4, 3) == std::vector<std::string>{"c", "p", "total"});
  CHECK_FALSE(offered(4, "x"));
  CHECK_FALSE(offered(4, "mine"));
}

// The rule file the editor tests open: line 19 (from 1) misspells a property
// ("19:27 unknown card property 'valu'"); line 13, `  shuffle deck`, names a zone with a doc.
static void editor_probe(const std::string& path) {
  std::ofstream(path) << kata::test::with("  deck: {visibility: nobody}", "  deck: {visibility: nobody, doc: The pile.}",
                                           kata::test::with("c.value", "c.valu"));
}

TEST_CASE("kata lsp in Neovim, headless, set up by editors/neovim/kata.lua: a diagnostic and a hover", "[lsp][editors]") {
  // Neovim is not a dependency of the build: where it is missing, the test says so and passes.
  if (kata::test::run_command("command -v nvim >/dev/null 2>&1").status != 0) {
    WARN("Neovim (nvim) is not installed: editors/neovim/kata.lua is not tried");
    return;
  }
  std::string dir = kata::test::scratch_dir("lsp nvim");
  editor_probe(dir + "/game.yaml");
  std::ofstream(dir + "/probe.lua") << R"(vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(0)) do
  io.stdout:write(string.format("diagnostic %d:%d %s\n", d.lnum + 1, d.col + 1, d.message))
end
vim.api.nvim_win_set_cursor(0, { 13, 11 })
local res = vim.lsp.buf_request_sync(0, "textDocument/hover", vim.lsp.util.make_position_params(), 20000)
for _, r in pairs(res or {}) do
  if r.result then io.stdout:write("hover " .. r.result.contents.value .. "\n") end
end
vim.cmd("qa!")
)";
  auto r = kata::test::run_command("cd '" + dir + "' && KATA='" KATA_BINARY "' timeout 60 nvim --headless --clean -c 'filetype on' " +
                                   "-c 'luafile " KATA_SOURCE_DIR "/editors/neovim/kata.lua' -c 'edit game.yaml' -c 'luafile probe.lua' 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r.out, "diagnostic 19:27 unknown card property 'valu'; did you mean 'value'?\n"));
  CHECK(has(r.out, "hover **zone** `deck`\n\nThe pile."));
}

TEST_CASE("kata lsp from editors/vscode under a stand-in for VS Code: a diagnostic and a hover", "[lsp][editors]") {
  // Node is not a dependency of the build: where it is missing, the test says so and passes.
  if (kata::test::run_command("command -v node >/dev/null 2>&1").status != 0) {
    WARN("Node is not installed: editors/vscode/extension.js is not tried");
    return;
  }
  std::string file = kata::test::scratch_dir("lsp vscode") + "/game.yaml";
  editor_probe(file);
  // `kata.path` is the built kata (the stand-in reads it from KATA).
  auto r = kata::test::run_command("KATA='" KATA_BINARY "' timeout 60 node " KATA_SOURCE_DIR "/tests/vscode_host.js '" + file +
                                   "' 13 11 2>&1");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r.out, "server kata lsp\n"));
  CHECK(has(r.out, "diagnostic 19:27 unknown card property 'valu'; did you mean 'value'?\n"));
  CHECK(has(r.out, "hover **zone** `deck`\n\nThe pile.\n"));
  CHECK(has(r.out, "exit 0\n"));  // the server left when the extension was deactivated
}
