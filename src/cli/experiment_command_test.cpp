// Tests of `kmem experiment`: a run killed with SIGKILL mid-way resumes to
// exactly the matrix (no episode lost, none repeated); an interrupted run
// exits 130 and says how to resume; `experiment list`; bad input (unknown
// policy or problem, unreachable endpoint) is one line naming it, exit 2,
// and leaves the stored episodes as they were; the report prints.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kmem/scripted_endpoint.h"
#include "kmem/store.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;

const std::string kKmem = KMEM_BINARY;
const std::string kKernelBench = std::string(KMEM_CATALOG_TESTDATA) + "/kernelbench";

struct Ran {
  int code;
  std::string out, err;
};

// Runs kmem with `args`, stdout and stderr into files of `dir`.
Ran run_kmem(const fs::path& dir, const std::string& args) {
  std::string command = kKmem + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
  int status = std::system(command.c_str());
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  return {WEXITSTATUS(status), slurp(dir / "out"), slurp(dir / "err")};
}

class ExperimentCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kmem-experiment-cmd-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    Script script;
    script.mode = "turns";
    script.latency_s = 0.25;
    ScriptedReply reply;
    reply.content = "I would rather not write code.";  // no action: the one-turn budget ends it
    script.replies.push_back(reply);
    auto started = ScriptedEndpoint::start(std::move(script));
    ASSERT_TRUE(started) << started.error().message();
    endpoint = std::move(*started);
    db = (dir / "kmem.db").string();
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string write_spec(const std::string& policies, const std::string& problems, const std::string& url) {
    fs::path spec = dir / "spec.json";
    std::ofstream(spec) << R"({"format": "kmem-experiment/1", "name": "kill", "kernelbench": ")" << kKernelBench
                        << R"(", "problems": )" << problems << R"(, "policies": )" << policies
                        << R"(, "samples": 3, "max_turns": 1, "concurrency": 2,
                              "readers": [{"id": "r", "endpoint": ")"
                        << url << R"(", "model": "m", "retries": 0}]})";
    return spec.string();
  }

  size_t stored() {
    auto opened = Database::open_existing(db);
    if (!opened) return 0;
    auto keys = opened->recorded_episodes("kill");
    return keys ? keys->size() : 0;
  }

  fs::path dir;
  std::unique_ptr<ScriptedEndpoint> endpoint;
  std::string db;
};

TEST_F(ExperimentCommand, KilledRunResumesWithoutLossOrRepeat) {
  std::string spec = write_spec(R"(["none", "show_all"])", R"(["level1"])", endpoint->base_url());
  const size_t total = 4 * 2 * 3;  // level1 has 4 problems
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(kKmem.c_str(), kKmem.c_str(), "experiment", "run", spec.c_str(), "--db", db.c_str(), "--work-dir",
          (dir / "work").c_str(), nullptr);
    _exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (stored() < 4 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  size_t before = stored();
  ASSERT_GE(before, 4u);
  ASSERT_LT(before, total) << "the run ended before it was killed";
  size_t requests_before = endpoint->requests().size();

  Ran resumed = run_kmem(dir, "experiment run " + spec + " --db " + db + " --work-dir " + (dir / "work").string());
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(stored(), total);
  // Only the episodes left were asked for (one request each; POSTs only).
  size_t posts = 0;
  auto all = endpoint->requests();
  for (size_t i = requests_before; i < all.size(); ++i) posts += all[i].path.ends_with("/chat/completions") ? 1 : 0;
  EXPECT_EQ(posts, total - before);
  std::string left = std::to_string(total - before);
  EXPECT_NE(resumed.out.find("episodes " + left + "/" + left + " (+" + std::to_string(before) + " stored before)"),
            std::string::npos)
      << resumed.out;

  Ran report = run_kmem(dir, "experiment report kill --db " + db + " --json --html " + (dir / "r.html").string());
  ASSERT_EQ(report.code, 0) << report.err;
  EXPECT_NE(report.out.find("\"episodes\": 12"), std::string::npos) << report.out;
  std::ifstream html(dir / "r.html");
  std::string page(std::istreambuf_iterator<char>(html), {});
  EXPECT_NE(page.find("const REPORT = "), std::string::npos);
  EXPECT_NE(page.find("Chart.js v"), std::string::npos) << "Chart.js is not inlined";
  Ran no_chart = run_kmem(dir, "experiment report kill --db " + db + " --html x.html --chart-js /nonexistent.js");
  EXPECT_EQ(no_chart.code, 2);
  EXPECT_NE(no_chart.err.find("/nonexistent.js"), std::string::npos) << no_chart.err;
}

TEST_F(ExperimentCommand, OneInterruptFinishesTheEpisodesInFlightASecondEndsAtOnceStoringNoneCutShort) {
  Script slow;
  slow.mode = "turns";
  slow.latency_s = 3;
  ScriptedReply reply;
  reply.content = "No code today.";
  slow.replies.push_back(reply);
  auto started = ScriptedEndpoint::start(std::move(slow));
  ASSERT_TRUE(started) << started.error().message();
  std::string spec = write_spec(R"(["none"])", R"(["level1"])", (*started)->base_url());
  auto run = [&] {
    pid_t child = fork();
    if (child == 0) {
      int out = ::open((dir / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, 1);
      dup2(out, 2);
      execl(kKmem.c_str(), kKmem.c_str(), "experiment", "run", spec.c_str(), "--db", db.c_str(), "--work-dir",
            (dir / "work").c_str(), nullptr);
      _exit(127);
    }
    return child;
  };
  auto requests_reach = [&](size_t n) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while ((*started)->requests().size() < n && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return (*started)->requests().size() >= n;
  };

  // One interrupt: the two episodes in flight finish and are stored, no new
  // one starts; the run is incomplete, so it exits 130 and says how to resume.
  pid_t child = run();
  ASSERT_TRUE(requests_reach(2));
  ::kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
  EXPECT_EQ(stored(), 2u);
  {
    std::ifstream out(dir / "out");
    std::string said(std::istreambuf_iterator<char>(out), {});
    EXPECT_NE(said.find("episodes left; finished episodes are kept in " + db + "; resume with the same command"),
              std::string::npos)
        << said;
  }
  Ran listed = run_kmem(dir, "experiment list --results " + db + " --json");
  EXPECT_EQ(listed.code, 0) << listed.err;
  EXPECT_NE(listed.out.find("\"experiment\": \"kill\""), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("\"episodes\": 2"), std::string::npos) << listed.out;

  // Two: kmem ends at once with 130, and the episodes it cut short are not stored.
  size_t asked = (*started)->requests().size();
  child = run();
  ASSERT_TRUE(requests_reach(asked + 2));
  ::kill(child, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(child, SIGINT);
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status;
  EXPECT_EQ(stored(), 2u);
  std::ifstream out(dir / "out");
  std::string said(std::istreambuf_iterator<char>(out), {});
  EXPECT_NE(said.find("the same command resumes"), std::string::npos) << said;
}

TEST_F(ExperimentCommand, BadInputIsOneLineAndKeepsTheStore) {
  std::string good = write_spec(R"(["none"])", R"(["L1_019"])", endpoint->base_url());
  ASSERT_EQ(run_kmem(dir, "experiment run " + good + " --db " + db).code, 0);
  ASSERT_EQ(stored(), 3u);

  auto expect_refused = [&](const std::string& spec, const std::string& words) {
    Ran r = run_kmem(dir, "experiment run " + spec + " --db " + db);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(stored(), 3u);
  };
  expect_refused(write_spec(R"(["none", "no_such_policy"])", R"(["L1_019"])", endpoint->base_url()),
                 "unknown policy 'no_such_policy'");
  expect_refused(write_spec(R"(["none"])", R"(["L1_999"])", endpoint->base_url()), "problem 'L1_999'");
  expect_refused(write_spec(R"(["none"])", R"(["L1_019"])", "http://127.0.0.1:1/v1"),
                 "endpoint http://127.0.0.1:1/v1/models: unreachable");
  Ran missing = run_kmem(dir, "experiment report nope --db " + db);
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("no experiment 'nope'"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace kmem
