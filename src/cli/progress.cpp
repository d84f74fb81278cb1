// The progress line of a batch evaluation.
#include "progress.h"

#include <fmt/format.h>

#include <algorithm>

namespace kmem::cli {

namespace {

std::string clock_time(long seconds) {
  return seconds >= 3600 ? fmt::format("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
                         : fmt::format("{}:{:02}", seconds / 60, seconds % 60);
}

}  // namespace

std::string progress_line(const ProgressCounts& c, std::chrono::seconds elapsed) {
  const size_t done = c.passed + c.failed;
  const long seconds = static_cast<long>(elapsed.count());
  if (c.started == 0 && done == 0)
    return fmt::format("starting {} job{}: workers and references loading  {} elapsed", c.total,
                       c.total == 1 ? "" : "s", clock_time(seconds));
  const size_t width = 20, filled = c.total ? done * width / c.total : width;
  const size_t in_flight = c.started > done ? c.started - done : 0;
  const size_t building = std::min(c.building, in_flight);
  const size_t queued = c.total > c.started ? c.total - c.started : 0;
  std::string line = fmt::format("[{}{}] {}/{}  pass {} fail {}  building {}  running {}  queued {}  {} elapsed",
                                 std::string(filled, '#'), std::string(width - filled, '.'), done, c.total, c.passed,
                                 c.failed, building, in_flight - building, queued, clock_time(seconds));
  if (done > 0 && done < c.total)
    line += "  ETA " + clock_time(seconds * static_cast<long>(c.total - done) / static_cast<long>(done));
  return line;
}

Progress::Progress(std::FILE* out, size_t total, bool enabled) : out_(out), enabled_(enabled) {
  counts_.total = total;
  if (!enabled_) return;
  std::lock_guard hold(mutex_);
  draw();
  ticker_ = std::thread([this] {
    std::unique_lock hold(mutex_);
    while (!stop_.wait_for(hold, std::chrono::seconds(1), [this] { return stopping_; })) draw();
  });
}

void Progress::close() {
  if (!enabled_) return;
  {
    std::lock_guard hold(mutex_);
    if (stopping_) return;
    stopping_ = true;
    draw();
    fmt::print(out_, "\n");
    std::fflush(out_);
  }
  stop_.notify_all();
  ticker_.join();
}

void Progress::started(const std::string& id) {
  std::lock_guard hold(mutex_);
  ++counts_.started;
  building_.insert(id);
  if (enabled_ && !stopping_) draw();
}

void Progress::built(const std::string& id) {
  std::lock_guard hold(mutex_);
  building_.erase(id);
  if (enabled_ && !stopping_) draw();
}

void Progress::finished(const std::string& id, bool passed) {
  std::lock_guard hold(mutex_);
  ++(passed ? counts_.passed : counts_.failed);
  building_.erase(id);
  // A job rejected before it ran never started.
  counts_.started = std::max(counts_.started, counts_.passed + counts_.failed);
  if (enabled_ && !stopping_) draw();
}

void Progress::draw() {
  auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - begun_);
  ProgressCounts now = counts_;
  now.building = building_.size();
  fmt::print(out_, "\r{}\x1b[K", progress_line(now, elapsed));
  std::fflush(out_);
}

}  // namespace kmem::cli
