// The JSON Schemas editors validate rule files and scenarios with
// (docs/kata-rules.schema.json, docs/kata-scenario.schema.json): their keys are the
// loaders' (syntax/keys.hpp), every key says what it is, and every rule file, import and
// scenario in the repository is valid under them (checked by Debian's python3-jsonschema,
// tests/validate_schema.py), while files with the mistakes the loader refuses are not.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "support.hpp"
#include "syntax/keys.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json schema(const std::string& name) {
  std::ifstream in(std::string(KATA_SOURCE_DIR) + "/docs/kata-" + name + ".schema.json");
  return json::parse(in);
}

// A YAML node as a JSON value, typed as YAML 1.2's core schema types a plain scalar (as an
// editor's YAML language server does): true/false, null, whole and decimal numbers; a
// quoted scalar is a string.
json to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return nullptr;
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : n) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (auto it = n.begin(); it != n.end(); ++it) out[it->first.Scalar()] = to_json(it->second);
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted
      static const std::regex boolean("true|True|TRUE|false|False|FALSE"), null("null|Null|NULL|~"),
          whole("[-+]?[0-9]+"), decimal("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
      if (std::regex_match(s, boolean)) return s[0] == 't' || s[0] == 'T';
      if (std::regex_match(s, null)) return nullptr;
      if (std::regex_match(s, whole) && s.size() < 19) return std::stoll(s);
      if (std::regex_match(s, decimal)) return std::stod(s);
      return s;
    }
    case YAML::NodeType::Undefined: break;
  }
  return nullptr;
}

// The files under `dir` (relative to the source) whose names end in .yaml, recursively.
std::vector<fs::path> yaml_files(const std::string& dir, bool recursive) {
  std::vector<fs::path> out;
  fs::path root = fs::path(KATA_SOURCE_DIR) / dir;
  auto add = [&](const fs::directory_entry& e) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") out.push_back(e.path());
  };
  if (recursive)
    for (const auto& e : fs::recursive_directory_iterator(root)) add(e);
  else
    for (const auto& e : fs::directory_iterator(root)) add(e);
  std::sort(out.begin(), out.end());
  return out;
}

// The files converted to JSON and validated against docs/kata-NAME.schema.json.
kata::test::Run validate(const std::string& name, const std::vector<std::pair<std::string, json>>& documents) {
  fs::path dir = kata::test::scratch_dir("schema-" + name);
  std::string command = "python3 " KATA_SOURCE_DIR "/tests/validate_schema.py " KATA_SOURCE_DIR "/docs/kata-" + name +
                        ".schema.json";
  int i = 0;
  for (const auto& [label, document] : documents) {
    fs::path file = dir / fmt::format("{}-{}.json", i++, fs::path(label).filename().string());
    std::ofstream(file) << document.dump();
    command += fmt::format(" {}", file.string());
  }
  return kata::test::run_command(command + " 2>&1");
}

// The property names of a schema's object at "rules:" (the top level) or "rules:NAME".
std::set<std::string> schema_keys(const std::string& where) {
  auto colon = where.find(':');
  json s = schema(where.substr(0, colon));
  std::string name = where.substr(colon + 1);
  const json& object = name.empty() ? s : s["definitions"][name];
  std::set<std::string> out;
  for (const auto& [key, value] : object["properties"].items()) out.insert(key);
  return out;
}

}  // namespace

TEST_CASE("the schemas name exactly the keys the loaders accept, each with a description", "[schema]") {
  std::set<std::string> covered;
  for (const auto& set : kata::keys::all) {
    INFO(set.schema);
    std::set<std::string> loader(set.keys->begin(), set.keys->end());
    CHECK(schema_keys(set.schema) == loader);
    covered.insert(set.schema);
  }
  // Every object of the schemas with properties is one the loaders check.
  for (std::string name : {"rules", "scenario"}) {
    json s = schema(name);
    CHECK(covered.count(name + ":"));
    for (const auto& [def, value] : s["definitions"].items())
      if (value.contains("properties")) {
        INFO(name << ":" << def);
        CHECK(covered.count(name + ":" + def));
        for (const auto& [key, property] : value["properties"].items()) {
          INFO(key);
          CHECK(property.contains("description"));
        }
      }
    for (const auto& [key, property] : s["properties"].items()) {
      INFO(name << " " << key);
      CHECK((property.contains("description") || property.contains("$ref")));
    }
  }
}

TEST_CASE("every rule file, import and scenario of the repository is valid under its schema", "[schema]") {
  std::vector<std::pair<std::string, json>> rules, scenarios;
  for (const auto& dir : {"rules", "stdlib", "fuzz/corpus/play"})
    for (const auto& f : yaml_files(dir, false)) rules.emplace_back(f.string(), to_json(YAML::LoadFile(f.string())));
  for (const auto& f : yaml_files("rules/tests", true))
    scenarios.emplace_back(f.string(), to_json(YAML::LoadFile(f.string())));
  REQUIRE(rules.size() >= 13);
  REQUIRE(scenarios.size() >= 100);
  for (const auto& [name, documents] : {std::pair{"rules", rules}, std::pair{"scenario", scenarios}}) {
    auto v = validate(name, documents);
    INFO(v.out);
    CHECK(v.status == 0);
    CHECK(kata::test::has(v.out, std::to_string(documents.size()) + " files, 0 errors"));
  }
  // Every file names its schema in a modeline, for editors with a YAML language server.
  for (const auto& [dir, target] : {std::pair{"rules", "../docs/kata-rules.schema.json"},
                                    std::pair{"stdlib", "../docs/kata-rules.schema.json"},
                                    std::pair{"rules/tests", "../../../docs/kata-scenario.schema.json"}})
    for (const auto& f : yaml_files(dir, std::string(dir) == "rules/tests")) {
      std::ifstream in(f);
      std::string first;
      std::getline(in, first);
      INFO(f);
      CHECK(first == std::string("# yaml-language-server: $schema=") + target);
    }
}

TEST_CASE("the schemas refuse what the loader refuses", "[schema]") {
  json good = to_json(YAML::LoadFile(KATA_SOURCE_DIR "/rules/kobayakawa.yaml"));
  std::vector<std::pair<std::string, json>> bad;
  auto edit = [&](const std::string& label, auto change) {
    json copy = good;
    change(copy);
    bad.emplace_back(label, copy);
  };
  edit("unknown-top-key", [](json& j) { j["plyers"] = 3; });
  edit("unknown-zone-key", [](json& j) { j["zones"]["deck"]["visibilty"] = "owner"; });
  edit("bad-visibility", [](json& j) { j["zones"]["deck"]["visibility"] = "some"; });
  edit("limits-zero", [](json& j) { j["limits"] = {{"decisions", 0}}; });
  edit("version-2", [](json& j) { j["kata"] = 2; });
  edit("option-without-default", [](json& j) { j["options"]["x"] = {{"doc", "no default"}}; });
  edit("refusal-not-text", [](json& j) { j["actions"]["draw"]["when"] = json::array({{{"if", "true"}, {"refuse", 3}}}); });
  using kata::test::has;
  auto v = validate("rules", bad);
  INFO(v.out);
  CHECK(v.status == 1);
  CHECK(has(v.out, "7 files, 7 errors"));
  for (const auto& [label, document] : bad) CHECK(has(v.out, "-" + label + ".json: "));

  json scenario = to_json(YAML::LoadFile(KATA_SOURCE_DIR "/rules/tests/kobayakawa/worked_example.yaml"));
  scenario["step"] = scenario["steps"];
  scenario["steps"].push_back({{"pley", "P1 draw"}});
  auto s = validate("scenario", {{"bad-scenario", scenario}});
  INFO(s.out);
  CHECK(s.status == 1);
  CHECK(has(s.out, "1 files, 2 errors"));
}

TEST_CASE("the VS Code extension starts kata lsp and contributes the schemas of docs/", "[schema]") {
  std::ifstream in(KATA_SOURCE_DIR "/editors/vscode/package.json");
  json package = json::parse(in);
  std::set<std::string> contributed;
  for (const auto& v : package["contributes"]["yamlValidation"]) contributed.insert(v["url"].get<std::string>());
  CHECK(contributed == std::set<std::string>{"./schemas/kata-rules.schema.json", "./schemas/kata-scenario.schema.json"});
  for (const auto& url : contributed) CHECK(fs::exists(fs::path(KATA_SOURCE_DIR "/docs") / fs::path(url).filename()));
  std::ifstream js(KATA_SOURCE_DIR "/editors/vscode/extension.js");
  std::string code((std::istreambuf_iterator<char>(js)), std::istreambuf_iterator<char>());
  CHECK(kata::test::has(code, "args: [\"lsp\"]"));
}
