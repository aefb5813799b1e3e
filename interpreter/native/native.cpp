// Compiling a game's generated source with the system's C++ compiler, caching the shared
// object, and loading it. The compiler is run directly (posix_spawn, no shell), so no path
// or environment value is ever parsed as a command.
//
// Loading a shared object runs its code, so the cache is trusted only as far as nobody
// else could have written to it (docs/cli.md, "Compiled mode"): the cache directory and
// every directory above it must belong to the user or to root and be writable by nobody
// else (unless sticky, like /tmp); a library is opened once, without following a
// symbolic link, checked on that descriptor (ours, a regular file nobody else may write,
// marked as the compiled game asked for), and loaded through the same descriptor.
#include "native/native.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <iterator>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "syntax/source.hpp"

extern char** environ;

namespace kata {

namespace fs = std::filesystem;

NativeCode::~NativeCode() {
  if (handle) dlclose(handle);
  if (fd >= 0) close(fd);
}

namespace {

#ifndef KATA_DEFAULT_CXX
#define KATA_DEFAULT_CXX "c++"
#endif

std::string compiler() {
  const char* cxx = std::getenv("KATA_CXX");
  return cxx && *cxx ? cxx : KATA_DEFAULT_CXX;
}

// The cache directory, always absolute (so that no path given to the compiler can start
// with '-'), or empty with `error` set. There is no shared fallback such as /tmp: another
// user could have made it first. An empty variable counts as unset, as the XDG
// specification says of its own.
fs::path cache_dir(std::string& error) {
  std::error_code ec;
  fs::path dir;
  if (const char* d = std::getenv("KATA_CACHE"); d && *d) dir = fs::absolute(d, ec);
  // The XDG specification ignores a relative XDG_CACHE_HOME.
  else if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d == '/') dir = fs::path(d) / "kata";
  else if (const char* d = std::getenv("HOME"); d && *d == '/') dir = fs::path(d) / ".cache" / "kata";
  if (dir.empty() || ec)
    error = "compiled mode needs a cache directory of your own: set KATA_CACHE, or XDG_CACHE_HOME or HOME to an absolute path";
  return dir.lexically_normal();
}

// How long the compiler may run: $KATA_CXX_TIMEOUT seconds (default 600), or 0 with
// `error` set.
int compile_timeout(std::string& error) {
  const char* t = std::getenv("KATA_CXX_TIMEOUT");
  if (!t || !*t) return 600;
  int seconds = 0;
  auto [end, ec] = std::from_chars(t, t + std::strlen(t), seconds);
  if (ec != std::errc() || *end || seconds < 1 || seconds > 86400) {
    error = fmt::format("KATA_CXX_TIMEOUT is '{}', but must be a number of seconds from 1 to 86400", t);
    return 0;
  }
  return seconds;
}

// The compiler's flags, then any in $KATA_CXXFLAGS (split at spaces; "-g" to profile), at
// the optimisation level the source asks for (native_level): -O3, or -O1 for a program
// written in chunks (a large one, past 32 kB of instructions), which it compiles in 0.65
// times -O2's time for about 7 % more instructions a playout. -O3 inlines and specialises
// the rule file's functions where -O2 calls them (a function called with constant
// arguments, such as the directions of a line on a board; docs/performance.md).
std::vector<std::string> flags(int level = 3) {
  std::vector<std::string> f = {"-std=c++20", level == 1 ? "-O1" : "-O3", "-fPIC", "-shared", "-w", "-fvisibility=hidden",
                                "-fno-semantic-interposition", "-fno-plt"};
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  // The processor's count of bits (a listing's sets, codegen.cpp's set_level), where this
  // one has it: the library is built and cached for the machine that runs it, and a machine
  // without it asks for another (the flags are part of the cache's key).
  if (__builtin_cpu_supports("popcnt")) f.push_back("-mpopcnt");
#endif
  if (const char* extra = std::getenv("KATA_CXXFLAGS")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) f.push_back(w);
  }
  return f;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kata_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(undefined_behavior_sanitizer)
constexpr bool kata_sanitized = true;
#else
constexpr bool kata_sanitized = false;
#endif
#else
constexpr bool kata_sanitized = false;
#endif

}  // namespace

bool built_with_sanitizer() { return kata_sanitized; }

namespace {

// A sanitizer's runtime must be in the program from its start: a library built with one
// and loaded later stops the process with the sanitizer's own complaint ("ASan runtime
// does not come first..."). So it is refused, unless kata itself was built with one.
bool flags_usable(std::string& error) {
  if (kata_sanitized) return true;
  for (const auto& f : flags())
    if (f.rfind("-fsanitize", 0) == 0 && f.rfind("-fsanitize-", 0) != 0) {
      error = fmt::format(
          "KATA_CXXFLAGS has '{}', but a sanitizer cannot be added to a library kata loads: build kata "
          "itself with it (CMAKE_CXX_FLAGS) and run the game with KATA_CXXFLAGS='{}' then",
          f, f);
      return false;
    }
  return true;
}

// The compiler runs in a process group of its own, which a terminal's Ctrl-C does not reach
// and which outlives kata when kata is killed. While it runs, SIGINT, SIGTERM and SIGHUP
// are caught: the compiler's group is killed and its work removed, and then the signal is
// raised again under kata's own handling (the default ends kata by that signal; `play`
// stops the game as `quit` does).
volatile std::sig_atomic_t compile_signal = 0;

class StopCompilerOnSignals {
 public:
  StopCompilerOnSignals() {
    compile_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = [](int sig) { compile_signal = sig; };
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], &sa, &old_[i]);
  }
  StopCompilerOnSignals(const StopCompilerOnSignals&) = delete;
  StopCompilerOnSignals& operator=(const StopCompilerOnSignals&) = delete;
  // Puts kata's own handling back, then raises the signal that came meanwhile, if any.
  ~StopCompilerOnSignals() {
    for (size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], &old_[i], nullptr);
    if (int sig = compile_signal) {
      compile_signal = 0;
      raise(sig);
    }
  }

 private:
  static constexpr int signals_[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[std::size(signals_)] {};
};

// Waits for the compilers (each in its own process group), killing their groups after
// `timeout` seconds or when a signal came (compile_signal); their statuses, -1 for one
// that was killed.
std::vector<int> wait_compilers(const std::vector<pid_t>& pids, int timeout, bool& timed_out) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout);
  std::vector<int> status(pids.size(), 0);
  std::vector<char> done(pids.size(), 0);
  timed_out = false;
  for (;;) {
    bool all = true;
    for (size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      pid_t r = waitpid(pids[i], &status[i], WNOHANG);
      if (r == pids[i] || (r < 0 && errno != EINTR)) {
        done[i] = 1;
        if (r < 0) status[i] = -1;
      } else {
        all = false;
      }
    }
    if (all) return status;
    bool late = std::chrono::steady_clock::now() >= deadline;
    if (compile_signal || late) {
      timed_out = late && !compile_signal;
      for (size_t i = 0; i < pids.size(); ++i) {
        if (done[i]) continue;
        kill(-pids[i], SIGKILL);  // the driver and what it started (cc1plus, as, ld)
        while (waitpid(pids[i], &status[i], 0) < 0 && errno == EINTR) {
        }
        status[i] = -1;
      }
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Runs the compiler once for each of `jobs` (its arguments after the compiler's name and
// flags), all at once, each job's messages into its file; false and the messages of the
// first that failed in `error`.
bool run_compilers(const std::vector<std::vector<std::string>>& jobs, const std::vector<fs::path>& messages,
                   const fs::path& source, int level, const std::string& extra, int timeout, std::string& error) {
  std::vector<pid_t> pids;
  std::string cxx = compiler();
  bool started = true;
  for (size_t j = 0; j < jobs.size() && started; ++j) {
    std::vector<std::string> argv = {cxx};
    for (const auto& f : flags(level)) argv.push_back(f);
    argv.push_back(extra);
    argv.insert(argv.end(), jobs[j].begin(), jobs[j].end());
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, messages[j].c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    // A process group of its own, so that a timeout ends everything the driver started.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc == 0) pids.push_back(pid);
    else started = false;
  }
  bool timed_out = false;
  std::vector<int> status = wait_compilers(pids, timeout, timed_out);
  if (!started) {
    error = fmt::format("cannot run the C++ compiler '{}' (set KATA_CXX to another)", cxx);
    return false;
  }
  if (compile_signal) {
    error = fmt::format("the C++ compiler '{}' was stopped: kata was asked to stop (signal {})", cxx,
                        static_cast<int>(compile_signal));
    return false;
  }
  if (timed_out) {
    error = fmt::format("the C++ compiler '{}' did not finish within {} second{} and was stopped (KATA_CXX_TIMEOUT sets the limit)",
                        cxx, timeout, timeout == 1 ? "" : "s");
    return false;
  }
  for (size_t j = 0; j < status.size(); ++j) {
    if (status[j] >= 0 && WIFEXITED(status[j]) && WEXITSTATUS(status[j]) == 0) continue;
    std::ifstream in(messages[j]);
    std::stringstream text;
    text << in.rdbuf();
    std::string m = text.str();
    if (m.size() > 2000) m = m.substr(0, 2000) + "...";
    std::string how = status[j] >= 0 && WIFSIGNALED(status[j]) ? fmt::format(" (killed by signal {})", WTERMSIG(status[j])) : "";
    error = fmt::format("the C++ compiler '{}' failed on {}{}:\n{}", cxx, source.string(), how, m);
    return false;
  }
  return true;
}

// Compiles `source` into `library`; false and the compiler's messages in `error` when it
// fails. A source in several parts (native_parts) is compiled by as many compilers at once
// as there are cores, up to one a part, each given a set of parts (KATA_PART, a bit for
// each: every compiler parses the whole source, so more of them than cores would cost more
// than they save), into objects in `work`, which are then linked.
bool run_compiler(const fs::path& source, int parts, int level, const fs::path& work, const fs::path& library,
                  const std::string& extra, int timeout, std::string& error) {
  if (parts <= 1)
    return run_compilers({{source.string(), "-o", library.string()}}, {work / "messages.txt"}, source, level, extra, timeout, error);
  int compilers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, parts);
  std::vector<std::vector<std::string>> jobs;
  std::vector<fs::path> messages;
  std::vector<std::string> link;
  for (int k = 0; k < compilers; ++k) {
    unsigned mask = 0;
    for (int part = k; part < parts; part += compilers) mask |= 1u << part;
    std::string object = (work / fmt::format("part-{}.o", k)).string();
    jobs.push_back({fmt::format("-DKATA_PART={}", mask), "-c", source.string(), "-o", object});
    messages.push_back(work / fmt::format("messages-{}.txt", k));
    link.push_back(object);
  }
  if (!run_compilers(jobs, messages, source, level, extra, timeout, error)) return false;
  link.insert(link.end(), {"-o", library.string()});
  return run_compilers({link}, {work / "messages.txt"}, source, level, extra, timeout, error);
}

// What may hold code kata loads: ours (or root's, for the directories above), and
// writable by nobody else; a sticky directory (/tmp) lets others add entries but not
// replace ours. `what` is "" when it is, else why not.
std::string unsafe_because(const struct stat& st, bool ancestor) {
  bool owner_ok = st.st_uid == geteuid() || (ancestor && st.st_uid == 0);
  bool others_write = st.st_mode & (S_IWGRP | S_IWOTH);
  if (!owner_ok) return "belongs to another user";
  if (others_write && !(ancestor && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX))) return "may be written by others";
  return "";
}

std::string refusal(const fs::path& p, const std::string& why) {
  return fmt::format("{} {}; kata will not load code from it (set KATA_CACHE to a directory of your own)", p.string(), why);
}

// The cache directory and every directory above it: none may be replaced by another user.
// Symbolic links are resolved first, and the real path is what is checked.
bool safe_directory(const fs::path& dir, std::string& error) {
  std::error_code ec;
  fs::path real = fs::canonical(dir, ec);
  if (ec) {
    error = fmt::format("cannot use the cache directory {}: {}", dir.string(), ec.message());
    return false;
  }
  fs::path at;
  for (const auto& part : real) {
    at /= part;
    struct stat st {};
    if (lstat(at.c_str(), &st) != 0) {
      error = fmt::format("cannot read {}: {}", at.string(), std::strerror(errno));
      return false;
    }
    bool last = at == real;
    std::string why = !S_ISDIR(st.st_mode) ? "is not a directory" : unsafe_because(st, !last);
    if (!why.empty()) {
      error = refusal(at, last || at == dir ? why : why + fmt::format(" (it holds the cache directory {})", dir.string()));
      return false;
    }
  }
  return true;
}
// The bytes a library of this game carries, checked before it is loaded: any other shared
// object in the cache (not kata's, or another game's) is never loaded, so its
// constructors never run. The name is the SHA-256 of the source without this line.
std::string marker(const std::string& name) { return "kata-compiled-game:" + name; }

std::string marked_source(const std::string& source, const std::string& name) {
  return source + fmt::format("\n#if !defined(KATA_PART) || (KATA_PART & 1)\nextern \"C\" __attribute__((visibility(\"default\"), used)) const char kata_compiled_game[] = \"{}\";\n#endif\n",
                              marker(name));
}

// A `tmp-PID-N` directory whose process is gone was left by a compilation that was
// killed: nothing will finish it.
void remove_stale_work(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (n.rfind("tmp-", 0) != 0) continue;
    long pid = 0;
    auto [at, bad] = std::from_chars(n.data() + 4, n.data() + n.size(), pid);
    if (bad != std::errc() || *at != '-' || pid <= 0 || pid == getpid()) continue;
    if (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

// Writes the source and compiles it into `library`; false with `error` set if it fails.
bool build(const std::string& source, const std::string& name, const fs::path& dir, const fs::path& library,
           int timeout, std::string& error) {
  std::error_code ec;
  // Compiled in a directory of this compilation's own, then moved into place: two runs
  // compiling the same game at once each produce a whole file, and either may win. The
  // source keeps its final name, and debug information (KATA_CXXFLAGS=-g) is mapped to
  // where it ends up, so a profiler finds its lines.
  static std::atomic<int> compilations{0};
  fs::path work = dir / fmt::format("tmp-{}-{}", getpid(), compilations++);
  fs::create_directory(work, ec);
  if (ec) {
    error = fmt::format("cannot create {}: {}", work.string(), ec.message());
    return false;
  }
  fs::path src = work / (name + ".cpp"), tmp = work / (name + ".so");
  StopCompilerOnSignals stop;  // its destructor runs after the work is removed
  bool ok = false;
  {
    std::ofstream out(src, std::ios::binary);
    out << marked_source(source, name);
    if (!out) error = fmt::format("cannot write {}", src.string());
    else ok = true;
  }
  ok = ok && run_compiler(src, native_parts(source), native_level(source), work, tmp, "-fdebug-prefix-map=" + work.string() + "=" + dir.string(), timeout, error);
  if (ok && !fs::is_regular_file(tmp, ec)) {
    ok = false;
    error = fmt::format("the C++ compiler '{}' exited with success but wrote no library (is KATA_CXX a C++ compiler?)", compiler());
  }
  // The source stays beside the library, for whoever wants to read or profile it (and,
  // if the compiler failed, to report it: that is a bug in kata).
  if (fs::exists(src, ec)) fs::rename(src, dir / (name + ".cpp"), ec);
  for (size_t at; (at = error.find(work.string())) != std::string::npos;) error.replace(at, work.string().size(), dir.string());
  if (ok) {
    fs::permissions(tmp, fs::perms::owner_all, ec);  // whatever the umask: ours alone
    fs::rename(tmp, library, ec);
    if (ec) error = fmt::format("cannot write {}: {}", library.string(), ec.message());
    ok = !ec;
  }
  fs::remove_all(work, ec);
  return ok;
}

// The whole of the open file `fd`, read through the descriptor, not the path.
std::string read_all(int fd) {
  std::string bytes;
  char buf[65536];
  for (off_t at = 0;;) {
    ssize_t n = pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buf, static_cast<size_t>(n));
    at += n;
  }
  return bytes;
}

// Whether `bytes` span `count` entries of `size` bytes from `offset` (no overflow).
bool spans(const std::string& bytes, uint64_t offset, uint64_t count, uint64_t size) {
  if (count && size > (UINT64_MAX - offset) / count) return false;
  return offset + count * size <= bytes.size();
}

// Whether `bytes` are a whole ELF64 shared object of this machine: every segment the
// loader maps, and the section table, lie within the file. dlopen maps segments past the
// end of a file cut short, and the process dies of SIGBUS when it touches them; the marker
// may well be in the part that is left.
bool whole_elf(const std::string& bytes) {
  Elf64_Ehdr h;
  if (bytes.size() < sizeof h) return false;
  std::memcpy(&h, bytes.data(), sizeof h);
#if defined(__x86_64__)
  constexpr uint16_t machine = EM_X86_64;
#elif defined(__aarch64__)
  constexpr uint16_t machine = EM_AARCH64;
#else
  const uint16_t machine = h.e_machine;
#endif
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 || h.e_ident[EI_CLASS] != ELFCLASS64 ||
      h.e_ident[EI_DATA] != (std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB) ||
      h.e_type != ET_DYN || h.e_machine != machine || h.e_phentsize != sizeof(Elf64_Phdr) || h.e_phnum == 0 ||
      !spans(bytes, h.e_phoff, h.e_phnum, h.e_phentsize) || !spans(bytes, h.e_shoff, h.e_shnum, h.e_shentsize))
    return false;
  for (uint16_t k = 0; k < h.e_phnum; ++k) {
    Elf64_Phdr ph;
    std::memcpy(&ph, bytes.data() + h.e_phoff + uint64_t{k} * sizeof ph, sizeof ph);
    if (ph.p_type != PT_NULL && !spans(bytes, ph.p_offset, 1, ph.p_filesz)) return false;
  }
  return true;
}

// Loads a compiled game, or null with `error` set. `bad` tells a file that is not this
// game's library (cut short, or another's) from a refusal.
std::shared_ptr<NativeCode> load(const fs::path& library, const std::string& name, bool& bad, std::string& error) {
  bad = false;
  int fd = open(library.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    // A symbolic link is never followed: whatever it points to is not loaded, and the
    // link is replaced by a library compiled again (rename() replaces the link itself).
    bad = errno == ELOOP;
    error = bad ? fmt::format("{} is a symbolic link, not a compiled game", library.string())
                : fmt::format("cannot read {}: {}", library.string(), std::strerror(errno));
    return nullptr;
  }
  struct stat st {};
  std::string why = fstat(fd, &st) != 0        ? std::string(std::strerror(errno))
                    : !S_ISREG(st.st_mode)     ? "is not a regular file"
                                               : unsafe_because(st, false);
  if (!why.empty()) {
    close(fd);
    error = refusal(library, why);
    return nullptr;
  }
  std::string bytes = read_all(fd);
  std::string m = marker(name);
  if (std::search(bytes.begin(), bytes.end(), m.begin(), m.end()) == bytes.end()) {
    close(fd);
    bad = true;
    error = fmt::format("{} is not the compiled game it is named for (no kata marker in it)", library.string());
    return nullptr;
  }
  if (!whole_elf(bytes)) {
    close(fd);
    bad = true;
    error = fmt::format("{} is not a whole shared library (cut short?)", library.string());
    return nullptr;
  }
  auto code = std::make_shared<NativeCode>();
  code->library = library.string();
  code->fd = fd;
  // The very file checked above: the path could be replaced meanwhile, the descriptor not.
  std::string via = fmt::format("/proc/self/fd/{}", fd);
  code->handle = dlopen(via.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!code->handle) {
    bad = true;
    const char* e = dlerror();
    error = fmt::format("cannot load {}: {}", library.string(), e ? e : "unknown error");
    return nullptr;
  }
  // The loader returns a library already loaded under the same name: one that outlived
  // its descriptor (not unloaded by dlclose) would be another game's.
  auto id = reinterpret_cast<const char*>(dlsym(code->handle, "kata_compiled_game"));
  if (!id || marker(name) != id) {
    error = fmt::format("cannot load {}: the dynamic loader gave another library for {}", library.string(), via);
    return nullptr;
  }
  code->run = reinterpret_cast<void (*)(KataCtx*, const int32_t*)>(dlsym(code->handle, "kata_run"));
  code->legal = reinterpret_cast<int (*)(KataCtx*, int32_t*, int)>(dlsym(code->handle, "kata_legal"));
  code->playout = reinterpret_cast<void (*)(KataCtx*, uint64_t*)>(dlsym(code->handle, "kata_playout"));
  auto init = reinterpret_cast<void (*)(const KataHost*)>(dlsym(code->handle, "kata_init"));
  if (!code->run || !code->legal || !code->playout || !init) {
    bad = true;
    error = fmt::format("{} is not a compiled game", library.string());
    return nullptr;
  }
  init(native_host());
  return code;
}

// Makes the cache directory if need be (for this user alone) and checks it.
bool prepare_cache(const fs::path& dir, std::string& error) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (!ec) fs::permissions(dir, fs::perms::owner_all, ec);
  }
  if (ec) {
    error = fmt::format("cannot create the cache directory {}: {} (set KATA_CACHE to another)", dir.string(), ec.message());
    return false;
  }
  return safe_directory(dir, error);
}

}  // namespace

std::shared_ptr<const Game> compile_native(const std::shared_ptr<const Game>& g, std::string& error, Pos* where) {
  fs::path dir = cache_dir(error);
  int timeout = dir.empty() ? 0 : compile_timeout(error);
  if (!timeout || !flags_usable(error) || !prepare_cache(dir, error)) return nullptr;
  Pos at;
  std::string source = native_source(*g, error, at);
  if (source.empty()) {
    if (where) *where = at;
    return nullptr;
  }
  std::string key = compiler();
  for (const auto& f : flags(native_level(source))) key += " " + f;
  std::string name = sha256_hex(key + "\n" + source).substr(0, 32);
  remove_stale_work(dir);
  fs::path library = dir / (name + ".so");
  std::shared_ptr<NativeCode> code;
  std::error_code ec;
  bool bad = false;
  if (fs::exists(fs::symlink_status(library, ec))) {
    code = load(library, name, bad, error);
    // A library that is not this game's (cut short by a full disk, not kata's, or a
    // symbolic link) is built again; one that may not be trusted is an error.
    if (!code && !bad) return nullptr;
    if (!code) fs::remove(library, ec);
  }
  if (!code) {
    if (!build(source, name, dir, library, timeout, error)) return nullptr;
    code = load(library, name, bad, error);
    if (!code) return nullptr;
  }
  auto copy = std::make_shared<Game>(*g);
  copy->native = code;
  return copy;
}

}  // namespace kata
