// The timing lock pauses the enrolled workers other than its holder while it
// is held, and resumes them on release; workers not enrolled (the pool's,
// still setting up) run on. Real workers from the pool, on the CPU. It also
// keeps the fastest probe of the host's speed and serves callers in order.
#include "timing_lock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "worker_pool.h"

namespace kmem::eval {
namespace {

namespace fs = std::filesystem;

// The state letter of /proc/PID/stat ('T': stopped), or '?'.
char state_of(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  auto name_end = stat.rfind(')');
  return name_end == std::string::npos || name_end + 2 >= stat.size() ? '?' : stat[name_end + 2];
}

// Whether `pid` is stopped (or, with stopped false, running or waiting) within
// `ms`: signals arrive asynchronously.
bool becomes(pid_t pid, bool stopped, int ms) {
  for (int waited = 0; waited <= ms; waited += 10) {
    char state = state_of(pid);
    if (stopped ? state == 'T' : state == 'S' || state == 'R' || state == 'D') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class TimingLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = (fs::temp_directory_path() / "kmem-lock-XXXXXX").string();
    ASSERT_NE(mkdtemp(folder_.data()), nullptr);
    options_.python = default_python();
    options_.python_dir = KMEM_PYTHON_DIR;
    options_.cache_dir = folder_;
    launcher_ = make_zygote_launcher(options_, folder_, lock_.worker_cpus());
    pool_ = std::make_unique<WorkerPool>(options_, folder_, lock_, *launcher_);
    ASSERT_TRUE(pool_->expect("candidate", 3, 0));
  }
  void TearDown() override {
    pool_.reset();
    launcher_.reset();
    fs::remove_all(folder_);
  }

  std::unique_ptr<Worker> worker() {
    auto taken = pool_->take("candidate");
    EXPECT_TRUE(taken) << taken.error().message();
    return taken ? std::move(*taken) : nullptr;
  }

  std::string folder_;
  EvalOptions options_;
  TimingLock lock_;
  std::unique_ptr<WorkerLauncher> launcher_;
  std::unique_ptr<WorkerPool> pool_;
};

TEST_F(TimingLockTest, PausesTheEnrolledWorkersButTheHolderAndResumesThemOnRelease) {
  auto holder = worker(), other = worker(), not_enrolled = worker();
  ASSERT_TRUE(holder && other && not_enrolled);
  holder->enroll();
  other->enroll();
  pid_t holder_pid = holder->process().pid(), other_pid = other->process().pid();
  lock_.lock(holder_pid);
  EXPECT_TRUE(becomes(other_pid, true, 5000)) << "not paused: state " << state_of(other_pid);
  EXPECT_FALSE(becomes(holder_pid, true, 300)) << "the holder was paused";
  EXPECT_FALSE(becomes(not_enrolled->process().pid(), true, 300)) << "a worker not enrolled was paused";
  lock_.unlock();
  EXPECT_TRUE(becomes(other_pid, false, 5000)) << "not resumed: state " << state_of(other_pid);
}

// A candidate measures beside its reference worker, whose Stager copies each
// call's inputs: that one keeps running, enrolled or enrolled late.
TEST_F(TimingLockTest, TheHoldersCompanionIsNotPaused) {
  auto holder = worker(), companion = worker(), other = worker(), late_companion = worker();
  ASSERT_TRUE(holder && companion && other && late_companion);
  for (auto* w : {holder.get(), companion.get(), other.get()}) w->enroll();
  pid_t companion_pid = companion->process().pid();
  lock_.lock(holder->process().pid(), companion_pid);
  EXPECT_TRUE(becomes(other->process().pid(), true, 5000)) << "not paused";
  EXPECT_FALSE(becomes(companion_pid, true, 300)) << "the companion was paused";
  lock_.unlock();
  lock_.lock(holder->process().pid(), late_companion->process().pid());
  late_companion->enroll();
  EXPECT_FALSE(becomes(late_companion->process().pid(), true, 300)) << "the companion enrolled late was paused";
  EXPECT_TRUE(becomes(companion_pid, true, 5000)) << "a companion of an earlier hold stays exempt";
  lock_.unlock();
  EXPECT_TRUE(becomes(companion_pid, false, 5000)) << "not resumed";
}

TEST_F(TimingLockTest, AWorkerEnrolledWhileTheLockIsHeldIsPausedAtOnce) {
  auto late = worker();
  ASSERT_TRUE(late);
  lock_.lock(getpgrp());
  late->enroll();
  EXPECT_TRUE(becomes(late->process().pid(), true, 5000)) << "not paused";
  lock_.unlock();
  EXPECT_TRUE(becomes(late->process().pid(), false, 5000)) << "not resumed";
}

// Callers that lock and unlock in tight loops (candidates queueing to be
// timed one after another) cannot keep a waiting caller out: it waits for
// those that asked before it only, one turn each (the bound leaves room for
// this thread being descheduled between counting and asking).
TEST(TimingLockOrder, ACallerThatAsksLaterNeverOvertakesAWaitingOne) {
  constexpr int kHammers = 4;
  TimingLock lock;
  std::atomic<int> turns{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> hammers;
  for (int i = 0; i < kHammers; ++i)
    hammers.emplace_back([&] {
      while (!stop) {
        lock.lock(getpgrp());
        ++turns;
        std::this_thread::sleep_for(std::chrono::microseconds(100));  // a (very short) measurement
        lock.unlock();
      }
    });
  int most_overtaken = 0;
  for (int round = 0; round < 50; ++round) {
    int asked_at = turns;
    lock.lock(getpgrp());
    most_overtaken = std::max(most_overtaken, turns - asked_at);
    lock.unlock();
  }
  stop = true;
  for (auto& hammer : hammers) hammer.join();
  EXPECT_LE(most_overtaken, 3 * kHammers) << "a waiting caller let " << most_overtaken << " turns go first";
}

TEST(TimingLockHostProbe, KeepsTheFastestProbeNotedAndIgnoresNonPositiveOnes) {
  TimingLock lock;
  EXPECT_EQ(lock.fastest_host_probe_ms(), 0.0);
  lock.note_host_probe(0.4);
  lock.note_host_probe(0.3);
  lock.note_host_probe(0.5);
  lock.note_host_probe(0.0);
  lock.note_host_probe(-1.0);
  EXPECT_EQ(lock.fastest_host_probe_ms(), 0.3);
}

TEST(TimingLockCallOverhead, KeepsTheLargestOverheadNoted) {
  TimingLock lock;
  EXPECT_EQ(lock.call_overhead_ms(), 0.0);
  lock.note_call_overhead(0.08);
  lock.note_call_overhead(0.12);
  lock.note_call_overhead(0.05);
  lock.note_call_overhead(-1.0);
  EXPECT_DOUBLE_EQ(lock.call_overhead_ms(), 0.12);
}

}  // namespace
}  // namespace kmem::eval
