// `kmem check`: several files at once, one JSON shape (a list of per-file
// objects, also for one file), lines counted in the file as given; an
// unreadable file is one line and exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_test_support.h"

namespace {

namespace fs = std::filesystem;

using Invocation = kmem::test::CommandOutcome;

class CheckCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = kmem::test::fresh_test_dir("kmem_check_test");
    fs::create_directories(dir_ / "replies");
    write("replies/bad.md", "Here.\n```python\nimport gc\nclass ModelNew:\n    pass\n```\n");
    write("replies/good.py", "import torch\nclass ModelNew(torch.nn.Module):\n    pass\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

  Invocation kmem(const std::string& arguments) {
    return kmem::test::run_command("cd " + dir_.string() + " && " + KMEM_BINARY + " check " + arguments,
                                   dir_ / "stderr");
  }

  fs::path dir_;
};

TEST_F(CheckCommand, ChecksSeveralFilesAndCountsReplyLines) {
  Invocation run = kmem("replies/good.py replies/bad.md");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out.rfind("replies/bad.md:3:8: ", 0), 0u) << run.out;
  EXPECT_EQ(run.out.find("good.py"), std::string::npos) << run.out;
  EXPECT_EQ(kmem("replies/good.py").exit_code, 0);
}

TEST_F(CheckCommand, JsonIsAListOfFilesAlsoForOne) {
  Invocation one = kmem("replies/bad.md --json");
  EXPECT_EQ(one.exit_code, 1);
  auto list = nlohmann::json::parse(one.out);
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["file"], "replies/bad.md");
  ASSERT_FALSE(list[0]["verdicts"].empty());
  EXPECT_EQ(list[0]["verdicts"][0]["line"], 3);

  Invocation two = kmem("replies/bad.md replies/good.py --json");
  auto both = nlohmann::json::parse(two.out);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1]["file"], "replies/good.py");
  EXPECT_TRUE(both[1]["verdicts"].empty());

  Invocation dir = kmem("--dir replies --json");
  auto by_dir = nlohmann::json::parse(dir.out);
  ASSERT_EQ(by_dir.size(), 2u);
  EXPECT_EQ(by_dir[0]["file"], "bad.md");
  EXPECT_EQ(by_dir[0]["verdicts"], list[0]["verdicts"]);
}

TEST_F(CheckCommand, AnUnreadableFileIsOneLineAndExitTwo) {
  Invocation run = kmem("replies/good.py replies/none.md");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err.rfind("kmem check: replies/none.md: ", 0), 0u) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1);
}

}  // namespace
