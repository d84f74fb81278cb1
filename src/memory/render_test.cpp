// Whole prompts on the second memory and pack, checked by hand against
// memory.md: section order and omission, headers with {cat}, bullets, the
// numbers switch, you-alone values (own, est., n/a), how-to-read variants,
// gates, %.2f of stored floats (1.005 prints 1.00) and fixed texts.
#include <gtest/gtest.h>

#include "kmem/memory.h"
#include "memory/testdata.h"

namespace kmem {
namespace {

class RenderTest : public ::testing::Test {
 protected:
  std::string prompt(const std::string& policy, const std::string& reader, const std::string& problem) {
    auto text = render_prompt(memory_, pack_, policy, reader, problem);
    EXPECT_TRUE(text.ok()) << text.error().message();
    return text.ok() ? *text : "";
  }
  IndexedMemory memory_ = testdata::second_indexed();
  Pack pack_ = testdata::second_pack();
};

TEST_F(RenderTest, EverySectionInOrder) {
  EXPECT_EQ(prompt("all", "alpha", "L1_010"),
            "# Memory\n--\n"
            "## Lessons\n* Lesson one, a prohibition\n* Lesson two\n* Lesson three, 3x faster\n--\n"
            "## Pitfalls (reduce)\n* Pitfall one\n* Pitfall two costs 2x\n* Pitfall three\n--\n"
            "## Recipes (reduce, measured)\n"
            "* 2.50x Mean_reduction_over_a_dimension: Recipe B at 2.5x\n"
            "* 2.50x Max_reduction_over_a_dimension: Recipe A\n"
            "* 1.00x Matmul_Sum_Max: Recipe D\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x\n<<mean>>\n--\n"
            "## Kernel L1_011 Max_reduction_over_a_dimension 3.00x\n<<max {code}>>");
}

TEST_F(RenderTest, NumbersOffUsesVariantsAndTextsWithoutNumbers) {
  EXPECT_EQ(prompt("plain", "beta", "L1_010"),
            "# Memory\n--\n"
            "## Lessons\n* Lesson one, a prohibition\n* Lesson two\n* Lesson three, faster\n--\n"
            "## Pitfalls (reduce)\n* Pitfall one\n* Pitfall two costs time\n* Pitfall three\n--\n"
            "## Recipes (reduce)\n"
            "* Mean_reduction_over_a_dimension: Recipe B\n"
            "* Max_reduction_over_a_dimension: Recipe A\n"
            "* Matmul_Sum_Max: Recipe D\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension\n<<mean>>\n--\n"
            "## Kernel L1_011 Max_reduction_over_a_dimension\n<<max {code}>>");
}

TEST_F(RenderTest, YouAloneOwnEstimateAndHowToReadForAnotherReader) {
  EXPECT_EQ(prompt("relative", "alpha", "L1_010"),
            "# Memory\n--\n"
            "## How\nFrom Beta Two.\n--\n"
            "## Recipes (reduce, measured)\n"
            "* 2.50x Mean_reduction_over_a_dimension (you: 1.00x): Recipe B at 2.5x\n"
            "* 2.50x Max_reduction_over_a_dimension (you: 2.50x): Recipe A\n"
            "* 1.00x Matmul_Sum_Max (you: ~1.50x): Recipe D\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x (you: 1.00x)\n<<mean>>\n--\n"
            "## Kernel L1_011 Max_reduction_over_a_dimension 3.00x (you: 2.50x)\n<<max {code}>>");
}

TEST_F(RenderTest, YouAloneUnknownAndHowToReadForTheAuthor) {
  EXPECT_EQ(prompt("relative", "beta", "L1_011"),
            "# Memory\n--\n"
            "## How\nYours, Beta Two.\n--\n"
            "## Recipes (reduce, measured)\n"
            "* 9.00x Sum_reduction_over_a_dimension (you: 0.25x): Recipe C\n"
            "* 2.50x Mean_reduction_over_a_dimension (you: n/a): Recipe B at 2.5x\n"
            "* 1.00x Matmul_Sum_Max (you: n/a): Recipe D\n--\n"
            "## Kernel L1_010 Sum_reduction_over_a_dimension 8.00x (you: 0.25x)\n<<sum>>\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x (you: n/a)\n<<mean>>");
}

TEST_F(RenderTest, GatedPolicy) {
  EXPECT_EQ(prompt("gated", "alpha", "L1_010"),
            "# Memory\n--\n"
            "## How\nGated.\n--\n"
            "## Lessons\n* Lesson two\n* Lesson three, 3x faster\n--\n"
            "## Pitfalls (reduce)\n* Pitfall two costs 2x\n--\n"
            "## Recipes (reduce, measured)\n"
            "* 2.50x Mean_reduction_over_a_dimension (you: 1.00x): Recipe B at 2.5x\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x (you: 1.00x)\n<<mean>>\n--\n"
            "## Kernel L1_011 Max_reduction_over_a_dimension 3.00x (you: 2.50x)\n<<max {code}>>");
}

TEST_F(RenderTest, EmptySectionsAreLeftOutHeaderIncluded) {
  EXPECT_EQ(prompt("gated_target", "alpha", "L1_010"),
            "# Memory\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x (you: 1.00x)\n<<mean>>\n--\n"
            "## Kernel L1_011 Max_reduction_over_a_dimension 3.00x (you: 2.50x)\n<<max {code}>>");
  EXPECT_EQ(prompt("gated_target", "alpha", "L1_011"),
            "# Memory\n--\n"
            "## Recipes (reduce, measured)\n"
            "* 9.00x Sum_reduction_over_a_dimension (you: ~2.60x): Recipe C\n--\n"
            "## Kernel L1_010 Sum_reduction_over_a_dimension 8.00x (you: ~2.60x)\n<<sum>>\n--\n"
            "## Kernel L1_012 Mean_reduction_over_a_dimension 3.00x (you: 1.00x)\n<<mean>>");
  EXPECT_EQ(prompt("all", "gamma", "L1_031"),
            "# Memory\n--\n## Lessons\n* Lesson one, a prohibition\n* Lesson two\n* Lesson three, 3x faster");
  Pack kernels_only = pack_;
  kernels_only.policies.at("plain").sections = {Section::kKernels};
  auto h1_only = render_prompt(memory_, kernels_only, "plain", "gamma", "L1_031");
  EXPECT_EQ(*h1_only, "# Memory");
}

TEST_F(RenderTest, OtherCategoryAndNonTargetProblem) {
  EXPECT_EQ(prompt("all", "alpha", "L1_030"),
            "# Memory\n--\n"
            "## Lessons\n* Lesson one, a prohibition\n* Lesson two\n* Lesson three, 3x faster\n--\n"
            "## Recipes (pool, measured)\n* 1.50x Average_Pooling_3D: Recipe P\n--\n"
            "## Kernel L1_031 Average_Pooling_3D 1.50x\n<<avgpool>>");
}

TEST_F(RenderTest, FixedTextIsShownVerbatim) {
  EXPECT_EQ(prompt("quiet", "gamma", "L1_010"), "Fixed {author} text.");
}

}  // namespace
}  // namespace kmem
