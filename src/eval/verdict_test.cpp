// Which outcomes count as the GPU running out of memory (and so earn a run
// of their own).
#include <gtest/gtest.h>

#include "verdict.h"

namespace kmem::eval {
namespace {

EvalOutcome outcome(const std::string& verdict, const std::string& detail) {
  EvalOutcome o;
  o.verdict = verdict;
  o.detail = detail;
  return o;
}

TEST(OutOfDeviceMemory, TorchAndCudaMessagesAreRecognised) {
  EXPECT_TRUE(ran_out_of_device_memory(outcome("runtime_error", "OutOfMemoryError: CUDA out of memory. Tried")));
  EXPECT_TRUE(ran_out_of_device_memory(outcome("evaluator_error", "the reference failed to judge x: OutOfMemoryError")));
  EXPECT_TRUE(ran_out_of_device_memory(outcome("crash", "RuntimeError: CUDA error: out of memory")));
}

TEST(OutOfDeviceMemory, OtherFailuresAndVerdictsAreNot) {
  EXPECT_FALSE(ran_out_of_device_memory(outcome("runtime_error", "ValueError: bad shape")));
  EXPECT_FALSE(ran_out_of_device_memory(outcome("crash", "killed by signal 11")));
  // A judgement is final whatever its detail says.
  EXPECT_FALSE(ran_out_of_device_memory(outcome("output_mismatch", "OutOfMemoryError")));
  EXPECT_FALSE(ran_out_of_device_memory(outcome("pass", "")));
}

}  // namespace
}  // namespace kmem::eval
