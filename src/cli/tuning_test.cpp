// The KMEM_TUNE_* variables set the scheduler's internals; a bad value is an
// error naming the variable; unset ones leave the defaults.
#include "tuning.h"

#include <gtest/gtest.h>

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

TEST(Tuning, UnsetVariablesKeepTheDefaults) {
  EvalOptions options, defaults;
  ASSERT_TRUE(apply_tuning(fake({}), options));
  EXPECT_EQ(options.tuning.device_setups, defaults.tuning.device_setups);
  EXPECT_EQ(options.tuning.device_connections, defaults.tuning.device_connections);
  EXPECT_EQ(options.tuning.reference_workers, defaults.tuning.reference_workers);
  EXPECT_EQ(options.tuning.inputs_by_ipc, defaults.tuning.inputs_by_ipc);
  EXPECT_FALSE(options.compile_baseline);  // by the device
}

TEST(Tuning, SetVariablesSetTheirOptions) {
  EvalOptions options;
  ASSERT_TRUE(apply_tuning(fake({{"KMEM_TUNE_DEVICE_SETUPS", "4"},
                                 {"KMEM_TUNE_DEVICE_CONNECTIONS", "0"},
                                 {"KMEM_TUNE_REFERENCE_WORKERS", "3"},
                                 {"KMEM_TUNE_INPUTS_BY_FILE", "1"},
                                 {"KMEM_TUNE_COMPILE_BASELINE", "0"}}),
                           options));
  EXPECT_EQ(options.tuning.device_setups, 4);
  EXPECT_EQ(options.tuning.device_connections, 0);
  EXPECT_EQ(options.tuning.reference_workers, 3);
  EXPECT_FALSE(options.tuning.inputs_by_ipc);
  EXPECT_EQ(options.compile_baseline, std::optional<bool>(false));
}

TEST(Tuning, ABadValueIsAnErrorNamingTheVariable) {
  for (const char* bad : {"x", "4x", "-1", "33", " 2"}) {
    EvalOptions options;
    auto status = apply_tuning(fake({{"KMEM_TUNE_DEVICE_CONNECTIONS", bad}}), options);
    ASSERT_FALSE(status) << bad;
    EXPECT_EQ(status.error().message(),
              std::string("KMEM_TUNE_DEVICE_CONNECTIONS=") + bad + ": not a whole number from 0 to 32");
  }
}

}  // namespace
}  // namespace kmem::cli
