// The candidates' minimal root: which of the probe's paths are bound, what
// bubblewrap is told, the environment a candidate sees, and the probe's own
// answer on this machine.
#include "sandbox_root.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "sandbox.h"

namespace kmem::eval {
namespace {

namespace fs = std::filesystem;

bool has(const std::vector<std::string>& argv, std::initializer_list<std::string> run) {
  return std::search(argv.begin(), argv.end(), run.begin(), run.end()) != argv.end();
}

class SandboxRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::path(::testing::TempDir()) / ("kmem-root-" + std::to_string(getpid()));
    fs::create_directories(base_ / "opt/python/lib/site-packages");
    fs::create_directories(base_ / "cache/work/run-1");
  }
  void TearDown() override { fs::remove_all(base_); }
  std::string at(const std::string& relative) const { return (base_ / relative).string(); }
  fs::path base_;
};

TEST_F(SandboxRootTest, ChoosesTheInstallationsFoldersNotTheirParentsTheCacheOrSystemFolders) {
  std::vector<std::string> found{
      at("opt/python/lib/site-packages"),  // covered by its parent, found later
      at("opt/python") + "/",              // the installation's prefix
      at("cache/work"),                    // holds the scratch: the cache's own
      at("cache"),                         // the cache
      base_.string(),                      // holds the cache
      "/",                                 // the whole machine
      "/root",
      "/home",
      "/etc",
      "/tmp",      // top-level folders
      "/usr/lib",  // under /usr, bound whole
      "/proc/self",
      "/sys/kernel",
      "/dev/shm",
      at("opt/missing"),  // does not exist
      "relative/path",
  };
  auto chosen = chosen_paths(found, {at("cache"), at("cache/work/run-1")});
  EXPECT_EQ(chosen, std::vector<std::string>{at("opt/python")});
}

TEST_F(SandboxRootTest, TheRootBindsSystemFoldersReadOnlyAndNeverTheWholeMachine) {
  EvalOptions options;
  options.device = "cpu";
  options.cache_dir = at("cache");
  SandboxRoot root{"/usr/bin/python3", {at("opt/python"), "/", "/root"}, {}};
  auto argv = root_arguments(root, options, at("cache/work/run-1"));
  ASSERT_TRUE(argv) << argv.error().message();
  EXPECT_FALSE(has(*argv, {"--ro-bind", "/", "/"}));
  EXPECT_FALSE(has(*argv, {"--dev-bind", "/dev", "/dev"}));
  EXPECT_FALSE(has(*argv, {"--ro-bind", "/root", "/root"}));
  EXPECT_TRUE(has(*argv, {"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(has(*argv, {"--ro-bind", at("opt/python"), at("opt/python")}));
  EXPECT_TRUE(has(*argv, {"--dev", "/dev"}));
  EXPECT_TRUE(has(*argv, {"--tmpfs", "/dev/shm"}));
  if (fs::exists("/etc/ld.so.cache")) {
    EXPECT_TRUE(has(*argv, {"--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"}));
  }
  EXPECT_FALSE(std::count(argv->begin(), argv->end(), "/etc/shadow"));
  // Users and groups are generated: root and the evaluator's own only.
  EXPECT_TRUE(has(*argv, {"--ro-bind", at("cache/work/run-1/passwd"), "/etc/passwd"}));
  std::ifstream passwd(at("cache/work/run-1/passwd"));
  std::string text((std::istreambuf_iterator<char>(passwd)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("root:x:0:0:", 0), 0u) << text;
  EXPECT_LE(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST_F(SandboxRootTest, DevShmAndSystemVIpcAreSharedOnlyForCudaInputsByIpc) {
  EvalOptions options;
  options.cache_dir = at("cache");
  SandboxRoot root{"/usr/bin/python3", {}, {}};
  for (auto [device, ipc, shared] : {std::tuple{"cpu", true, false}, {"cuda", false, false}, {"cuda", true, true}}) {
    options.device = device;
    options.tuning.inputs_by_ipc = ipc;
    EXPECT_EQ(shares_dev_shm(options), shared) << device << " " << ipc;
    auto argv = root_arguments(root, options, at("cache/work/run-1"));
    ASSERT_TRUE(argv);
    EXPECT_EQ(has(*argv, {"--bind", "/dev/shm", "/dev/shm"}), shared) << device << " " << ipc;
    EXPECT_EQ(has(*argv, {"--tmpfs", "/dev/shm"}), !shared) << device << " " << ipc;
    EXPECT_EQ(std::count(argv->begin(), argv->end(), "--unshare-ipc"), shared ? 0 : 1) << device << " " << ipc;
  }
}

TEST_F(SandboxRootTest, TheProbeReportsThisMachinesInterpreterAndItsPackages) {
  EvalOptions options;
  options.python = "/usr/bin/python3";
  options.python_dir = KMEM_PYTHON_DIR;
  if (!fs::exists(options.python)) GTEST_SKIP() << "no /usr/bin/python3";
  auto root = probe_sandbox_root(options, at("probe.log"));
  ASSERT_TRUE(root) << root.error().message();
  EXPECT_EQ(root->python, options.python);  // as invoked: a venv's link keeps its packages
  EXPECT_FALSE(root->paths.empty());
  for (const std::string& path : root->paths) EXPECT_EQ(path[0], '/') << path;
  EXPECT_FALSE(fs::exists(at("probe.log")));
}

TEST_F(SandboxRootTest, AProbeThatFailsIsAnErrorNamingTheProbe) {
  EvalOptions options;
  options.python = at("no-such-python");
  options.python_dir = KMEM_PYTHON_DIR;
  auto root = probe_sandbox_root(options, at("probe.log"));
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message().find("kmem_worker.sandbox_root"), std::string::npos) << root.error().message();
}

TEST(SandboxEnvironment, ACandidateSeesWhatBuildsAndRunsNeedAndNothingOfTheCallers) {
  std::vector<std::string> caller{"PATH=/usr/bin",
                                  "HOME=/tmp",
                                  "AWS_SECRET_ACCESS_KEY=hunter2",
                                  "OLDPWD=/home/user/project",
                                  "USER=user",
                                  "KMEM_CACHE_DIR=/home/user/.cache/kmem",
                                  "KMEM_API_TOKEN=secret",
                                  "CCACHE_DIR=/home/user/.ccache",
                                  "CC=gcc",
                                  "CXX=ccache g++",
                                  "LC_ALL=C.UTF-8",
                                  "PYTHONPATH=/opt/kmem/python",
                                  "CUDA_VISIBLE_DEVICES=0",
                                  "TORCH_EXTENSIONS_DIR=/tmp/kmem-build/torch_extensions",
                                  "TRITON_CACHE_DIR=/tmp/kmem-build/triton",
                                  "KMEM_SANDBOX_RUN_DIR=/cache/work/run-1",
                                  "KMEM_SECCOMP_CONFINED=/cache/work/run-1/seccomp-confined.bpf"};
  EXPECT_EQ(
      sandbox_visible_environment(caller),
      (std::vector<std::string>{"PATH=/usr/bin", "HOME=/tmp", "CC=gcc", "CXX=ccache g++", "LC_ALL=C.UTF-8",
                                "PYTHONPATH=/opt/kmem/python", "CUDA_VISIBLE_DEVICES=0",
                                "TORCH_EXTENSIONS_DIR=/tmp/kmem-build/torch_extensions",
                                "TRITON_CACHE_DIR=/tmp/kmem-build/triton", "KMEM_SANDBOX_RUN_DIR=/cache/work/run-1",
                                "KMEM_SECCOMP_CONFINED=/cache/work/run-1/seccomp-confined.bpf"}));
}

}  // namespace
}  // namespace kmem::eval
