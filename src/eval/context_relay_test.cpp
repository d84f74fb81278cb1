// The relay for creating CUDA contexts: the worker `at_once` places later
// waits for exactly the one before it, and no limit hands out no descriptors.
#include "context_relay.h"

#include <gtest/gtest.h>
#include <poll.h>

namespace kmem::eval {
namespace {

bool ended(int fd) {
  struct pollfd end {
    fd, POLLIN, 0
  };
  return poll(&end, 1, 0) == 1;
}

TEST(ContextRelay, NoLimitMeansNoDescriptors) {
  ContextRelay relay(0);
  for (int i = 0; i < 3; ++i) {
    auto baton = relay.next();
    ASSERT_TRUE(baton);
    EXPECT_EQ(baton->done(), -1);
    EXPECT_EQ(baton->after(), -1);
  }
}

TEST(ContextRelay, EachWaitsForTheOneStartedAtOnceBeforeIt) {
  ContextRelay relay(2);
  auto first = relay.next(), second = relay.next(), third = relay.next();
  ASSERT_TRUE(first && second && third);
  EXPECT_EQ(first->after(), -1);
  EXPECT_EQ(second->after(), -1);
  ASSERT_GE(third->after(), 0);
  EXPECT_FALSE(ended(third->after()));
  { ContextBaton done = std::move(*second); }  // not the one the third waits for
  EXPECT_FALSE(ended(third->after()));
  { ContextBaton done = std::move(*first); }
  EXPECT_TRUE(ended(third->after()));
}

}  // namespace
}  // namespace kmem::eval
