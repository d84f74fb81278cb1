// A child's pipes as the orchestrator uses them: writing to a child that is
// gone fails instead of killing the orchestrator with SIGPIPE, and a line
// the child wrote in time is read even by a caller that comes late; a child
// sees the parent's environment only when it inherits it.
#include "process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

namespace kmem::eval {
namespace {

class ChildProcessTest : public ::testing::Test {
 protected:
  std::unique_ptr<ChildProcess> start(const std::string& script, SpawnSpec spec = {}) {
    spec.argv = {"/bin/sh", "-c", script};
    auto name = "kmem-process-test-" + std::to_string(getpid()) + "-" + std::to_string(logs_.size());
    spec.log_path = (std::filesystem::temp_directory_path() / name).string();
    logs_.push_back(spec.log_path);
    auto child = ChildProcess::spawn(spec);
    EXPECT_TRUE(child) << child.error().message();
    return child ? std::move(*child) : nullptr;
  }
  void TearDown() override {
    for (const auto& log : logs_) std::filesystem::remove(log);
  }
  std::vector<std::string> logs_;
};

TEST_F(ChildProcessTest, WritingToAChildThatIsGoneFailsWithoutASignal) {
  auto child = start("exit 0");
  ASSERT_TRUE(child);
  auto status = child->wait_then_kill(Clock::now() + std::chrono::seconds(10));
  EXPECT_FALSE(status.signaled);
  EXPECT_FALSE(child->write_line(std::string(1 << 20, 'x')));  // would raise SIGPIPE
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE)) << "the signal of the failed write is taken back";
}

TEST_F(ChildProcessTest, ALineWrittenInTimeIsReadByACallerWhoseDeadlinePassed) {
  auto child = start("echo ready; sleep 30");
  ASSERT_TRUE(child);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the line is in the pipe by now
  std::string line;
  EXPECT_EQ(child->read_line(Clock::now() - std::chrono::seconds(1), line), ChildProcess::Read::kLine);
  EXPECT_EQ(line, "ready");
  auto asked = Clock::now();
  EXPECT_EQ(child->read_line(Clock::now() - std::chrono::seconds(1), line), ChildProcess::Read::kTimeout);
  EXPECT_LT(Clock::now() - asked, std::chrono::seconds(1)) << "nothing more waiting: no wait";
}

TEST_F(ChildProcessTest, AChildThatWritesOnWithoutANewlineStillTimesOut) {
  auto child = start("while :; do printf x; done");
  ASSERT_TRUE(child);
  std::string line;
  EXPECT_EQ(child->read_line(Clock::now() + std::chrono::milliseconds(200), line), ChildProcess::Read::kTimeout);
}

TEST_F(ChildProcessTest, AChildThatInheritsNoEnvironmentSeesOnlyItsOwn) {
  ASSERT_EQ(setenv("KMEM_PROCESS_TEST_SECRET", "hunter2", 1), 0);
  SpawnSpec own;
  own.environment = {"ONLY=this"};
  own.inherit_environment = false;
  auto child = start("env | sort | tr '\\n' ' '; echo", own);
  SpawnSpec inherited;
  inherited.environment = {"ONLY=that"};
  auto merged = start("echo $KMEM_PROCESS_TEST_SECRET $ONLY", inherited);
  unsetenv("KMEM_PROCESS_TEST_SECRET");
  ASSERT_TRUE(child && merged);
  std::string line;
  ASSERT_EQ(child->read_line(Clock::now() + std::chrono::seconds(10), line), ChildProcess::Read::kLine);
  EXPECT_EQ(line.find("KMEM_PROCESS_TEST_SECRET"), std::string::npos) << line;
  EXPECT_NE(line.find("ONLY=this"), std::string::npos) << line;
  ASSERT_EQ(merged->read_line(Clock::now() + std::chrono::seconds(10), line), ChildProcess::Read::kLine);
  EXPECT_EQ(line, "hunter2 that");
}

}  // namespace
}  // namespace kmem::eval
