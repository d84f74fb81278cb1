// Candidates that attack the orchestrator, leave processes behind, touch the
// cache or other jobs' files, read the machine's files (/etc/shadow, home
// folders, folders outside the job), work outside their scratch folder,
// leave files in /dev/shm, write the kernel's settings, or reach the network (tests/eval/candidates/
// sandbox/), run in one batch in the sandbox: the batch ends with an outcome
// for each, no attack reports success (LEAK), no process and no /dev/shm
// file is left, and the cache's files are as they were. Skipped where the
// sandbox cannot start.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "eval_fixture.h"

namespace kmem::test {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A listening socket of `family` bound to `address`; -1 on failure.
int listener(int family, const sockaddr* address, socklen_t size) {
  int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, address, size) != 0 || listen(fd, 8) != 0) return -1;
  return fd;
}

// Processes of this machine whose command line holds `needle` (NUL-separated).
std::vector<std::string> processes_with(const std::string& needle) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string line = read_all(entry.path() / "cmdline");
    if (line.find(needle) != std::string::npos) found.push_back(name);
  }
  return found;
}

TEST(Sandbox, AttacksOnTheOrchestratorTheCacheAndTheNetworkFail) {
  EvalOptions options = test_options("cpu");
  if (auto available = sandbox_available(options); !available) GTEST_SKIP() << available.error().message();
  options.parallel = 3;
  // Outside /tmp, like ~/.cache/kmem: the sandbox must hide it of itself.
  std::string cache = std::string(KMEM_EVAL_TEST_CACHE) + "-sandbox-XXXXXX";
  ASSERT_NE(mkdtemp(cache.data()), nullptr);
  options.cache_dir = cache;
  fs::create_directories(cache + "/reference");
  const std::string sentinel = cache + "/reference/sentinel.json", stored = "{\"reference_ms\": 1.0}";
  std::ofstream(sentinel) << stored;

  sockaddr_in tcp{};
  tcp.sin_family = AF_INET;
  tcp.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int tcp_fd = listener(AF_INET, reinterpret_cast<sockaddr*>(&tcp), sizeof tcp);
  socklen_t size = sizeof tcp;
  ASSERT_EQ(getsockname(tcp_fd, reinterpret_cast<sockaddr*>(&tcp), &size), 0);
  std::string abstract_name = "kmem-sandbox-test-" + std::to_string(getpid());
  sockaddr_un abstract{};
  abstract.sun_family = AF_UNIX;
  std::memcpy(abstract.sun_path + 1, abstract_name.data(), abstract_name.size());
  int abstract_fd = listener(AF_UNIX, reinterpret_cast<sockaddr*>(&abstract),
                             static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + abstract_name.size()));
  std::string socket_path =
      (fs::temp_directory_path() / ("kmem-sandbox-" + std::to_string(getpid()) + ".sock")).string();
  sockaddr_un path{};
  path.sun_family = AF_UNIX;
  std::strncpy(path.sun_path, socket_path.c_str(), sizeof path.sun_path - 1);
  int path_fd = listener(AF_UNIX, reinterpret_cast<sockaddr*>(&path), sizeof path);
  ASSERT_GE(tcp_fd, 0);
  ASSERT_GE(abstract_fd, 0);
  ASSERT_GE(path_fd, 0);
  setenv("KMEM_SANDBOX_TEST_PORT", std::to_string(ntohs(tcp.sin_port)).c_str(), 1);
  setenv("KMEM_SANDBOX_TEST_ABSTRACT", abstract_name.c_str(), 1);
  setenv("KMEM_SANDBOX_TEST_SOCKET", socket_path.c_str(), 1);
  // Secrets outside the job: beside the build (another project's tree, as
  // the sandbox sees it) and, where this user may write there, under /home.
  std::vector<std::string> secrets;
  for (auto [variable, folder] : {std::pair{"KMEM_SANDBOX_TEST_TREE_SECRET", fs::path(cache).parent_path()},
                                  std::pair{"KMEM_SANDBOX_TEST_HOME_SECRET", fs::path("/home")}}) {
    std::string secret = (folder / ("kmem-sandbox-secret-" + std::to_string(getpid()))).string();
    std::error_code ec;
    if (!fs::create_directories(secret, ec)) continue;
    std::ofstream(secret + "/secret.txt") << "secret";
    secrets.push_back(secret);
    setenv(variable, (secret + "/secret.txt").c_str(), 1);
  }
  ASSERT_FALSE(secrets.empty());

  std::vector<EvalJob> jobs;
  for (const auto& entry : fs::directory_iterator(fixture_path("candidates/sandbox")))
    if (entry.path().extension() == ".py")
      jobs.push_back({entry.path().stem(), fixture_path("problems/scale_add.py"), entry.path()});
  ASSERT_GE(jobs.size(), 18u);
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_batch(jobs, options, [&](const EvalOutcome& outcome) { outcomes[outcome.job.id] = outcome; });

  EXPECT_EQ(outcomes.size(), jobs.size());
  for (const auto& [id, outcome] : outcomes) {
    std::string said = outcome.message + outcome.detail + outcome.log;
    EXPECT_EQ(said.find("LEAK"), std::string::npos) << id << ": " << outcome.verdict << "\n" << said;
    EXPECT_NE(outcome.verdict, "evaluator_error") << id << ": " << said;
  }
  // The candidates that look at files do so as they are imported and are
  // honest otherwise: each ran to its verdict on its outputs (no custom
  // kernel), so its look found nothing, in a root where torch still works.
  for (const char* id : {"read_etc_shadow", "read_home_dotfiles", "read_outside_folders", "working_directory",
                         "dev_shm_writes", "write_kernel_settings"})
    EXPECT_EQ(outcomes[id].verdict, "no_custom_kernel") << id << ": " << outcomes[id].detail << outcomes[id].log;
  for (const char* sleeper : {"sleep\0"
                              "4241",
                              "sleep\0"
                              "4242",
                              "sleep\0"
                              "4243"})
    EXPECT_TRUE(processes_with(std::string(sleeper, 10)).empty()) << "left running: " << sleeper;
  for (const auto& entry : fs::directory_iterator("/dev/shm"))
    EXPECT_NE(entry.path().filename().string().rfind("kmem-sandbox-test", 0), 0u)
        << "left in /dev/shm: " << entry.path();
  EXPECT_EQ(read_all(sentinel), stored);
  EXPECT_FALSE(fs::exists(cache + "/reference/forged.json"));
  for (const char* folder : {"/builds/planted", "/torch_extensions/planted", "/triton/planted"})
    EXPECT_FALSE(fs::exists(cache + folder)) << folder;
  for (int fd : {tcp_fd, abstract_fd, path_fd}) close(fd);
  fs::remove(socket_path);
  for (const std::string& secret : secrets) fs::remove_all(secret);
  fs::remove_all(cache);
}

}  // namespace
}  // namespace kmem::test
