// kata simulate --report and kata compare --report: the HTML pages drawn from a
// simulation's and a comparison's JSON. Every section is there, every text from a rule file
// is escaped, nothing is loaded or run, the same run gives the same bytes, and a real
// browser (Debian's chromium, where installed) draws them.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "html_page.hpp"
#include "report_html.hpp"
#include "support.hpp"

using kata::cli::comparison_html;
using kata::cli::html_escape;
using kata::cli::ReportOrigin;
using kata::cli::simulation_html;
using kata::test::has;
using kata::test::run_kata;
using kata::test::temp;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t occurrences(const std::string& s, const std::string& part) {
  size_t n = 0;
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

// What a self-contained page must not hold: anything that loads or runs.
void check_inert(const std::string& html) {
  std::string low = lower(html);
  for (const char* bad : {"<script", "http://", "https://", "src=", "href=\"/", "url(", "@import",
                          "javascript:", "onerror", "onload", "<iframe", "<object", "<embed"}) {
    INFO(bad);
    CHECK_FALSE(has(low, bad));
  }
}

const std::vector<const char*> simulation_sections = {
    "summary", "wins", "scores", "length", "actions", "components", "dead", "lead", "errors"};
const std::vector<const char*> comparison_sections = {"summary", "wins",       "scores", "length",
                                                      "actions", "components", "dead",   "lead",
                                                      "all",     "errors"};

// Each section, with its heading, and each chart with its accessible title.
void check_sections(const std::string& html,
                    const std::vector<const char*>& sections = simulation_sections) {
  CHECK(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0) == 0);
  CHECK(has(html, "<title>"));
  CHECK(has(html, "<h1>"));
  CHECK(has(html, "<meta name=\"viewport\""));
  CHECK(has(html, "Content-Security-Policy\" content=\"default-src 'none'"));
  for (const char* id : sections) {
    INFO(id);
    CHECK(has(html, std::string("<section id=\"") + id + "\""));
    CHECK(has(html, std::string("<h2 id=\"") + id + "-h\">"));
  }
  CHECK(occurrences(html, "<svg ") == occurrences(html, "<title id="));
  // Every chart's id (made of its title) is the page's only one of that name.
  std::set<std::string> ids;
  for (size_t at = html.find("<title id=\""); at != std::string::npos;
       at = html.find("<title id=\"", at + 1)) {
    size_t from = at + 11;
    std::string id = html.substr(from, html.find('"', from) - from);
    INFO(id);
    CHECK(ids.insert(id).second);
  }
  CHECK(html.size() > 1000);
  CHECK(html.substr(html.size() - 8) == "</html>\n");
}

// The rule file for these tests: names, a doc and an option doc that are markup.
const char* const hostile_rules = R"(game: "<script>alert('game')</script> & \"Co\""
doc: "A doc with <script>alert(1)</script>, <b>bold</b> & 'quotes' \"here\"."
players: 2
options:
  stake:
    doc: "<img src=x onerror=alert(2)>"
    default: 1
    values: [1, 2]
components:
  token:
    list: [{colour: red}, {colour: blue}, {colour: green}]
    name: "<script>{colour} & 'x' \"y\""
    in: pile
zones:
  pile: {visibility: everyone}
flow: |
  for p in players { choose p: take | never }
actions:
  take:
    params:
      t: {from: pile}
    when:
      - {if: "t.colour != green"}
    do: ""
  never:
    when:
      - {if: "false"}
    do: ""
scoring:
  score: "0"
)";

}  // namespace

TEST_CASE("html_escape escapes markup, quotes and control characters", "[report]") {
  CHECK(html_escape("") == "");
  CHECK(html_escape("P1 Guard") == "P1 Guard");
  CHECK(html_escape("<script>a & b</script>") == "&lt;script&gt;a &amp; b&lt;/script&gt;");
  CHECK(html_escape("\"x\" 'y'") == "&quot;x&quot; &#39;y&#39;");
  CHECK(html_escape("&amp;") == "&amp;amp;");
  CHECK(html_escape(std::string("a\x01z\x7f", 4)) == "a\xEF\xBF\xBDz\xEF\xBF\xBD");
  CHECK(html_escape("tab\tnew\nline") == "tab\tnew\nline");
  CHECK(html_escape("caf\xC3\xA9 \xE2\x80\x94") == "caf\xC3\xA9 \xE2\x80\x94");  // UTF-8 kept
}

TEST_CASE("kata simulate --report writes the page drawn from its JSON, with every section",
          "[report][cli]") {
  std::string args = "simulate rules/kobayakawa.yaml -g 60 -p 3 -s 4";
  auto json = run_kata(args + " --json");
  REQUIRE(json.status == 0);
  std::string file = temp("report.html");
  auto r = run_kata(args + " --report " + file);
  REQUIRE(r.status == 0);
  CHECK(r.out == run_kata(args).out);  // the text report is printed as before
  std::string html = read(file);
  // The page is the writer's, from the JSON: nothing is worked out apart.
  auto game = kata::test::load_file("rules/kobayakawa.yaml").game;
  REQUIRE(game);
  CHECK(html ==
        simulation_html(nlohmann::json::parse(json.out),
                        ReportOrigin{"kata simulate", "rules/kobayakawa.yaml", game->doc, {}}));
  check_sections(html);
  check_inert(html);
  for (const char* part :
       {"<h1>Kobayakawa</h1>", "<code>rules/kobayakawa.yaml</code>", "kata " KATA_VERSION,
        "--seed 4", "Seat order: chi-square", "Win rate by seat, with 95% intervals",
        "Game length in decisions", "Actions: chosen when legal", "The winner&#39;s margin",
        "How often the leader at mid-game wins", "Every game ended without error."}) {
    INFO(part);
    CHECK(has(html, part));
  }
  // A game without scoring: no score to draw and no leader to follow.
  std::string plain = temp("plain.html");
  std::string unscored =
      temp("plain.yaml",
           "game: Plain\nplayers: 2\nflow: |\n  for p in players { choose p: wait "
           "}\nactions:\n  wait: {do: \"\"}\n");
  REQUIRE(run_kata("simulate " + unscored + " -g 5 --report " + plain).status == 0);
  CHECK(has(read(plain), "The game has no scoring section: every final score is 0."));
  CHECK(has(read(plain), "The game has no scoring section, so there is no leader to follow."));
  CHECK_FALSE(has(read(plain), "Final score by seat"));
  // With --json, the report is written too, and standard output is the JSON.
  auto both = run_kata(args + " --json --report " + file);
  CHECK(both.out == json.out);
  CHECK(read(file) == html);
}

TEST_CASE("the HTML report escapes every name a rule file gives", "[report][cli]") {
  std::string rules = temp("hostile.yaml", hostile_rules);
  std::string file = temp("hostile.html");
  auto r = run_kata("simulate " + rules + " -g 20 --report " + file);
  REQUIRE(r.status == 0);
  std::string html = read(file);
  check_sections(html);
  check_inert(html);
  CHECK_FALSE(has(html, "<b>"));
  CHECK_FALSE(has(html, "'game'"));
  CHECK(has(html,
            "<h1>&lt;script&gt;alert(&#39;game&#39;)&lt;/script&gt; &amp; &quot;Co&quot;</h1>"));
  CHECK(has(html, "A doc with &lt;script&gt;alert(1)&lt;/script&gt;, &lt;b&gt;bold&lt;/b&gt;"));
  CHECK(has(html, "&lt;script&gt;red &amp; &#39;x&#39; &quot;y&quot;"));
  // The dead rules are listed as warnings, escaped.
  CHECK(has(html, "<li>warning: action &#39;never&#39; was never legal in 20 games</li>"));
  CHECK(has(html, "<li>warning: component &#39;&lt;script&gt;green"));
  CHECK(has(html, "never legal</text>"));
}

TEST_CASE("the HTML writer escapes every string of the JSON and survives missing fields",
          "[report]") {
  const std::string evil = "<script>x</script>\"'&";
  nlohmann::json j = {
      {"game", evil},
      {"games", 3},
      {"players", 2},
      {"seed", 1},
      {"rules", evil},
      {"errors", 1},
      {"error_messages", {"game 2: " + evil}},
      {"options", {{evil, 1}}},
      {"agents", {evil, "random"}},
      {"seats",
       {{{"seat", evil},
         {"agent", evil},
         {"wins", 1.5},
         {"win_rate", 0.75},
         {"win_rate_95", {0.2, 0.99}},
         {"outright_wins", 1},
         {"score", {{"mean", 1}, {"stdev", 0.5}, {"min", 0}, {"max", 2}}}},
        {{"seat", "P2"},
         {"agent", "random"},
         {"wins", 0.5},
         {"win_rate", 0.25},
         {"win_rate_95", {0.01, 0.8}},
         {"outright_wins", 0},
         {"score", {{"mean", 0}, {"stdev", 0}, {"min", 0}, {"max", 0}}}}}},
      {"actions", {{{"action", evil}, {"chosen", 1}, {"legal", 2}, {"share", 0.5}}}},
      {"components", {{{"component", evil}, {"chosen", 0}, {"legal", 0}, {"share", nullptr}}}},
      {"warnings", {evil}},
      {"length",
       {{"count", 2},
        {"mean", 4.5},
        {"min", 4.0},
        {"q1", 4},
        {"median", 4},
        {"q3", 5},
        {"max", 5.0},
        {"histogram", {{4, 1}, {5, 1}}}}},
      {"shard", {{"index", 1}, {"count", 2}, {"run_games", 6}}}};
  ReportOrigin origin{"kata merge", "", evil, {evil, "b.json"}};
  std::string html = simulation_html(j, origin);
  check_sections(html);
  check_inert(html);
  CHECK_FALSE(has(html, "\"'&\""));
  CHECK(occurrences(html, "&lt;script&gt;x&lt;/script&gt;&quot;&#39;&amp;") >= 10);
  CHECK(has(html, "shard 1 of 2 of a run of 6 games"));
  CHECK(has(html, "Merged from 2 files"));
  // Nothing at all: every section is still there, saying what is missing.
  std::string empty = simulation_html(nlohmann::json::object(), {});
  check_sections(empty);
  check_inert(empty);
  CHECK_NOTHROW(simulation_html(nlohmann::json::array({1, 2}), {}));
  CHECK_NOTHROW(
      simulation_html(nlohmann::json{{"seats", 3}, {"length", "x"}, {"players", -1}}, {}));
}

TEST_CASE("the HTML report is the same bytes for the same run", "[report][cli]") {
  std::string args = "simulate rules/kobayakawa.yaml -g 40 -p 4 -s 9";
  std::string one = temp("same-1.html"), two = temp("same-2.html");
  REQUIRE(run_kata(args + " --report " + one).status == 0);
  REQUIRE(run_kata(args + " -j 2 --report " + two).status == 0);
  CHECK(read(one) == read(two));
  CHECK(read(one).size() > 1000);
  // Merged shards give the same statistics; only the header says where they came from.
  std::vector<std::string> parts;
  for (int i = 1; i <= 3; ++i) {
    auto r = run_kata(args + " --json --shard " + std::to_string(i) + "/3");
    REQUIRE(r.status == 0);
    parts.push_back(temp("same-shard-" + std::to_string(i) + ".json", r.out));
  }
  std::string merged = temp("same-merged.html");
  auto m = run_kata("merge " + parts[2] + " " + parts[0] + " " + parts[1] + " --report " + merged);
  REQUIRE(m.status == 0);
  auto body = [](const std::string& html) { return html.substr(html.find("<!-- statistics -->")); };
  CHECK(body(read(merged)) == body(read(one)));
  CHECK(has(read(merged), "Merged from 3 files"));
  CHECK(has(read(merged), "kata merge, kata " KATA_VERSION));
}

TEST_CASE("kata simulate --report refuses a file it cannot write, before playing",
          "[report][cli]") {
  auto missing = run_kata("simulate rules/tictactoe.yaml -g 5 --report /nonexistent/dir/r.html");
  CHECK(missing.status == 2);
  CHECK(missing.out ==
        "kata: error: cannot write the report '/nonexistent/dir/r.html': No such file or "
        "directory\n");
  std::string dir = kata::test::scratch_dir("report-dir");
  auto directory = run_kata("simulate rules/tictactoe.yaml -g 5 --report " + dir);
  CHECK(directory.status == 2);
  CHECK(directory.out == "kata: error: cannot write the report '" + dir + "': it is a directory\n");
  auto merge = run_kata("merge x.json --report /nonexistent/dir/r.html");
  CHECK(merge.status == 2);
  CHECK(has(merge.out, "cannot write the report"));
  // Games that stop with an error: the report is written, and lists them.
  std::string rules = temp("report-forever.yaml", R"(game: Forever
players: 2
limits: {decisions: 10}
flow: |
  while true { choose P1: wait }
actions:
  wait: {do: ""}
)");
  std::string file = temp("forever.html");
  auto r = run_kata("simulate " + rules + " -g 3 --report " + file);
  CHECK(r.status == 1);
  std::string html = read(file);
  check_sections(html);
  CHECK(has(html, "3 games stopped with an error; the first are:"));
  CHECK(has(html, "game 1: "));
  // With no game ended, no chart of win rates or uses is drawn from nothing.
  CHECK_FALSE(has(html, "Win rate by seat, with 95% intervals"));
  CHECK_FALSE(has(html, "Actions: chosen when legal"));
  CHECK(occurrences(html, "No game ended without error.") == 5);
  CHECK(has(run_kata("simulate --help").out, "--report"));
  CHECK(has(run_kata("merge --help").out, "--report"));
}

TEST_CASE("kata compare --report writes the page drawn from its JSON, A and B side by side",
          "[report][compare][cli]") {
  std::string args =
      "compare rules/kobayakawa.yaml -g 60 -p 4 -s 3 --a -o centre_kamons=8 --b -o "
      "centre_kamons=12";
  auto json = run_kata(args + " --json");
  REQUIRE(json.status == 0);
  std::string file = temp("compare.html");
  auto r = run_kata(args + " --report " + file);
  REQUIRE(r.status == 0);
  CHECK(r.out == run_kata(args).out);  // the text report is printed as before
  std::string html = read(file);
  CHECK(html == comparison_html(nlohmann::json::parse(json.out)));
  check_sections(html, comparison_sections);
  check_inert(html);
  for (const char* part : {"<h1>Kobayakawa</h1>",
                           "Comparison report: A and B, 60 games each, 4 players",
                           "<code>rules/kobayakawa.yaml -o centre_kamons=8</code>",
                           "<code>rules/kobayakawa.yaml -o centre_kamons=12</code>",
                           "centre_kamons 8 -&gt; 12",
                           "--seed 3: game i of A and game i of B are played on the same seed",
                           "kata " KATA_VERSION,
                           "Win rate by seat, A and B",
                           "Win rate difference by seat",
                           "Final score by seat, A and B",
                           "Mean final score difference by seat",
                           "The game length in decisions on A and B",
                           "The game length in decisions: B - A",
                           "Actions: chosen when legal, A and B",
                           "Actions: B - A",
                           "Components: B - A",
                           "How often the leader at mid-game wins, A and B",
                           "The mid-game leader&#39;s wins: B - A",
                           "Lead changes per game: B - A",
                           "A: Seat order",
                           "B: Seat order",
                           "no difference",
                           "A: every game ended without error.",
                           "<td class=\"sig\">*</td>",
                           "class=\"whisker sig\"",
                           "class=\"bar bbar\""}) {
    INFO(part);
    CHECK(has(html, part));
  }
  // More kamons: longer games, a significant difference, and said so at a glance.
  CHECK(has(html, "<li>game length (decisions): A "));
  // Each share's bars say what it is out of: the decisions that chose it and those where
  // it was legal, on each side.
  auto j = nlohmann::json::parse(json.out);
  for (const char* list : {"actions", "components"})
    for (const auto& row : j[list]) {
      std::string name = row.contains("action") ? row["action"] : row["component"];
      for (const char* side : {"a", "b"}) {
        INFO(name << " " << side);
        auto chosen = row[std::string("chosen_") + side].get<int64_t>(),
             legal = row[std::string("legal_") + side].get<int64_t>();
        CHECK(has(html, fmt::format(">{} / {}</text>", kata::cli::html::grouped(chosen),
                                    kata::cli::html::grouped(legal))));
        CHECK(has(html,
                  fmt::format("{} ({}): chosen at {} of the {} decisions where it was legal", name,
                              side[0] == 'a' ? "A" : "B", kata::cli::html::grouped(chosen),
                              kata::cli::html::grouped(legal))));
      }
    }
  // With --json, the page is written too, and standard output is the JSON.
  auto both = run_kata(args + " --json --report " + file);
  CHECK(both.out == json.out);
  CHECK(read(file) == html);
  // The same bytes for the same run, with any number of threads.
  std::string two = temp("compare-2.html");
  REQUIRE(run_kata(args + " -j 2 --report " + two).status == 0);
  CHECK(read(two) == html);
  // A file compared with itself: no difference is marked.
  std::string same = temp("compare-same.html");
  REQUIRE(run_kata("compare rules/kobayakawa.yaml -g 30 -p 3 --report " + same).status == 0);
  std::string self = read(same);
  check_sections(self, comparison_sections);
  CHECK(has(self, "<li>0 of "));
  CHECK(has(self, "No win rate, score, length, margin or lead statistic differs significantly."));
  for (const char* marked : {" sig\"", "\"t sigtext\"", "class=\"sig\""}) {
    INFO(marked);
    CHECK_FALSE(has(self, marked));
  }
  CHECK(has(self, "Options that differ</dt><dd>none"));
  CHECK(has(run_kata("compare --help").out, "--report"));
}

TEST_CASE("the comparison page escapes every name a rule file gives", "[report][compare][cli]") {
  std::string rules = temp("compare-hostile.yaml", hostile_rules);
  std::string file = temp("compare-hostile.html");
  auto r = run_kata("compare " + rules + " -g 20 --b -o stake=2 --report " + file);
  REQUIRE(r.status == 0);
  std::string html = read(file);
  check_sections(html, comparison_sections);
  check_inert(html);
  CHECK_FALSE(has(html, "<b>"));
  CHECK_FALSE(has(html, "'game'"));
  CHECK(has(html,
            "<h1>&lt;script&gt;alert(&#39;game&#39;)&lt;/script&gt; &amp; &quot;Co&quot;</h1>"));
  CHECK(has(html, "&lt;script&gt;red &amp; &#39;x&#39; &quot;y&quot;"));
  CHECK(has(html, "stake 1 -&gt; 2"));
  // A dead rule of both sides is listed once, for both.
  CHECK(has(html,
            "<li><strong>A and B:</strong> warning: action &#39;never&#39; was never "
            "legal in 20 games</li>"));
  CHECK(has(html, "never legal</text>"));
}

TEST_CASE("the comparison page is drawn from its JSON and survives missing or odd fields",
          "[report][compare]") {
  const std::string evil = "<script>x</script>\"'&";
  nlohmann::json seat = {{"seat", evil},
                         {"agent", evil},
                         {"wins", 1.5},
                         {"win_rate", 0.75},
                         {"win_rate_95", {0.2, 0.99}},
                         {"score", {{"mean", 1}, {"stdev", 0.5}, {"min", 0}, {"max", 2}}}};
  nlohmann::json side = {
      {"game", evil},
      {"seats", {seat, {{"seat", "P2"}, {"win_rate", "x"}}}},
      {"warnings", {evil, 7}},
      {"error_messages", {"game 2: " + evil}},
      {"length",
       {{"count", 2}, {"min", 4}, {"q1", 4}, {"median", 4}, {"q3", 5}, {"max", 5}, {"mean", 4.5}}}};
  nlohmann::json row = {{"statistic", "win_rate"},
                        {"seat", evil},
                        {"a", 0.5},
                        {"b", 0.25},
                        {"difference", -0.25},
                        {"difference_95", {-0.4, -0.1}},
                        {"p_value", 0.001},
                        {"significant", true},
                        {"pairs", 3}};
  nlohmann::json j = {
      {"a",
       {{"file", evil},
        {"game", evil},
        {"rules", evil},
        {"options", {{evil, 1}}},
        {"option_arguments", {evil + "=1"}}}},
      {"b", {{"file", "b.yaml"}, {"game", "Other"}, {"options", {{evil, 2}, {"x", true}}}}},
      {"games", 3},
      {"players", 2},
      {"seed", 1},
      {"agents", {evil, "random"}},
      {"pairs", 2},
      {"statistics",
       {row,
        {{"statistic", "score"}, {"seat", "P2"}, {"a", 1}, {"b", nullptr}, {"difference", nullptr}},
        {{"statistic", "length"}, {"a", 4}, {"b", 4}, {"difference", 0}, {"difference_95", {0, 0}}},
        {{"statistic", "lead_changes"}, {"difference", "odd"}, {"difference_95", {1}}},
        {{"statistic", evil}, {"seat", 5}},
        "not a row"}},
      {"seat_order", {{"a", nullptr}, {"b", {{"chi_square", 3}, {"df", 1}, {"p_value", 0.08}}}}},
      {"actions", {{{"action", evil}, {"a", 0.5}, {"b", nullptr}, {"difference", nullptr}}}},
      {"components",
       {{{"component", evil},
         {"a", 1},
         {"b", 0.5},
         {"difference", -0.5},
         {"difference_95", {-0.9, -0.1}},
         {"significant", true}}}},
      {"errors", {{"a", 1}, {"b", 0}}},
      {"simulations", {{"a", side}, {"b", {{"seats", 4}, {"warnings", {evil}}}}}}};
  std::string html = comparison_html(j);
  check_sections(html, comparison_sections);
  check_inert(html);
  CHECK_FALSE(has(html, "\"'&\""));
  CHECK(occurrences(html, "&lt;script&gt;x&lt;/script&gt;&quot;&#39;&amp;") >= 10);
  CHECK(has(html, "<h1>&lt;script&gt;x&lt;/script&gt;&quot;&#39;&amp; / Other</h1>"));
  CHECK(has(html, "A: 1 game stopped with an error; the first are:"));
  CHECK(has(html, "(B only, true)"));
  // Nothing at all, or not an object: every section is still there, saying what is missing.
  for (const nlohmann::json& odd :
       {nlohmann::json::object(), nlohmann::json::array({1, 2}), nlohmann::json(3),
        nlohmann::json{{"statistics", 3}, {"simulations", {{"a", "x"}}}, {"players", -1}},
        nlohmann::json{{"statistics", {{{"statistic", "win_rate"}}}}, {"players", 0}}}) {
    INFO(odd.dump());
    std::string page;
    REQUIRE_NOTHROW(page = comparison_html(odd));
    check_sections(page, comparison_sections);
    check_inert(page);
  }
}

TEST_CASE("kata compare --report refuses a file it cannot write, before playing",
          "[report][compare][cli]") {
  auto missing = run_kata("compare rules/tictactoe.yaml -g 5 --report /nonexistent/dir/r.html");
  CHECK(missing.status == 2);
  CHECK(missing.out ==
        "kata: error: cannot write the report '/nonexistent/dir/r.html': No such file or "
        "directory\n");
  std::string dir = kata::test::scratch_dir("compare-report-dir");
  auto directory = run_kata("compare rules/tictactoe.yaml -g 5 --report " + dir);
  CHECK(directory.status == 2);
  CHECK(directory.out == "kata: error: cannot write the report '" + dir + "': it is a directory\n");
  // Games that stop with an error: the page is written, and lists them.
  std::string rules = temp("compare-report-forever.yaml", R"(game: Forever
players: 2
options:
  cap: {default: 10, min: 5, max: 20}
limits: {decisions: 10}
flow: |
  while true { choose P1: wait }
actions:
  wait: {do: ""}
)");
  std::string file = temp("compare-forever.html");
  auto r = run_kata("compare " + rules + " -g 3 --b -o cap=6 --report " + file);
  CHECK(r.status == 1);
  std::string html = read(file);
  check_sections(html, comparison_sections);
  CHECK(has(html, "A: 3 games stopped with an error; the first are:"));
  CHECK(has(html, "B: 3 games stopped with an error; the first are:"));
}

namespace {

// The browser to draw pages with, or "" if none is installed.
std::string browser() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (std::system(("command -v " + std::string(name) + " > /dev/null 2>&1").c_str()) == 0)
      return name;
  return "";
}

// `browser --headless` on a page: a screenshot (`--screenshot=PNG`) or the DOM it built
// (`--dump-dom`, returned). A guard stops a browser that hangs (300 s), which then fails.
std::string headless(const std::string& browser, const std::string& page, const std::string& what,
                     int width, int height) {
  std::string profile = kata::test::scratch_dir("report-browser") + "/profile";
  std::string out = temp("browser-output.txt");
  std::string cmd = "timeout 300 " + browser +
                    " --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir='" +
                    profile + "' " + what + " --window-size=" + std::to_string(width) + "," +
                    std::to_string(height) + " 'file://" + page + "' > '" + out + "' 2> /dev/null";
  INFO(cmd);
  CHECK(std::system(cmd.c_str()) == 0);
  return read(out);
}

// The width and height a PNG file's header gives (0 if it is not a PNG).
std::pair<uint32_t, uint32_t> png_size(const std::string& png) {
  if (png.size() < 24 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || png.compare(12, 4, "IHDR"))
    return {0, 0};
  auto word = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {word(16), word(20)};
}

}  // namespace

TEST_CASE("the HTML reports render in a headless browser", "[report][browser]") {
  std::string name = browser();
  if (name.empty()) {
    WARN("no browser (chromium) is installed: the HTML report is not drawn");
    return;
  }
  std::string dir = kata::test::scratch_dir("report-browser");
  std::string page = dir + "/report.html", hostile = dir + "/hostile.html",
              blank = dir + "/blank.html";
  REQUIRE(run_kata("simulate rules/kobayakawa.yaml -g 200 -p 4 --report " + page).status == 0);
  REQUIRE(run_kata("simulate " + temp("browser-hostile.yaml", hostile_rules) + " -g 20 --report " +
                   hostile)
              .status == 0);
  std::ofstream(blank)
      << "<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>\n";
  // A blank page in a wide window, then the report in it and in a narrow one: a page with
  // charts is many times the size of a blank one (as PNG), narrow or not.
  std::string empty_png = dir + "/blank.png";
  headless(name, blank, "--screenshot='" + empty_png + "'", 1200, 3000);
  std::string empty = read(empty_png);
  CHECK(png_size(empty) == std::pair<uint32_t, uint32_t>(1200, 3000));
  auto drawn = [&](const std::string& html, const std::string& stem, std::initializer_list<int> widths) {
    for (int width : widths) {
      INFO(stem << ", window " << width << "x3000");
      std::string png = dir + "/" + stem + "-" + std::to_string(width) + ".png";
      std::filesystem::remove(png);
      headless(name, html, "--screenshot='" + png + "'", width, 3000);
      std::string shot = read(png);
      CHECK(png_size(shot) == std::pair<uint32_t, uint32_t>(width, 3000));
      CHECK(shot.size() > 4 * empty.size());
    }
  };
  // The browser builds the charts, and the escaped names stay text: no script element.
  auto escaped = [&](const std::string& html, size_t charts) {
    INFO(html);
    std::string dom = headless(name, html, "--dump-dom", 1200, 3000);
    CHECK(occurrences(dom, "<svg ") == occurrences(read(html), "<svg "));
    CHECK(occurrences(dom, "<svg ") >= charts);
    CHECK_FALSE(has(lower(dom), "<script"));
    CHECK(has(dom, "&lt;script&gt;alert('game')&lt;/script&gt;"));
  };
  drawn(page, "report", {1200, 420});
  escaped(hostile, 5);
  // The comparison page: wide and narrow, and its escaped names stay text.
  std::string compared = dir + "/compare.html", compared_hostile = dir + "/compare-hostile.html";
  REQUIRE(run_kata("compare rules/kobayakawa.yaml -g 100 -p 4 --b -o centre_kamons=12 --report " +
                   compared)
              .status == 0);
  REQUIRE(run_kata("compare " + temp("browser-compare-hostile.yaml", hostile_rules) +
                   " -g 20 --b -o stake=2 --report " + compared_hostile)
              .status == 0);
  drawn(compared, "compare", {1280, 800, 420});
  escaped(compared_hostile, 8);
  std::filesystem::remove_all(dir);  // the browser's profile is large
}
