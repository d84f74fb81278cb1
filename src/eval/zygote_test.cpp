// The zygote forks workers that are this process's own children, each in a
// process group of its own and independent of the others (on the CPU: no
// GPU needed).
#include "zygote.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace kmem::eval {
namespace {

namespace fs = std::filesystem;

bool is_our_child(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

TEST(Zygote, ForksWorkersThatAreOurChildrenInGroupsOfTheirOwn) {
  std::string folder = (fs::temp_directory_path() / "kmem-zygote-XXXXXX").string();
  ASSERT_NE(mkdtemp(folder.data()), nullptr);
  EvalOptions options;
  options.python = default_python();
  options.python_dir = KMEM_PYTHON_DIR;
  options.cache_dir = folder;
  auto zygote = Zygote::start("candidate", options, folder + "/zygote.log", {});
  ASSERT_TRUE(zygote) << zygote.error().message();
  auto first = (*zygote)->fork_worker(folder + "/first.log", {});
  auto second = (*zygote)->fork_worker(folder + "/second.log", {});
  ASSERT_TRUE(first) << first.error().message();
  ASSERT_TRUE(second) << second.error().message();
  pid_t a = (*first)->pid(), b = (*second)->pid();
  EXPECT_NE(a, b);
  for (pid_t pid : {a, b}) {
    EXPECT_TRUE(is_our_child(pid)) << pid;
    EXPECT_EQ(getpgid(pid), pid) << pid;
  }
  // Without commands the first ends by itself (code 1: the run never came);
  // the second is not affected.
  (*first)->close_input();
  auto status = (*first)->wait_then_kill(Clock::now() + std::chrono::seconds(60));
  EXPECT_FALSE(status.signaled);
  EXPECT_EQ(status.code, 1);
  EXPECT_EQ(kill(b, 0), 0);
  EXPECT_TRUE((*second)->kill_and_reap().signaled);
  fs::remove_all(folder);
}

}  // namespace
}  // namespace kmem::eval
