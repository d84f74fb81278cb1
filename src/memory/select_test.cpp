// Selection on the second memory (testdata/second-store.json): order, limits,
// leave-one-out, speedup ties, Jaccard ranking and its ties.
#include <gtest/gtest.h>

#include "kmem/memory.h"
#include "memory/index.h"
#include "memory/testdata.h"

namespace kmem {
namespace {

std::vector<std::string> ids(const std::vector<const Item*>& items) {
  std::vector<std::string> out;
  for (const Item* item : items) out.push_back(item->id);
  return out;
}

using Ids = std::vector<std::string>;

class SelectTest : public ::testing::Test {
 protected:
  Selection pick(const std::string& target, SelectionLimits limits = {3, 3, 2}) {
    auto selection = select(memory_, limits, target);
    EXPECT_TRUE(selection.ok()) << selection.error().message();
    return std::move(selection).value();
  }
  IndexedMemory memory_ = testdata::second_indexed();
};

TEST(NameTokens, LowerCasedSplitOnUnderscoresWithoutEmptyPieces) {
  EXPECT_EQ(name_tokens("Matmul_with_irregular_shapes_"), (Ids{"matmul", "with", "irregular", "shapes"}));
  EXPECT_EQ(name_tokens("__Conv3d__ReLU"), (Ids{"conv3d", "relu"}));
  EXPECT_TRUE(name_tokens("___").empty());
}

TEST_F(SelectTest, LessonsAllByOrder) {
  EXPECT_EQ(ids(pick("L1_010").lessons), (Ids{"lesson:a", "lesson:b", "lesson:c"}));
  EXPECT_EQ(ids(pick("L1_031").lessons), (Ids{"lesson:a", "lesson:b", "lesson:c"}));
}

TEST_F(SelectTest, PitfallsOfTheCategoryByOrderUpToTheLimit) {
  EXPECT_EQ(ids(pick("L1_010").pitfalls), (Ids{"pitfall:1", "pitfall:2", "pitfall:3"}));
  EXPECT_EQ(ids(pick("L1_010", {6, 3, 2}).pitfalls),
            (Ids{"pitfall:1", "pitfall:2", "pitfall:3", "pitfall:4", "pitfall:5"}));
  EXPECT_TRUE(pick("L1_030").pitfalls.empty());
}

TEST_F(SelectTest, RecipesBySpeedupThenSourceIdDescendingLeavingTheTargetOut) {
  // recipe:c (9.0) is from L1_010 itself; a and b tie at 2.5: L1_012 > L1_011.
  EXPECT_EQ(ids(pick("L1_010").recipes), (Ids{"recipe:b", "recipe:a", "recipe:d"}));
  EXPECT_EQ(ids(pick("L1_011").recipes), (Ids{"recipe:c", "recipe:b", "recipe:d"}));
  EXPECT_EQ(ids(pick("L1_010", {3, 6, 2}).recipes), (Ids{"recipe:b", "recipe:a", "recipe:d", "recipe:e"}));
  EXPECT_EQ(ids(pick("L1_010", {3, 0, 2}).recipes), Ids{});
  EXPECT_EQ(ids(pick("L1_030").recipes), Ids{"recipe:p"});
  EXPECT_TRUE(pick("L1_031").recipes.empty());  // its only recipe is its own
}

TEST_F(SelectTest, KernelsByJaccardThenSpeedupThenSourceId) {
  // L1_010 "sum reduction over a dimension": L1_011 and L1_012 share 4 of 6
  // tokens and tie at 3.0x, so L1_012 (higher id) comes first; L2_020 has the
  // highest speedup but shares 1 of 7 tokens.
  EXPECT_EQ(ids(pick("L1_010").kernels), (Ids{"kernel:L1_012", "kernel:L1_011"}));
  // L1_011: L1_010 and L1_012 tie at 4/6; L1_010 is faster.
  EXPECT_EQ(ids(pick("L1_011").kernels), (Ids{"kernel:L1_010", "kernel:L1_012"}));
  EXPECT_EQ(ids(pick("L1_010", {3, 3, 3}).kernels), (Ids{"kernel:L1_012", "kernel:L1_011", "kernel:L2_020"}));
  EXPECT_EQ(ids(pick("L1_030").kernels), Ids{"kernel:L1_031"});
  EXPECT_TRUE(pick("L1_031").kernels.empty());
}

TEST_F(SelectTest, UnknownTargetIsAnError) {
  auto selection = select(memory_, {}, "L9_999");
  ASSERT_FALSE(selection.ok());
  EXPECT_EQ(selection.error().message(), "unknown problem 'L9_999'");
}

TEST(IndexedMemoryBuild, RejectsBrokenReferences) {
  Memory memory = testdata::second_memory();
  Item kernel;
  kernel.id = "kernel:x";
  kernel.kind = ItemKind::kKernel;
  kernel.category = "pool";
  kernel.source = "L5_000";
  memory.items.push_back(kernel);
  auto built = IndexedMemory::build(memory);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.error().message(), "item 'kernel:x': source problem 'L5_000' does not exist");

  memory = testdata::second_memory();
  Item pitfall;
  pitfall.id = "pitfall:x";
  pitfall.kind = ItemKind::kPitfall;
  pitfall.category = "pool";
  memory.items.push_back(pitfall);
  EXPECT_EQ(IndexedMemory::build(memory).error().message(), "item 'pitfall:x': no order");

  memory = testdata::second_memory();
  memory.author = "delta";
  EXPECT_EQ(IndexedMemory::build(memory).error().message(), "author 'delta' is not one of the readers");
}

TEST(IndexedMemoryBuild, SelectionSurvivesMovingTheIndex) {
  IndexedMemory first = testdata::second_indexed();
  auto before = select(first, {3, 3, 2}, "L1_010");
  ASSERT_TRUE(before.ok());
  IndexedMemory moved = std::move(first);
  EXPECT_EQ(before->recipes.front(), select(moved, {3, 3, 2}, "L1_010")->recipes.front());
  EXPECT_EQ(before->recipes.front()->text, "Recipe B at 2.5x");
}

}  // namespace
}  // namespace kmem
