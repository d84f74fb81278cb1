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
    // A problem a fused C++ loop runs faster than eager PyTorch on a CPU:
    // the quickstart's softsign over 16 x 65,536 (not 16 x 256, where a
    // loaded machine's noise made the kernel slower than eager in some
    // measurements, and reverify retired it).
    std::string text = read_whole_file(std::string(KMEM_SOURCE_DIR) + "/docs/quickstart/kb/level1/30_Softsign.py");
    ASSERT_NE(text.find("dim = 256\n"), std::string::npos);
    text.replace(text.find("dim = 256\n"), 10, "dim = 65536\n");
    std::ofstream(dir_ / "kb/level1/30_Softsign.py", std::ios::binary) << text;
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
    return kmem::test::run_command(
        "KMEM_CACHE_DIR=" KMEM_EVAL_TEST_CACHE " " + std::string(KMEM_BINARY) + " " + arguments, dir_ / "stderr");
  }

  std::string exported() { return kmem("export --db " + db()).out; }

  std::string softsign() const { return (dir_ / "kb/level1/30_Softsign.py").string(); }
  std::string fused() const { return std::string(KMEM_SOURCE_DIR) + "/docs/quickstart/softsign.py"; }

  // Adds the fused softsign from `code` (items add), again while a noisy
  // measurement has it slower than eager (see promote_reproduced); any
  // other refusal fails the test at once.
  Outcome add_fused(const std::string& code) {
    const std::string add =
        "items add --problem " + softsign() + " --code " + code + " --store " + db() + evaluator() + add_passing();
    Outcome added = kmem(add);
    for (int tries = 0; added.exit_code != 0 && tries < 8; ++tries) {
      EXPECT_NE(added.err.find("slower than eager"), std::string::npos) << added.err;
      added = kmem(add);
    }
    return added;
  }

  // Promotes `id`, measuring it again (kmem reverify) while its speedup is
  // not yet reproduced on this machine. The quickstart's softsign takes
  // 0.03-0.13 ms a call on the CPU: on the 2-core CI machine one batch
  // measured it 0.43x, 1.57x, 1.73x, 4.18x and 4.78x (docs/benchmarks.md),
  // so several measurements may be needed before two agree within 1.5x (on
  // this 2-core machine, alone, 6 tries still failed about once in six runs).
  Outcome promote_reproduced(const std::string& id) {
    Outcome promoted = kmem("items promote " + id + " --reason checked --store " + db());
    for (int tries = 0; promoted.exit_code != 0 && tries < 10; ++tries) {
      EXPECT_NE(promoted.err.find("not reproduced"), std::string::npos) << promoted.err;
      kmem("reverify --store " + db() + " --kernelbench " + (dir_ / "kb").string() + evaluator());
      promoted = kmem("items promote " + id + " --reason checked --store " + db());
    }
    return promoted;
  }

  fs::path dir_;
};

TEST_F(LearnCommand, ItemsAddEvaluatesBeforeTheKernelEnters) {
  std::string candidates = std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/";
  std::string problem = (dir_ / "kb/level1/1_Scale_add.py").string();
  std::string before = exported();
  Outcome wrong =
      kmem("items add --problem " + problem + " --code " + candidates + "mismatch.py --db " + db() + evaluator());
  EXPECT_EQ(wrong.exit_code, 1) << wrong.err;
  EXPECT_NE(wrong.err.find("output_mismatch"), std::string::npos) << wrong.err;
  EXPECT_EQ(exported(), before);

  // Given as a reply, the kernel is stored as the source the evaluator ran.
  std::ofstream(dir_ / "reply.md") << "My fused kernel.\n\n```python\n"
                                   << read_whole_file(fused()) << "```\nACTION: SUBMIT\n";
  Outcome added = add_fused((dir_ / "reply.md").string());
  ASSERT_EQ(added.exit_code, 0) << added.err;
  EXPECT_NE(added.out.find("added kernel:L1_030 ("), std::string::npos) << added.out;
  EXPECT_NE(added.out.find("x on cpu, candidate; measured "), std::string::npos) << added.out;
  Outcome shown = kmem("items show kernel:L1_030 --store " + db());
  EXPECT_NE(shown.out.find("\"state\": \"candidate\""), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("\"evaluator\": \"sha256:test\""), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("\"reference_retimed\": true"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("\"confidence\": {"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("import torch\\nimport torch.nn as nn"), std::string::npos) << shown.out;
  EXPECT_EQ(shown.out.find("My fused kernel"), std::string::npos) << shown.out;
  EXPECT_EQ(shown.out.find("ACTION: SUBMIT"), std::string::npos) << shown.out;
  Outcome promoted = promote_reproduced("kernel:L1_030");
  ASSERT_EQ(promoted.exit_code, 0) << promoted.err;
  Outcome active = kmem("items list --state active --kind kernel --json --store " + db());
  EXPECT_NE(active.out.find("\"id\": \"kernel:L1_030\""), std::string::npos) << active.out;
  EXPECT_NE(active.out.find("\"reproduced\": true"), std::string::npos) << active.out;
  EXPECT_NE(active.out.find("\"device\": \"cpu\""), std::string::npos) << active.out;
}

TEST_F(LearnCommand, ItemsAddRefusesASlowerKernelAndBadInputExitsTwo) {
  std::string candidates = std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/";
  std::string before = exported();
  // Bad input: exit 2, one line naming it, the store unchanged.
  std::ofstream(dir_ / "prose.md") << "No code in this reply.\n";
  Outcome prose = kmem("items add --problem " + softsign() + " --code " + (dir_ / "prose.md").string() + " --store " +
                       db() + evaluator());
  EXPECT_EQ(prose.exit_code, 2) << prose.err;
  EXPECT_NE(prose.err.find("prose.md: a reply without a complete ```python block"), std::string::npos) << prose.err;
  fs::create_directories(dir_ / "other" / "level1");
  fs::copy_file(softsign(), dir_ / "other/level1/31_Softsign.py");
  Outcome unknown = kmem("items add --problem " + (dir_ / "other/level1/31_Softsign.py").string() + " --code " +
                         fused() + " --store " + db() + evaluator());
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_NE(unknown.err.find("problem L1_031 is not in the store"), std::string::npos) << unknown.err;
  Outcome json = kmem("items add --problem " + softsign() + " --code " + fused() + " --store " +
                      std::string(KMEM_TEST_DATA_DIR) + "/seed/memory-store.json" + evaluator());
  EXPECT_EQ(json.exit_code, 2) << json.err;
  EXPECT_NE(json.err.find("a store file, not a database"), std::string::npos) << json.err;
  EXPECT_EQ(exported(), before);
}

TEST_F(LearnCommand, ListingsReadTheSeedByDefaultAndPrintJson) {
  Outcome items = kmem("items list --kind kernel --json");
  ASSERT_EQ(items.exit_code, 0) << items.err;
  EXPECT_EQ(items.out.substr(0, 1), "[") << items.out;
  EXPECT_NE(items.out.find("\"confidence\""), std::string::npos);
  Outcome readers = kmem("readers --json");
  ASSERT_EQ(readers.exit_code, 0) << readers.err;
  EXPECT_NE(readers.out.find("\"id\": \"claude-opus-4-8\""), std::string::npos) << readers.out;
  Outcome problems = kmem("problems list --json");
  ASSERT_EQ(problems.exit_code, 0) << problems.err;
  EXPECT_NE(problems.out.find("\"id\": \"L2_006\""), std::string::npos);
  Outcome policies = kmem("policies --json");
  ASSERT_EQ(policies.exit_code, 0) << policies.err;
  EXPECT_NE(policies.out.find("\"name\": \"show_all\""), std::string::npos) << policies.out;
  EXPECT_EQ(kmem("policies").exit_code, 0);
  // --store and --db are one option.
  EXPECT_EQ(kmem("readers --store " + db()).out, kmem("readers --db " + db()).out);
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
  fs::copy_file(std::string(KMEM_EVAL_TESTS_DIR) + "/problems/scale_add_pair.py",
                dir_ / "kb/level1/2_Scale_add_pair.py");
  ASSERT_EQ(kmem("problems import " + (dir_ / "kb").string() + " --db " + db()).exit_code, 0);
  for (int n : {1, 2}) {
    std::ofstream(dir_ / ("c" + std::to_string(n) + ".py")) << "class ModelNew:\n    pass  # " << n << "\n";
    std::string problem = n == 1 ? "kb/level1/1_Scale_add.py" : "kb/level1/2_Scale_add_pair.py";
    std::ofstream(dir_ / ("r" + std::to_string(n) + ".jsonl"))
        << R"({"id":"j","problem":")" << problem << R"(","candidate":"c)" << n
        << R"(.py","verdict":"pass","speedup":1.5,"flags":[]})"
        << "\n";
  }
  std::string command = std::string("KMEM_CACHE_DIR=" KMEM_EVAL_TEST_CACHE " ") + KMEM_BINARY;
  std::string both = "(" + command + " ingest " + (dir_ / "r1.jsonl").string() + " --db " + db() + evaluator() + " & " +
                     command + " ingest " + (dir_ / "r2.jsonl").string() + " --db " + db() + evaluator() +
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
  reply.content =
      "```python\nimport torch\nimport torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n"
      "    def forward(self, x):\n        m = self\n        m.gamma = 1\n        return x\n```\nACTION: SUBMIT\n";
  script.replies.push_back(reply);
  auto endpoint = kmem::ScriptedEndpoint::start(script);
  ASSERT_TRUE(endpoint);
  std::ofstream(dir_ / "spec.json") << R"({"format": "kmem-experiment/1", "name": "lx", "kernelbench": "kb",
    "problems": ["L1_001"], "policies": ["none", "show_all"], "samples": 2, "max_turns": 1,
    "readers": [{"id": "fresh-reader", "endpoint": ")"
                                    << (*endpoint)->base_url() << R"(", "model": "m", "retries": 0}]})";
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
  fs::path problem = softsign();
  ASSERT_EQ(add_fused(fused()).exit_code, 0);
  ASSERT_EQ(promote_reproduced("kernel:L1_030").exit_code, 0);
  std::string reverify = "reverify --store " + db() + " --kernelbench " + (dir_ / "kb").string() + evaluator();

  // The same evaluator: the kernel still passes, its speedup is measured again.
  Outcome again = kmem(reverify);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("reverified 1 kernels"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("kernel:L1_030: "), std::string::npos) << again.out;
  Outcome kept = kmem("items show kernel:L1_030 --store " + db());
  EXPECT_EQ(kept.out.find("\"state\""), std::string::npos) << kept.out;  // active: the default, not written
  EXPECT_NE(kept.out.find("\"reason\": \"pass on sha256:test cpu"), std::string::npos) << kept.out;

  // The problem changed under the kernel (a stricter evaluator has the same
  // effect): it now fails and is retired, with the verdict in its history
  // (evaluated by one streaming evaluation this time, as several at once are).
  std::string text = read_whole_file(problem);
  text.replace(text.find("x / (1 + torch.abs(x))"), 22, "x / (2 + torch.abs(x))");
  std::ofstream(problem, std::ios::binary) << text;
  Outcome stricter = kmem(reverify + " --parallel 2");
  ASSERT_EQ(stricter.exit_code, 0) << stricter.err;
  EXPECT_NE(stricter.out.find("kernel:L1_030: retired, output_mismatch"), std::string::npos) << stricter.out;
  Outcome retired = kmem("items show kernel:L1_030 --store " + db());
  EXPECT_NE(retired.out.find("\"state\": \"retired\""), std::string::npos) << retired.out;
  EXPECT_NE(retired.out.find("\"reason\": \"output_mismatch: "), std::string::npos) << retired.out;
  EXPECT_EQ(kmem("items list --state active --kind kernel --store " + db()).out.find("kernel:L1_030"),
            std::string::npos);

  // A KernelBench folder without an item's problem (the seed's kernels'
  // problems all along; the retired kernel is not measured again): the item
  // is listed as skipped and kept as it is. (Promoting the retired kernel
  // again to test this would need its speedup reproduced, which a busy
  // machine's last measurement may not give.)
  std::string before = exported();
  Outcome missing = kmem(reverify);
  ASSERT_EQ(missing.exit_code, 0) << missing.err;
  EXPECT_NE(missing.out.find("reverified 0 kernels"), std::string::npos) << missing.out;
  EXPECT_EQ(missing.out.find("kernel:L1_030"), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("kernel:L2_051: skipped, no problem file for L2_051"), std::string::npos) << missing.out;
  EXPECT_EQ(exported(), before);
}

}  // namespace
