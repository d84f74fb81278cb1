// parse_reply and check_reply: fenced blocks, the chosen block, the action line.
#include <gtest/gtest.h>

#include "kmem/check.h"

namespace kmem {
namespace {

TEST(ParseReply, NoPythonBlockIsNoCodeBlockWithTheSpecMessage) {
  for (std::string_view text :
       {"just prose\nACTION: CHECK\n", "```cuda\nint x;\n```\n", "```python\nunterminated = 1\n", ""}) {
    Reply reply = parse_reply(text);
    ASSERT_EQ(reply.offences.size(), 1u) << text;
    EXPECT_EQ(reply.offences[0].code, "no_code_block");
    EXPECT_EQ(reply.offences[0].message, "A reply without a ```python fenced code block was rejected by the checker.");
    EXPECT_EQ(reply.block_count, 0);
    EXPECT_TRUE(reply.source.empty());
  }
}

TEST(ParseReply, TakesTheLastCompletePythonBlockAndSaysWhich) {
  Reply reply = parse_reply(
      "Plan.\n```python\nfirst = 1\n```\ntext\n```py\nsecond = 2\n```\n"
      "```python\nthird = 3\n```\n```python\ncut off\nACTION: SUBMIT\n");
  EXPECT_TRUE(reply.offences.empty());
  EXPECT_EQ(reply.source, "third = 3\n");
  EXPECT_EQ(reply.block_index, 2);
  EXPECT_EQ(reply.block_count, 3);
  EXPECT_EQ(reply.first_line, 10);
  // The ACTION line inside the unterminated block is code, not an action.
  EXPECT_EQ(reply.action, Action::kNone);
}

TEST(ParseReply, ReadsTheActionOutsideBlocks) {
  EXPECT_EQ(parse_reply("```python\nx = 1\n```\nACTION: CHECK\n").action, Action::kCheck);
  EXPECT_EQ(parse_reply("```python\nx = 1\n```\n  ACTION:  SUBMIT  \r\n").action, Action::kSubmit);
  EXPECT_EQ(parse_reply("```python\nACTION: SUBMIT\n```\n").action, Action::kNone);
  EXPECT_EQ(parse_reply("ACTION: MAYBE\n```python\nx=1\n```").action, Action::kNone);
  EXPECT_EQ(action_name(Action::kSubmit), "SUBMIT");
}

TEST(ParseReply, OtherLanguageBlocksAreSkippedWhole) {
  Reply reply = parse_reply("```cpp\n```python\n```\n```python\nok = 1\n```\n");
  EXPECT_EQ(reply.source, "ok = 1\n");
  EXPECT_EQ(reply.block_count, 1);
}

// A fence of more backticks closes only at a line of at least as many, so
// that a block may quote ``` lines (CommonMark).
TEST(ParseReply, LongerFencesCloseOnAsManyBackticks) {
  Reply reply = parse_reply("````python\nx = 1\n```\ny = 2\n````\nACTION: CHECK\n");
  EXPECT_TRUE(reply.offences.empty());
  EXPECT_EQ(reply.source, "x = 1\n```\ny = 2\n");
  EXPECT_EQ(reply.block_count, 1);
  EXPECT_EQ(reply.action, Action::kCheck);
  // A longer closing run closes a shorter fence; an unclosed one stays open.
  EXPECT_EQ(parse_reply("```python\nz = 3\n`````\n").source, "z = 3\n");
  EXPECT_EQ(parse_reply("````cuda\n```\n```python\nw = 4\n```\n````\n").block_count, 0);
}

TEST(CheckReply, MapsOffenceLinesOntoTheReply) {
  std::vector<Offence> offences =
      check_reply("Here it is.\n\n```python\nclass ModelNew:\n    pass\nimport gc\n```\nACTION: CHECK\n");
  ASSERT_EQ(offences.size(), 1u);
  EXPECT_EQ(offences[0].code, "introspection");
  EXPECT_EQ(offences[0].line, 6);
  EXPECT_EQ(offences[0].column, 8);
}

TEST(ParseReply, AFenceAtTheEndOfACodeLineClosesTheBlock) {
  Reply reply = parse_reply("Here:\n```python\nimport torch\ndef f(x):\n    return out```\nACTION: SUBMIT\n");
  ASSERT_EQ(reply.block_count, 1);
  EXPECT_EQ(reply.source, "import torch\ndef f(x):\n    return out\n");
  EXPECT_EQ(reply.action, Action::kSubmit);
  EXPECT_TRUE(reply.offences.empty());
}

TEST(ParseReply, AFenceAtTheEndOfTheLastLineClosesTheBlockAtTheEndOfText) {
  Reply reply = parse_reply("```python\nx = 1\ny = 2```");
  ASSERT_EQ(reply.block_count, 1);
  EXPECT_EQ(reply.source, "x = 1\ny = 2\n");
}

TEST(ParseReply, ShorterRunsAtTheEndOfALineDoNotCloseALongerFence) {
  Reply reply = parse_reply("````python\ns = 1```\nt = 2\n````\n");
  ASSERT_EQ(reply.block_count, 1);
  EXPECT_EQ(reply.source, "s = 1```\nt = 2\n");
}

}  // namespace
}  // namespace kmem
