// A thread waiting to go alone is not overtaken by threads arriving after it.
#include "share_gate.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>

namespace kmem::eval {
namespace {

TEST(ShareGate, WaitingToGoAloneStopsNewSharers) {
  using namespace std::chrono_literals;
  ShareGate gate;
  std::mutex order_mutex;
  std::string order;
  auto note = [&](char c) {
    std::lock_guard hold(order_mutex);
    order += c;
  };
  std::shared_lock first(gate);  // inside, sharing
  std::thread alone([&] {
    std::unique_lock hold(gate);
    note('A');
  });
  std::this_thread::sleep_for(100ms);  // `alone` is waiting now
  std::thread late([&] {
    std::shared_lock hold(gate);
    note('S');
  });
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(order, "");  // neither gets in while the first sharer is inside
  first.unlock();
  alone.join();
  late.join();
  EXPECT_EQ(order, "AS");
}

}  // namespace
}  // namespace kmem::eval
