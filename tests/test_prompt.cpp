// The human's prompt as a person meets it: the built `kata` run on a pseudo-terminal
// (forkpty), for every game in rules/, with typed moves, a refused one, help, log, a choice
// made one value at a time and quit; and the menus themselves (identical choices listed
// once, long lists walked a parameter at a time) through the real HumanAgent on string
// streams. Every read has a deadline, so a test fails instead of hanging.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "agents/agent.hpp"
#include "agents/menu.hpp"
#include "agents/typed.hpp"
#include "runtime/wrap.hpp"
#include "support.hpp"

namespace {

using kata::test::has;

// `kata ARGS` on a pseudo-terminal of 40 lines, run in the repository's root.
class Pty {
 public:
  explicit Pty(const std::vector<std::string>& args) {
    winsize size{};
    size.ws_row = 40;
    size.ws_col = 100;
    pid_ = forkpty(&fd_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      std::vector<char*> argv{const_cast<char*>(KATA_BINARY)};
      for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      if (chdir(KATA_SOURCE_DIR) == 0) execv(KATA_BINARY, argv.data());
      _exit(127);
    }
  }
  ~Pty() {
    if (pid_ > 0 && status_ == -2) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0; }
  void signal(int sig) const { kill(pid_, sig); }

  // Reads until `text` appears after what earlier calls consumed, for at most 5 s; the
  // output up to and including it is then consumed.
  bool expect(const std::string& text) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
      if (auto at = out_.find(text, seen_); at != std::string::npos) {
        last_ = out_.substr(seen_, at + text.size() - seen_);
        seen_ = at + text.size();
        return true;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || !read_some(static_cast<int>(left.count()))) {
        last_ = out_.substr(seen_);
        return false;
      }
    }
  }
  // What the last expect consumed (or, when it failed, what was left).
  const std::string& last() const { return last_; }
  void send(const std::string& line) {
    std::string text = line + "\n";
    CHECK(write(fd_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  void send_raw(const std::string& bytes) {
    CHECK(write(fd_, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  }
  // The exit status, waiting at most 5 s (-1: it did not end, or was killed).
  int wait() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      // Its last output is read before it is waited for: the pseudo-terminal's end goes
      // with it.
      while (read_some(10)) {
      }
      int st = 0;
      if (waitpid(pid_, &st, WNOHANG) == pid_)
        return status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  const std::string& output() const { return out_; }

 private:
  bool read_some(int ms) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return false;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;  // EIO: the child has ended
    out_.append(buf, static_cast<size_t>(n));
    return true;
  }
  pid_t pid_ = -1;
  int fd_ = -1;
  int status_ = -2;
  std::string out_, last_;
  size_t seen_ = 0;
};

// Line `k` of the last menu in `out`, as shown.
std::string entry(const std::string& out, int k) {
  std::string mark = (k < 10 ? "   " : "  ") + std::to_string(k) + ") ";
  auto at = out.rfind(mark);
  if (at == std::string::npos) return {};
  at += mark.size();
  return out.substr(at, out.find_first_of("\r\n", at) - at);
}

// The first decision of the menu on the screen, in full: a step that offers values is
// walked by typing 1.
// `start`: what the menu asked the last value of (the text before " — choose"), or the
// decision without its last word where it asked all at once.
std::string first_decision(Pty& t, std::string* start = nullptr) {
  for (int steps = 0; steps < 5; ++steps) {
    std::string e = entry(t.output(), 1);
    // The decision without what the menu adds: " (x4)", the pieces on its points.
    if (!has(e, " choice")) {
      e = e.substr(0, e.find(" ("));
      if (start) {
        std::string out = t.output();
        size_t choose = out.rfind(" — choose");
        size_t line = choose == std::string::npos ? choose : out.rfind('\n', choose);
        // Without a step shown, the action's name: a value may be several words
        // ("rally Minamoto 1"), so the decision less its last word may begin none.
        *start = choose == std::string::npos ? e.substr(0, e.find(' ')) : out.substr(line + 1, choose - line - 1);
      }
      return e;
    }
    t.send("1");
    if (!t.expect("P1> ")) break;
  }
  return {};
}

}  // namespace

TEST_CASE("on a terminal: typed moves, a refusal, help, log, one value at a time, quit",
          "[cli][prompt]") {
  for (std::string game : {"kobayakawa", "kenjin", "hogen", "kendo"}) {
    INFO(game);
    std::string players = game == "kendo" ? "2" : "3",
                agents = game == "kendo" ? "human,random" : "human,random,random";
    Pty t({"play", "rules/" + game + ".yaml", "-p", players, "-a", agents, "--seed", "4"});
    REQUIRE(t.started());
    REQUIRE(t.expect("P1> "));
    // A move typed in full. In Kobayakawa, drawing, so that a discard follows.
    std::string first = game == "kobayakawa" ? "draw" : first_decision(t);
    REQUIRE_FALSE(first.empty());
    t.send(first);
    REQUIRE(t.expect("P1> "));
    CHECK_FALSE(has(t.last(), "Refused"));
    // A move that is not legal is refused with the reason, and asked again.
    t.send("bogus 3");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "Refused: there is no action 'bogus'"));
    t.send("help");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "a decision      in its notation, for example:"));
    CHECK(has(t.last(), "quit            stop the game"));
    t.send("log");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "lines you were told:"));
    // Bad input: a number out of range, bytes that are not UTF-8, a line far too long.
    t.send("999999999999999999999");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "Choose a number from 1 to "));
    t.send("0");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "Choose a number from 1 to "));
    t.send("\xff\xfe");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "not valid UTF-8"));
    t.send(std::string(3000, 'x'));
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "is 3000 characters long"));
    // The start of a decision lists only what it begins, a value at a time; `back`
    // returns a step.
    std::string start;
    std::string next = first_decision(t, &start);
    REQUIRE(next.find(' ') != std::string::npos);
    t.send(start);
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), start + " — choose"));
    CHECK(has(t.last(), "('back' for the step before)"));
    t.send("back");
    REQUIRE(t.expect("P1> "));
    CHECK_FALSE(has(t.last(), start + " — choose"));
    t.send(start);
    REQUIRE(t.expect("P1> "));
    t.send("1");
    REQUIRE(t.expect("P1> "));
    CHECK_FALSE(has(t.last(), "Refused"));
    CHECK(has(t.last(), "P1 to choose."));
    // quit asks first.
    t.send("quit");
    REQUIRE(t.expect("Really quit? (y/n) "));
    t.send("n");
    REQUIRE(t.expect("P1> "));
    CHECK(has(t.last(), "Not quitting."));
    t.send("quit");
    REQUIRE(t.expect("Really quit? (y/n) "));
    t.send("y");
    CHECK(t.wait() == 1);
    CHECK(has(t.output(), "P1 (human) stopped before the end"));
    // Without a log the game cannot be resumed: it says how to keep one next time.
    CHECK(has(t.output(),
              "kata: this game was not logged, so it cannot be resumed; play with --log FILE"));
  }
}

TEST_CASE("on a terminal: the end of input (Ctrl-D) quits without asking", "[cli][prompt]") {
  Pty t({"play", "rules/kobayakawa.yaml", "-p", "3", "--seed", "2"});
  REQUIRE(t.started());
  REQUIRE(t.expect("P1> "));
  t.send_raw("\x04");
  CHECK(t.wait() == 1);
  CHECK_FALSE(has(t.output(), "Really quit"));
  CHECK(has(t.output(), "P1 (human) stopped before the end"));
}

namespace {

struct Start {
  kata::test::Loaded loaded;
  kata::State state;
  kata::PlayerView view;
  std::vector<std::string> labels;
  Start(const std::string& file, int players, uint64_t seed) : loaded(kata::test::load_file(file)) {
    REQUIRE(loaded.game);
    const kata::Game& g = *loaded.game;
    state = kata::new_game(g, players, seed, kata::default_options(g));
    view = kata::make_view(g, state, state.chooser());
    std::vector<kata::Decision> legal;
    kata::legal_decisions(g, state, legal);
    for (auto& d : legal) labels.push_back(kata::decision_text(g, state, d));
  }
};

}  // namespace

TEST_CASE("identical choices are one item, named without the copy number - the first is chosen",
          "[prompt]") {
  Start k("rules/kenjin.yaml", 3, 4);
  const kata::Game& g = *k.loaded.game;
  REQUIRE(k.labels.size() == 52);  // 13 cards on 4 battlefields
  auto items = kata::menu_items(g, k.view, k.labels);
  REQUIRE(items.size() == 40);  // the four Peasants are one
  auto peasant =
      std::find_if(items.begin(), items.end(), [](auto& i) { return i.parts[1] == "P1 Peasant"; });
  REQUIRE(peasant != items.end());
  CHECK(peasant->decisions.size() == 4);
  CHECK(peasant->text() == "deploy P1 Peasant " + peasant->parts[2] + " (x4)");
  // The notation names the battlefield by its name, the menu by its title where it has one.
  auto field = std::find(g.card_plain_names.begin(), g.card_plain_names.end(), peasant->parts[2]);
  REQUIRE(field != g.card_plain_names.end());
  CHECK(peasant->parts[2] == "Rice Field");
  CHECK(k.labels[peasant->decisions[0]] == "deploy P1 Peasant1 " + g.card_names[field - g.card_plain_names.begin()]);
  CHECK(kata::label_parts(g, "deploy P1 Peasant2 Village") ==
        std::vector<std::string>{"deploy", "P1 Peasant2", "Village"});
  // A card the chooser cannot see, named by its place, is read as one value.
  CHECK(kata::label_parts(g, "shugenja Village P2 Village.side(P2)#1") ==
        std::vector<std::string>{"shugenja", "Village", "P2", "Village.side(P2)#1"});
  CHECK_FALSE(kata::label_parts(g, "deploy P1 Nobody Village"));

  // Kobayakawa's cards are all different: its menus are its labels.
  Start y("rules/kobayakawa.yaml", 3, 1);
  auto plain = kata::menu_items(*y.loaded.game, y.view, y.labels);
  REQUIRE(plain.size() == y.labels.size());
  for (size_t i = 0; i < plain.size(); ++i) CHECK(plain[i].text() == y.labels[i]);
}

TEST_CASE("a long menu is chosen one value at a time, with back - bad input is answered",
          "[prompt]") {
  Start k("rules/kenjin.yaml", 3, 4);
  const kata::Game& g = *k.loaded.game;
  std::istringstream in("\n2\nback\nback\n41\nP1 Peasant\n" + std::string(5000, 'y') +
                        "\n\x1b[A\n1\n");
  std::ostringstream out;
  kata::Terminal t{in, out};
  kata::HumanAgent p1(t, 0);
  kata::Choice c = p1.choose(g, k.view, k.labels, static_cast<int>(k.labels.size()));
  std::string o = out.str();
  // Forty items are too many: the only action is taken, then the unit is asked for.
  CHECK(has(o,
            "deploy — choose the card from your hand:\n   1) P1 Lord  (4 choices)\n   2) P1 "
            "Peasant  (4 choices)\n"));
  CHECK(has(o, "(Type a number, a decision, or 'help'.)"));
  CHECK(has(o,
            "deploy P1 Peasant — choose the battlefield to deploy it on:\n   1) "
            "deploy P1 Peasant "));
  CHECK(has(o, "There is no step before this one."));
  CHECK(has(o, "Choose a number from 1 to 10."));
  CHECK(has(o, "That line is 5000 characters long"));
  CHECK(has(o, "That line holds control characters"));
  REQUIRE(c.index >= 0);
  CHECK(k.labels[c.index].rfind("deploy P1 Peasant1 ", 0) == 0);
}

namespace {

// Two seats, each with a Lord and two Guards in hand: in a set the Guards are
// interchangeable, in a row (where each has its place) they are not.
std::string pairs(const std::string& order) {
  return R"(game: Pairs
players: 2
components:
  tile:
    list:
      - {name: North}
      - {name: GoldenTemple}
    in: table
  unit:
    per_player: true
    list:
      - {name: Lord}
      - {name: Guard, count: 2}
    name: "{owner} {name}{copy}"
    in: hand
zones:
  table: {visibility: everyone, order: row}
  hand: {per_player: true, visibility: owner, order: )" +
         order + R"(}
  side: {per: tile, per_player: true, visibility: everyone}
flow: |
  repeat 3 times {
    for p in players { choose p: deploy }
  }
actions:
  deploy:
    params: {c: player.hand, t: table}
    do: move c to t.side(player)
scoring:
  score: 0
)";
}

// The label short_form picks for `text`, or "refused: WHY".
std::string shortened(const kata::Game& g, const kata::PlayerView& view,
                      const std::vector<std::string>& labels, const std::string& text) {
  std::string why = "no match";
  auto k = kata::short_form(g, view, labels, text, why);
  return k ? labels[*k] : "refused: " + why;
}

}  // namespace

TEST_CASE("short forms: without the shared words, case and spaces - interchangeable cards by their plain name",
          "[prompt][notation]") {
  Start k("rules/kenjin.yaml", 3, 4);
  const kata::Game& g = *k.loaded.game;
  auto typed = [&](const std::string& text) { return shortened(g, k.view, k.labels, text); };
  CHECK(typed("deploy Lord RiceField") == "deploy P1 Lord RiceField");
  CHECK(typed("deploy p1lord ricefield") == "deploy P1 Lord RiceField");
  CHECK(typed("DEPLOY lord rice field") == "deploy P1 Lord RiceField");
  CHECK(typed("deploy p 1 lord rice  field") == "deploy P1 Lord RiceField");
  // The four Peasants are one item: the plain name plays the first; a copy, that copy.
  CHECK(typed("deploy peasant palace") == "deploy P1 Peasant1 Palace");
  CHECK(typed("deploy P1 Peasant Palace") == "deploy P1 Peasant1 Palace");
  CHECK(typed("deploy peasant3 palace") == "deploy P1 Peasant3 Palace");
  // Values are not run together, nor left out.
  CHECK(typed("deploy lordricefield") == "refused: no match");
  CHECK(typed("deploy lord") == "refused: no match");
  CHECK(typed("deploy lord village") == "refused: no match");  // not on the table

  // The runner reads a typed decision the same way, after the notation in full.
  std::string why;
  auto d = kata::read_decision(g, k.state, "deploy lord palace", why);
  REQUIRE(d);
  CHECK(kata::decision_text(g, k.state, *d) == "deploy P1 Lord Palace");
  // Where the notation in full stops at a value read in short, the reason is where the
  // short form stops.
  CHECK_FALSE(kata::read_decision(g, k.state, "deploy lord", why));
  CHECK(why == "'deploy' takes 2 values: the card from your hand, then the battlefield to deploy it on");
  CHECK_FALSE(kata::read_decision(g, k.state, "deploy lord palace extra", why));
  CHECK(why == "'deploy' takes 2 values: the card from your hand, then the battlefield to deploy it on");
  // The Village is in play between two other players: the rule file's own reason, as the
  // notation in full would give it (not "'village' is not a choice for t").
  CHECK_FALSE(kata::read_decision(g, k.state, "deploy lord village", why));
  CHECK(why == "You do not fight on Village: it lies between two other players.");
  CHECK_FALSE(kata::read_decision(g, k.state, "deploy lord bridge", why));
  CHECK(why ==
        "'bridge' is not a choice for the battlefield to deploy it on (choices: "
        "Rice Field, "
        "Palace, Port, Sanctuary)");
  CHECK_FALSE(kata::read_decision(g, k.state, "deploy nobody palace", why));
  // The values as the menu names them (the four Peasants once), and the parameter's doc.
  CHECK(why ==
        "'nobody' is not a choice for the card from your hand (choices: P1 Lord, P1 Peasant, P1 "
        "Brute, "
        "P1 Archer, P1 Samurai, P1 Scout, P1 Shugenja, P1 General, P1 Assassin, P1 Ashigaru)");
}

TEST_CASE("short forms: cards that are not interchangeable are ambiguous by their plain name",
          "[prompt][notation]") {
  for (std::string order : {"set", "row"}) {
    INFO(order);
    auto l = kata::test::load_text(pairs(order));
    REQUIRE(l.game);
    const kata::Game& g = *l.game;
    kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
    std::vector<std::string> labels = kata::test::legal_texts(g, s);
    kata::PlayerView view = kata::make_view(g, s, 0);
    CHECK(shortened(g, view, labels, "deploy lord golden temple") == "deploy P1 Lord GoldenTemple");
    CHECK(shortened(g, view, labels, "deploy guard2 north") == "deploy P1 Guard2 North");
    if (order == "set") {
      CHECK(shortened(g, view, labels, "deploy guard north") == "deploy P1 Guard1 North");
    } else {
      // In a row each Guard has its place: which one is meant matters.
      CHECK(shortened(g, view, labels, "deploy Guard north") ==
            "refused: ambiguous: 'deploy Guard north' could be deploy P1 Guard1 North or deploy P1 Guard2 North");
      std::string why;
      CHECK_FALSE(kata::read_decision(g, s, "deploy guard north", why));
      CHECK(why == "ambiguous: 'deploy guard north' could be deploy P1 Guard1 North or deploy P1 Guard2 North");
    }
  }
}

TEST_CASE("short forms never read the name of a card the chooser cannot see", "[prompt][notation]") {
  // Kenjin played by the first legal decision, then the second, ... until P1 may choose a
  // card it cannot see (named by its place); typed by its real name, it names nothing.
  auto l = kata::test::load_file("rules/kenjin.yaml");
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 3, 4, kata::default_options(g));
  std::vector<kata::Decision> legal;
  int tried = 0;
  for (int n = 0; !s.over() && n < 500; ++n) {
    kata::legal_decisions(g, s, legal);
    std::vector<std::string> labels;
    for (auto& d : legal) labels.push_back(kata::decision_text(g, s, d));
    kata::PlayerView view = kata::make_view(g, s, s.chooser());
    for (size_t i = 0; i < legal.size(); ++i) {
      auto parts = kata::label_parts(g, labels[i]);
      if (!parts) continue;
      const kata::Action& a = g.program.actions[legal[i].action];
      for (size_t k = 0; k < a.params.size(); ++k) {
        if (a.params[k].type != kata::Type::card || (*parts)[k + 1].find('#') == std::string::npos) continue;
        std::vector<std::string> named = *parts;
        named[k + 1] = g.card_names[legal[i].args[k]];
        std::string text;
        for (auto& p : named) text += (text.empty() ? "" : " ") + p;
        std::string why;
        auto found = kata::short_form(g, view, labels, text, why);
        INFO(labels[i] + " typed as " + text);
        CHECK((!found || *found != static_cast<int>(i)));
        ++tried;
      }
    }
    kata::apply(g, s, legal[n % legal.size()]);
  }
  CHECK(tried > 0);
}

TEST_CASE("short forms: a blind pick from a player's set by that player's name, when unambiguous",
          "[prompt][notation]") {
  // P1 may take a card unseen from the next player's hand, or from P2's or P3's stash.
  auto l = kata::test::load_text(R"(game: Blind
players: 3
components:
  card: {list: [{name: Monk}, {name: Guard}, {name: Spy}, {name: Scout}, {name: Duke}, {name: Lord}], in: deck}
zones:
  deck: {visibility: nobody}
  hand: {per_player: true, visibility: owner, order: set}
  stash: {per_player: true, visibility: owner, order: set}
flow: |
  for p in players { move top(deck) to p.hand }
  move top(deck) to P3.stash
  move top(deck) to P2.stash
  choose P1: take | steal | rob
actions:
  take:
    params: {c: next(player).hand}
    do: move c to player.hand
  steal:
    params: {c: P2.stash}
    do: move c to player.hand
  rob:
    params: {c: P3.stash}
    do: move c to player.hand
)");
  INFO(fmt::format("{}", fmt::join(l.messages(), "\n")));
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 3, 1, kata::default_options(g));
  std::vector<std::string> labels = kata::test::legal_texts(g, s);
  REQUIRE(labels == std::vector<std::string>{"take a card from P2.hand", "steal a card from P2.stash", "rob a card from P3.stash"});
  kata::PlayerView view = kata::make_view(g, s, 0);
  auto typed = [&](const std::string& text) { return shortened(g, view, labels, text); };
  CHECK(typed("take p2") == "take a card from P2.hand");
  CHECK(typed("TAKE P2.hand") == "take a card from P2.hand");
  CHECK(typed("rob p3") == "rob a card from P3.stash");
  CHECK(typed("steal p2.stash") == "steal a card from P2.stash");
  CHECK(typed("take p3") == "refused: no match");
  // The runner reads it so too, and the action's name may be left out when one set is meant.
  std::string why;
  auto d = kata::read_decision(g, s, "take p2", why);
  REQUIRE(d);
  CHECK(kata::decision_text(g, s, *d) == "take a card from P2.hand");
  d = kata::read_decision(g, s, "p3", why);
  REQUIRE(d);
  CHECK(kata::decision_text(g, s, *d) == "rob a card from P3.stash");
  // P2 has two sets to take from: the player's name alone is ambiguous.
  CHECK_FALSE(kata::read_decision(g, s, "p2", why));
  CHECK(why == "ambiguous: 'p2' could be take a card from P2.hand or steal a card from P2.stash");
}

TEST_CASE("at the prompt, a decision or its start typed in short", "[prompt][notation]") {
  Start k("rules/kenjin.yaml", 3, 4);
  const kata::Game& g = *k.loaded.game;
  auto play = [&](const std::string& input, std::string& out) {
    std::istringstream in(input);
    std::ostringstream o;
    kata::Terminal t{in, o};
    kata::HumanAgent p1(t, 0);
    kata::Choice c = p1.choose(g, k.view, k.labels, static_cast<int>(k.labels.size()));
    out = o.str();
    return c.index >= 0 ? k.labels[c.index] : "index " + std::to_string(c.index);
  };
  std::string out;
  CHECK(play("deploy lord palace\n", out) == "deploy P1 Lord Palace");
  CHECK(play("deploy lord\n1\n", out) == "deploy P1 Lord RiceField");
  CHECK(has(out,
            "P1> Deploy a card on your side of a battlefield (deploy):\ndeploy P1 Lord — choose "
            "the battlefield to deploy it on:\n   1) deploy P1 Lord Rice Field\n   2) "
            "deploy P1 Lord Palace\n"));
  CHECK(play("Deploy Peasant\n2\n", out) == "deploy P1 Peasant1 Palace");
  CHECK(has(
      out,
      "P1> Deploy a card on your side of a battlefield (deploy):\ndeploy P1 Peasant — choose the "
      "battlefield to deploy it on:\n   1) deploy P1 Peasant Rice Field (x4)\n"));
  // A start that is not one goes on to be read as a decision, and is refused by the runner.
  CHECK(play("deploy p1\n", out) == "index -1");
}

TEST_CASE("a step of a long menu shows a value with one item under it as that item", "[prompt]") {
  // Three actions, one of them with a single decision: listed whole, so the person sees
  // what it plays before choosing it (not "strike (1 choice)").
  std::vector<kata::MenuItem> items;
  for (int i = 0; i < 3; ++i)
    items.push_back(
        {{"play", "P1 Guard" + std::to_string(i + 1), "North"}, {"c", "t"}, {}, {i}, "play", {}});
  items.push_back({{"strike", "P2 Spy", "South"}, {"v", "t"}, {}, {3}, "strike", {}});
  kata::Menu m(items, 2);
  std::string shown = m.show();
  INFO(shown);
  CHECK(has(shown, "   1) play  (3 choices)\n"));
  CHECK(has(shown, "   2) strike P2 Spy South\n"));
  CHECK(m.pick(1) == 3);
}

TEST_CASE("a signal stops the game as quit does, and the held log is written", "[prompt][cli]") {
  // Ctrl-C typed at the prompt (the terminal sends SIGINT), and SIGTERM from outside.
  for (bool ctrl_c : {true, false}) {
    std::string log = kata::test::temp(std::string("signal-") + (ctrl_c ? "int" : "term") + ".jsonl");
    std::remove(log.c_str());
    Pty p({"play", "rules/kendo.yaml", "-p", "2", "-a", "human,random", "--seed", "7", "--no-clear", "--log", log});
    REQUIRE(p.started());
    REQUIRE(p.expect("P1> "));
    p.send("1");
    REQUIRE(p.expect("P1> "));
    if (ctrl_c) p.send_raw("\x03");
    else p.signal(SIGTERM);
    CHECK(p.wait() == 1);
    std::ifstream in(log);
    std::string text(std::istreambuf_iterator<char>(in), {});
    INFO(p.output());
    CHECK(has(text, "\"n\":2,\"player\":\"P2\",\"type\":\"decision\""));
    CHECK(has(text, std::string("{\"message\":\"stopped by a signal (") + (ctrl_c ? "SIGINT" : "SIGTERM") + ")\",\"type\":\"error\"}"));
    std::remove(log.c_str());
  }
}

TEST_CASE("a menu of several actions lists each action's decisions under its heading",
          "[prompt][menu]") {
  // Kobayakawa's turn: flip or draw, each under the first sentence of its doc.
  Start y("rules/kobayakawa.yaml", 3, 1);
  kata::Menu whole(kata::menu_items(*y.loaded.game, y.view, y.labels));
  std::string shown = whole.show();
  INFO(shown);
  CHECK(has(shown,
            "  Turn the deck's top card face up onto the kobayakawa pile, unseen first. (flip):\n     "
            "1) flip\n"
            "  Take the deck's top card, then discard one of your two cards face up. (draw):\n     "
            "2) draw\n"));
  // Without a doc, the action's name; one action alone has no heading.
  std::vector<kata::MenuItem> items;
  for (int i = 0; i < 2; ++i)
    items.push_back({{"play", "P1 Guard" + std::to_string(i + 1)}, {"c"}, {}, {i}, "play", {}});
  CHECK(kata::Menu(items).show() == "   1) play P1 Guard1\n   2) play P1 Guard2\n");
  items.push_back({{"pass"}, {}, {}, {2}, "pass", {}});
  CHECK(kata::Menu(items).show() ==
        "  play:\n     1) play P1 Guard1\n     2) play P1 Guard2\n  pass:\n     3) pass\n");
  // A heading is never cut: at any width the screen wraps it between words, whole.
  for (size_t width : {40, 52, 80}) {
    std::string wrapped = kata::wrap_text(whole.screen(), width);
    INFO(wrapped);
    CHECK_FALSE(has(wrapped, "..."));
    std::istringstream words(kata::plain(wrapped)), all(shown);
    std::string w, v, a, b;
    while (words >> w) a += w + " ";
    while (all >> v) b += v + " ";
    CHECK(a == b);
    CHECK(has(a, "Turn the deck's top card face up onto the kobayakawa pile, unseen first. (flip):"));
    std::istringstream lines(wrapped);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= width);
  }
  // The headings count as lines of the page: two actions and 19 items are 21 lines, more
  // than a page of 20, and the action is chosen first.
  items.clear();
  for (int i = 0; i < 18; ++i)
    items.push_back({{"play", "P1 Guard" + std::to_string(i + 1)}, {"c"}, {}, {i}, "play", {}});
  items.push_back({{"pass"}, {}, {}, {18}, "pass", {}});
  CHECK(has(kata::Menu(items).show(), "Choose an action:\n   1) play  (18 choices)\n   2) pass\n"));
  // Chosen first, an action is listed by its heading (its doc's first sentence), as where
  // its decisions are listed.
  for (kata::MenuItem& item : items) item.heading = item.parts[0] == "play" ? "Play a card. (play)" : "Pass. (pass)";
  CHECK(has(kata::Menu(items).show(), "Choose an action:\n   1) Play a card. (play)  (18 choices)\n   2) Pass. (pass)\n"));
  items.pop_back();
  CHECK(has(kata::Menu(items).show(), "   1) play P1 Guard1\n"));
}

// The reason a decision is refused is worded once (refusal_reason): what a script's line
// is told, and what a replayed log's decision is told, are the prompt's words.
TEST_CASE("a script and a replayed log are refused in the menu's words", "[prompt][cli]") {
  using kata::test::run_kata;
  using kata::test::temp;
  std::string log = temp("kata-refusal.jsonl");
  REQUIRE(run_kata("play rules/kenjin.yaml -p 3 -s 5 -a random,random,random -q --log " + log).status == 0);
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // P1's first decision, replaced by a card that is no choice.
  std::string first = "\"action\":\"deploy ";
  size_t at = text.find(first);
  REQUIRE(at != std::string::npos);
  size_t end = text.find('"', at + first.size());
  std::string tampered = text;
  tampered.replace(at, end + 1 - at, "\"action\":\"deploy nobody Village\"");
  // The menu merges the four Peasants and says what the parameter is; the notation's own
  // wording lists each copy by number and names the parameter only.
  std::string menu_words =
      "'nobody' is not a choice for the card from your hand (choices: P1 Lord, P1 Peasant, P1 "
      "Brute, P1 Archer, P1 Samurai, P1 Scout, P1 Shugenja, P1 General, P1 Assassin, P1 Ashigaru)";
  auto replayed = run_kata("replay -q " + temp("kata-refusal-bad.jsonl", tampered));
  CHECK(replayed.status == 1);
  CHECK(has(replayed.out, "P1's decision 'deploy nobody Village' is not legal: " + menu_words + "\n"));
  auto script = run_kata("play rules/kenjin.yaml -p 3 -s 5 -a script:" +
                         temp("kata-refusal.txt", "deploy nobody Village\n") + ",random,random");
  CHECK(script.status == 1);
  CHECK(has(script.out, "P1's 'deploy nobody Village' is refused: " + menu_words + "\n"));
  // A rule's own `refuse:` message, alike.
  tampered = text;
  tampered.replace(at, end + 1 - at, "\"action\":\"deploy P1 Lord Port\"");
  replayed = run_kata("replay -q " + temp("kata-refusal-bad.jsonl", tampered));
  CHECK(has(replayed.out, "is not legal: You do not fight on Port: it lies between two other players.\n"));
  // A log holds decisions in full: a short form is refused there, and the reason says so.
  tampered = text;
  tampered.replace(at, end + 1 - at, "\"action\":\"deploy lord village\"");
  replayed = run_kata("replay -q " + temp("kata-refusal-bad.jsonl", tampered));
  CHECK(has(replayed.out, "is not legal: 'deploy lord village' is a decision written in short; a log holds each in full\n"));
}

TEST_CASE("the action's name may be shortened or left out when that reads one decision",
          "[prompt][notation]") {
  std::string why;
  {
    Start k("rules/kobayakawa.yaml", 3, 1);  // flip | draw
    const kata::Game& g = *k.loaded.game;
    auto d = kata::read_decision(g, k.state, "d", why);
    REQUIRE(d);
    CHECK(kata::decision_text(g, k.state, *d) == "draw");
    d = kata::read_decision(g, k.state, "FL", why);
    REQUIRE(d);
    CHECK(kata::decision_text(g, k.state, *d) == "flip");
    CHECK_FALSE(kata::read_decision(g, k.state, "x", why));
    CHECK(why.find("no action 'x'") != std::string::npos);
  }
  {
    Start k("rules/tictactoe.yaml", 2, 1);  // mark CELL
    const kata::Game& g = *k.loaded.game;
    for (std::string text : {"b2", "m b2", "mark b2", "ma B2"}) {
      auto d = kata::read_decision(g, k.state, text, why);
      REQUIRE(d);
      CHECK(kata::decision_text(g, k.state, *d) == "mark b2");
    }
    CHECK_FALSE(kata::read_decision(g, k.state, "z9", why));
  }
}

TEST_CASE("a shortened action's name that two actions begin with is refused as ambiguous",
          "[prompt][notation]") {
  auto l = kata::test::load_text(R"(game: Two
players: 2
flow: |
  choose P1: pass | pay
actions:
  pass: {}
  pay: {}
)");
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::string why;
  CHECK_FALSE(kata::read_decision(g, s, "p", why));
  CHECK(why == "ambiguous: 'p' could be pass or pay");
  auto d = kata::read_decision(g, s, "pa", why);
  CHECK_FALSE(d);
  d = kata::read_decision(g, s, "pay", why);
  REQUIRE(d);
  CHECK(kata::decision_text(g, s, *d) == "pay");
}

TEST_CASE("a value refused after values that leave no legal decision says which they are and why",
          "[prompt]") {
  // Kendo's start: P1's Prince on 8/-7 is hemmed in by its own pieces. "(no choice now)"
  // alone read as a fault of the program, and "no go is legal with this origin" did not
  // say why.
  Start k("rules/kendo.yaml", 2, 5);
  const kata::Game& g = *k.loaded.game;
  std::string why;
  CHECK_FALSE(kata::read_decision(g, k.state, "go 8/-7 9/9", why));
  CHECK(why == "'9/9' is not a choice for the point where it lands "
               "(no choice: no go is legal with origin 8/-7: 7/-8 holds a piece "
               "of yours; 7/-5 holds a piece of yours)");
  // The Samurai on 7/-8 has no point two free steps away at all.
  CHECK_FALSE(kata::read_decision(g, k.state, "go 7/-8 1/1", why));
  CHECK(has(why, "(no choice: no go is legal with origin 7/-8: no target is possible)"));
  // The piece alone, the target still to come: the dead end is the news, not the count of
  // values.
  CHECK_FALSE(kata::read_decision(g, k.state, "go 8/-7", why));
  CHECK(why == "no go is legal with origin 8/-7: 7/-8 holds a piece of yours; 7/-5 holds a "
               "piece of yours");
  CHECK_FALSE(kata::read_decision(g, k.state, "go 8/-4", why));
  // In the words of the parameters' docs, in the order they are typed.
  CHECK(why == "'go' takes 2 values: the point of the piece you move, then the point where it lands");
}

TEST_CASE("a dead end lists each refusal once, at most four, and an action with no legal decision says so",
          "[prompt][notation]") {
  auto l = kata::test::load_text(R"(game: Dead ends
players: 2
flow: |
  choose P1: pick | hop | pass
actions:
  pick:
    params: {a: 1..2, b: 1..6}
    when: {if: "b > a + 6", refuse: "{b} is not above {a} by 6."}
  hop:
    params: {n: 1..3}
    when: {if: "n > 3", refuse: "{n} is too low."}
  pass: {}
)");
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::string why;
  CHECK_FALSE(kata::read_decision(g, s, "pick 1", why));
  CHECK(why == "no pick is legal with a 1: 1 is not above 1 by 6; 2 is not above 1 by 6; 3 is "
               "not above 1 by 6; 4 is not above 1 by 6; and 2 more");
  CHECK_FALSE(kata::read_decision(g, s, "pick 2 9", why));
  CHECK(has(why, "'9' is not a choice for a number (no choice: no pick is legal with a 2: 1 is not above 2"));
  CHECK_FALSE(kata::read_decision(g, s, "hop 9", why));
  CHECK(why == "'9' is not a choice for a number (no choice: no hop is legal now)");
}

TEST_CASE("on a terminal: Kendo's first screen says the first player and the move in words, free points by their x",
          "[cli][prompt]") {
  Pty t({"play", "rules/kendo.yaml", "-a", "human,random", "--seed", "1", "--no-clear"});
  REQUIRE(t.started());
  REQUIRE(t.expect("P1> "));
  std::string screen = t.last();
  INFO(screen);
  CHECK(has(screen, "  first player: P1\r\n"));
  CHECK(has(screen, "  turn: 1\r\n"));
  CHECK_FALSE(has(screen, "first = "));
  // One action: the menu says what it does, as menus of several actions do.
  CHECK(has(screen, "Move one of your pieces exactly its number of steps along the lines, through free "));
  CHECK(has(screen, "(go):\r\n   1) go "));
  // The point -4/8 is free: drawn as its x in row 8.
  CHECK(has(screen, "     8        2S  -4  -1           -7 -4 -1\r\n"));
  CHECK(has(screen, "-8 a free point, drawn as its x, * palace\r\n"));
  CHECK(has(screen, "a point is named x/y: y at the row's left, every x of a row, pieces' too, at the row's right\r\n"));
  t.send("quit");
  REQUIRE(t.expect("Really quit"));
  t.send("y");
  CHECK(t.wait() == 1);
}

TEST_CASE("an action without values typed with one is told to be typed alone", "[prompt][notation]") {
  auto l = kata::test::load_text("game: Alone\nplayers: 2\nflow: |\n  choose P1: fight\nactions:\n  fight: \"\"\n");
  REQUIRE(l.game);
  kata::State s = kata::new_game(*l.game, 2, 1, kata::default_options(*l.game));
  std::string why;
  CHECK_FALSE(kata::read_decision(*l.game, s, "fight 3", why));
  CHECK(why == "'fight' takes no values: type fight alone");
}

TEST_CASE("a value typed as the start of several choices' names is refused as ambiguous, naming them",
          "[prompt][notation]") {
  // Six cards whose names begin alike, in a row (each in its place: not interchangeable).
  auto l = kata::test::load_text(R"(game: Starts
players: 2
components:
  card: {list: [{name: Spear}, {name: Sword1}, {name: Sword2}, {name: Shield1}, {name: Shield2}, {name: Shield3}, {name: Sling}], in: rack}
zones:
  rack: {visibility: everyone, order: row}
  pile: {visibility: everyone}
flow: |
  choose P1: take
actions:
  take:
    params: {c: {from: rack, doc: the card you take}}
    do: move c to pile
)");
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::string why;
  CHECK_FALSE(kata::read_decision(g, s, "take sword", why));
  CHECK(why == "ambiguous: 'sword' could be Sword1 or Sword2 (the card you take)");
  // At most a few are named, then how many more.
  CHECK_FALSE(kata::read_decision(g, s, "take s", why));
  CHECK(why == "ambiguous: 's' could be Spear, Sword1, Sword2, Shield1 and 3 more (the card you take)");
  // A whole name is no start: the choice it names, or a refusal that lists the choices.
  auto d = kata::read_decision(g, s, "take spear", why);
  REQUIRE(d);
  CHECK(kata::decision_text(g, s, *d) == "take Spear");
  CHECK_FALSE(kata::read_decision(g, s, "take axe", why));
  CHECK(has(why, "'axe' is not a choice for the card you take (choices: Spear, "));
}

TEST_CASE("on a terminal: the start of several names is refused as ambiguous", "[cli][prompt]") {
  // Hogen, seed 4: P1 holds Minamoto 1 and Minamoto 2 among the samurai it may rally.
  Pty t({"play", "rules/hogen.yaml", "-p", "3", "-a", "human,random,random", "--seed", "4", "--no-clear"});
  REQUIRE(t.started());
  REQUIRE(t.expect("P1> "));
  t.send("rally minamoto");
  REQUIRE(t.expect("P1> "));
  CHECK(has(t.last(), "Refused: ambiguous: 'minamoto' could be Minamoto 1 or Minamoto 2"));
  CHECK_FALSE(has(t.last(), "not a choice"));
  t.send("quit");
  REQUIRE(t.expect("Really quit"));
  t.send("y");
  CHECK(t.wait() == 1);
}

TEST_CASE("a menu chosen one value at a time names what comes next in the rule file's words",
          "[prompt]") {
  // No doc: the kind of the values says what is chosen ("a tile", "a player").
  std::string kinds = R"(game: Kinds
players: 2
components:
  tile: {list: [{name: N1}, {name: N2}, {name: N3}, {name: N4}, {name: N5}, {name: N6}, {name: N7}, {name: N8}, {name: N9}, {name: N10}, {name: N11}, {name: N12}], in: field}
zones:
  field: {visibility: everyone}
flow: "choose P1: claim"
actions:
  claim:
    params: {t: field, q: players}
    do: ""
)";
  auto l = kata::test::load_text(kinds);
  REQUIRE(l.game);
  const kata::Game& g = *l.game;
  kata::State s = kata::new_game(g, 2, 1, kata::default_options(g));
  std::vector<std::string> labels = kata::test::legal_texts(g, s);
  kata::Menu m(kata::menu_items(g, kata::make_view(g, s, 0), labels), 20);
  std::string shown = m.show();
  INFO(shown);
  CHECK(has(shown, "claim — choose a tile:\n   1) N1  (2 choices)\n"));
  CHECK_FALSE(has(shown, "choose t"));
  CHECK(m.pick(0) == -1);
  CHECK(has(m.show(), "claim N1 — choose a player:\n   1) claim N1 P1\n   2) claim N1 P2\n"));
  // A doc says it instead, up to its first punctuation.
  auto d = kata::test::load_text(kata::test::with(
      "q: players}", "q: {from: players, doc: \"the rival, who loses a point\"}}", kinds));
  REQUIRE(d.game);
  kata::State ds = kata::new_game(*d.game, 2, 1, kata::default_options(*d.game));
  kata::Menu dm(kata::menu_items(*d.game, kata::make_view(*d.game, ds, 0), labels), 20);
  dm.pick(0);
  CHECK(has(dm.show(), "claim N1 — choose the rival:\n"));
}

TEST_CASE("a refused decision typed in words several words long gets the rules' reason", "[cli][prompt]") {
  using kata::test::run_kata;
  // Hogen, seed 1: P1 rallies Taira 4 (its first entry) and calls first. A call of rank 4,
  // or of Taira of rank 4, matches the hidden samurai in both: the rules' reason, not
  // "'call' takes 1 value" or "ambiguous: 'rank' could be ...".
  auto r = run_kata("play rules/hogen.yaml -p 3 -a human,random,random --seed 1 --no-clear",
                    "1\ncall taira of rank 4\ncall rank 4\ncall Taira/4\nquit\ny\n");
  CHECK(has(r.out, "P1's Sutoko:   Taira 4*"));
  const std::string why = ": it is your hidden samurai";
  CHECK(has(r.out, "P1> Refused: You can't call Taira of rank 4" + why + " itself"));
  CHECK(has(r.out, "P1> Refused: You can't call rank 4" + why + "'s rank"));
  // The notation typed in full is refused in the same words: the card by its title.
  const std::string twice = "Refused: You can't call Taira of rank 4" + why;
  size_t first = r.out.find(twice);
  CHECK((first != std::string::npos && r.out.find(twice, first + 1) != std::string::npos));
  CHECK_FALSE(has(r.out, "takes 1 value"));
  CHECK_FALSE(has(r.out, "ambiguous"));
  // A call nobody could answer is no choice until another is made: said of the words typed.
  auto again = run_kata("play rules/hogen.yaml -p 3 -a human,random,random --seed 1 --no-clear",
                        "1\ncall fujiwara of rank 4\ncall fujiwara of rank 4\nquit\ny\n");
  CHECK(has(again.out, "Nobody can answer Fujiwara of rank 4: P1 must call differently"));
  CHECK(has(again.out, "P1> Refused: 'fujiwara of rank 4' is not a choice for what you call (choices: Minamoto, "));
}

TEST_CASE("an action's name typed short, where one action begins so, is refused for what follows it", "[cli][prompt]") {
  using kata::test::run_kata;
  // Kenjin's draft, seed 2: P1 takes the Village (take_four), then only take_six is
  // offered: 't village' is take_six's, and the Village is not on offer.
  auto r = run_kata("play rules/kenjin.yaml -p 3 -a human,random,random --seed 2 -o placement=draft --no-clear",
                    "t village\nt village\nt rice field\nquit\ny\n");
  CHECK(has(r.out, "P1> Refused: 'village' is not a choice for the tile you take (choices: Golden Temple, Bridge)"));
  // A value of several words is quoted whole, not by its first word.
  CHECK(has(r.out, "P1> Refused: 'rice field' is not a choice for the tile you take (choices: Golden Temple, Bridge)"));
  CHECK_FALSE(has(r.out, "there is no action 't'"));
}

TEST_CASE("the game's last message to the player stays above the menu of that decision only", "[cli][prompt]") {
  using kata::test::run_kata;
  // Hogen, seed 1: P1 rallies, calls first and accuses: it names P2's samurai, then P3's.
  auto r = run_kata("play rules/hogen.yaml -p 3 -a human,random,random --seed 1 --no-clear",
                    "1\naccuse\n\nname minamoto 1\nquit\ny\n");
  const std::string p2 = "» Name P2's hidden samurai (one you see, in the palace or your hand, is nobody's)\n"
                         "Name the hidden samurai of the player being accused. (name):\n";
  const std::string p3 = "» Name P3's hidden samurai (one you see, in the palace or your hand, is nobody's)\n";
  // Shown with the menu, then again with the list an empty line asks for.
  size_t first = r.out.find(p2);
  REQUIRE(first != std::string::npos);
  CHECK(r.out.find("P1> " + p2, first) != std::string::npos);
  // The next decision is about P3: P2's line is not repeated after it.
  size_t next = r.out.find(p3);
  REQUIRE(next != std::string::npos);
  CHECK(r.out.find("» Name P2", next) == std::string::npos);
  // The rally and the call before the accusation had no message to P1 alone.
  CHECK(r.out.find("»") == first);
}


TEST_CASE("an undo refused for a card seen names it as the screens do, without its copy number", "[cli][prompt][leaks]") {
  using kata::test::run_kata;
  // P2 hides two of its three Pawns, in an order P1 cannot see; P1 looks at one. Which
  // copy it is follows from P2's hidden choices: the refusal says "P2 Pawn", as the look
  // did. Each of P2's orders (its random seeds) is tried.
  std::string file = kata::test::temp("kata-peek.yaml", R"(game: Peek
players: 2
components:
  card:
    per_player: true
    list: [{name: Pawn, count: 3}]
    name: "{owner} {name}{copy}"
    in: hand
zones:
  hand: {per_player: true, visibility: owner, order: set}
  table: {per_player: true, visibility: owner}
flow: |
  choose P2: hide
  choose P2: hide
  choose P1: pass
  choose P1: peek
  choose P1: pass
actions:
  hide: {params: {c: player.hand}, do: "move c to player.table"}
  peek: {params: {c: P2.table}, do: "look player at c"}
  pass: {do: ""}
)");
  for (int seed = 1; seed <= 6; ++seed) {
    auto r = run_kata(fmt::format("play {} -a human,random --seed {} --no-clear", file, seed), "1\n1\nundo\nquit\ny\n");
    INFO(r.out);
    CHECK(has(r.out, "You look at P2 Pawn in P2.table"));
    CHECK(has(r.out, "Refused: you cannot undo that decision: since you made it you have seen P2 Pawn\n"));
  }
}

TEST_CASE("an undo refused for what was told quotes the line that told it, not the person's own move", "[cli][prompt]") {
  using kata::test::run_kata;
  // Hogen, seed 2: P1 calls Fujiwara and P2 answers; whether P2 could answer was not P1's
  // to know. The refusal quotes the answer, not "P1 calls Fujiwara".
  auto r = run_kata("play rules/hogen.yaml -p 3 --seed 2 --no-clear", "1\n2\nundo\nquit\ny\n");
  CHECK(has(r.out, "P2 answers the call Fujiwara"));
  CHECK(has(r.out, "you were told what you could not have known then (\"P2 answers the call Fujiwara\")"));
  CHECK_FALSE(has(r.out, "(\"P1 calls"));
}

TEST_CASE("on a terminal: a refusal's list of choices wraps between choices, never inside one", "[cli][prompt][wrap]") {
  // Hogen, seed 1: a call nobody could answer, typed again, lists the calls left, several
  // words each ("Minamoto of rank 4"), on more than one line of the 100 columns.
  Pty t({"play", "rules/hogen.yaml", "-p", "3", "-a", "human,random,random", "--seed", "1", "--no-clear"});
  REQUIRE(t.started());
  REQUIRE(t.expect("P1> "));
  t.send("1");
  REQUIRE(t.expect("P1> "));
  t.send("call fujiwara of rank 4");
  REQUIRE(t.expect("P1> "));
  t.send("call fujiwara of rank 4");
  REQUIRE(t.expect("P1> "));
  std::string out = t.last();
  REQUIRE(has(out, "is not a choice for what you call (choices:"));
  for (const char* call : {"Minamoto of rank 4", "Taira of rank 1", "Taira of rank 2", "Taira of rank 3", "Tachibana of rank 4",
                           "rank 1", "rank 2", "rank 3"})
    CHECK(has(out, call));
  t.send("quit");
  REQUIRE(t.expect("Really quit"));
  t.send("y");
}
