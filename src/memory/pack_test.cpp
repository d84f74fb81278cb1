// The prompt-pack loader: the seed pack, a user-added policy, and every kind
// of bad entry, each reported with the file and the entry.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kmem/memory.h"
#include "memory/testdata.h"

namespace kmem {
namespace {

using Json = nlohmann::json;

Json seed() { return Json::parse(testdata::seed_pack_text()); }

Result<Pack> parse(const Json& doc) { return parse_pack_json(doc.dump(), "pack.json"); }

void expect_error(const Json& doc, const std::string& message) {
  auto pack = parse(doc);
  ASSERT_FALSE(pack.ok()) << "accepted: " << doc.dump();
  EXPECT_EQ(pack.error().message(), message);
}

TEST(Pack, ReadsTheSeedPack) {
  auto pack = parse(seed());
  ASSERT_TRUE(pack.ok()) << pack.error().message();
  EXPECT_EQ(pack->selection.max_pitfalls, 6);
  EXPECT_EQ(pack->selection.max_recipes, 6);
  EXPECT_EQ(pack->selection.related_kernels, 2);
  EXPECT_EQ(pack->policies.size(), 10u);
  const Policy& fg = pack->policies.at("fg_target");
  EXPECT_EQ(fg.name, "fg_target");
  EXPECT_EQ(fg.gate, Gate::kSourceAndTarget);
  EXPECT_TRUE(fg.you_alone && fg.how_to_read && fg.drop_prohibitions && fg.pitfalls_correctness_only);
  EXPECT_EQ(fg.sections,
            (std::vector<Section>{Section::kLessons, Section::kPitfalls, Section::kRecipes, Section::kKernels}));
  EXPECT_EQ(pack->policies.at("frontier_gated").gate, Gate::kSource);
  EXPECT_EQ(pack->policies.at("prior").fixed_text, "prior");
  EXPECT_FALSE(pack->policies.at("no_numbers").numbers);
  EXPECT_EQ(pack->policies.at("lessons_only").sections, std::vector<Section>{Section::kLessons});
}

TEST(Pack, AUserPolicyIsOneEntryWithDefaults) {
  Json doc = seed();
  doc["policies"]["mine"] = {{"sections", {"kernels", "recipes"}}, {"gate", "source"}};
  auto pack = parse(doc);
  ASSERT_TRUE(pack.ok()) << pack.error().message();
  const Policy& mine = pack->policies.at("mine");
  EXPECT_EQ(mine.sections, (std::vector<Section>{Section::kKernels, Section::kRecipes}));
  EXPECT_TRUE(mine.numbers);
  EXPECT_FALSE(mine.how_to_read || mine.you_alone || mine.drop_prohibitions || mine.pitfalls_correctness_only);
  EXPECT_EQ(mine.gate, Gate::kSource);
}

TEST(Pack, RejectsMalformedJsonAndWrongFormat) {
  auto pack = parse_pack_json("{\"format\": ", "pack.json");
  ASSERT_FALSE(pack.ok());
  EXPECT_EQ(pack.error().message().rfind("pack.json: malformed JSON at byte", 0), 0u) << pack.error().message();
  Json doc = seed();
  doc["format"] = "kmem-prompt-pack/2";
  expect_error(doc, "pack.json: format: must be \"kmem-prompt-pack/1\"");
  expect_error(Json::array(), "pack.json: must be a JSON object");
}

TEST(Pack, RejectsUnknownSection) {
  Json doc = seed();
  doc["policies"]["show_all"]["sections"][3] = "kernal";
  expect_error(doc,
               "pack.json:policies.show_all.sections[3]: unknown section 'kernal' "
               "(known: lessons, pitfalls, recipes, kernels)");
  doc["policies"]["show_all"]["sections"][3] = "lessons";
  expect_error(doc, "pack.json:policies.show_all.sections[3]: section 'lessons' listed twice");
}

TEST(Pack, RejectsBadGate) {
  Json doc = seed();
  doc["policies"]["fg_target"]["gate"] = "target";
  expect_error(doc, "pack.json:policies.fg_target.gate: unknown gate 'target' "
                    "(known: null, \"source\", \"source+target\")");
  doc["policies"]["fg_target"]["gate"] = true;
  expect_error(doc, "pack.json:policies.fg_target.gate: unknown gate true "
                    "(known: null, \"source\", \"source+target\")");
}

TEST(Pack, RejectsBadFieldsAndValues) {
  Json doc = seed();
  doc["policies"]["show_all"]["numbrs"] = false;
  EXPECT_EQ(parse(doc).error().message().rfind("pack.json:policies.show_all: unknown field 'numbrs' (known: ", 0),
            0u);
  doc = seed();
  doc["policies"]["show_all"]["numbers"] = "no";
  expect_error(doc, "pack.json:policies.show_all.numbers: must be true or false");
  doc = seed();
  doc["policies"]["show_all"].erase("sections");
  expect_error(doc, "pack.json:policies.show_all: missing field 'sections' (or 'fixed_text')");
  doc = seed();
  doc["policies"]["none"]["numbers"] = true;
  expect_error(doc, "pack.json:policies.none: unknown field 'numbers' (known: fixed_text)");
  doc = seed();
  doc["selection"]["max_recipes"] = -1;
  expect_error(doc, "pack.json:selection.max_recipes: must be a non-negative integer");
  doc = seed();
  doc["selection"].erase("related_kernels");
  expect_error(doc, "pack.json:selection: missing field 'related_kernels'");
  doc = seed();
  doc["texts"]["h1"] = 1;
  expect_error(doc, "pack.json:texts.h1: must be a string");
  doc = seed();
  doc["policies"] = Json::object();
  expect_error(doc, "pack.json:policies: must name at least one policy");
  doc = seed();
  doc["extra"] = 1;
  EXPECT_EQ(parse(doc).error().message().rfind("pack.json: unknown field 'extra'", 0), 0u);
}

TEST(Pack, RejectsMissingTextsAPolicyNeeds) {
  Json doc = seed();
  doc["texts"].erase("how_to_read_gated");
  expect_error(doc, "pack.json:policies.fg_target: needs text 'how_to_read_gated', which the pack lacks");
  doc = seed();
  doc["policies"]["prior"]["fixed_text"] = "posterior";
  expect_error(doc, "pack.json:policies.prior: needs text 'posterior', which the pack lacks");
  doc = seed();
  doc["texts"].erase("recipe_bullet");  // only no_prohib and show_all use it; no_numbers has its variant
  doc["policies"].erase("no_prohib");
  doc["policies"].erase("show_all");
  EXPECT_TRUE(parse(doc).ok()) << parse(doc).error().message();
}

TEST(Pack, RejectsPlaceholdersATextCannotHold) {
  Json doc = seed();
  doc["texts"]["recipe_bullet"] = "- [{speedup}x] {text}";
  expect_error(doc, "pack.json:policies.no_prohib: text 'recipe_bullet' uses {speedup}, which it cannot hold "
                    "(it can: cat, author, sp, name, pid, text)");
  doc = seed();
  doc["texts"]["bullet"] = "- {text} ({sp}x)";
  expect_error(doc, "pack.json:policies.fg_target: text 'bullet' uses {sp}, which it cannot hold "
                    "(it can: cat, author, text)");
}

TEST(Pack, NumbersOffMayNotShowNumbers) {
  Json doc = seed();
  doc["texts"].erase("kernel_header_no_numbers");
  expect_error(doc, "pack.json:policies.no_numbers: numbers is false but text 'kernel_header' shows {sp}; "
                    "add a text 'kernel_header_no_numbers'");
}

}  // namespace
}  // namespace kmem
