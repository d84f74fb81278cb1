// Runs the learning commands as a user would: `kmem items add` evaluates a
// kernel on the real CPU evaluator before it enters (a wrong one never does),
// `kmem ingest` of bad results leaves the store unchanged, two ingests run by
// two processes at once both land, `kmem items` reviews and `kmem readers`
// lists readers with their baseline counts, and `kmem reverify` updates or
// retires kernel items on the evaluator of now.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "command_test_support.h"
#include "kmem/scripted_endpoint.h"

namespace {

namespace fs = std::filesystem;

using Outcome = kmem::test::CommandOutcome;
using kmem::test::read_whole_file;

class LearnCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = kmem::test::fresh_test_dir("kmem_learn_command");
    fs::create_directories(dir_ / "kb" / "level1");
    fs::copy_file(std::string(KMEM_EVAL_TESTS_DIR) + "/problems/scale_add.py", dir_ / "kb/level1/1_Scale_add.py");
    ASSERT_EQ(kmem("import " + std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json --db " + db()).exit_code, 0);
    ASSERT_EQ(kmem("problems import " + (dir_ / "kb").string() + " --db " + db()).exit_code, 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string db() const { return (dir_ / "kmem.db").string(); }
  std::string evaluator() const { return " --device cpu --evaluator-version sha256:test --gpu cpu"; }
  // A passing kernel may be flagged unsteady_timing on a loaded machine;
  // these tests are about verdicts, so flagged passes are admitted.
  std::string add_passing() const { return " --promote-flagged"; }

  Outcome kmem(const std::string& arguments) {
    return kmem::test::run_command("KMEM_CACHE_DIR=" KMEM_EVAL_TEST_CACHE " " + std::string(KMEM_BINARY) + " " + arguments,
                                   dir_ / "stderr");
  }

  std::string exported() { return kmem("export --db " + db()).out; }

  fs::path dir_;
};

TEST_F(LearnCommand, ItemsAddEvaluatesBeforeTheKernelEnters) {
  std::string candidates = std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/";
  std::string problem = (dir_ / "kb/level1/1_Scale_add.py").string();
  std::string before = exported();
  Outcome wrong = kmem("items add --problem " + problem + " --code " + candidates + "mismatch.py --db " + db() + evaluator());
  EXPECT_EQ(wrong.exit_code, 1) << wrong.err;
  EXPECT_NE(wrong.err.find("output_mismatch"), std::string::npos) << wrong.err;
  EXPECT_EQ(exported(), before);

  Outcome added =
      kmem("items add --problem " + problem + " --code " + candidates + "pass.py --db " + db() + evaluator() + add_passing());
  ASSERT_EQ(added.exit_code, 0) << added.err;
  EXPECT_NE(added.out.find("added kernel:L1_001"), std::string::npos) << added.out;
  Outcome shown = kmem("items show kernel:L1_001 --db " + db());
  EXPECT_NE(shown.out.find("\"state\": \"candidate\""), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("\"evaluator\": \"sha256:test\""), std::string::npos) << shown.out;
  EXPECT_EQ(kmem("items promote kernel:L1_001 --reason checked --db " + db()).exit_code, 0);
  Outcome active = kmem("items list --state active --kind kernel --db " + db());
  EXPECT_NE(active.out.find("kernel:L1_001"), std::string::npos);
}

TEST_F(LearnCommand, BadResultsLeaveTheStoreUnchanged) {
  std::string before = exported();
  std::ofstream(dir_ / "c.py") << "class ModelNew:\n    pass\n";
  std::ofstream(dir_ / "bad.jsonl")
      << R"({"id":"j1","problem":"kb/level1/1_Scale_add.py","candidate":"c.py","verdict":"pass","speedup":2.0,"flags":[]})"
      << "\n{\"id\": 3}\n";
  Outcome bad = kmem("ingest " + (dir_ / "bad.jsonl").string() + " --db " + db() + evaluator());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("bad.jsonl:2"), std::string::npos) << bad.err;
  EXPECT_EQ(exported(), before);
  Outcome unknown = kmem("items promote kernel:nothing --reason r --db " + db());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no item 'kernel:nothing'"), std::string::npos) << unknown.err;
  EXPECT_EQ(exported(), before);
}

TEST_F(LearnCommand, TwoIngestsAtOnceBothLand) {
  // Two problems, one results file each, ingested by two processes at once.
  fs::copy_file(std::string(KMEM_EVAL_TESTS_DIR) + "/problems/scale_add_pair.py", dir_ / "kb/level1/2_Scale_add_pair.py");
  ASSERT_EQ(kmem("problems import " + (dir_ / "kb").string() + " --db " + db()).exit_code, 0);
  for (int n : {1, 2}) {
    std::ofstream(dir_ / ("c" + std::to_string(n) + ".py")) << "class ModelNew:\n    pass  # " << n << "\n";
    std::string problem = n == 1 ? "kb/level1/1_Scale_add.py" : "kb/level1/2_Scale_add_pair.py";
    std::ofstream(dir_ / ("r" + std::to_string(n) + ".jsonl"))
        << R"({"id":"j","problem":")" << problem << R"(","candidate":"c)" << n
        << R"(.py","verdict":"pass","speedup":1.5,"flags":[]})" << "\n";
  }
  std::string command = std::string("KMEM_CACHE_DIR=" KMEM_EVAL_TEST_CACHE " ") + KMEM_BINARY;
  std::string both = "(" + command + " ingest " + (dir_ / "r1.jsonl").string() + " --db " + db() + evaluator() +
                     " & " + command + " ingest " + (dir_ / "r2.jsonl").string() + " --db " + db() + evaluator() +
                     " & wait) >/dev/null 2>&1";
  ASSERT_EQ(std::system(both.c_str()), 0);
  Outcome listed = kmem("items list --state candidate --db " + db());
  EXPECT_NE(listed.out.find("kernel:L1_001"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("kernel:L1_002"), std::string::npos) << listed.out;
}

TEST_F(LearnCommand, AnExperimentIngestedAddsAReaderALessonAndItemValues) {
  // Every reply is refused by the checker, so no candidate runs: the reader
  // scores 0 everywhere, and the rule recurs in every episode.
  kmem::Script script;
  script.mode = "turns";
  kmem::ScriptedReply reply;
  reply.content = "```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
                  "    def forward(self, x):\n        m = self\n        m.gamma = 1\n        return x\n```\nACTION: SUBMIT\n";
  script.replies.push_back(reply);
  auto endpoint = kmem::ScriptedEndpoint::start(script);
  ASSERT_TRUE(endpoint);
  std::ofstream(dir_ / "spec.json") << R"({"format": "kmem-experiment/1", "name": "lx", "kernelbench": "kb",
    "problems": ["L1_001"], "policies": ["none", "show_all"], "samples": 2, "max_turns": 1,
    "readers": [{"id": "fresh-reader", "endpoint": ")" << (*endpoint)->base_url() << R"(", "model": "m", "retries": 0}]})";
  Outcome ran = kmem("experiment run " + (dir_ / "spec.json").string() + " --db " + db() + " --quiet");
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  Outcome ingested = kmem("ingest lx --db " + db() + evaluator());
  ASSERT_EQ(ingested.exit_code, 0) << ingested.err;
  EXPECT_NE(ingested.out.find("added lesson:foreign_attribute_assignment"), std::string::npos) << ingested.out;
  EXPECT_NE(ingested.out.find("baselines fresh-reader: 1 problems"), std::string::npos) << ingested.out;
  Outcome readers = kmem("readers --db " + db());
  EXPECT_NE(readers.out.find("fresh-reader"), std::string::npos) << readers.out;
  Outcome lesson = kmem("items show lesson:foreign_attribute_assignment --db " + db());
  EXPECT_NE(lesson.out.find("Checker rule: assignment to attribute 'm.gamma' is not allowed"), std::string::npos)
      << lesson.out;
  Outcome value = kmem("items value lx --json --db " + db());
  EXPECT_EQ(value.exit_code, 0) << value.err;
  EXPECT_EQ(value.out.substr(0, 1), "[") << value.out;
}

TEST_F(LearnCommand, ReadersListsBaselineCounts) {
  Outcome readers = kmem("readers --db " + db());
  ASSERT_EQ(readers.exit_code, 0) << readers.err;
  EXPECT_NE(readers.out.find("claude-opus-4-8"), std::string::npos);
  EXPECT_NE(readers.out.find("(author)"), std::string::npos);
}

TEST_F(LearnCommand, ReverifyUpdatesPassingKernelsAndRetiresFailingOnes) {
  std::string candidates = std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/";
  fs::path problem = dir_ / "kb/level1/1_Scale_add.py";
  ASSERT_EQ(kmem("items add --problem " + problem.string() + " --code " + candidates + "pass.py --db " + db() +
                 evaluator() + add_passing()).exit_code, 0);
  ASSERT_EQ(kmem("items promote kernel:L1_001 --reason checked --db " + db()).exit_code, 0);
  std::string reverify = "reverify --db " + db() + " --kernelbench " + (dir_ / "kb").string() + evaluator();

  // The same evaluator: the kernel still passes, its speedup is measured again.
  Outcome again = kmem(reverify);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("reverified 1 kernels"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("kernel:L1_001: "), std::string::npos) << again.out;
  Outcome kept = kmem("items show kernel:L1_001 --db " + db());
  EXPECT_EQ(kept.out.find("\"state\""), std::string::npos) << kept.out;  // active: the default, not written
  EXPECT_NE(kept.out.find("\"reason\": \"pass on sha256:test cpu"), std::string::npos) << kept.out;

  // The problem changed under the kernel (a stricter evaluator has the same
  // effect): it now fails and is retired, with the verdict in its history.
  std::string text = read_whole_file(problem);
  text.replace(text.find("self.scale * x + y"), 18, "self.scale * x - y");
  std::ofstream(problem, std::ios::binary) << text;
  Outcome stricter = kmem(reverify);
  ASSERT_EQ(stricter.exit_code, 0) << stricter.err;
  EXPECT_NE(stricter.out.find("kernel:L1_001: retired, output_mismatch"), std::string::npos) << stricter.out;
  Outcome retired = kmem("items show kernel:L1_001 --db " + db());
  EXPECT_NE(retired.out.find("\"state\": \"retired\""), std::string::npos) << retired.out;
  EXPECT_NE(retired.out.find("\"reason\": \"output_mismatch: "), std::string::npos) << retired.out;
  EXPECT_EQ(kmem("items list --state active --kind kernel --db " + db()).out.find("kernel:L1_001"), std::string::npos);

  // A KernelBench folder without an item's problem (here the seed's kernels
  // all along): the item is listed as skipped and kept as it is.
  ASSERT_EQ(kmem("items promote kernel:L1_001 --reason again --db " + db()).exit_code, 0);
  std::string before = exported();
  fs::remove(problem);
  Outcome missing = kmem(reverify);
  ASSERT_EQ(missing.exit_code, 0) << missing.err;
  EXPECT_NE(missing.out.find("reverified 0 kernels"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("kernel:L1_001: skipped, no problem file for L1_001"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("kernel:L2_051: skipped"), std::string::npos) << missing.out;
  EXPECT_EQ(exported(), before);
}

}  // namespace
