// Ctrl-C and termination of kmem: kill every process kmem started, exit.
#include "interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace kmem::cli {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The write end of the watcher's pipe. A signal handler can reach nothing
// else; one guard is installed at a time.
int wake_fd = -1;

void on_signal(int signal) {
  const int saved = errno;
  unsigned char byte = static_cast<unsigned char>(signal);
  if (wake_fd >= 0) (void)!write(wake_fd, &byte, 1);
  errno = saved;
}

}  // namespace

std::vector<pid_t> living_children(pid_t parent) {
  std::vector<pid_t> children;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces
    // and parentheses, so the fields are read after the last ')'.
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &ppid) != 2) continue;
    if (ppid == parent && state != 'Z' && state != 'X') children.push_back(std::stoi(name));
  }
  return children;
}

InterruptGuard::InterruptGuard(std::function<void(int)> last_words) : last_words_(std::move(last_words)) {
  if (pipe2(wake_, O_CLOEXEC) != 0) return;  // no guard: signals keep their default action
  wake_fd = wake_[1];
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int signal : kSignals) sigaction(signal, &action, nullptr);
  watcher_ = std::thread([this] { watch(); });
}

InterruptGuard::~InterruptGuard() {
  if (!watcher_.joinable()) return;
  for (int signal : kSignals) std::signal(signal, SIG_DFL);
  wake_fd = -1;
  unsigned char stop = 0;  // not a signal: the watcher returns
  (void)!write(wake_[1], &stop, 1);
  watcher_.join();
  close(wake_[0]);
  close(wake_[1]);
}

void InterruptGuard::watch() {
  unsigned char signal = 0;
  while (read(wake_[0], &signal, 1) < 0 && errno == EINTR) {
  }
  if (signal == 0) return;
  writes_.lock();  // held until exit: nothing is written after this
  if (last_words_) last_words_(signal);
  // Killing a child may let an evaluator thread start another before it
  // learns of the signal: scan until a few rounds in a row find none.
  // (Those killed stay zombies until this process is gone.)
  for (int quiet = 0, round = 0; quiet < 3 && round < 500; ++round) {
    std::vector<pid_t> children = living_children(getpid());
    quiet = children.empty() ? quiet + 1 : 0;
    for (pid_t child : children) {
      kill(-child, SIGKILL);
      kill(child, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(128 + signal);
}

}  // namespace kmem::cli
