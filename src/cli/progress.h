// The progress of a batch on a terminal: one line on stderr, redrawn at
// every event and once a second from the start, e.g.
//   [#########...........] 12/40  pass 9 fail 3  building 2  running 6  queued 20  1:05 elapsed  ETA 2:32
// (before the first job starts: "starting 40 jobs: workers and references
// loading"). Nothing at all when disabled (stderr is no terminal and
// --progress was not given), so pipes and logs stay clean. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace kmem::cli {

struct ProgressCounts {
  size_t total = 0, started = 0, passed = 0, failed = 0;
  size_t building = 0;  // started, neither built nor finished
};

// The line for `counts` after `elapsed` (no colours, no control codes).
std::string progress_line(const ProgressCounts& counts, std::chrono::seconds elapsed);

class Progress {
 public:
  Progress(std::FILE* out, size_t total, bool enabled);
  ~Progress() { close(); }
  // Draws the last line and ends it; nothing more is drawn. Idempotent.
  void close();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Job `id` began; its candidate is built (correctness and timing next); it ended.
  void started(const std::string& id);
  void built(const std::string& id);
  void finished(const std::string& id, bool passed);

 private:
  void draw();  // with mutex_ held
  std::FILE* out_;
  bool enabled_;
  ProgressCounts counts_;           // all but `building`, which is building_.size()
  std::set<std::string> building_;  // started, neither built nor finished
  std::chrono::steady_clock::time_point begun_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;  // close() was called
  std::thread ticker_;
};

}  // namespace kmem::cli
