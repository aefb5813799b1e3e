// The docs' terminal sessions are kata's real output: every ```console block of README.md
// and docs/*.md is run and compared, line for line, with what it shows. In a block, a line
// `$ COMMAND` is a command and the lines after it, up to the next `$` line or the end of
// the block, are its output (standard output and error together). The conventions a block
// may use are in tests/README.md ("The docs' examples"): a line `...` stands for any lines,
// `<...>` inside a line for any text, and `<!-- not run: WHY -->` just before a block
// leaves it out. A fenced block under `<!-- file: NAME -->` is the file NAME the examples
// after it read; what they read without showing it (a broken rule file, a script, a log)
// is in docs/examples/, copied beside rules/ into one scratch directory per document, where each
// block runs after the document's earlier ones (a log one block writes, the next reads).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace fs = std::filesystem;
using kata::test::has;

namespace {

// One command of a block and the lines it is shown to print.
struct Example {
  std::string command;
  std::vector<std::string> output;
  int line;  // of the command in the document
};

// A ```console block, or a fenced block under `<!-- file: NAME -->`: the file NAME.
struct Block {
  std::string file, text;  // the file's name and contents (none: a console block)
  std::vector<Example> examples;
  bool run = true;  // false under `<!-- not run: ... -->`
  // Under `<!-- typed after: "P1> " "(y/n) " -->`: the prompts after which a shown line
  // holds what the person typed.
  std::vector<std::string> prompts;
  int line;  // of the opening fence
};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(rtrim(line));
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// The ```console blocks of `text` and the files it shows, in order.
std::vector<Block> console_blocks(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  std::vector<Block> blocks;
  std::string before;  // the last non-blank line before the current one
  const std::string file_mark = "<!-- file: ";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) == 0 && before.rfind(file_mark, 0) == 0) {
      Block f;
      f.file = before.substr(file_mark.size(), before.find(" -->") - file_mark.size());
      for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) f.text += lines[i] + "\n";
      f.line = static_cast<int>(i + 1);
      blocks.push_back(f);
      before = "```";
      continue;
    }
    if (lines[i] != "```console") {
      if (!lines[i].empty()) before = lines[i];
      continue;
    }
    Block b;
    b.line = static_cast<int>(i + 1);
    b.run = before.rfind("<!-- not run", 0) != 0;
    if (before.rfind("<!-- typed after:", 0) == 0)
      for (size_t q = before.find('"'); q != std::string::npos; q = before.find('"', q + 1)) {
        size_t end = before.find('"', q + 1);
        b.prompts.push_back(before.substr(q + 1, end - q - 1));
        q = end;
      }
    for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) {
      if (lines[i].rfind("$ ", 0) == 0)
        b.examples.push_back({lines[i].substr(2), {}, static_cast<int>(i + 1)});
      else if (!b.examples.empty())
        b.examples.back().output.push_back(lines[i]);
    }
    before = "```";
    blocks.push_back(b);
  }
  return blocks;
}

// Whether `actual` (from its character a) matches the shown line (from s), where `<...>`
// stands for any text.
bool line_matches(const std::string& shown, size_t s, const std::string& actual, size_t a) {
  if (s == shown.size()) return a == actual.size();
  if (shown.compare(s, 5, "<...>") == 0) {
    for (size_t skip = a; skip <= actual.size(); ++skip)
      if (line_matches(shown, s + 5, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && shown[s] == actual[a] && line_matches(shown, s + 1, actual, a + 1);
}

// Whether `actual` (from line a) is what `shown` shows (from line s), where a line `...`
// (indented or not) stands for any lines, none included.
bool shown_as(const std::vector<std::string>& shown, size_t s,
              const std::vector<std::string>& actual, size_t a) {
  if (s == shown.size()) return a == actual.size();
  if (shown[s].find_first_not_of(' ') != std::string::npos &&
      shown[s].substr(shown[s].find_first_not_of(' ')) == "...") {
    for (size_t skip = a; skip <= actual.size(); ++skip)
      if (shown_as(shown, s + 1, actual, skip)) return true;
    return false;
  }
  return a < actual.size() && line_matches(shown[s], 0, actual[a], 0) &&
         shown_as(shown, s + 1, actual, a + 1);
}

// Where the first of `prompts` in `text` (from `from`) ends, and its length; npos if none.
std::pair<size_t, size_t> next_prompt(const std::string& text, size_t from,
                                      const std::vector<std::string>& prompts) {
  std::pair<size_t, size_t> first{std::string::npos, 0};
  for (const std::string& p : prompts) {
    size_t at = text.find(p, from);
    if (at < first.first) first = {at, p.size()};
  }
  return first;
}

// What the person typed, as a block shows it: the rest of each shown line after a prompt.
std::vector<std::string> typed_lines(const std::vector<std::string>& shown,
                                     const std::vector<std::string>& prompts) {
  std::vector<std::string> typed;
  for (const std::string& line : shown) {
    auto [at, size] = next_prompt(line, 0, prompts);
    if (at != std::string::npos && at + size < line.size()) typed.push_back(line.substr(at + size));
  }
  return typed;
}

// `out` as a terminal shows it: each typed line echoed after the prompt that read it
// (kata does not echo what it reads from a pipe).
std::string echoed(const std::string& out, const std::vector<std::string>& prompts,
                   const std::vector<std::string>& typed) {
  std::string result;
  size_t from = 0;
  for (const std::string& line : typed) {
    auto [at, size] = next_prompt(out, from, prompts);
    if (at == std::string::npos) break;
    result += out.substr(from, at + size - from) + line + "\n";
    from = at + size;
  }
  return result + out.substr(from);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A scratch directory laid out as the docs assume: rules/ and stdlib/ of the source tree,
// the files of docs/examples/, and the built kata at build/cli/kata (README's path).
std::string doc_dir(const std::string& doc) {
  std::string dir = kata::test::scratch_dir("docs-" + fs::path(doc).stem().string());
  for (const char* linked : {"rules", "stdlib"})
    if (!fs::exists(dir + "/" + linked))
      fs::create_directory_symlink(KATA_SOURCE_DIR "/" + std::string(linked), dir + "/" + linked);
  fs::create_directories(dir + "/build/cli");
  if (!fs::exists(dir + "/build/cli/kata"))
    fs::create_symlink(KATA_BINARY, dir + "/build/cli/kata");
  fs::copy(KATA_SOURCE_DIR "/docs/examples", dir,
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  return dir;
}

// Runs `command` in `dir` with kata on the PATH (its compiled-mode cache in `dir`) and
// `input` on its standard input; `$?` in it is `status`, the exit status of the command
// before.
kata::test::Run run_in(const std::string& dir, const std::string& command, int status,
                       const std::vector<std::string>& input = {}) {
  std::string bin = fs::path(KATA_BINARY).parent_path().string();
  std::string typed;
  for (const std::string& line : input) typed += line + "\n";
  std::string in = kata::test::temp("doc-input.txt");
  std::ofstream(in) << typed;
  std::string script =
      kata::test::temp("doc-command.sh", "cd '" + dir + "' || exit 99\nexport PATH='" + bin +
                                             "':$PATH KATA_CACHE='" + dir + "/cache'\n(exit " +
                                             std::to_string(status) + ")\n" + command + "\n");
  kata::test::Run r{0, {}};
  FILE* p = popen(("timeout 60 sh " + script + " 2>&1 < " + in).c_str(), "r");
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Runs every block of `doc` (relative to the source tree) not marked as not run, each
// command checked against its shown output. Returns the number of commands run.
int check_doc(const std::string& doc) {
  std::string dir = doc_dir(doc);
  int ran = 0;
  for (const Block& b : console_blocks(read_text(KATA_SOURCE_DIR "/" + doc))) {
    if (!b.file.empty()) {
      fs::create_directories(fs::path(dir + "/" + b.file).parent_path());
      std::ofstream(dir + "/" + b.file) << b.text;
    }
    if (!b.run || !b.file.empty()) continue;
    int status = 0;
    for (const Example& e : b.examples) {
      auto typed = typed_lines(e.output, b.prompts);
      auto r = run_in(dir, e.command, status, typed);
      status = r.status;
      r.out = echoed(r.out, b.prompts, typed);
      ++ran;
      INFO(doc << ":" << e.line << ": $ " << e.command);
      INFO("it printed:\n" << r.out);
      CHECK(shown_as(e.output, 0, lines_of(r.out), 0));
    }
  }
  return ran;
}

// The documents whose examples a test case below runs.
const std::vector<std::string> checked_docs = {"README.md",          "docs/cli.md",
                                               "docs/design.md",     "docs/language.md",
                                               "docs/log-format.md", "docs/scenarios.md"};

}  // namespace

TEST_CASE("a shown output matches with ... for any lines and <...> for any text", "[docs]") {
  std::vector<std::string> actual = {"seed 123 (replays)", "a", "b", "Result: 5"};
  CHECK(shown_as({"seed <...> (replays)", "...", "Result: 5"}, 0, actual, 0));
  CHECK(shown_as({"...", "seed 123 (replays)", "a", "b", "...", "Result: 5"}, 0, actual, 0));
  CHECK(shown_as({"<...>", "a", "b", "Result: <...>"}, 0, actual, 0));
  CHECK_FALSE(shown_as({"seed <...> (replays)", "a", "Result: 5"}, 0, actual, 0));
  CHECK_FALSE(shown_as({"seed <...> (replays)", "...", "Result: 6"}, 0, actual, 0));
  CHECK_FALSE(shown_as({"seed 123 (replays)", "a", "b"}, 0, actual, 0));
  CHECK_FALSE(shown_as({"seed 123 (replays)", "a", "b", "Result: 5", "..."}, 0, {"x"}, 0));
}

TEST_CASE("the docs' blocks are read as commands and their output, and a stale one is caught",
          "[docs]") {
  std::string doc =
      "Text\n\n<!-- not run: a person types -->\n```console\n$ kata play x\n```\n\n"
      "```console\n$ kata check rules/kobayakawa.yaml\n"
      "rules/kobayakawa.yaml: ok (Kobayakawa, 3 to 6 players, 1 warning)\n"
      "$ echo \"exit status $?\"\nexit status 0\n```\n";
  auto blocks = console_blocks(doc);
  REQUIRE(blocks.size() == 2);
  CHECK_FALSE(blocks[0].run);
  REQUIRE(blocks[1].run);
  REQUIRE(blocks[1].examples.size() == 2);
  CHECK(blocks[1].examples[0].command == "kata check rules/kobayakawa.yaml");
  CHECK(blocks[1].examples[1].output == std::vector<std::string>{"exit status 0"});
  // The shown output is stale (kata finds 0 warnings): it does not match what kata prints.
  std::string dir = doc_dir("stale.md");
  auto r = run_in(dir, blocks[1].examples[0].command, 0);
  CHECK(r.status == 0);
  CHECK_FALSE(shown_as(blocks[1].examples[0].output, 0, lines_of(r.out), 0));
  // What a person typed is read from the shown lines and echoed after its prompt.
  std::vector<std::string> prompts = {"P1> ", "(y/n) "};
  auto typed = typed_lines({"menu", "P1> 2", "Really quit? (y/n) y", "P1>"}, prompts);
  CHECK(typed == std::vector<std::string>{"2", "y"});
  CHECK(echoed("menu\nP1> next\nReally quit? (y/n) P1> ", prompts, typed) ==
        "menu\nP1> 2\nnext\nReally quit? (y/n) y\nP1> ");
  // `$?` is the status of the command before.
  CHECK(run_in(dir, "echo \"exit status $?\"", 2).out == "exit status 2\n");
}

TEST_CASE("every document with a console block has its examples run", "[docs]") {
  std::vector<std::string> with_blocks;
  std::vector<fs::path> docs = {KATA_SOURCE_DIR "/README.md"};
  for (auto& entry : fs::recursive_directory_iterator(KATA_SOURCE_DIR "/docs"))
    if (entry.path().extension() == ".md") docs.push_back(entry.path());
  for (const auto& p : docs) {
    if (console_blocks(read_text(p)).empty()) continue;
    std::string name = fs::relative(p, KATA_SOURCE_DIR).string();
    INFO(name << " has ```console blocks: add a test case for it in tests/test_docs.cpp");
    CHECK(std::find(checked_docs.begin(), checked_docs.end(), name) != checked_docs.end());
  }
}

TEST_CASE("README.md's console examples are kata's output", "[docs]") {
  CHECK(check_doc("README.md") > 0);
}
TEST_CASE("docs/cli.md's console examples are kata's output", "[docs]") {
  CHECK(check_doc("docs/cli.md") > 0);
}
TEST_CASE("docs/design.md's console examples are kata's output", "[docs]") {
  check_doc("docs/design.md");
}
TEST_CASE("docs/language.md's console examples are kata's output", "[docs]") {
  CHECK(check_doc("docs/language.md") > 0);
}
TEST_CASE("docs/log-format.md's console examples are kata's output", "[docs]") {
  CHECK(check_doc("docs/log-format.md") > 0);
}
TEST_CASE("docs/scenarios.md's console examples are kata's output", "[docs]") {
  CHECK(check_doc("docs/scenarios.md") > 0);
}
