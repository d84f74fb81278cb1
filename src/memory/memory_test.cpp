// Tests of selection, policies and rendering on a small store whose expected
// texts are worked out by hand from docs/memory.md (the seed is covered by the
// conformance suite).
#include "kmem/memory.h"

#include <gtest/gtest.h>

#include "kmem/template.h"

namespace kmem {
namespace {

Item item(std::string id, ItemKind kind, std::string category, int order, std::vector<std::string> labels,
          std::string source = "", double speedup = 0, std::string text = "") {
  Item i;
  i.id = std::move(id);
  i.kind = kind;
  i.category = std::move(category);
  i.order = order;
  i.labels = std::move(labels);
  i.source = std::move(source);
  i.speedup = speedup;
  i.text = text.empty() ? i.id : std::move(text);
  i.code = "def f(): return {'a': 1}";
  return i;
}

// Target L1_001 Conv_ReLU_Add. L1_002 Conv_Add shares 2 of its 3 tokens
// (Jaccard 2/3), L1_003 Conv_Sigmoid 1 of 4 (1/4).
Memory small_memory() {
  Memory m;
  m.author = "alpha";
  m.readers = {{"alpha", {"alpha", "Alpha One"}}, {"beta", {"beta", "Beta Two"}}};
  m.problems = {{"L1_001", {"L1_001", 1, 1, "Conv_ReLU_Add", "conv"}},
                {"L1_002", {"L1_002", 1, 2, "Conv_Add", "conv"}},
                {"L1_003", {"L1_003", 1, 3, "Conv_Sigmoid", "conv"}},
                {"L2_004", {"L2_004", 2, 4, "Gemm_ReLU", "matmul"}}};
  m.items = {
      item("lesson-b", ItemKind::kLesson, "", 1, {"environment"}),
      item("lesson-a", ItemKind::kLesson, "", 0, {"prohibition"}),
      item("pit-1", ItemKind::kPitfall, "conv", 1, {"prohibition"}),
      item("pit-0", ItemKind::kPitfall, "conv", 0, {"correctness"}),
      item("pit-m", ItemKind::kPitfall, "matmul", 0, {}),
      item("rec-own", ItemKind::kRecipe, "conv", 0, {}, "L1_001", 5.0),
      item("rec-2", ItemKind::kRecipe, "conv", 0, {}, "L1_002", 2.0),
      item("rec-3", ItemKind::kRecipe, "conv", 0, {}, "L1_003", 2.0),
      item("ker-2", ItemKind::kKernel, "conv", 0, {}, "L1_002", 1.5),
      item("ker-3", ItemKind::kKernel, "conv", 0, {}, "L1_003", 3.0),
      item("ker-own", ItemKind::kKernel, "conv", 0, {}, "L1_001", 9.0),
  };
  m.items[6].text_no_numbers = "rec-2 without numbers";
  m.baselines["beta"].problems = {{"L1_002", 2.0}};
  m.baselines["beta"].groups = {{"L1|conv", 1.0}};
  return m;
}

const char* kPack = R"json({
  "format": "kmem-prompt-pack/1",
  "selection": {"max_pitfalls": 6, "max_recipes": 6, "related_kernels": 2},
  "texts": {
    "h1": "# M", "section_join": "\n\n", "bullet": "- {text}",
    "how_header": "## How", "how_to_read_self": "self {author}", "how_to_read_other": "other {author}",
    "how_to_read_gated": "gated",
    "lessons_header": "## L", "pitfalls_header": "## P {cat}",
    "recipes_header": "## R {cat}", "recipes_header_no_numbers": "## R {cat} (no numbers)",
    "recipe_bullet": "- [{sp}x on {name}] {text}", "recipe_bullet_reader": "- [{sp}x on {name}; you: {ya}] {text}",
    "recipe_bullet_no_numbers": "- [on {name}] {text}",
    "kernel_header": "## K {pid} {name} {sp}x", "kernel_header_reader": "## K {pid} {sp}x you: {ya}",
    "kernel_header_no_numbers": "## K {pid} {name}", "kernel_code": "```\n{code}\n```",
    "you_alone_own": "{v}x", "you_alone_est": "est. {v}x", "you_alone_unknown": "n/a", "empty": ""
  },
  "policies": {
    "none": {"fixed_text": "empty"},
    "all": {"sections": ["lessons", "pitfalls", "recipes", "kernels"]},
    "plain": {"sections": ["recipes", "kernels"], "numbers": false},
    "relative": {"sections": ["recipes", "kernels"], "how_to_read": true, "you_alone": true},
    "gated": {"sections": ["lessons", "pitfalls", "recipes", "kernels"], "how_to_read": true, "you_alone": true,
              "drop_prohibitions": true, "pitfalls_correctness_only": true, "gate": "source"},
    "gated_target": {"sections": ["recipes"], "gate": "source+target"}
  }
})json";

class MemoryEngine : public ::testing::Test {
 protected:
  Memory memory = small_memory();
  MemoryIndex index{memory};
  Pack pack = parse_pack_json(kPack, "test-pack.json").value();

  std::string text(const std::string& policy, const std::string& reader, const std::string& problem = "L1_001") {
    auto r = render(index, pack, pack.policies.at(policy), reader, memory.problems.at(problem));
    EXPECT_TRUE(r.ok()) << r.error().message();
    return r.ok() ? *r : "";
  }
};

std::vector<std::string> ids(const std::vector<const Item*>& items) {
  std::vector<std::string> out;
  for (const Item* i : items) out.push_back(i->id);
  return out;
}

TEST_F(MemoryEngine, SelectionOrdersLeavesOneOutAndRanksKernelsBySimilarity) {
  Selection s = index.select(memory.problems.at("L1_001"), pack.selection);
  EXPECT_EQ(ids(s.lessons), (std::vector<std::string>{"lesson-a", "lesson-b"}));
  EXPECT_EQ(ids(s.pitfalls), (std::vector<std::string>{"pit-0", "pit-1"}));
  // Equal speedups: the higher source id first; the target's own recipe is left out.
  EXPECT_EQ(ids(s.recipes), (std::vector<std::string>{"rec-3", "rec-2"}));
  // Jaccard 2/3 beats 1/4 whatever the speedup; the target's own kernel is left out.
  EXPECT_EQ(ids(s.kernels), (std::vector<std::string>{"ker-2", "ker-3"}));
}

TEST_F(MemoryEngine, SelectionLimitsAreNotBackfilled) {
  SelectionLimits limits{1, 1, 1};
  Selection s = index.select(memory.problems.at("L1_001"), limits);
  EXPECT_EQ(ids(s.pitfalls), (std::vector<std::string>{"pit-0"}));
  EXPECT_EQ(ids(s.recipes), (std::vector<std::string>{"rec-3"}));
  EXPECT_EQ(ids(s.kernels), (std::vector<std::string>{"ker-2"}));
}

TEST_F(MemoryEngine, ShowAllRendersEverySectionInOrder) {
  EXPECT_EQ(text("all", "alpha"),
            "# M\n\n## L\n- lesson-a\n- lesson-b\n\n## P conv\n- pit-0\n- pit-1\n\n"
            "## R conv\n- [2.00x on Conv_Sigmoid] rec-3\n- [2.00x on Conv_Add] rec-2\n\n"
            "## K L1_002 Conv_Add 1.50x\n```\ndef f(): return {'a': 1}\n```\n\n"
            "## K L1_003 Conv_Sigmoid 3.00x\n```\ndef f(): return {'a': 1}\n```");
}

TEST_F(MemoryEngine, EmptySectionsAreLeftOutWithTheirHeaders) {
  // L2_004 (matmul) has one pitfall and no recipes or kernels.
  EXPECT_EQ(text("all", "alpha", "L2_004"), "# M\n\n## L\n- lesson-a\n- lesson-b\n\n## P matmul\n- pit-m");
}

TEST_F(MemoryEngine, NoNumbersUsesTheNumberFreeTemplatesAndTexts) {
  EXPECT_EQ(text("plain", "alpha"),
            "# M\n\n## R conv (no numbers)\n- [on Conv_Sigmoid] rec-3\n- [on Conv_Add] rec-2 without numbers\n\n"
            "## K L1_002 Conv_Add\n```\ndef f(): return {'a': 1}\n```\n\n"
            "## K L1_003 Conv_Sigmoid\n```\ndef f(): return {'a': 1}\n```");
}

TEST_F(MemoryEngine, ReaderRelativeShowsOwnEstimatedOrUnknownValues) {
  EXPECT_EQ(text("relative", "beta"),
            "# M\n\n## How\nother Alpha One\n\n## R conv\n- [2.00x on Conv_Sigmoid; you: est. 1.00x] rec-3\n"
            "- [2.00x on Conv_Add; you: 2.00x] rec-2\n\n"
            "## K L1_002 1.50x you: 2.00x\n```\ndef f(): return {'a': 1}\n```\n\n"
            "## K L1_003 3.00x you: est. 1.00x\n```\ndef f(): return {'a': 1}\n```");
  EXPECT_NE(text("relative", "alpha").find("## How\nself Alpha One"), std::string::npos);
  EXPECT_NE(text("relative", "alpha").find("you: n/a"), std::string::npos);
}

TEST_F(MemoryEngine, SourceGateIsStrictAndDroppedItemsAreNotReplaced) {
  // beta: rec-2 (2.00 vs own 2.00) and ker-2 (1.50 vs 2.00) fail the strict gate.
  EXPECT_EQ(text("gated", "beta"),
            "# M\n\n## How\ngated\n\n## L\n- lesson-b\n\n## P conv\n- pit-0\n\n"
            "## R conv\n- [2.00x on Conv_Sigmoid; you: est. 1.00x] rec-3\n\n"
            "## K L1_003 3.00x you: est. 1.00x\n```\ndef f(): return {'a': 1}\n```");
}

TEST_F(MemoryEngine, SourceAndTargetGateAlsoNeedsToBeatTheTargetGroup) {
  memory.baselines["beta"].groups["L1|conv"] = 2.0;  // now rec-3 (2.00) no longer beats it
  EXPECT_EQ(text("gated_target", "beta"), "# M");
  // alpha has no baselines: every value counts as 0.
  EXPECT_EQ(text("gated_target", "alpha"),
            "# M\n\n## R conv\n- [2.00x on Conv_Sigmoid] rec-3\n- [2.00x on Conv_Add] rec-2");
}

TEST_F(MemoryEngine, FixedTextPolicyPrintsTheTextAlone) { EXPECT_EQ(text("none", "alpha"), ""); }

TEST_F(MemoryEngine, APackBuiltInCodeWithoutANeededTextFailsToRender) {
  Pack partial = pack;
  partial.texts.erase("kernel_header_reader");
  auto r = render(index, partial, pack.policies.at("relative"), "beta", memory.problems.at("L1_001"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message(), "policy relative: the pack has no text 'kernel_header_reader'");
  partial.texts.erase("empty");
  r = render(index, partial, pack.policies.at("none"), "beta", memory.problems.at("L1_001"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message(), "policy none: the pack has no text 'empty'");
  EXPECT_TRUE(render(index, partial, pack.policies.at("all"), "beta", memory.problems.at("L1_001")).ok());
}

TEST_F(MemoryEngine, TargetsDefaultToAllProblems) {
  EXPECT_EQ(target_ids(memory), (std::vector<std::string>{"L1_001", "L1_002", "L1_003", "L2_004"}));
  memory.targets = std::vector<std::string>{"L2_004", "L1_002"};
  EXPECT_EQ(target_ids(memory), (std::vector<std::string>{"L2_004", "L1_002"}));
}

TEST(TemplateFill, SubstitutesOnceAndKeepsUnknownBraces) {
  EXPECT_EQ(fill("a {x} {y} {z", {{"x", "{y}"}, {"y", "Y"}}), "a {y} Y {z");
}

TEST(PackParsing, RefusesBadPoliciesNamingFileAndEntry) {
  auto with_policy = [](const std::string& policy) {
    std::string pack = kPack;
    const std::string none = R"("none": {"fixed_text": "empty"})";
    pack.replace(pack.find(none), none.size(), "\"bad\": " + policy);
    return parse_pack_json(pack, "my-pack.json");
  };
  auto unknown_section = with_policy(R"({"sections": ["lessons", "tips"]})");
  ASSERT_FALSE(unknown_section.ok());
  EXPECT_NE(unknown_section.error().message().find("my-pack.json: policies.bad: unknown section \"tips\""),
            std::string::npos)
      << unknown_section.error().message();
  auto bad_gate = with_policy(R"({"sections": ["recipes"], "gate": "always"})");
  ASSERT_FALSE(bad_gate.ok());
  EXPECT_NE(bad_gate.error().message().find("unknown gate"), std::string::npos);
  auto misspelt = with_policy(R"({"sections": ["recipes"], "gates": "source"})");
  ASSERT_FALSE(misspelt.ok());
  EXPECT_EQ(
      misspelt.error().message().rfind("my-pack.json: policies.bad: unknown field 'gates' (expected sections, ", 0), 0u)
      << misspelt.error().message();
  auto mixed = with_policy(R"({"fixed_text": "empty", "sections": ["recipes"]})");
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.error().message(),
            "my-pack.json: policies.bad: unknown field 'sections' for a fixed_text policy (expected fixed_text)");
  auto missing_text = with_policy(R"({"fixed_text": "nowhere"})");
  ASSERT_FALSE(missing_text.ok());
  EXPECT_NE(missing_text.error().message().find("needs the text 'nowhere'"), std::string::npos);
  EXPECT_FALSE(parse_pack_json("{ not json", "broken.json").ok());
}

TEST(PackParsing, RefusesBadFormatAndLimitsWithoutThrowing) {
  auto refused = [](std::string from, const std::string& to) {
    std::string pack = kPack;
    pack.replace(pack.find(from), from.size(), to);
    auto parsed = parse_pack_json(pack, "my-pack.json");
    EXPECT_FALSE(parsed.ok()) << to;
    return parsed.ok() ? std::string() : parsed.error().message();
  };
  const std::string format = R"("format": "kmem-prompt-pack/1")";
  EXPECT_EQ(refused(format, R"("format": 1)"), "my-pack.json: format must be 'kmem-prompt-pack/1'");
  EXPECT_EQ(refused(format, R"("format": null)"), "my-pack.json: format must be 'kmem-prompt-pack/1'");
  const std::string selection = R"("selection": {"max_pitfalls": 6, "max_recipes": 6, "related_kernels": 2})";
  EXPECT_EQ(refused(selection, R"("selection": [])"), "my-pack.json: field 'selection' must be an object");
  const std::string recipes = R"("max_recipes": 6)";
  for (const char* bad : {R"("max_recipes": 4294967298)", R"("max_recipes": -1)", R"("max_recipes": 1.5)"})
    EXPECT_EQ(refused(recipes, bad), "my-pack.json: selection: field 'max_recipes' must be a non-negative integer");
}

TEST(PackParsing, RefusesOutOfRangeNumbersAndDuplicateKeysWithoutThrowing) {
  std::string pack = kPack;
  const std::string pitfalls = R"("max_pitfalls": 6)";
  pack.replace(pack.find(pitfalls), pitfalls.size(), R"("max_pitfalls": 1e400)");
  auto huge = parse_pack_json(pack, "my-pack.json");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message().rfind("my-pack.json: malformed JSON: ", 0), 0u) << huge.error().message();
  EXPECT_NE(huge.error().message().find("1e400"), std::string::npos) << huge.error().message();

  pack = kPack;
  pack.insert(pack.find("\"policies\": {") + 14, R"("all": {"fixed_text": "empty"}, )");
  auto duplicate = parse_pack_json(pack, "my-pack.json");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.error().message().find("my-pack.json: policies.all: duplicate key"), std::string::npos)
      << duplicate.error().message();
}

TEST(PackParsing, AUserPolicyNeedsNoRecompile) {
  std::string pack = kPack;
  pack.insert(pack.find("\"policies\": {") + 14, R"("mine": {"sections": ["pitfalls"]}, )");
  auto parsed = parse_pack_json(pack, "user-pack.json");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  Memory memory = small_memory();
  MemoryIndex index(memory);
  auto r = render(index, *parsed, parsed->policies.at("mine"), "alpha", memory.problems.at("L1_001"));
  EXPECT_EQ(*r, "# M\n\n## P conv\n- pit-0\n- pit-1");
}

TEST(PackParsing, EpisodeSectionIsOptionalButWholeAndStrict) {
  auto with_top = [](const std::string& entry) {
    std::string pack = kPack;
    pack.insert(pack.find("\"policies\": {"), entry + ", ");
    return parse_pack_json(pack, "my-pack.json");
  };
  EXPECT_TRUE(parse_pack_json(kPack, "my-pack.json")->episode.empty());
  const std::string texts =
      R"("system": "s", "task": "t", "memory_block": "m", "feedback_pass": "p", "feedback_build": "b",
         "feedback_mismatch": "x", "feedback_failed": "f", "feedback_rejected": "r", "feedback_no_action": "n",
         "turns_left": "l", "last_turn": "z", "feedback_cut": "c", "mismatch_facts": "mf", "mismatch_sample": "ms",
         "mismatch_edges": "me", "mismatch_tail": "mt", "mismatch_everywhere": "mv", "mismatch_scattered": "mc",
         "pass_compile": "pc", "pass_roofline": "pr", "pass_own_work": "po")";
  auto whole = with_top(R"("episode": {)" + texts + "}");
  ASSERT_TRUE(whole.ok()) << whole.error().message();
  EXPECT_EQ(whole->episode.size(), 21u);
  EXPECT_EQ(whole->episode.at("feedback_build"), "b");

  auto extra = with_top(R"("episode": {)" + texts + R"(, "feedback_pas": "p"})");
  ASSERT_FALSE(extra.ok());
  EXPECT_EQ(extra.error().message(),
            "my-pack.json: episode: unknown field 'feedback_pas' (expected system, task, memory_block, feedback_pass, "
            "feedback_build, feedback_mismatch, feedback_failed, feedback_rejected, feedback_no_action, turns_left, "
            "last_turn, feedback_cut, mismatch_facts, mismatch_sample, mismatch_edges, mismatch_tail, "
            "mismatch_everywhere, mismatch_scattered, pass_compile, pass_roofline, pass_own_work)");
  std::string partial = texts;
  partial.erase(partial.find(R"("system": "s", )"), 15);
  auto missing = with_top(R"("episode": {)" + partial + "}");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message(), "my-pack.json: episode: missing field 'system'");
  auto not_text = with_top(R"("episode": {"system": 1})");
  ASSERT_FALSE(not_text.ok());
  EXPECT_EQ(not_text.error().message(), "my-pack.json: episode: field 'system' must be a string");
  auto unknown_top = with_top(R"("episodes": {})");
  ASSERT_FALSE(unknown_top.ok());
  EXPECT_EQ(unknown_top.error().message().rfind("my-pack.json: unknown field 'episodes' (expected ", 0), 0u);
}

TEST_F(MemoryEngine, ShownItemIdsAreTheRenderedItemsInOrder) {
  const Problem& target = memory.problems.at("L1_001");
  EXPECT_EQ(shown_item_ids(index, pack, pack.policies.at("all"), "alpha", target),
            (std::vector<std::string>{"lesson-a", "lesson-b", "pit-0", "pit-1", "rec-3", "rec-2", "ker-2", "ker-3"}));
  EXPECT_TRUE(shown_item_ids(index, pack, pack.policies.at("none"), "alpha", target).empty());
  // Prohibitions dropped; the gate keeps what beats beta's own 2.00 on L1_002
  // (nothing there) and its group estimate 1.00 on L1_003.
  EXPECT_EQ(shown_item_ids(index, pack, pack.policies.at("gated"), "beta", target),
            (std::vector<std::string>{"lesson-b", "pit-0", "rec-3", "ker-3"}));
}

TEST_F(MemoryEngine, AReaderWithoutBaselineRendersWithTheUnknownTexts) {
  std::string unknown = text("relative", "someone-new");
  EXPECT_NE(unknown.find("you: n/a"), std::string::npos) << unknown;
  EXPECT_EQ(unknown.find("est."), std::string::npos) << unknown;
}

}  // namespace
}  // namespace kmem
