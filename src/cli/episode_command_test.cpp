// Runs `kmem episode` against the scripted endpoint on loopback and the real
// CPU evaluator: a C++ load_inline candidate that fails to build is CHECKed,
// a wrong one is CHECKed, the fixed one SUBMITted (one C++ build, cached in
// the evaluator tests' cache), and the same episode replays from its record
// without the endpoint. Also: bad input and an unreachable endpoint exit 2
// with one line naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_test_support.h"
#include "kmem/scripted_endpoint.h"

namespace {

namespace fs = std::filesystem;

using Outcome = kmem::test::CommandOutcome;
using kmem::test::read_whole_file;

std::string reply(const std::string& candidate_file, const std::string& action) {
  return "Trying this.\n```python\n" +
         read_whole_file(std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/" + candidate_file) +
         "```\nACTION: " + action + "\n";
}

class EpisodeCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = kmem::test::fresh_test_dir("kmem_episode_test");
    fs::create_directories(dir_ / "kb" / "level1");
    fs::copy_file(std::string(KMEM_EVAL_TESTS_DIR) + "/problems/scale_add.py", dir_ / "kb/level1/1_Scale_add.py");
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome kmem(const std::string& arguments) {
    return kmem::test::run_command(
        "KMEM_CACHE_DIR=" KMEM_EVAL_TEST_CACHE " " + std::string(KMEM_BINARY) + " " + arguments, dir_ / "stderr");
  }

  std::string common(const std::string& problem = "L1_001", const std::string& policy = "show_all") const {
    return "--problem " + problem + " --kernelbench " + (dir_ / "kb").string() + " --reader any-reader --policy " +
           policy + " --model scripted --device cpu --max-turns 4 --json --work-dir " + (dir_ / "work").string();
  }

  fs::path dir_;
};

TEST_F(EpisodeCommand, ChecksFailingCandidatesThenSubmitsAFixOnTheCpuAndReplays) {
  kmem::Script script;
  script.mode = "turns";
  for (auto [file, action] :
       {std::pair{"build_error.py", "CHECK"}, std::pair{"mismatch.py", "CHECK"}, std::pair{"pass.py", "SUBMIT"}}) {
    kmem::ScriptedReply r;
    r.content = reply(file, action);
    script.replies.push_back(r);
  }
  auto endpoint = kmem::ScriptedEndpoint::start(script);
  ASSERT_TRUE(endpoint);
  std::string record = (dir_ / "record").string();
  Outcome run = kmem("episode " + common() + " --endpoint " + (*endpoint)->base_url() + " --record " + record);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out.substr(0, 2000);
  auto episode = nlohmann::json::parse(run.out);
  EXPECT_EQ(episode["submitted"], true);
  EXPECT_EQ(episode["end"], "submitted");
  ASSERT_EQ(episode["turns"].size(), 3u);
  EXPECT_EQ(episode["turns"][0]["action"], "CHECK");
  EXPECT_EQ(episode["turns"][0]["verdict"], "build_error");
  std::string feedback = episode["turns"][0]["feedback"];
  EXPECT_NE(feedback.find("kmem_missing_header.h"), std::string::npos) << feedback;
  EXPECT_EQ(episode["turns"][1]["verdict"], "output_mismatch");
  EXPECT_NE(episode["turns"][1]["feedback"].get<std::string>().find("Worst absolute error 0.01"), std::string::npos)
      << episode["turns"][1]["feedback"];
  EXPECT_EQ(episode["turns"][2]["action"], "SUBMIT");
  EXPECT_EQ(episode["turns"][2]["verdict"], "pass");
  EXPECT_GT(episode["score"].get<double>(), 0.0);
  EXPECT_EQ(episode["score"], episode["turns"][2]["score"]);
  EXPECT_EQ(episode["problem"], "L1_001");
  EXPECT_EQ(episode["reader"], "any-reader");

  // Replayed without the endpoint: the same replies and responses, evaluated
  // again (the compiler output in the feedback names other scratch paths).
  Outcome replay = kmem("episode " + common() + " --replay " + record);
  std::string recorded;
  for (const auto& entry : fs::directory_iterator(record)) recorded += entry.path().filename().string() + " ";
  ASSERT_EQ(replay.exit_code, 0) << replay.err << " recorded: " << recorded;
  auto again = nlohmann::json::parse(replay.out);
  ASSERT_EQ(again["turns"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(again["turns"][i]["reply"], episode["turns"][i]["reply"]);
    EXPECT_EQ(again["turns"][i]["verdict"], episode["turns"][i]["verdict"]);
    EXPECT_EQ(again["turns"][i]["exchange"]["response"], episode["turns"][i]["exchange"]["response"]);
  }
  EXPECT_EQ(again["score"] > 0, true);
}

TEST_F(EpisodeCommand, BadInputAndAnUnreachableEndpointExitTwoWithOneLine) {
  Outcome unknown = kmem("episode " + common("L1_001", "nope") + " --endpoint http://127.0.0.1:9/v1");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err.rfind("kmem episode: unknown policy 'nope' (choose from: ", 0), 0u) << unknown.err;
  Outcome missing = kmem("episode " + common("L1_002") + " --endpoint http://127.0.0.1:9/v1");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "kmem episode: L1_002: no such problem in " + (dir_ / "kb").string() + "\n");
  Outcome unreachable = kmem("episode " + common() + " --endpoint http://127.0.0.1:9/v1 --retries 0");
  EXPECT_EQ(unreachable.exit_code, 2);
  EXPECT_EQ(unreachable.err.rfind("kmem episode: POST http://127.0.0.1:9/v1/chat/completions: ", 0), 0u)
      << unreachable.err;
  EXPECT_EQ(std::count(unreachable.err.begin(), unreachable.err.end(), '\n'), 1);
  auto episode = nlohmann::json::parse(unreachable.out);
  EXPECT_EQ(episode["end"], "endpoint_error");
  Outcome no_endpoint = kmem("episode " + common());
  EXPECT_EQ(no_endpoint.exit_code, 2);
}

}  // namespace
