// Every command's evaluator options are completed in one place: defaults,
// KMEM_TUNE_* variables, the device as chosen, the sandbox flag; a command
// that runs candidates gets "cuda" checked and the sandbox checked.
#include "eval_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

namespace kmem::cli {
namespace {

Environment fake(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    auto found = values.find(name);
    return found == values.end() ? nullptr : found->second.c_str();
  };
}

TEST(EvalOptions, CompletingFillsTheDefaultsTheTuningAndTheChoices) {
  EvalOptions options;
  options.cache_dir = "relative-cache";
  ASSERT_TRUE(complete_eval_options({"cuda", true}, fake({{"KMEM_TUNE_REFERENCE_WORKERS", "3"}}), options));
  EXPECT_FALSE(options.python.empty());
  EXPECT_FALSE(options.python_dir.empty());
  EXPECT_EQ(options.cache_dir, std::filesystem::absolute("relative-cache").string());
  EXPECT_EQ(options.tuning.reference_workers, 3);
  EXPECT_EQ(options.device, "cuda");
  EXPECT_FALSE(options.sandbox);
}

TEST(EvalOptions, TheWorkersFolderIsAbsoluteEvenWhenNamedRelatively) {
  // The candidate workers run in their jobs' scratch folders, where a
  // relative name would find no kmem_worker.
  ASSERT_EQ(setenv("KMEM_PYTHON_DIR", "relative-python", 1), 0);
  EvalOptions options;
  bool completed = static_cast<bool>(complete_eval_options({"cpu", true}, fake({}), options));
  unsetenv("KMEM_PYTHON_DIR");
  ASSERT_TRUE(completed);
  EXPECT_EQ(options.python_dir, std::filesystem::absolute("relative-python").string());
}

TEST(EvalOptions, ABadTuningValueIsAnErrorNamingTheVariable) {
  EvalOptions options;
  Status completed = complete_eval_options({}, fake({{"KMEM_TUNE_DEVICE_SETUPS", "many"}}), options);
  ASSERT_FALSE(completed);
  EXPECT_NE(completed.error().message().find("KMEM_TUNE_DEVICE_SETUPS=many"), std::string::npos);
  Status resolved = resolve_eval_options({"cpu", true}, fake({{"KMEM_TUNE_DEVICE_SETUPS", "many"}}), options);
  EXPECT_FALSE(resolved);
}

TEST(EvalOptions, ResolvingForTheCpuWithoutTheSandboxChecksNothingElse) {
  EvalOptions options;
  ASSERT_TRUE(resolve_eval_options({"cpu", true}, fake({}), options));
  EXPECT_EQ(options.device, "cpu");
  EXPECT_FALSE(options.sandbox);
}

TEST(EvalOptions, CudaWithoutAUsableDeviceIsAnError) {
  EvalOptions options;
  options.python = "/nonexistent/python3";
  Status resolved = resolve_eval_options({"cuda", true}, fake({}), options);
  ASSERT_FALSE(resolved);
  EXPECT_NE(resolved.error().message().find("--device cuda"), std::string::npos) << resolved.error().message();
  // "auto" falls back to the CPU instead.
  ASSERT_TRUE(resolve_eval_options({"auto", true}, fake({}), options));
  EXPECT_EQ(options.device, "cpu");
}

}  // namespace
}  // namespace kmem::cli
