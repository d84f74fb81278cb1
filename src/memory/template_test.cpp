// Placeholder scanning and one-pass expansion of pack texts.
#include "memory/template.h"

#include <gtest/gtest.h>

namespace kmem {
namespace {

Fill fill_with(Placeholder p, std::string_view value) {
  Fill fill{};
  fill[static_cast<size_t>(p)] = value;
  return fill;
}

TEST(Template, ReplacesKnownPlaceholders) {
  Fill fill{};
  fill[static_cast<size_t>(Placeholder::kSp)] = "2.50";
  fill[static_cast<size_t>(Placeholder::kName)] = "Sum";
  std::string out = "> ";
  expand("[{sp}x on {name}] {sp}", fill, out);
  EXPECT_EQ(out, "> [2.50x on Sum] 2.50");
}

TEST(Template, ValuesAreNotExpandedAgain) {
  std::string out;
  expand("<{code}>", fill_with(Placeholder::kCode, "f\"{text}\" {code}"), out);
  EXPECT_EQ(out, "<f\"{text}\" {code}>");
}

TEST(Template, LeavesOtherBracesAlone) {
  std::string out;
  expand("{ x } {} {unknown} {text", fill_with(Placeholder::kText, "T"), out);
  EXPECT_EQ(out, "{ x } {} {unknown} {text");
  out.clear();
  expand("{{text}}", fill_with(Placeholder::kText, "T"), out);
  EXPECT_EQ(out, "{T}");
}

TEST(Template, ListsPlaceholderWords) {
  auto uses = placeholders_in("{cat} and {speedup} and { v } and {v}");
  ASSERT_EQ(uses.size(), 3u);
  EXPECT_EQ(uses[0].placeholder, Placeholder::kCat);
  EXPECT_EQ(uses[1].word, "speedup");
  EXPECT_FALSE(uses[1].placeholder.has_value());
  EXPECT_EQ(uses[2].placeholder, Placeholder::kV);
}

}  // namespace
}  // namespace kmem
