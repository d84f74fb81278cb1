// The evaluator on a CUDA device: a Triton and a CUDA (load_inline)
// candidate pass, a compiled but unused CUDA kernel is no_custom_kernel,
// wrong outputs are caught whichever way they travel, an illegal memory
// access is a crash. Each test skips where there is no GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "eval_fixture.h"

namespace kmem::test {
namespace {

bool cuda_available() {
  static const bool available = [] {
    if (!std::filesystem::exists("/dev/nvidiactl")) return false;  // quick answer, no torch import
    std::string probe =
        default_python() + " -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' >/dev/null 2>&1";
    int status = std::system(probe.c_str());
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return available;
}

EvalOutcome gpu_eval(const std::string& candidate) {
  return evaluate_fixture("problems/scale_add.py", "gpu/" + candidate, test_options("cuda"));
}

#define REQUIRE_CUDA() \
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device"

TEST(EvalGpu, TritonCandidatePasses) {
  REQUIRE_CUDA();
  auto o = gpu_eval("triton_pass.py");
  EXPECT_EQ(o.verdict, "pass") << o.detail << o.log;
  EXPECT_GT(o.score, 0);
}

TEST(EvalGpu, CudaLoadInlineCandidatePasses) {
  REQUIRE_CUDA();
  auto o = gpu_eval("cuda_pass.py");
  EXPECT_EQ(o.verdict, "pass") << o.detail << o.log;
}

TEST(EvalGpu, CompiledButUnusedCudaKernelIsNoCustomKernel) {
  REQUIRE_CUDA();
  auto o = gpu_eval("cuda_unused.py");
  EXPECT_EQ(o.verdict, "no_custom_kernel") << o.detail << o.log;
}

TEST(EvalGpu, OutputsAreJudgedFromTheSlotsOrTheFile) {
  REQUIRE_CUDA();
  // Wrong values arrive in the reference's slots; a wrong shape fits no
  // slot and arrives in the file.
  auto options = test_options("cuda");
  EXPECT_EQ(evaluate_fixture("problems/scale_add.py", "candidates/mismatch.py", options).verdict, "output_mismatch");
  EXPECT_EQ(evaluate_fixture("problems/scale_add.py", "candidates/shape.py", options).verdict, "shape_mismatch");
}

TEST(EvalGpu, IllegalMemoryAccessCostsThatCandidateOnly) {
  REQUIRE_CUDA();
  auto bad = gpu_eval("illegal_memory.py");
  EXPECT_EQ(bad.verdict, "crash") << bad.detail << bad.log;
  EXPECT_EQ(gpu_eval("triton_pass.py").verdict, "pass");  // the next candidate is unaffected
}

}  // namespace
}  // namespace kmem::test
