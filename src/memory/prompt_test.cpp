// Whole-prompt entry points: name checks listing the valid choices, target
// problems, and render_all over policies x readers x targets.
#include <gtest/gtest.h>

#include "kmem/memory.h"
#include "memory/testdata.h"

namespace kmem {
namespace {

class PromptTest : public ::testing::Test {
 protected:
  IndexedMemory memory_ = testdata::second_indexed();
  Pack pack_ = testdata::second_pack();
};

TEST_F(PromptTest, UnknownNamesListTheChoices) {
  EXPECT_EQ(render_prompt(memory_, pack_, "loud", "alpha", "L1_010").error().message(),
            "unknown policy 'loud' (choose from: all, gated, gated_target, plain, quiet, relative)");
  EXPECT_EQ(render_prompt(memory_, pack_, "all", "delta", "L1_010").error().message(),
            "unknown reader 'delta' (choose from: alpha, beta, gamma)");
  EXPECT_EQ(render_prompt(memory_, pack_, "quiet", "alpha", "L1_099").error().message(),
            "unknown problem 'L1_099' (choose from: L1_010, L1_011, L1_012, L1_013, L1_030, L1_031, L2_020)");
}

TEST_F(PromptTest, TargetsAreTheListElseAllProblems) {
  EXPECT_EQ(target_problems(memory_.memory()), (std::vector<std::string>{"L1_010", "L1_011", "L1_031"}));
  Memory all = memory_.memory();
  all.targets.reset();
  EXPECT_EQ(target_problems(all).size(), 7u);
}

TEST_F(PromptTest, RenderAllCoversPoliciesReadersAndTargets) {
  auto table = render_all(memory_, pack_);
  ASSERT_TRUE(table.ok()) << table.error().message();
  EXPECT_EQ(table->size(), 6u);
  for (const auto& [policy, readers] : *table) {
    EXPECT_EQ(readers.size(), 3u) << policy;
    for (const auto& [reader, problems] : readers) {
      EXPECT_EQ(problems.size(), 3u) << policy << "/" << reader;
      for (const auto& [problem, text] : problems)
        EXPECT_EQ(text, *render_prompt(memory_, pack_, policy, reader, problem));
    }
  }
  EXPECT_FALSE(table->at("all").at("alpha").contains("L1_012"));
}

}  // namespace
}  // namespace kmem
