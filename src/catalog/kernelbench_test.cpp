// Tests of reading a KernelBench checkout: ids, names and categories over a
// small fake tree, skipped files, and refusals that name the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kmem/catalog.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kTree = std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench";

CategoryRules bundled_rules() {
  auto rules = CategoryRules::load(std::string(KMEM_TEST_DATA_DIR) + "/categories.json");
  EXPECT_TRUE(rules) << rules.error().message();
  return rules ? *rules : CategoryRules();
}

const Problem* find(const std::vector<ProblemFile>& problems, const std::string& id) {
  for (const ProblemFile& p : problems)
    if (p.problem.id == id) return &p.problem;
  return nullptr;
}

TEST(ProblemId, PadsTheNumberToThreeDigits) {
  EXPECT_EQ(problem_id(1, 8), "L1_008");
  EXPECT_EQ(problem_id(3, 100), "L3_100");
}

TEST(ScanKernelBench, ReadsTheFakeTree) {
  auto problems = scan_kernelbench(kTree, bundled_rules());
  ASSERT_TRUE(problems) << problems.error().message();
  // 4 level-1, 1 level-2, 23 level-3 (the seed's), 1 level-4; results/ and
  // non-problem files are skipped.
  EXPECT_EQ(problems->size(), 29u);
  const Problem* matmul = find(*problems, "L1_008");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->level, 1);
  EXPECT_EQ(matmul->number, 8);
  EXPECT_EQ(matmul->name, "Matmul_with_irregular_shapes_");
  EXPECT_EQ(matmul->category, "matmul");
  EXPECT_EQ(find(*problems, "L1_019")->category, "activation");
  EXPECT_EQ(find(*problems, "L1_057")->category, "conv_transpose");
  EXPECT_EQ(find(*problems, "L1_095")->category, "loss");
  EXPECT_EQ(find(*problems, "L2_028")->category, "norm");
  EXPECT_EQ(find(*problems, "L3_004")->category, "network");
  EXPECT_EQ(find(*problems, "L3_046")->category, "matmul");
  EXPECT_EQ(find(*problems, "L3_032")->category, "attention");
  EXPECT_EQ(find(*problems, "L4_016")->category, "transformer");
  // Sorted by level, then number (not by string: 4 before 10).
  EXPECT_EQ((*problems)[0].problem.id, "L1_008");
  EXPECT_EQ((*problems)[4].problem.id, "L2_028");
  EXPECT_EQ((*problems)[5].problem.id, "L3_004");
  EXPECT_EQ((*problems)[6].problem.id, "L3_008");
  EXPECT_EQ(problems->back().problem.id, "L4_016");
  EXPECT_EQ((*problems)[0].path, kTree + "/level1/8_Matmul_with_irregular_shapes_.py");
}

class TempTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kmem_kb_test_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& relative, const std::string& text = "import torch\n") {
    fs::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text;
  }
  fs::path root_;
};

TEST_F(TempTree, AcceptsARepositoryRootWithAKernelBenchFolder) {
  write("KernelBench/level2/12_Gemm_Multiply_LeakyReLU.py");
  auto problems = scan_kernelbench(root_.string(), bundled_rules());
  ASSERT_TRUE(problems) << problems.error().message();
  ASSERT_EQ(problems->size(), 1u);
  EXPECT_EQ((*problems)[0].problem.id, "L2_012");
  EXPECT_EQ((*problems)[0].problem.category, "matmul");
}

TEST_F(TempTree, RefusesAFolderWithoutLevels) {
  write("docs/1_Readme.py");
  auto problems = scan_kernelbench(root_.string(), bundled_rules());
  ASSERT_FALSE(problems);
  EXPECT_NE(problems.error().message().find(root_.string()), std::string::npos);
}

TEST_F(TempTree, RefusesTwoFilesWithOneNumber) {
  write("level1/19_ReLU.py");
  write("level1/019_ReLU_again.py");
  auto problems = scan_kernelbench(root_.string(), bundled_rules());
  ASSERT_FALSE(problems);
  EXPECT_NE(problems.error().message().find("L1_019"), std::string::npos) << problems.error().message();
  EXPECT_NE(problems.error().message().find("ReLU"), std::string::npos) << problems.error().message();
}

TEST_F(TempTree, RefusesANumberBeyondThreeDigits) {
  write("level1/1000_Big.py");
  auto problems = scan_kernelbench(root_.string(), bundled_rules());
  ASSERT_FALSE(problems);
  EXPECT_NE(problems.error().message().find("1000_Big.py"), std::string::npos) << problems.error().message();
}

TEST_F(TempTree, RefusesAProblemNoRuleCovers) {
  write("level1/5_Odd.py");
  auto rules = CategoryRules::parse(
      R"({"format": "kmem-category-rules/1", "rules": [{"levels": [2], "category": "x"}]})", "r.json");
  ASSERT_TRUE(rules);
  auto problems = scan_kernelbench(root_.string(), *rules);
  ASSERT_FALSE(problems);
  EXPECT_NE(problems.error().message().find("5_Odd.py"), std::string::npos) << problems.error().message();
  EXPECT_NE(problems.error().message().find("L1_005"), std::string::npos) << problems.error().message();
}

TEST(ResolveProblem, ByIdInACheckoutOrByPath) {
  CategoryRules rules = bundled_rules();
  auto by_id = resolve_problem("L1_019", kTree, rules);
  ASSERT_TRUE(by_id) << by_id.error().message();
  EXPECT_EQ(by_id->problem.name, "ReLU");
  EXPECT_EQ(by_id->path, kTree + "/level1/19_ReLU.py");
  auto by_path = resolve_problem(kTree + "/level1/19_ReLU.py", "", rules);
  ASSERT_TRUE(by_path) << by_path.error().message();
  EXPECT_EQ(by_path->problem.id, "L1_019");

  EXPECT_EQ(resolve_problem("L1_020", kTree, rules).error().message(), "L1_020: no such problem in " + kTree);
  EXPECT_EQ(resolve_problem("L1_019", "", rules).error().message(),
            "L1_019: a problem id needs a KernelBench folder to find its file");
  EXPECT_EQ(resolve_problem("/tmp/19_ReLU.py", "", rules).error().message(),
            "/tmp/19_ReLU.py: a problem file lies in a level<N> folder (its level) or is named by its id");
  EXPECT_EQ(resolve_problem(kTree + "/level1/7_None.py", "", rules).error().message(),
            kTree + "/level1/7_None.py: no such problem file");
}

}  // namespace
}  // namespace kmem
