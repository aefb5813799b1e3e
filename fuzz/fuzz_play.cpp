// Fuzz target: the bytes are a rule file, optionally followed by a line `# decisions` and
// bytes that pick the decisions. A file that checks is played as `kata play --log` plays
// it, from its first decision to its end, a runtime error or the target's limits: the
// player count, the options and the seed are drawn from a hash of the input; each decision
// is picked by the next bytes of the tail (some typed in the chooser's notation, as a
// person would), and by a generator seeded from the hash once they run out. Along the way
// every seat is told the events and sees its view while the menus are small; at the end
// each seat's view, the public one, the score table and the board are drawn. The log is
// then replayed, by everyone or as one seat, and must give the same game: verified if it
// ended or stopped, and the same runtime error if one stopped it.
//
// The rule file's `limits.steps` is lowered to `max_steps` and a game is stopped after
// `max_decisions`, or once `max_listed` decisions were offered (as a person quitting stops
// it), so that an input stays within the fuzz options' 10 seconds. A game stopped by the
// lowered budget is not replayed, and one with a message's value said "?" under it is not
// compared: the replay reads the file's own limits and would go on.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "agents/runner.hpp"
#include "compile/compiler.hpp"
#include "log/log.hpp"
#include "support.hpp"

namespace {

constexpr int64_t max_steps = 20000;
constexpr int max_decisions = 300;
// Views and menus are built for decisions with at most this many choices.
constexpr int max_menu = 64;
// A game is stopped once its choices have offered this many decisions in all: the game
// and its replay each list every choice whole (a choice may offer 2^20). Reading a logged
// decision no longer writes the legal ones out, so this could be raised; it has not been
// measured yet against the 10 seconds.
constexpr int64_t max_listed = 100000;
const std::string separator = "\n# decisions\n";

// FNV-1a, then a mix: the input's fingerprint, for the choices it does not spell out.
uint64_t fingerprint(const std::string& bytes) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char b : bytes) h = (h ^ b) * 1099511628211ULL;
  return h ^ (h >> 29);
}

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "kata fuzz play: %s\n", what.c_str());
  std::abort();
}

// Picks each decision with the next bytes of the tail (one for a short list, more for a
// long one), then with its generator; the bytes also say whether the pick is typed in
// notation (from the menu's labels) instead of given by number.
// What the agents of a game share: the tail of the input, how much of it has been read,
// and how many decisions have been offered and made.
struct Feed {
  std::string tail;
  size_t at = 0;
  int64_t listed = 0;
  int decisions = 0;
};

class ByteAgent : public kata::Agent {
 public:
  ByteAgent(Feed& feed, uint64_t seed) : feed_(feed), random_(seed) {}
  std::string kind() const override { return "random"; }
  bool needs_view() const override { return looking_; }
  kata::Choice choose(const kata::Game& g, const kata::PlayerView& view, const std::vector<std::string>& labels,
                      int count) override {
    // A long game, or one whose choices are so large that replaying it would be slow.
    feed_.listed += count;
    if (++feed_.decisions > max_decisions || feed_.listed > max_listed) return {-2, {}};
    int pick = -1;
    bool typed = false;
    const std::string& tail = feed_.tail;
    size_t& at = feed_.at;
    if (at < tail.size()) {
      unsigned b = static_cast<unsigned char>(tail[at++]);
      typed = b & 1;
      uint64_t v = b >> 1;
      for (int64_t room = 128; room < count && at < tail.size(); room *= 256)
        v = v * 256 + static_cast<unsigned char>(tail[at++]);
      pick = static_cast<int>(v % static_cast<uint64_t>(count));
    } else {
      kata::PlayerView none;
      pick = random_.choose(g, none, {}, count).index;
    }
    looking_ = count <= max_menu;  // for the next decision: a guess at its size
    if (typed && static_cast<size_t>(pick) < labels.size()) {
      (void)kata::describe_view(g, view);
      return {-1, labels[pick]};
    }
    return {pick, {}};
  }
  // The chooser's own notation names each of its decisions apart (view.hpp): a label typed
  // back must be taken.
  bool refused(const std::string& why) override { finding("a decision's own notation is refused: " + why); }
  void observe(const std::string& line) override { told_ += line.size(); }
  void game_over(const kata::Game& g, const kata::PlayerView& view) override {
    told_ += kata::describe_view(g, view).size() + kata::draw_board(g, view).size();
  }

 private:
  Feed& feed_;
  kata::RandomAgent random_;
  bool looking_ = false;  // the first menu may be large
  size_t told_ = 0;
};

// The player count and the options, from the fingerprint: a bool or a list of choices
// takes a value drawn from it where that is a valid set-up.
void setup(const kata::Game& g, uint64_t& h, int& players, std::vector<int64_t>& options) {
  players = g.min_players + static_cast<int>(h % static_cast<uint64_t>(g.max_players - g.min_players + 1));
  h /= 17;
  options = kata::default_options(g);
  std::vector<int64_t> drawn = options;
  for (size_t i = 0; i < g.options.size(); ++i) {
    const kata::OptionInfo& o = g.options[i];
    if (o.is_bool) drawn[i] = static_cast<int64_t>(h & 1), h >>= 1;
    else if (!o.choices.empty()) drawn[i] = o.choices[h % o.choices.size()], h /= 7;
  }
  if (kata::setup_error(g, players, drawn).empty()) options = drawn;
}

// What every seat and an onlooker see at the end, drawn.
size_t draw_end(const kata::Game& g, const kata::State& s, int players) {
  size_t shown = kata::describe_public_view(g, s).size();
  for (int seat = -1; seat < players; ++seat) {
    kata::PlayerView v = kata::make_view(g, s, seat);
    shown += kata::describe_view(g, v).size() + kata::board_svg(g, v).size();
  }
  return shown + kata::score_table(g, s).scores.size();
}

void replay_and_compare(const std::string& log_path, int viewer, const kata::MatchResult& r, const std::string& error,
                        bool comparable) {
  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  kata::ReplayResult rep = kata::replay_log(log_path, viewer, sources, diags);
  if (sources) kata::fuzz::print_diagnostics(*sources, diags);
  if (!comparable) return;
  if (!error.empty()) {
    // The replay stops where the game did, with the same error (a seat is not told it).
    std::string expected = viewer < 0 ? "the game stopped: " + error : "the game stopped with a runtime error";
    if (rep.ok || rep.error.find(expected) == std::string::npos)
      finding("the replay of a game stopped by a runtime error says: " + (rep.ok ? "verified" : rep.error) +
              "\nexpected: " + expected);
    return;
  }
  if (!rep.ok) finding("the log of a game played here does not replay: " + rep.error);
  if (rep.stopped == r.completed) finding("the replay and the game disagree on whether it ended");
  if (!(rep.final == r.final)) finding("the replay ends in another state than the game");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t cut = input.find(separator);
  std::string text = input.substr(0, cut);
  Feed feed;
  if (cut != std::string::npos) feed.tail = input.substr(cut + separator.size());
  const std::string& dir = kata::fuzz::scratch_dir();
  std::string rules = dir + "/input.yaml", log_path = dir + "/input.jsonl";
  kata::fuzz::write_file(rules, reinterpret_cast<const uint8_t*>(text.data()), text.size());

  std::shared_ptr<kata::Sources> sources;
  kata::Diagnostics diags;
  auto loaded = kata::load_game(rules, sources, diags);
  if (sources) kata::fuzz::print_diagnostics(*sources, diags);
  if (!loaded) return 0;
  auto capped = std::make_shared<kata::Game>(*loaded);
  if (capped->max_steps > max_steps) capped->max_steps = max_steps;
  const kata::Game& g = *capped;

  uint64_t h = fingerprint(input);
  int players = 0;
  std::vector<int64_t> options;
  setup(g, h, players, options);
  uint64_t seed = h;
  std::vector<std::unique_ptr<kata::Agent>> agents;
  std::vector<std::string> kinds;
  for (int seat = 0; seat < players; ++seat) {
    agents.push_back(std::make_unique<ByteAgent>(feed, kata::game_seed(seed, static_cast<uint64_t>(seat) + 1)));
    kinds.push_back("random");
  }

  std::ostringstream log_text;
  kata::MatchResult r;
  std::string error;
  {
    kata::LogWriter log(log_text);
    log.header(kata::make_header(g, players, seed, options, kinds));
    try {
      r = kata::play_match(g, players, seed, options, agents, &log);
      if (!r.completed) log.error(r.stopped_by);
    } catch (const kata::RuntimeError& e) {
      error = e.what();
      log.error(error);
      kata::Diagnostic d{e.pos, kata::Severity::error, error, {}};
      (void)kata::format_diagnostic(*g.sources, d, false);
    }
  }
  if (error.empty()) (void)draw_end(g, r.final, players);
  bool comparable = true;
  // Stopped by the lowered budget: the file's own would let the replay go on.
  if (loaded->max_steps > max_steps && error.find("raise limits.steps") != std::string::npos) return 0;
  std::string logged = log_text.str();
  // A message's value that ran out of the lowered budget is said as "?" (it stops nothing);
  // with the file's own budget the replay may work it out.
  if (loaded->max_steps > max_steps)
    for (size_t at = logged.find("\"type\":\"say\""); at != std::string::npos; at = logged.find("\"type\":\"say\"", at + 1)) {
      size_t begin = logged.rfind('\n', at), end = logged.find('\n', at);
      if (logged.substr(begin + 1, end - begin).find('?') != std::string::npos) comparable = false;
    }
  kata::fuzz::write_file(log_path, reinterpret_cast<const uint8_t*>(logged.data()), logged.size());
  replay_and_compare(log_path, static_cast<int>(h % static_cast<uint64_t>(players + 1)) - 1, r, error, comparable);
  return 0;
}
