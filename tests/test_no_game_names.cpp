// No game in the interpreter: nothing under interpreter/ or cli/, code, comments or
// notes, names a game of rules/ (its `game:` name, or its file's name). What a game needs
// that the language cannot say becomes a general concept instead (README, "What holds
// everywhere").
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

TEST_CASE("interpreter/ and cli/ name no game of rules/", "[layers]") {
  std::vector<std::string> names;
  for (const std::string& file : kata::test::rule_files()) {
    fs::path path = fs::path(KATA_SOURCE_DIR) / file;
    names.push_back(lower(path.stem().string()));
    YAML::Node doc = YAML::LoadFile(path.string());
    if (doc["game"]) names.push_back(lower(doc["game"].as<std::string>()));
  }
  REQUIRE(names.size() >= 10);
  size_t files = 0;
  for (const char* dir : {"interpreter", "cli"})
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(KATA_SOURCE_DIR) / dir)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path());
      int number = 0;
      for (std::string line; std::getline(in, line);) {
        ++number;
        std::string text = lower(line);
        for (const std::string& name : names)
          if (text.find(name) != std::string::npos)
            FAIL_CHECK(entry.path().string() << ":" << number << ": names '" << name << "': " << line);
      }
    }
  CHECK(files > 50);
}
