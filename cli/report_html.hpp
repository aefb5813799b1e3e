// The HTML reports: of a simulation (kata simulate --report, kata merge --report) and of a
// comparison (kata compare --report), each one self-contained page drawn from the JSON the
// command prints with --json, with an SVG chart of each statistic. They work nothing out
// again: every figure on a page is one of the JSON's, and the charts draw its raw counts
// (`counts`) as they are. The page loads
// nothing (no network, no scripts, no fonts: inline CSS and SVG, and a Content Security
// Policy that forbids the rest), reads with JavaScript off and in a narrow window, and is
// the same bytes for the same result: no date, no path that was not given.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kata::cli {

// What the page says about where the result came from, which the JSON does not hold.
struct ReportOrigin {
  std::string command;              // "kata simulate" or "kata merge"
  std::string rule_file;            // as given on the command line ("" for merge)
  std::string doc;                  // the game's `doc:` ("" when unknown)
  std::vector<std::string> merged;  // kata merge: the files it added up
};

// The page for `result`, an object as simulation_json makes it (or kata merge --json
// prints it). Fields it lacks are shown as missing, never an exception.
std::string simulation_html(const nlohmann::json& result, const ReportOrigin& origin);

// The page for `comparison`, an object as kata compare --json prints it: A and B side by
// side, each with its own simulation's figures (`simulations`), and their differences with
// the paired 95% intervals. Fields it lacks are shown as missing, never an exception.
std::string comparison_html(const nlohmann::json& comparison);

// Text made safe for HTML, in an element or in a quoted attribute: & < > " ' escaped,
// control characters other than tab and newline replaced by U+FFFD.
std::string html_escape(std::string_view text);

// The file a --report is written to. It is opened (created, or emptied) before the games
// are played, so that a path that cannot be written fails at once rather than after a
// long run.
class ReportFile {
 public:
  // False, with a message on standard error, when the file cannot be opened for writing.
  bool open(const std::string& path);
  // Writes a simulation's page; false, with a message, when that fails.
  bool write(const nlohmann::json& result, const ReportOrigin& origin);
  // Writes `page`; false, with a message, when that fails.
  bool write(const std::string& page);

 private:
  std::string path_;
  std::ofstream out_;
};

}  // namespace kata::cli
