// Tests of the feedback texts filled from the seed pack: where a mismatch
// lies, the compiler's first error without kmem's traceback, where a passing
// candidate's time goes, and the token budget every feedback keeps.
#include "episode/feedback.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace kmem::episode {
namespace {

EpisodeTexts seed_texts() {
  std::ifstream in(std::string(KMEM_TEST_DATA_DIR) + "/seed/prompt-pack.json");
  std::stringstream text;
  text << in.rdbuf();
  auto pack = parse_pack_json(text.str(), "prompt-pack.json");
  EXPECT_TRUE(pack.ok());
  return pack->episode;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Turn evaluated(const std::string& verdict) {
  Turn t;
  t.index = 1;
  t.action = "CHECK";
  t.stage = "evaluator";
  t.verdict = verdict;
  t.message = "message of " + verdict;
  return t;
}

TEST(Feedback, AMismatchSaysWhereAndShowsExpectedAgainstGot) {
  Turn t = evaluated("output_mismatch");
  t.max_abs_error = 0.5;
  MismatchFacts m;
  m.trial = 1;
  m.output = 0;
  m.shape = {4, 8};
  m.first_index = {3, 0};
  m.bad = 8;
  m.elements = 32;
  m.nan = 2;
  m.where = "edges";
  m.samples = {{{3, 0}, "0.5", "nan"}, {{3, 1}, "-1.25", "0"}};
  t.mismatch = m;
  std::string text = feedback_text(seed_texts(), t, 2);
  EXPECT_TRUE(contains(text,
                       "Output 0 (shape (4, 8)) of trial 1: 8 of 32 elements wrong, all on the tensor's "
                       "border"))
      << text;
  EXPECT_TRUE(contains(text, "the first at index (3, 0). NaNs in your output: 2, infinities: 0.")) << text;
  EXPECT_TRUE(contains(text, "  at (3, 0): expected 0.5, got nan\n  at (3, 1): expected -1.25, got 0\n")) << text;
  EXPECT_TRUE(text.ends_with("You have 2 replies left.")) << text;
}

TEST(Feedback, AOneDimensionalIndexIsATupleOfOne) {
  Turn t = evaluated("output_mismatch");
  MismatchFacts m;
  m.shape = {100};
  m.first_index = {70};
  m.where = "tail";
  t.mismatch = m;
  std::string text = feedback_text(seed_texts(), t, 2);
  EXPECT_TRUE(contains(text, "(shape (100,))")) << text;
  EXPECT_TRUE(contains(text, "every element from the first wrong one to the end")) << text;
}

TEST(Feedback, ABuildErrorShowsTheCompilersFirstErrorOnceWithoutKmemsTraceback) {
  Turn t = evaluated("build_error");
  const std::string detail =
      "RuntimeError: Error building extension 'add': [1/2] c++ -c main.cpp\n"
      "FAILED: main.o\n"
      "/tmp/kmem/add/main.cpp:5:3: error: 'foo' was not declared in this scope\n"
      "    5 |   foo();\n"
      "      |   ^~~\n"
      "/tmp/kmem/add/main.cpp:9:1: error: expected ';' before '}' token\n"
      "ninja: build stopped: subcommand failed.\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/kmem_worker/candidate.py\", line 125, in run\n"
      "    module = stage(\"build\", lambda: problem.load_module(cmd[\"candidate\"], \"kmem_candidate\"))\n"
      "RuntimeError: Error building extension 'add'\n";
  t.compiler_error = first_compiler_error(detail + "\n" + detail);  // the log repeats it
  EXPECT_EQ(t.compiler_error,
            "/tmp/kmem/add/main.cpp:5:3: error: 'foo' was not declared in this scope\n    5 |   foo();\n"
            "      |   ^~~\n(3 more lines with errors follow)");
  std::string text = feedback_text(seed_texts(), t, 1);
  EXPECT_FALSE(contains(text, "Traceback")) << text;
  EXPECT_FALSE(contains(text, "candidate.py")) << text;
  EXPECT_TRUE(contains(text, "The compiler's first error:\n```\n/tmp/kmem/add/main.cpp:5:3: error:")) << text;
  EXPECT_TRUE(contains(text, "make it your SUBMIT")) << text;
}

TEST(Feedback, WithoutACompilerErrorTheLastLinesWithoutTracebacksStand) {
  const std::string log =
      "Traceback (most recent call last):\n"
      "  File \"/w/kmem_worker/problem.py\", line 40, in load_module\n"
      "    spec.loader.exec_module(module)\n"
      "  File \"/c/candidate.py\", line 3\n"
      "    def forward(self x):\n"
      "SyntaxError: invalid syntax\n";
  EXPECT_EQ(first_compiler_error(log), "SyntaxError: invalid syntax");
  EXPECT_EQ(first_compiler_error(""), "");
}

TEST(Feedback, APassSaysWhereTheTimeGoes) {
  Turn t = evaluated("pass");
  t.reference_ms = 2.0;
  t.candidate_ms = 0.5;
  t.speedup = 4.0;
  t.compile_ms = 1.0;
  t.speedup_vs_compile = 2.0;
  t.profile.roofline_ms = 0.1;
  t.profile.own_work_ms = 0.4;
  t.profile.own_work_share = 0.8;
  t.profile.own_kernels = {"add_kernel", std::string(200, 'k')};
  std::string text = feedback_text(seed_texts(), t, 3);
  EXPECT_TRUE(contains(text, "Under torch.compile the reference takes 1.0000 ms: your speedup over it is 2.000x.\n"))
      << text;
  EXPECT_TRUE(contains(text, "roofline floor on this device is 0.1000 ms")) << text;
  EXPECT_TRUE(contains(text, "your candidate reaches 20.0% of it")) << text;
  EXPECT_TRUE(contains(text, "Your own kernels (add_kernel, " + std::string(60, 'k') +
                                 ") take 0.4000 ms per call, "
                                 "80% of the candidate's device time"))
      << text;
  EXPECT_FALSE(contains(text, std::string(61, 'k')));
  // Without a compile baseline or profile: the times alone.
  Turn plain = evaluated("pass");
  plain.reference_ms = 2.0;
  plain.candidate_ms = 0.5;
  plain.speedup = 4.0;
  EXPECT_EQ(feedback_text(seed_texts(), plain, 2),
            "CHECK result: pass. Reference 2.0000 ms, your candidate 0.5000 ms: speedup 4.000x (flags: none).\n"
            "You have 2 replies left.");
}

TEST(Feedback, EveryFeedbackKeepsItsTokenBudgetAndItsLastLine) {
  EpisodeTexts texts = seed_texts();
  for (const char* verdict : {"runtime_error", "output_mismatch", "build_error"}) {
    Turn t = evaluated(verdict);
    for (int i = 0; i < 2000; ++i) t.detail += "a long exception line é\n";
    t.compiler_error = t.detail;
    MismatchFacts m;
    m.where = "scattered";
    for (int i = 0; i < 500; ++i) m.samples.push_back({{i, i}, "1", "2"});
    t.mismatch = m;
    std::string text = feedback_text(texts, t, 2);
    EXPECT_LE(text.size(), kFeedbackMaxBytes) << verdict;
    EXPECT_TRUE(text.ends_with("\n" + texts.at("feedback_cut") + "\nYou have 2 replies left.")) << verdict;
    // Cut on a character boundary: no half of the two-byte 'é' is left.
    std::string body = text.substr(0, text.size() - texts.at("feedback_cut").size() - 26);
    EXPECT_NE(static_cast<unsigned char>(body.back()), 0xC3u) << verdict;
  }
}

TEST(Feedback, FitFeedbackCutsOnlyWhatIsTooLong) {
  EXPECT_EQ(fit_feedback("short\nlast", "[cut]", 100), "short\nlast");
  EXPECT_EQ(fit_feedback("0123456789abcdef\nlast", "[cut]", 20), "012345678\n[cut]\nlast");  // 20 bytes
  EXPECT_LE(fit_feedback("ééééééééé\nl", "[c]", 12).size(), 12u);
}

}  // namespace
}  // namespace kmem::episode
