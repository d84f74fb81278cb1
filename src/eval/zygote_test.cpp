// The zygote forks workers that are this process's own children, each in a
// process group of its own and independent of the others (on the CPU: no
// GPU needed).
#include "zygote.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "native_harness.h"
#include "sandbox.h"

namespace kmem::eval {
namespace {

namespace fs = std::filesystem;

bool is_our_child(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

// Whether the read end `fd` reaches its end (every write end closed) within `ms`.
bool ends_within(int fd, int ms) {
  struct pollfd end {
    fd, POLLIN, 0
  };
  return poll(&end, 1, ms) == 1 && (end.revents & (POLLIN | POLLHUP)) != 0;
}

class ZygoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = (fs::temp_directory_path() / "kmem-zygote-XXXXXX").string();
    ASSERT_NE(mkdtemp(folder_.data()), nullptr);
    options_.python = default_python();
    options_.python_dir = KMEM_PYTHON_DIR;
    options_.cache_dir = folder_;
    run_dir_ = folder_ + "/work/run-test";
    fs::create_directories(run_dir_);
    options_.sandbox = !find_bwrap().empty();
    // The workers load kmem's native harness as they warm up; the launcher
    // builds it before it starts a zygote, so the tests that start one
    // directly do too (when another test is building it at the same time,
    // the rename into place keeps both right).
    auto built = build_native_harness(options_, folder_ + "/harness.log");
    ASSERT_TRUE(built) << built.error().message();
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::string folder_, run_dir_;
  EvalOptions options_;
};

TEST_F(ZygoteTest, ForksWorkersThatAreOurChildrenInGroupsOfTheirOwn) {
  auto zygote = Zygote::start("candidate", options_, run_dir_, folder_ + "/zygote.log", {});
  ASSERT_TRUE(zygote) << zygote.error().message();
  auto first = (*zygote)->fork_worker(folder_ + "/first.log", {}, ContextBaton());
  auto second = (*zygote)->fork_worker(folder_ + "/second.log", {}, ContextBaton());
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
  auto second_status = (*second)->kill_and_reap();
  EXPECT_TRUE(second_status.signaled) << "the second worker " << second_status.describe()
                                      << " before it was killed; its log:\n"
                                      << read_tail(folder_ + "/second.log", 4096) << "\nthe zygote's log:\n"
                                      << read_tail(folder_ + "/zygote.log", 4096);
}

TEST_F(ZygoteTest, AWorkerSetsUpOnlyOnceTheWorkerBeforeItHas) {
  auto zygote = Zygote::start("candidate", options_, run_dir_, folder_ + "/zygote.log", {});
  ASSERT_TRUE(zygote) << zygote.error().message();
  ContextRelay relay(1);
  auto setting_up = relay.next();  // held here: a worker still setting up
  ASSERT_TRUE(setting_up) << setting_up.error().message();
  auto worker = [&] {
    auto baton = relay.next();
    EXPECT_TRUE(baton) << baton.error().message();
    return (*zygote)->fork_worker(folder_ + "/worker.log", {}, *baton);
  }();
  ASSERT_TRUE(worker) << worker.error().message();
  auto after_worker = relay.next();  // its `after` ends when the worker is set up
  ASSERT_TRUE(after_worker) << after_worker.error().message();
  EXPECT_FALSE(ends_within(after_worker->after(), 1000)) << "set up before the baton reached it";
  { ContextBaton done = std::move(*setting_up); }  // the one before it is set up
  EXPECT_TRUE(ends_within(after_worker->after(), 60'000)) << "never set up";
  EXPECT_TRUE((*worker)->kill_and_reap().signaled);
}

// The environment a process started with, from /proc.
std::string environment_of(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
  std::string entries((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::replace(entries.begin(), entries.end(), '\0', '\n');
  return "\n" + entries;
}

TEST_F(ZygoteTest, CudaWorkersGetTheWorkQueuesAsked) {
  options_.device = "cuda";  // no GPU needed: only the environment is looked at
  options_.tuning.device_connections = 3;
  auto zygote = Zygote::start("reference", options_, run_dir_, folder_ + "/zygote.log", {});
  ASSERT_TRUE(zygote) << zygote.error().message();
  auto worker = (*zygote)->fork_worker(folder_ + "/worker.log", {}, ContextBaton());
  ASSERT_TRUE(worker) << worker.error().message();
  EXPECT_NE(environment_of((*worker)->pid()).find("\nCUDA_DEVICE_MAX_CONNECTIONS=3\n"), std::string::npos);
  EXPECT_TRUE((*worker)->kill_and_reap().signaled);
}

}  // namespace
}  // namespace kmem::eval
