// Compiling a game's generated source with the system's C++ compiler, caching the shared
// object, and loading it. The compiler is run directly (posix_spawn, no shell), so no path
// or environment value is ever parsed as a command.
#include "native/native.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "log/log.hpp"
#include "native/abi.hpp"

extern char** environ;

namespace kata {

namespace fs = std::filesystem;

NativeCode::~NativeCode() {
  if (handle) dlclose(handle);
}

namespace {

#ifndef KATA_DEFAULT_CXX
#define KATA_DEFAULT_CXX "c++"
#endif

std::string compiler() {
  const char* cxx = std::getenv("KATA_CXX");
  return cxx && *cxx ? cxx : KATA_DEFAULT_CXX;
}

fs::path cache_dir() {
  if (const char* d = std::getenv("KATA_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "kata";
  if (const char* d = std::getenv("HOME"); d && *d) return fs::path(d) / ".cache" / "kata";
  return fs::temp_directory_path() / fmt::format("kata-cache-{}", getuid());
}

// The compiler's flags, then any in $KATA_CXXFLAGS (split at spaces; "-g" to profile).
std::vector<std::string> flags() {
  std::vector<std::string> f = {"-std=c++20", "-O2", "-fPIC", "-shared", "-w", "-fvisibility=hidden",
                                "-fno-semantic-interposition", "-fno-plt"};
  if (const char* extra = std::getenv("KATA_CXXFLAGS")) {
    std::istringstream words(extra);
    for (std::string w; words >> w;) f.push_back(w);
  }
  return f;
}

// Runs the compiler on `source`, writing `library`; false and the compiler's messages in
// `error` when it fails.
bool run_compiler(const fs::path& source, const fs::path& library, const fs::path& messages, const std::string& extra,
                  std::string& error) {
  std::vector<std::string> argv = {compiler()};
  for (const auto& f : flags()) argv.push_back(f);
  argv.push_back(extra);
  argv.insert(argv.end(), {source.string(), "-o", library.string()});
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, messages.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = fmt::format("cannot run the C++ compiler '{}' (set KATA_CXX to another)", argv[0]);
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  std::ifstream in(messages);
  std::stringstream text;
  text << in.rdbuf();
  std::string m = text.str();
  if (m.size() > 2000) m = m.substr(0, 2000) + "...";
  error = fmt::format("the C++ compiler '{}' failed on {}:\n{}", argv[0], source.string(), m);
  return false;
}

// Code is only loaded from a place nobody else could have written to: a file or
// directory of another user, or one others may write, could hold a planted library.
bool safe_place(const fs::path& p, std::string& error) {
  struct stat st {};
  if (stat(p.c_str(), &st) != 0) {
    error = fmt::format("cannot read {}", p.string());
    return false;
  }
  if (st.st_uid != getuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
    error = fmt::format("{} belongs to another user or others may write to it; kata will not load code from it (set KATA_CACHE to a directory of your own)",
                        p.string());
    return false;
  }
  return true;
}

// Writes the source and compiles it into `library`; false with `error` set if it fails.
bool build(const std::string& source, const std::string& name, const fs::path& dir, const fs::path& library,
           std::string& error) {
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
  bool ok = false;
  {
    std::ofstream out(src, std::ios::binary);
    out << source;
    if (!out) error = fmt::format("cannot write {}", src.string());
    else ok = true;
  }
  ok = ok && run_compiler(src, tmp, work / "messages.txt", "-fdebug-prefix-map=" + work.string() + "=" + dir.string(), error);
  // The source stays beside the library, for whoever wants to read or profile it (and,
  // if the compiler failed, to report it: that is a bug in kata).
  if (fs::exists(src, ec)) fs::rename(src, dir / (name + ".cpp"), ec);
  for (size_t at; (at = error.find(work.string())) != std::string::npos;) error.replace(at, work.string().size(), dir.string());
  if (ok) {
    fs::permissions(tmp, fs::perms::owner_all, ec);  // whatever the umask: ours alone
    fs::rename(tmp, library, ec);
    if (ec) error = fmt::format("cannot write {}: {}", library.string(), ec.message());
  }
  fs::remove_all(work, ec);
  return ok && fs::exists(library);
}

// Loads a compiled game, or null with `error` set.
std::shared_ptr<NativeCode> load(const fs::path& library, std::string& error) {
  if (!safe_place(library, error)) return nullptr;
  auto code = std::make_shared<NativeCode>();
  code->library = library.string();
  code->handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!code->handle) {
    error = fmt::format("cannot load {}: {}", library.string(), dlerror());
    return nullptr;
  }
  code->run = reinterpret_cast<void (*)(KataCtx*, const int32_t*)>(dlsym(code->handle, "kata_run"));
  code->legal = reinterpret_cast<int (*)(KataCtx*, int32_t*, int)>(dlsym(code->handle, "kata_legal"));
  code->playout = reinterpret_cast<void (*)(KataCtx*, uint64_t*)>(dlsym(code->handle, "kata_playout"));
  auto init = reinterpret_cast<void (*)(const KataHost*)>(dlsym(code->handle, "kata_init"));
  if (!code->run || !code->legal || !code->playout || !init) {
    error = fmt::format("{} is not a compiled game", library.string());
    return nullptr;
  }
  init(native_host());
  return code;
}

}  // namespace

std::shared_ptr<const Game> compile_native(const std::shared_ptr<const Game>& g, std::string& error) {
  std::string source = native_source(*g);
  std::string key = compiler();
  for (const auto& f : flags()) key += " " + f;
  std::string name = sha256_hex(key + "\n" + source).substr(0, 32);
  fs::path dir = cache_dir();
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir, ec);
    if (!ec) fs::permissions(dir, fs::perms::owner_all, ec);
  }
  if (ec) {
    error = fmt::format("cannot create the cache directory {}: {} (set KATA_CACHE to another)", dir.string(), ec.message());
    return nullptr;
  }
  if (!safe_place(dir, error)) return nullptr;
  fs::path library = dir / (name + ".so");
  std::shared_ptr<NativeCode> code;
  if (fs::exists(library)) {
    code = load(library, error);
    // A library that does not load (cut short by a full disk, or not kata's) is built again.
    if (!code) fs::remove(library, ec);
  }
  if (!code) {
    if (!build(source, name, dir, library, error)) return nullptr;
    code = load(library, error);
    if (!code) return nullptr;
  }
  auto copy = std::make_shared<Game>(*g);
  copy->native = code;
  return copy;
}

}  // namespace kata
