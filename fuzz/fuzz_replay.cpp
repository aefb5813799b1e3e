// Fuzz target: the bytes are a game log, replayed as `kata replay` does: by everyone when
// its length is even, as P1 when it is odd (one replay per input, twice the speed). The log is written to a scratch file (replay reads a path). Its header's `rules`
// is pointed at the rule file of that name in the repository's rules/ (or at a file that
// does not exist), so every input replays against a fixed game whatever the current
// directory, and the fuzzer never reads other files through it; its `sha256` is set to
// that file's, so the seed logs stay replayable when a rule file changes (a wrong SHA-256
// is one comparison, not worth the fuzzer's time).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "log/log.hpp"
#include "runtime/view.hpp"
#include "support.hpp"

namespace {

std::string file_sha256(const std::string& path) {
  static std::map<std::string, std::string> known;
  auto it = known.find(path);
  if (it != known.end()) return it->second;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return known[path] = kata::sha256_hex(text);
}

std::string fixed_rules(std::string text) {
  size_t end = text.find('\n');
  auto header = nlohmann::json::parse(text.substr(0, end), nullptr, false);
  if (header.is_discarded() || !header.is_object() || !header.contains("rules") || !header["rules"].is_string())
    return text;
  std::string name = std::filesystem::path(header["rules"].get<std::string>()).filename().string();
  std::filesystem::path rules = std::filesystem::path(kata::fuzz::source_dir()) / "rules" / name;
  std::error_code ec;
  if (name.empty() || name[0] == '.' || !std::filesystem::is_regular_file(rules, ec))
    rules = std::filesystem::path(kata::fuzz::scratch_dir()) / "no-such-rules.yaml";
  else
    header["sha256"] = file_sha256(rules.string());
  header["rules"] = rules.string();
  std::string rest = end == std::string::npos ? "" : text.substr(end);
  return header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + rest;
}

void replay(const std::string& path, int viewer) {
  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  kata::ReplayResult r = kata::replay_log(path, viewer, sources, diags);
  if (sources) kata::fuzz::print_diagnostics(*sources, diags);
  size_t shown = r.error.size();
  for (const auto& line : r.shown) shown += line.size();
  if (r.game && !r.final.slots.empty()) shown += kata::describe_view(*r.game, kata::make_view(*r.game, r.final, viewer)).size();
  (void)shown;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = fixed_rules(std::string(reinterpret_cast<const char*>(data), size));
  std::string path = kata::fuzz::scratch_dir() + "/input.jsonl";
  kata::fuzz::write_file(path, reinterpret_cast<const uint8_t*>(text.data()), text.size());
  replay(path, size % 2 == 0 ? -1 : 0);
  return 0;
}
