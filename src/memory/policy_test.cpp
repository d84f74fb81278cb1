// The policy step on the second memory: reader values, label filters, gates
// at equality, and that dropped items are never replaced.
#include <gtest/gtest.h>

#include "kmem/memory.h"
#include "memory/testdata.h"

namespace kmem {
namespace {

using Ids = std::vector<std::string>;
using Kind = ReaderValue::Kind;

Ids ids(const std::vector<const Item*>& items) {
  Ids out;
  for (const Item* item : items) out.push_back(item->id);
  return out;
}

class PolicyTest : public ::testing::Test {
 protected:
  Selection shown(const std::string& policy, const std::string& reader, const std::string& target) {
    auto selection = select(memory_, pack_.selection, target);
    EXPECT_TRUE(selection.ok());
    return apply_policy(std::move(*selection), pack_.policies.at(policy), memory_.memory(), reader, target);
  }
  IndexedMemory memory_ = testdata::second_indexed();
  Pack pack_ = testdata::second_pack();
};

TEST_F(PolicyTest, ReaderValueIsOwnElseGroupOfTheSourceElseUnknown) {
  const Memory& m = memory_.memory();
  ReaderValue own = reader_value(m, "alpha", "L1_011");
  EXPECT_EQ(own.kind, Kind::kOwn);
  EXPECT_EQ(own.value, 2.5);
  ReaderValue level2 = reader_value(m, "alpha", "L2_020");  // group of the source's level: L2|reduce
  EXPECT_EQ(level2.kind, Kind::kEstimate);
  EXPECT_EQ(level2.value, 1.5);
  EXPECT_EQ(reader_value(m, "alpha", "L1_013").value, 2.6);
  EXPECT_EQ(reader_value(m, "alpha", "L1_030").kind, Kind::kUnknown);  // no L1|pool group
  EXPECT_EQ(reader_value(m, "beta", "L1_011").kind, Kind::kUnknown);
  ReaderValue none = reader_value(m, "gamma", "L1_010");  // no baselines at all
  EXPECT_EQ(none.kind, Kind::kUnknown);
  EXPECT_EQ(none.value, 0.0);
}

TEST_F(PolicyTest, SectionsNotShownAreEmptied) {
  Selection s = shown("relative", "alpha", "L1_010");
  EXPECT_TRUE(s.lessons.empty());
  EXPECT_TRUE(s.pitfalls.empty());
  EXPECT_EQ(s.recipes.size(), 3u);
  EXPECT_EQ(s.kernels.size(), 2u);
}

TEST_F(PolicyTest, LabelFiltersDropWithoutBackfill) {
  Selection s = shown("gated", "beta", "L1_010");
  EXPECT_EQ(ids(s.lessons), (Ids{"lesson:b", "lesson:c"}));
  // Selected pitfalls 1, 2, 3: 1 and 3 are prohibitions, 2 is correctness;
  // pitfall:5 (correctness, order 5) was never selected and does not move up.
  EXPECT_EQ(ids(s.pitfalls), Ids{"pitfall:2"});
}

TEST_F(PolicyTest, SourceGateIsStrictlyGreater) {
  // alpha on L1_011 is 2.50 = recipe:a's speedup: dropped. recipe:d (1.005)
  // loses to alpha's L2|reduce estimate 1.5.
  Selection s = shown("gated", "alpha", "L1_010");
  EXPECT_EQ(ids(s.recipes), Ids{"recipe:b"});
  EXPECT_EQ(ids(s.kernels), (Ids{"kernel:L1_012", "kernel:L1_011"}));
  // beta knows only L1_010 (0.25); unknown sources gate at 0.
  EXPECT_EQ(ids(shown("gated", "beta", "L1_011").recipes), (Ids{"recipe:c", "recipe:b", "recipe:d"}));
}

TEST_F(PolicyTest, TargetGateAlsoBeatsTheTargetGroup) {
  // alpha's L1|reduce is 2.6: recipe:b (2.5) passes its source (1.0) but not the target.
  Selection s = shown("gated_target", "alpha", "L1_010");
  EXPECT_TRUE(s.recipes.empty());
  EXPECT_EQ(ids(s.kernels), (Ids{"kernel:L1_012", "kernel:L1_011"}));
  EXPECT_EQ(ids(shown("gated_target", "alpha", "L1_011").recipes), Ids{"recipe:c"});
}

TEST_F(PolicyTest, TargetGateAtEqualityDrops) {
  Memory memory = testdata::second_memory();
  memory.baselines["alpha"].groups["L1|reduce"] = 3.0;  // equal to both kernels' speedup
  auto indexed = IndexedMemory::build(std::move(memory));
  ASSERT_TRUE(indexed.ok());
  auto selection = select(*indexed, pack_.selection, "L1_010");
  Selection s = apply_policy(*selection, pack_.policies.at("gated_target"), indexed->memory(), "alpha", "L1_010");
  EXPECT_TRUE(s.kernels.empty());
}

}  // namespace
}  // namespace kmem
