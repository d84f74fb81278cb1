// Tests of the category rule table: it reproduces every seed category, the
// level-3 source rule, the categories of its own for problems the seed's
// rule leaves open (docs/categories.md), and refuses malformed tables naming the rule.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "kmem/catalog.h"
#include "kmem/store.h"

namespace kmem {
namespace {

const std::string kRulesPath = std::string(KMEM_TEST_DATA_DIR) + "/categories.json";
const std::string kTree = std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench";

CategoryRules bundled_rules() {
  auto rules = CategoryRules::load(kRulesPath);
  EXPECT_TRUE(rules) << rules.error().message();
  return rules ? *rules : CategoryRules();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CategoryRules, ReproducesEverySeedCategory) {
  auto seed = load_memory(std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json");
  ASSERT_TRUE(seed) << seed.error().message();
  ASSERT_EQ(seed->problems.size(), 93u);
  CategoryRules rules = bundled_rules();
  for (const auto& [id, p] : seed->problems) {
    // Level 3 looks at the source: our stand-in files in the fake tree.
    std::string source;
    if (p.level == 3) {
      std::string path = kTree + "/level3/" + std::to_string(p.number) + "_" + p.name + ".py";
      source = read_file(path);
      ASSERT_FALSE(source.empty()) << path;
    }
    EXPECT_EQ(rules.classify(p.level, p.name, source), p.category) << id << " " << p.name;
  }
}

TEST(CategoryRules, LevelThreeSourceRuleDecidesOnlyAfterTheNameRules) {
  CategoryRules rules = bundled_rules();
  EXPECT_EQ(rules.classify(3, "ResNet18", "self.c = nn.Conv2d(3, 8, 3)"), "network");
  EXPECT_EQ(rules.classify(3, "ResNet18", "self.l = nn.Linear(3, 8)"), "matmul");
  EXPECT_EQ(rules.classify(3, "ConvolutionalVisionTransformer", "nn.Conv2d"), "attention");
  EXPECT_EQ(rules.classify(3, "LSTMWithConv", "nn.Conv1d"), "rnn");
  EXPECT_EQ(rules.classify(3, "MLP", ""), "matmul");
  // Only level 3 reads sources.
  EXPECT_EQ(rules.classify(1, "ReLU", "nn.Conv2d"), "activation");
}

TEST(CategoryRules, NameMatchingIgnoresCase) {
  CategoryRules rules = bundled_rules();
  EXPECT_EQ(rules.classify(2, "CONVTRANSPOSE3d_X", ""), "conv_transpose");
  EXPECT_EQ(rules.classify(2, "CONV2d_X", ""), "conv");
  EXPECT_EQ(rules.classify(1, "GEMM_Add", ""), "matmul");
  EXPECT_EQ(rules.classify(3, "myGRU", ""), "rnn");
}

TEST(CategoryRules, GivesSensibleCategoriesWhereTheSpecIsSilent) {
  CategoryRules rules = bundled_rules();
  struct Case {
    int level;
    const char* name;
    const char* category;
  } cases[] = {
      {1, "Square_matrix_multiplication_", "matmul"},
      {1, "Matrix_vector_multiplication_", "matmul"},
      {1, "Matrix_scalar_multiplication", "elementwise"},
      {1, "ReLU", "activation"},
      {1, "GELU_", "activation"},
      {1, "HardTanh", "activation"},
      {1, "MinGPTNewGelu", "activation"},
      {1, "Softmax", "reduction"},
      {1, "Argmax_over_a_dimension", "reduction"},
      {1, "Sum_reduction_over_a_dimension", "reduction"},
      {1, "Max_Pooling_2D", "pooling"},
      {1, "Average_Pooling_3D", "pooling"},
      {1, "cumsum_exclusive", "scan"},
      {1, "cumprod", "scan"},
      {1, "HuberLoss", "loss"},
      {1, "TripletMarginLoss", "loss"},
      {1, "ScaledDotProductAttention", "attention"},
      {1, "RMSNorm_", "norm"},
      {2, "BMM_InstanceNorm_Sum_ResidualAdd_Multiply", "norm"},  // seed: norm before bmm
      {4, "gpt2_bs1_seq1023", "transformer"},
      {1, "Something_new", "other"},
      {7, "Anything", "other"},
  };
  for (const Case& c : cases) EXPECT_EQ(rules.classify(c.level, c.name, ""), c.category) << c.name;
}

TEST(CategoryRules, FirstHoldingRuleWinsAndConditionsCombine) {
  auto rules = CategoryRules::parse(R"({"format": "kmem-category-rules/1", "rules": [
      {"levels": [2], "name_starts_with": ["conv"], "source_contains": ["Fused"], "category": "fused_conv"},
      {"name_contains": ["conv", "pool"], "category": "spatial"}]})",
                                    "t.json");
  ASSERT_TRUE(rules) << rules.error().message();
  EXPECT_EQ(rules->classify(2, "Conv2d", "Fused"), "fused_conv");
  EXPECT_EQ(rules->classify(2, "Conv2d", "plain"), "spatial");
  EXPECT_EQ(rules->classify(1, "Conv2d", "Fused"), "spatial");
  EXPECT_EQ(rules->classify(1, "MaxPool", ""), "spatial");
  EXPECT_EQ(rules->classify(1, "ReLU", ""), std::nullopt);
}

TEST(CategoryRules, RefusesMalformedTablesNamingTheRule) {
  struct Case {
    const char* text;
    const char* expected;
  } cases[] = {
      {"{", "malformed JSON"},
      {R"({"format": "other", "rules": [{"category": "x"}]})", "format"},
      {R"({"format": "kmem-category-rules/1", "rules": []})", "'rules'"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x"}, {"levels": [1]}]})", "rules[1]"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": ""}]})", "rules[0]"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "levels": ["1"]}]})", "levels"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "name_contains": "conv"}]})",
       "name_contains"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "name_contains": [""]}]})", "name_contains"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "name_contain": ["a"]}]})",
       "unknown field 'name_contain'"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "category": "y"}]})", "duplicate key"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "a|b"}]})", "category 'a|b'"},
      {R"({"format": "kmem-category-rules/1", "rules": [{"category": "x", "levels": [0]}]})", "levels"},
  };
  for (const Case& c : cases) {
    auto rules = CategoryRules::parse(c.text, "rules.json");
    ASSERT_FALSE(rules) << c.text;
    EXPECT_EQ(rules.error().message().rfind("rules.json:", 0), 0u) << rules.error().message();
    EXPECT_NE(rules.error().message().find(c.expected), std::string::npos) << rules.error().message();
  }
}

}  // namespace
}  // namespace kmem
