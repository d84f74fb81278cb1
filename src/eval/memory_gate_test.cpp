// Runs start as the device memory budget allows: beside references held and
// runs started, in order, a run alone whatever its size, and a waiting run
// passed a bounded number of times.
#include "memory_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace kmem::eval {
namespace {

using namespace std::chrono_literals;

// A run entering on its own thread; entered() says whether it got in.
class Entering {
 public:
  Entering(MemoryGate& gate, int64_t bytes)
      : thread_([this, &gate, bytes] {
          gate.enter(bytes);
          entered_ = true;
        }) {}
  ~Entering() { thread_.join(); }
  bool entered() {
    std::this_thread::sleep_for(50ms);  // time to get in, if it may
    return entered_;
  }

 private:
  std::atomic<bool> entered_{false};
  std::thread thread_;
};

TEST(MemoryGate, EveryRunStartsWhileTheCapacityIsUnknown) {
  MemoryGate gate;
  gate.hold(1'000);
  gate.enter(1'000'000);
  gate.enter(1'000'000);
  EXPECT_EQ(gate.used(), 2'001'000);
}

TEST(MemoryGate, ARunWaitsForRoomBesideHeldReferencesAndStartedRuns) {
  MemoryGate gate;
  gate.set_capacity(100);
  gate.hold(40);
  gate.enter(30);
  Entering second(gate, 40);  // 40 + 30 + 40 > 100
  EXPECT_FALSE(second.entered());
  gate.drop(20);  // 20 + 30 + 40 fits
  EXPECT_TRUE(second.entered());
  EXPECT_EQ(gate.used(), 90);
}

TEST(MemoryGate, ARunAloneStartsWhateverItsSize) {
  MemoryGate gate;
  gate.set_capacity(100);
  gate.hold(80);
  gate.enter(500);  // nothing else runs: it must be tried (the evaluator's out-of-memory path takes over)
  Entering next(gate, 10);
  EXPECT_FALSE(next.entered());
  gate.leave(500);
  EXPECT_TRUE(next.entered());
}

TEST(MemoryGate, AWaitingRunIsPassedAFewTimesAtMost) {
  MemoryGate gate;
  gate.set_capacity(100);
  gate.enter(60);
  auto big = std::make_unique<Entering>(gate, 60);  // first in line, does not fit
  EXPECT_FALSE(big->entered());
  std::vector<std::unique_ptr<Entering>> small;
  for (int i = 0; i < MemoryGate::kMaxPassed + 1; ++i) {
    small.push_back(std::make_unique<Entering>(gate, 1));
    bool entered = small.back()->entered();
    EXPECT_EQ(entered, i < MemoryGate::kMaxPassed) << "small run " << i;
  }
  gate.leave(60);  // room for the big one, first in line, and then for the last small one beside it
  EXPECT_TRUE(big->entered());
  EXPECT_TRUE(small.back()->entered());
  EXPECT_EQ(gate.used(), 60 + MemoryGate::kMaxPassed + 1);
}

}  // namespace
}  // namespace kmem::eval
