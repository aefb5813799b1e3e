// kata check --against's diff (check/diff) sees every part of a rule file: whatever scalar
// of a rule file in rules/ is edited, if the edited file still loads, the diff lists a
// change. A part the diff forgot (a new key of the loader, say) fails here, without a list
// of keys to keep in step.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <map>

#include "check/diff.hpp"
#include "support.hpp"

namespace {

using namespace kata;

struct Loaded {
  Sources sources;
  Diagnostics diags;
  std::unique_ptr<RuleFile> rules;
};

// `text` read as the rule file at `path` (so that its imports are found beside it).
std::unique_ptr<Loaded> read(const std::string& path, const std::string& text) {
  auto l = std::make_unique<Loaded>();
  l->rules = load_rule_text(path, text, l->sources, l->diags);
  if (l->diags.has_errors()) l->rules.reset();
  return l;
}

std::string emitted(const YAML::Node& root) {
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

// One edit of a scalar: a number one more, a flag the other way, a text with a letter more.
std::string edited(const std::string& scalar) {
  if (scalar == "true") return "false";
  if (scalar == "false") return "true";
  bool number = !scalar.empty() && scalar.find_first_not_of("-0123456789") == std::string::npos &&
                scalar.size() < 15;
  if (number) return std::to_string(std::stoll(scalar) + 1);
  return scalar + "z";
}

// The scalars of a rule file (values, not keys) with the key they sit under, in order.
struct Scalar {
  YAML::Node node;
  std::string key;
};

void scalars(YAML::Node node, const std::string& key, std::vector<Scalar>& out) {
  if (node.IsScalar()) {
    out.push_back({node, key});
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) scalars(node[i], key, out);
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) scalars(it->second, it->first.as<std::string>(), out);
  }
}

}  // namespace

TEST_CASE("check --against lists an edit of any scalar of any rule file", "[compare][diff]") {
  for (const std::string& path : kata::test::rule_files()) {
    INFO(path);
    YAML::Node root = YAML::LoadFile(path);
    auto base = read(path, emitted(root));
    REQUIRE(base->rules);
    CHECK(diff_rules(*base->rules, *base->rules).empty());
    std::vector<Scalar> all;
    scalars(root, "", all);
    // Up to four scalars under each key: every kind of part, in a bounded time.
    std::map<std::string, int> tried;
    int edits = 0;
    for (Scalar& s : all) {
      // `override: true` changes no declaration, only whether replacing an imported one is
      // warned about (docs/language.md, "Imports"): nothing for the diff to list.
      if (tried[s.key] >= 4 || s.key == "override") continue;
      std::string was = s.node.Scalar();
      s.node = edited(was);
      auto now = read(path, emitted(root));
      s.node = was;
      if (!now->rules) continue;  // the edit broke the file: nothing to compare
      ++tried[s.key];
      ++edits;
      INFO("'" << was << "' under '" << s.key << "' edited");
      CHECK_FALSE(diff_rules(*base->rules, *now->rules).empty());
    }
    CHECK(edits > 10);
  }
}
