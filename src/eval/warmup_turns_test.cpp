// Turns at creating a CUDA context: the worker `at_once` places later waits for
// exactly the one before it, and no limit hands out no descriptors.
#include "warmup_turns.h"

#include <gtest/gtest.h>
#include <poll.h>

namespace kmem::eval {
namespace {

bool ended(int fd) {
  struct pollfd end {fd, POLLIN, 0};
  return poll(&end, 1, 0) == 1;
}

TEST(WarmupTurns, NoLimitMeansNoDescriptors) {
  WarmupTurns turns(0);
  for (int i = 0; i < 3; ++i) {
    auto turn = turns.next();
    ASSERT_TRUE(turn);
    EXPECT_EQ(turn->done(), -1);
    EXPECT_EQ(turn->after(), -1);
  }
}

TEST(WarmupTurns, EachWaitsForTheOneStartedAtOnceBeforeIt) {
  WarmupTurns turns(2);
  auto first = turns.next(), second = turns.next(), third = turns.next();
  ASSERT_TRUE(first && second && third);
  EXPECT_EQ(first->after(), -1);
  EXPECT_EQ(second->after(), -1);
  ASSERT_GE(third->after(), 0);
  EXPECT_FALSE(ended(third->after()));
  { Turn done = std::move(*second); }  // not the one the third waits for
  EXPECT_FALSE(ended(third->after()));
  { Turn done = std::move(*first); }
  EXPECT_TRUE(ended(third->after()));
}

}  // namespace
}  // namespace kmem::eval
