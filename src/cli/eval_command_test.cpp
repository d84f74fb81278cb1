// `kmem eval` as a user meets it, on the CPU: bad --jobs/--out and
// `--device cuda` without a GPU are one line and exit 2; a missing candidate
// is a job's verdict (missing_candidate) that --redo runs again, as --redo
// does for an id; the summary covers the whole results file; line numbers of
// a rejected reply are the reply's; and Ctrl-C ends every process kmem
// started (none is left re-parented) with a results file of whole lines.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "command_test_support.h"
#include "interrupt.h"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

using Invocation = kmem::test::CommandOutcome;
using kmem::test::read_whole_file;

std::vector<Json> read_results(const fs::path& path) {
  std::vector<Json> results;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) results.push_back(Json::parse(line));
  return results;
}

class EvalCommand : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = kmem::test::fresh_test_dir("kmem_eval_command_test"); }
  void TearDown() override { fs::remove_all(dir_); }

  // One line of a jobs file, the candidate named relative to dir_.
  std::string job(const std::string& id, const std::string& candidate) const {
    std::string tests = KMEM_EVAL_TESTS_DIR;
    return Json{{"id", id}, {"problem", tests + "/problems/scale_add.py"}, {"candidate", candidate}}.dump() + "\n";
  }
  std::string fixture(const std::string& candidate) const {
    return fs::relative(std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/" + candidate, dir_).string();
  }

  // Options of a quick CPU run; the sandbox is left as the machine has it.
  static std::string quick() {
    return " --device cpu --trials 2 --iters 3 --warmup 1 --cache-dir " KMEM_EVAL_TEST_CACHE " ";
  }

  Invocation kmem(const std::string& arguments, const std::string& environment = "") {
    return kmem::test::run_command(environment + " " + KMEM_BINARY + " eval " + arguments, dir_ / "stderr");
  }

  fs::path dir_;
};

void expect_one_line(const Invocation& run, const std::string& start) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.err.rfind(start, 0), 0u) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

TEST_F(EvalCommand, BadJobsAndResultsPathsAreOneLineAndExitTwo) {
  std::ofstream(dir_ / "jobs.jsonl") << job("a", fixture("mismatch.py"));
  fs::create_directories(dir_ / "folder");
  std::string jobs = (dir_ / "jobs.jsonl").string(), folder = (dir_ / "folder").string();
  expect_one_line(kmem(quick() + "--jobs " + jobs + " --out " + folder),
                  "kmem eval: " + folder + ": is a directory (the results file)");
  expect_one_line(kmem(quick() + "--jobs " + folder + " --out " + (dir_ / "r.jsonl").string()),
                  "kmem eval: " + folder + ": is a directory (the jobs file)");
  expect_one_line(kmem(quick() + "--jobs " + jobs + " --out " + (dir_ / "." / "jobs.jsonl").string()),
                  "kmem eval: --jobs and --out name the same file");
  EXPECT_EQ(read_whole_file(dir_ / "jobs.jsonl"), job("a", fixture("mismatch.py")));
}

TEST_F(EvalCommand, AFifoAsTheProblemAndAGarbageJobsFileAreNamedForWhatTheyAre) {
  std::string fifo = (dir_ / "problem.py").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_one_line(kmem(quick() + "--problem " + fifo + " --candidate " + fixture("mismatch.py")),
                  "kmem eval: " + fifo + ": is a FIFO, not a regular file (given as the problem file)");
  // Garbage: a cut UTF-8 character and control bytes are escaped, never echoed raw.
  std::ofstream(dir_ / "jobs.jsonl", std::ios::binary) << "\xE2\x82\x01garbage\n";
  Invocation garbage =
      kmem(quick() + "--jobs " + (dir_ / "jobs.jsonl").string() + " --out " + (dir_ / "r.jsonl").string());
  expect_one_line(garbage, "kmem eval: " + (dir_ / "jobs.jsonl").string() + ":1:");
  EXPECT_EQ(garbage.err.find('\x01'), std::string::npos) << garbage.err;
  EXPECT_EQ(garbage.err.find("\xE2\x82"), std::string::npos) << garbage.err;
  for (char c : garbage.err.substr(0, garbage.err.size() - 1))
    EXPECT_GE(static_cast<unsigned char>(c), 0x20) << garbage.err;
}

TEST_F(EvalCommand, ResultsNameTheJobsFilesByAbsolutePaths) {
  // kmem ingest reads a results file from any folder: its paths are absolute.
  fs::create_directories(dir_ / "jobs");
  std::ofstream(dir_ / "jobs" / "jobs.jsonl")
      << job("a", fs::relative(std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/mismatch.py", dir_ / "jobs").string());
  Invocation run =
      kmem(quick() + "--jobs " + (dir_ / "jobs" / "jobs.jsonl").string() + " --out " + (dir_ / "r.jsonl").string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto results = read_results(dir_ / "r.jsonl");
  ASSERT_EQ(results.size(), 1u);
  std::string candidate = results[0]["candidate"], problem = results[0]["problem"];
  EXPECT_TRUE(fs::path(candidate).is_absolute()) << candidate;
  EXPECT_TRUE(fs::path(problem).is_absolute()) << problem;
  EXPECT_TRUE(fs::equivalent(candidate, std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/mismatch.py"));
}

TEST_F(EvalCommand, CudaWithoutAGpuIsOneLineUpFront) {
  if (fs::exists("/dev/nvidiactl")) GTEST_SKIP() << "this machine has a GPU";
  std::ofstream(dir_ / "jobs.jsonl") << job("a", fixture("mismatch.py")) << job("b", fixture("shape.py"));
  Invocation run =
      kmem("--device cuda --jobs " + (dir_ / "jobs.jsonl").string() + " --out " + (dir_ / "r.jsonl").string());
  expect_one_line(run, "kmem eval: --device cuda: ");
  EXPECT_FALSE(fs::exists(dir_ / "r.jsonl"));
}

TEST_F(EvalCommand, TuningIsNoOptionAndABadTuningValueIsOneLine) {
  Invocation help = kmem("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* internal : {"--device-setups", "--device-connections", "--reference-workers", "--inputs-by-file"})
    EXPECT_EQ(help.out.find(internal), std::string::npos) << internal;
  EXPECT_NE(help.out.find("KMEM_TUNE_"), std::string::npos) << help.out;
  std::ofstream(dir_ / "jobs.jsonl") << job("a", fixture("mismatch.py"));
  Invocation bad = kmem(quick() + "--jobs " + (dir_ / "jobs.jsonl").string() + " --out " + (dir_ / "r.jsonl").string(),
                        "KMEM_TUNE_REFERENCE_WORKERS=many");
  expect_one_line(bad, "kmem eval: KMEM_TUNE_REFERENCE_WORKERS=many: not a whole number");
}

TEST_F(EvalCommand, AMissingCandidateIsAJobVerdictThatRedoRunsAgain) {
  std::ofstream(dir_ / "jobs.jsonl") << job("a", fixture("mismatch.py")) << job("gone", "later.py");
  std::string batch =
      quick() + "--parallel 2 --jobs " + (dir_ / "jobs.jsonl").string() + " --out " + (dir_ / "r.jsonl").string();
  Invocation first = kmem(batch + " --json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto results = read_results(dir_ / "r.jsonl");
  ASSERT_EQ(results.size(), 2u);
  std::map<std::string, std::string> verdict;
  for (const auto& r : results) verdict[r["id"]] = r["verdict"];
  EXPECT_EQ(verdict["gone"], "missing_candidate");
  EXPECT_NE(results[0]["detail"].get<std::string>().find("later.py"), std::string::npos) << results[0];
  auto summary = Json::parse(first.out);
  EXPECT_EQ(summary["jobs"], 2);
  EXPECT_EQ(summary["verdicts"]["missing_candidate"], 1);
  EXPECT_EQ(summary["correct"], 0);

  // Resumed: nothing runs. --redo by verdict: the candidate now exists.
  fs::copy_file(std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/shape.py", dir_ / "later.py");
  EXPECT_EQ(Json::parse(kmem(batch + " --json").out)["evaluated"], 0);
  Invocation redo = kmem(batch + " --json --redo missing_candidate");
  ASSERT_EQ(redo.exit_code, 0) << redo.err;
  summary = Json::parse(redo.out);
  EXPECT_EQ(summary["evaluated"], 1);
  EXPECT_EQ(summary["skipped"], 1);
  EXPECT_EQ(summary["jobs"], 2);  // the whole file, each job's latest record
  EXPECT_EQ(summary["verdicts"], (Json{{"output_mismatch", 1}, {"shape_mismatch", 1}}));
  results = read_results(dir_ / "r.jsonl");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[2]["id"], "gone");
  EXPECT_EQ(results[2]["verdict"], "shape_mismatch");

  // --redo by id; one that names nothing says so and runs nothing more.
  Invocation by_id = kmem(batch + " --redo a,nothing");
  ASSERT_EQ(by_id.exit_code, 0) << by_id.err;
  EXPECT_NE(by_id.out.find("1 job evaluated in "), std::string::npos) << by_id.out;
  EXPECT_NE(by_id.out.find(" holds 2 jobs: correct 0, fast_1 0\n"), std::string::npos) << by_id.out;
  EXPECT_NE(by_id.err.find("kmem eval: --redo nothing: no job of the results file has this id, verdict or flag"),
            std::string::npos)
      << by_id.err;
  EXPECT_EQ(read_results(dir_ / "r.jsonl").size(), 4u);
}

TEST_F(EvalCommand, ARejectedReplyCountsLinesAsKmemCheckDoes) {
  std::ofstream(dir_ / "reply.md") << "Here is my kernel.\n\n```python\nimport torch\nimport gc\n"
                                      "class ModelNew(torch.nn.Module):\n    pass\n```\n";
  Invocation run = kmem(quick() + "--json --problem " + std::string(KMEM_EVAL_TESTS_DIR) +
                        "/problems/scale_add.py --candidate " + (dir_ / "reply.md").string());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  auto outcome = Json::parse(run.out);
  EXPECT_EQ(outcome["detail"].get<std::string>().rfind("5:8: ", 0), 0u) << outcome["detail"];
}

// Ctrl-C mid-batch: kmem exits 130, no process it started is left (this
// test is their subreaper: any left would be its children now), the results
// file holds whole JSON lines, and the journal of jobs in flight is gone.
TEST_F(EvalCommand, InterruptEndsEveryProcessAndKeepsTheResultsWhole) {
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  std::ofstream jobs(dir_ / "jobs.jsonl");
  jobs << job("quick", fixture("mismatch.py"));
  for (int i = 0; i < 4; ++i) jobs << job("hang" + std::to_string(i), fixture("hang.py"));
  jobs.close();
  fs::path out = dir_ / "r.jsonl";
  pid_t kmem_pid = fork();
  if (kmem_pid == 0) {
    (void)!freopen((dir_ / "stdout").c_str(), "w", stdout);
    (void)!freopen((dir_ / "stderr").c_str(), "w", stderr);
    execl(KMEM_BINARY, KMEM_BINARY, "eval", "--device", "cpu", "--trials", "2", "--iters", "3", "--warmup", "1",
          "--parallel", "2", "--run-timeout", "300", "--cache-dir", KMEM_EVAL_TEST_CACHE, "--jobs",
          (dir_ / "jobs.jsonl").c_str(), "--out", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Mid-batch: the quick job is done and the hanging ones are running.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
  while (read_results(out).empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_FALSE(read_results(out).empty()) << read_whole_file(dir_ / "stderr");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_GE(kmem::cli::living_children(kmem_pid).size(), 2u);  // workers, reference host, zygote
  ASSERT_EQ(kill(kmem_pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(kmem_pid, &status, 0), kmem_pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << status << read_whole_file(dir_ / "stderr");
  EXPECT_NE(read_whole_file(dir_ / "stderr").find("the same command resumes"), std::string::npos);

  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  while (waitpid(-1, nullptr, WNOHANG) > 0) {
  }
  std::vector<pid_t> left = kmem::cli::living_children(getpid());
  EXPECT_EQ(left.size(), 0u) << "processes left behind by kmem";
  for (pid_t pid : left) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
  std::string text = read_whole_file(out);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  for (const auto& result : read_results(out)) EXPECT_TRUE(result.contains("verdict")) << result;
  EXPECT_FALSE(fs::exists(out.string() + ".inflight"));
  prctl(PR_SET_CHILD_SUBREAPER, 0);
}

}  // namespace
