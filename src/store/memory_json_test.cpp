// Tests of the kmem-memory-store/1 codec: the export is a lossless fixed point
// and every kind of bad input is refused with the file and entry named.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kmem/store.h"

namespace kmem {
namespace {

using Json = nlohmann::ordered_json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kSeedPath = std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json";

// A small memory exercising every optional field and awkward floats.
Memory edge_case_memory() {
  Memory m;
  m.author = "alice";
  m.score_cap = 12.5;
  m.readers["alice"] = {"alice", "Alice \xC3\xA9"};
  m.readers["bob"] = {"bob", "Bob"};
  m.problems["L1_008"] = {"L1_008", 1, 8, "Matmul_with_irregular_shapes_", "matmul"};
  m.problems["L2_028"] = {"L2_028", 2, 28, "BMM_InstanceNorm_Sum_ResidualAdd_Multiply", "norm"};
  m.problems["L3_123"] = {"L3_123", 3, 123, "Odd", "network"};
  m.targets = std::vector<std::string>{"L3_123", "L1_008"};  // not sorted: order is kept

  Item lesson{
      "lesson:0", ItemKind::kLesson, {"environment", "prohibition"}, "", 3, "", 0.0, "Line1\nLine2 \"q\"", std::nullopt,
      ""};
  Item pitfall{"pitfall:norm:0", ItemKind::kPitfall, {}, "norm", -1, "", 0.0, "Use 1.5x", "Use it", ""};
  Item recipe{"recipe:x", ItemKind::kRecipe, {"correctness"}, "matmul",     2,
              "L1_008",   0.1 + 0.2,         "Tile {sp}",     std::nullopt, ""};
  Item recipe_no_order{"recipe:y", ItemKind::kRecipe, {}, "attention", std::nullopt, "L2_028", 1e-300, "t", "t2", ""};
  Item kernel{"kernel:L1_008", ItemKind::kKernel,   {}, "matmul",     std::nullopt,
              "L1_008",        123456.789123456789, "", std::nullopt, "import torch\n\tclass ModelNew: pass\n"};
  kernel.state = ItemState::kCandidate;
  kernel.provenance = Provenance{"eval:r.jsonl#j1", "alice", "sha256:0f", "NVIDIA H200", "2026-12-04T08:00:00Z"};
  kernel.history = {
      HistoryEntry{"2026-12-04T08:00:00Z", "reverify", "faster", ItemState::kActive, ItemState::kActive, 1.0, 2.0}};
  m.items = {lesson, pitfall, recipe, recipe_no_order, kernel};
  m.baselines["alice"].problems = {{"L1_008", 2.0 / 3.0}, {"L2_028", 0.0}};
  m.baselines["alice"].groups = {{"L1|matmul", 1.0 / 7.0}};
  m.baselines["alice"].provenance["L2_028"] = Provenance{"experiment:x", "", "v1", "cpu", "2026-12-04T08:00:00Z"};
  m.baselines["bob"].groups = {{"L3|network", 9.999999999999998}};
  return m;
}

void expect_fixed_point(const std::string& text, const std::string& name) {
  auto first = parse_memory_json(text, name);
  ASSERT_TRUE(first) << first.error().message();
  std::string exported = memory_to_json(*first);
  auto second = parse_memory_json(exported, name);
  ASSERT_TRUE(second) << second.error().message();
  EXPECT_EQ(memory_to_json(*second), exported);
}

TEST(MemoryJson, SeedStoreRoundTripIsAFixedPoint) {
  std::string seed = read_file(kSeedPath);
  ASSERT_FALSE(seed.empty()) << kSeedPath;
  expect_fixed_point(seed, kSeedPath);
}

TEST(MemoryJson, SeedStoreLosesNothing) {
  // Same JSON value as the seed (key order and number spelling aside).
  std::string seed = read_file(kSeedPath);
  auto memory = parse_memory_json(seed, kSeedPath);
  ASSERT_TRUE(memory) << memory.error().message();
  auto original = nlohmann::json::parse(seed);
  auto exported = nlohmann::json::parse(memory_to_json(*memory));
  for (auto& item : original["items"])
    if (!item.contains("labels")) item["labels"] = nlohmann::json::array();
  if (!original.contains("score_cap")) original["score_cap"] = 10.0;
  EXPECT_EQ(exported, original) << nlohmann::json::diff(original, exported).dump(1);
}

TEST(MemoryJson, EdgeCaseStoreIsLosslessAndAFixedPoint) {
  Memory m = edge_case_memory();
  std::string exported = memory_to_json(m);
  auto back = parse_memory_json(exported, "edge.json");
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(memory_to_json(*back), exported);

  EXPECT_EQ(back->author, "alice");
  EXPECT_EQ(back->score_cap, 12.5);
  EXPECT_EQ(back->readers.at("alice").display, "Alice \xC3\xA9");
  ASSERT_TRUE(back->targets);
  EXPECT_EQ(*back->targets, (std::vector<std::string>{"L3_123", "L1_008"}));
  ASSERT_EQ(back->items.size(), 5u);
  EXPECT_EQ(back->items[0].labels, (std::vector<std::string>{"environment", "prohibition"}));
  EXPECT_EQ(back->items[0].text, "Line1\nLine2 \"q\"");
  EXPECT_EQ(back->items[1].order, -1);
  EXPECT_EQ(back->items[1].text_no_numbers, "Use it");
  EXPECT_EQ(back->items[2].order, 2);
  EXPECT_EQ(back->items[2].speedup, 0.1 + 0.2);  // exact, not 0.3
  EXPECT_FALSE(back->items[2].text_no_numbers);
  EXPECT_FALSE(back->items[3].order);
  EXPECT_EQ(back->items[3].speedup, 1e-300);
  EXPECT_EQ(back->items[4].speedup, 123456.789123456789);
  EXPECT_EQ(back->items[4].code, "import torch\n\tclass ModelNew: pass\n");
  EXPECT_EQ(back->items[4].state, ItemState::kCandidate);
  EXPECT_EQ(back->items[4].provenance, m.items[4].provenance);
  EXPECT_EQ(back->items[4].history, m.items[4].history);
  EXPECT_TRUE(back->items[0].provenance.is_seed());
  EXPECT_EQ(back->baselines.at("alice").provenance.at("L2_028").origin, "experiment:x");
  EXPECT_EQ(back->baselines.at("alice").problems.at("L1_008"), 2.0 / 3.0);
  EXPECT_EQ(back->baselines.at("alice").groups.at("L1|matmul"), 1.0 / 7.0);
  EXPECT_EQ(back->baselines.at("bob").groups.at("L3|network"), 9.999999999999998);
}

TEST(MemoryJson, AbsentTargetsStayAbsent) {
  Memory m = edge_case_memory();
  m.targets.reset();
  std::string exported = memory_to_json(m);
  EXPECT_EQ(exported.find("\"targets\""), std::string::npos);
  auto back = parse_memory_json(exported, "edge.json");
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_FALSE(back->targets);
  EXPECT_EQ(memory_to_json(*back), exported);
}

TEST(MemoryJson, IntegerSpeedupsExportAsFloatsAndStayFixed) {
  Json doc = Json::parse(memory_to_json(edge_case_memory()));
  doc["items"][4]["speedup"] = 3;
  expect_fixed_point(doc.dump(), "int.json");
}

// One bad-input case: a mutation of a valid store, and the words the error
// must contain besides the file name.
struct BadCase {
  const char* name;
  std::string text;
  std::vector<std::string> expected;
};

std::string mutate(const std::function<void(Json&)>& change) {
  Json doc = Json::parse(memory_to_json(edge_case_memory()));
  change(doc);
  return doc.dump(1);
}

std::vector<BadCase> bad_cases() {
  std::string valid = memory_to_json(edge_case_memory());
  std::string duplicate_problem = valid;
  duplicate_problem.replace(duplicate_problem.find("\"L2_028\": {"), 0,
                            "\"L1_008\": {\"level\": 1, \"number\": 8, \"name\": \"X\", \"category\": \"conv\"},\n");
  std::string duplicate_reader = valid;
  duplicate_reader.replace(duplicate_reader.find("\"bob\": {"), 0, "\"alice\": {\"display\": \"Again\"},\n");
  std::string nan_literal = valid;
  nan_literal.replace(nan_literal.find("0.30000000000000004"), 19, "NaN");
  std::string huge = valid;
  huge.replace(huge.find("0.30000000000000004"), 19, "1e999");
  return {
      {"malformed", "{\n  \"format\": \"kmem-memory-store/1\",\n  \"author\": }", {"3:13", "malformed JSON"}},
      {"truncated", valid.substr(0, valid.size() / 2), {"malformed JSON"}},
      {"not an object", "[1, 2]", {"JSON object"}},
      {"wrong format", mutate([](Json& d) { d["format"] = "kmem-memory-store/2"; }), {"format", "store/2"}},
      {"missing format", mutate([](Json& d) { d.erase("format"); }), {"missing field 'format'"}},
      {"unknown kind",
       mutate([](Json& d) { d["items"][1]["kind"] = "trick"; }),
       {"items[1]", "pitfall:norm:0", "unknown kind 'trick'"}},
      {"missing text", mutate([](Json& d) { d["items"][0].erase("text"); }), {"items[0]", "lesson:0", "'text'"}},
      {"missing order", mutate([](Json& d) { d["items"][1].erase("order"); }), {"pitfall:norm:0", "'order'"}},
      {"missing category", mutate([](Json& d) { d["items"][2].erase("category"); }), {"recipe:x", "'category'"}},
      {"missing code", mutate([](Json& d) { d["items"][4].erase("code"); }), {"kernel:L1_008", "'code'"}},
      {"missing source", mutate([](Json& d) { d["items"][4].erase("source"); }), {"kernel:L1_008", "'source'"}},
      {"missing id", mutate([](Json& d) { d["items"][3].erase("id"); }), {"items[3]", "'id'"}},
      {"order not int", mutate([](Json& d) { d["items"][0]["order"] = 1.5; }), {"lesson:0", "'order'", "integer"}},
      {"order too big", mutate([](Json& d) { d["items"][0]["order"] = 1ll << 40; }), {"lesson:0", "'order'"}},
      {"text not string", mutate([](Json& d) { d["items"][0]["text"] = 3; }), {"lesson:0", "'text'", "string"}},
      {"labels not list", mutate([](Json& d) { d["items"][0]["labels"] = "environment"; }), {"lesson:0", "labels"}},
      {"label not string", mutate([](Json& d) { d["items"][0]["labels"] = {1}; }), {"lesson:0", "labels"}},
      {"unknown label",
       mutate([](Json& d) {
         d["items"][1]["labels"] = {"correctness", "style"};
       }),
       {"pitfall:norm:0", "unknown label 'style'"}},
      {"unknown field",
       mutate([](Json& d) { d["items"][2]["speed_up"] = 2.0; }),
       {"recipe:x", "unknown field 'speed_up' for a recipe"}},
      {"field of another kind",
       mutate([](Json& d) { d["items"][4]["text"] = "t"; }),
       {"kernel:L1_008", "unknown field 'text' for a kernel", "code"}},
      {"unknown state",
       mutate([](Json& d) { d["items"][4]["state"] = "pending"; }),
       {"kernel:L1_008", "unknown state 'pending'"}},
      {"provenance without origin",
       mutate([](Json& d) { d["items"][4]["provenance"].erase("origin"); }),
       {"kernel:L1_008", "provenance", "'origin'"}},
      {"history entry without reason",
       mutate([](Json& d) { d["items"][4]["history"][0].erase("reason"); }),
       {"kernel:L1_008", "history[0]", "'reason'"}},
      {"baseline provenance of no value",
       mutate([](Json& d) {
         d["baselines"]["bob"]["provenance"]["L1_008"] = {{"origin", "x"}};
       }),
       {"baselines.bob", "provenance.L1_008"}},
      {"category on a lesson",
       mutate([](Json& d) { d["items"][0]["category"] = "conv"; }),
       {"lesson:0", "unknown field 'category' for a lesson"}},
      {"speedup string", mutate([](Json& d) { d["items"][2]["speedup"] = "2.5"; }), {"recipe:x", "'speedup'"}},
      {"speedup NaN literal", nan_literal, {"malformed JSON"}},
      {"speedup overflow", huge, {"malformed JSON", "1e999"}},
      {"baseline string",
       mutate([](Json& d) { d["baselines"]["alice"]["problems"]["L1_008"] = "1"; }),
       {"baselines.alice", "L1_008"}},
      {"baseline null",
       mutate([](Json& d) { d["baselines"]["alice"]["groups"]["L1|matmul"] = nullptr; }),
       {"baselines.alice", "L1|matmul"}},
      {"duplicate item",
       mutate([](Json& d) { d["items"][3]["id"] = "recipe:x"; }),
       {"items[3]", "duplicate item id 'recipe:x'"}},
      {"duplicate problem", duplicate_problem, {"problems.L1_008", "duplicate"}},
      {"duplicate reader", duplicate_reader, {"readers.alice", "duplicate"}},
      {"unknown source", mutate([](Json& d) { d["items"][2]["source"] = "L9_999"; }), {"recipe:x", "'L9_999'"}},
      {"kernel unknown source",
       mutate([](Json& d) { d["items"][4]["source"] = "L1_009"; }),
       {"kernel:L1_008", "'L1_009'"}},
      {"unknown target", mutate([](Json& d) { d["targets"][1] = "L1_001"; }), {"targets[1]", "L1_001"}},
      {"duplicate target", mutate([](Json& d) { d["targets"][1] = "L3_123"; }), {"targets[1]", "duplicate"}},
      {"baseline unknown reader",
       mutate([](Json& d) { d["baselines"]["carol"] = d["baselines"]["bob"]; }),
       {"baselines.carol", "unknown reader"}},
      {"baseline unknown problem",
       mutate([](Json& d) { d["baselines"]["bob"]["problems"]["L1_001"] = 1.0; }),
       {"baselines.bob", "L1_001", "unknown problem"}},
      {"bad group key",
       mutate([](Json& d) { d["baselines"]["bob"]["groups"]["matmul"] = 1.0; }),
       {"baselines.bob", "groups.matmul"}},
      {"id wrong number",
       mutate([](Json& d) { d["problems"]["L1_008"]["number"] = 9; }),
       {"problems.L1_008", "L1_009"}},
      {"id not zero padded",
       mutate([](Json& d) {
         d["problems"]["L3_5"] = {{"level", 3}, {"number", 5}, {"name", "N"}, {"category", "network"}};
       }),
       {"problems.L3_5", "L3_005"}},
      {"id wrong level", mutate([](Json& d) { d["problems"]["L2_028"]["level"] = 1; }), {"problems.L2_028"}},
      {"empty problem category",
       mutate([](Json& d) { d["problems"]["L2_028"]["category"] = ""; }),
       {"problems.L2_028", "category"}},
      {"author not a reader", mutate([](Json& d) { d["author"] = "carol"; }), {"author", "carol"}},
      {"reader without display",
       mutate([](Json& d) { d["readers"]["bob"].erase("display"); }),
       {"readers.bob", "display"}},
      {"items not a list", mutate([](Json& d) { d["items"] = Json::object(); }), {"'items'"}},
  };
}

TEST(MemoryJson, RefusesEachBadInputNamingFileAndEntry) {
  for (const BadCase& c : bad_cases()) {
    auto result = parse_memory_json(c.text, "bad-store.json");
    ASSERT_FALSE(result) << c.name << " was accepted";
    const std::string& message = result.error().message();
    EXPECT_EQ(message.rfind("bad-store.json:", 0), 0u) << c.name << ": " << message;
    for (const std::string& word : c.expected)
      EXPECT_NE(message.find(word), std::string::npos) << c.name << ": '" << word << "' not in: " << message;
  }
}

TEST(MemoryJson, CategoryMismatchIsAllowed) {
  // A recipe's category need not be its source problem's category.
  auto result = parse_memory_json(mutate([](Json& d) { d["items"][2]["category"] = "conv"; }), "ok.json");
  EXPECT_TRUE(result) << result.error().message();
}

TEST(MemoryJson, NonFiniteValuesBuiltInCodeAreRefusedOnReimport) {
  Memory m = edge_case_memory();
  m.items[2].speedup = std::numeric_limits<double>::quiet_NaN();
  auto back = parse_memory_json(memory_to_json(m), "nan.json");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message().find("recipe:x"), std::string::npos) << back.error().message();
  m = edge_case_memory();
  m.baselines["bob"].groups["L3|network"] = INFINITY;
  back = parse_memory_json(memory_to_json(m), "inf.json");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message().find("baselines.bob"), std::string::npos) << back.error().message();
}

TEST(LoadMemory, ReadsJsonFilesAndRefusesMissingOnesAndFolders) {
  auto seed = load_memory(kSeedPath);
  ASSERT_TRUE(seed) << seed.error().message();
  EXPECT_EQ(seed->problems.size(), 93u);
  auto missing = load_memory("/nonexistent/store.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("/nonexistent/store.json"), std::string::npos);
  auto folder = load_memory(KMEM_TEST_DATA_DIR);
  ASSERT_FALSE(folder);
  EXPECT_EQ(folder.error().message(), std::string(KMEM_TEST_DATA_DIR) + ": is a directory");
}

}  // namespace
}  // namespace kmem
