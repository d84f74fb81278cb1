// `kmem worker` and `kmem eval --queue` as processes, on both engines, with
// the real CPU evaluator: a queued batch gives the verdicts a local run
// gives, in the same results format; a worker killed with SIGKILL mid-job
// loses nothing (the job is claimed again when its lease expires) and
// nothing is stored twice; SIGTERM gives the job back; a PostgreSQL restart
// while a worker runs is survived by the worker and the submitter; an
// experiment run with --queue has its episodes evaluated by the workers.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "command_test_support.h"
#include "kmem/queue.h"
#include "kmem/scripted_endpoint.h"
#include "kmem/store.h"
#include "store/test_database.h"

namespace kmem {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using namespace std::chrono_literals;

const std::string kTests = KMEM_EVAL_TESTS_DIR;
const std::string kEvalOptions = " --trials 2 --iters 3 --warmup 1 --cache-dir " KMEM_EVAL_TEST_CACHE " ";

// A process started in a process group of its own, its output in a log file.
class Process {
 public:
  Process(const std::string& command_line, fs::path log) : log_(std::move(log)) {
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      execl("/bin/sh", "sh", "-c", ("exec " + command_line).c_str(), nullptr);
      _exit(127);
    }
  }
  ~Process() {
    if (pid_ > 0 && !exited_) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  void signal(int sig) { kill(sig == SIGKILL ? -pid_ : pid_, sig); }
  // The exit status (128 + N for signal N), or -1 when still running after `timeout`.
  int wait(std::chrono::seconds timeout) {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(100ms);
    }
    return -1;
  }
  std::string log() const { return test::read_whole_file(log_); }
  // Waits until the log holds `text`; false after `timeout`.
  bool wait_for(const std::string& text, std::chrono::seconds timeout) const {
    auto until = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < until) {
      if (log().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
  bool exited_ = false;
};

// id -> record of a results file.
std::map<std::string, Json> results_of(const fs::path& path, size_t* lines = nullptr) {
  std::map<std::string, Json> out;
  std::istringstream text(test::read_whole_file(path));
  size_t count = 0;
  for (std::string line; std::getline(text, line); ++count) {
    Json j = Json::parse(line);
    out[j["id"].get<std::string>()] = j;
  }
  if (lines != nullptr) *lines = count;
  return out;
}

class WorkerCommandTest : public ::testing::TestWithParam<store::Engine> {
 protected:
  void SetUp() override {
    if (std::string why = store::TestDatabase::unavailable(GetParam()); !why.empty()) GTEST_SKIP() << why;
    db_ = std::make_unique<store::TestDatabase>(GetParam());
    dir_ = db_->scratch();
  }
  // A jobs file of (id, candidate under tests/eval/candidates or a path) on problems/scale_add.py.
  fs::path jobs(const std::vector<std::pair<std::string, std::string>>& entries) {
    fs::path path = dir_ / "jobs.jsonl";
    std::ofstream out(path);
    for (const auto& [id, candidate] : entries)
      out << Json{{"id", id}, {"problem", kTests + "/problems/scale_add.py"}, {"candidate", candidate}}.dump() << "\n";
    return path;
  }
  std::string worker(const std::string& name, const std::string& more = "") {
    return std::string(KMEM_BINARY) + " worker --db '" + db_->url() + "' --device cpu --name " + name +
           " --poll 0.2 --cache-dir " KMEM_EVAL_TEST_CACHE " " + more;
  }
  std::string submit(const fs::path& jobs_file, const fs::path& out) {
    return std::string(KMEM_BINARY) + " eval --jobs " + jobs_file.string() + " --out " + out.string() +
           " --queue --db '" + db_->url() + "'" + kEvalOptions;
  }

  std::unique_ptr<store::TestDatabase> db_;
  fs::path dir_;
};

TEST_P(WorkerCommandTest, AQueuedBatchGivesTheVerdictsOfALocalRun) {
  fs::path file = jobs({{"pass", kTests + "/candidates/pass.py"},
                        {"mismatch", kTests + "/candidates/mismatch.py"},
                        {"shape", kTests + "/candidates/shape.py"}});
  auto local = test::run_command(std::string(KMEM_BINARY) + " eval --device cpu --jobs " + file.string() + " --out " +
                                     (dir_ / "local.jsonl").string() + kEvalOptions,
                                 dir_ / "local.err");
  ASSERT_EQ(local.exit_code, 0) << local.err;
  Process w(worker("w1"), dir_ / "w1.log");
  Process submitter(submit(file, dir_ / "queued.jsonl"), dir_ / "submit.log");
  ASSERT_EQ(submitter.wait(600s), 0) << submitter.log() << w.log();
  EXPECT_NE(submitter.log().find("verdicts:"), std::string::npos) << submitter.log();
  auto a = results_of(dir_ / "local.jsonl"), b = results_of(dir_ / "queued.jsonl");
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  for (const auto& [id, record] : a) {
    EXPECT_EQ(b[id]["verdict"], record["verdict"]) << id << ": " << b[id].dump();
    EXPECT_EQ(b[id]["problem"], record["problem"]) << id;
    EXPECT_EQ(b[id]["candidate"], record["candidate"]) << id;
    EXPECT_EQ(b[id]["correctness"]["trials"], record["correctness"]["trials"]) << id;
  }
  EXPECT_EQ(b["pass"]["verdict"], "pass");
  // SIGTERM: the idle worker stops, saying so.
  w.signal(SIGTERM);
  EXPECT_EQ(w.wait(60s), 128 + SIGTERM);
  EXPECT_NE(w.log().find("stopped"), std::string::npos) << w.log();
}

TEST_P(WorkerCommandTest, AWorkerKilledMidJobLosesNothingAndNothingIsStoredTwice) {
  fs::path file =
      jobs({{"slow", (fs::path(KMEM_TESTDATA) / "slow_build.py").string()}, {"pass", kTests + "/candidates/pass.py"}});
  Process submitter(submit(file, dir_ / "out.jsonl"), dir_ / "submit.log");
  {
    Process doomed(worker("doomed", "--lease 3"), dir_ / "doomed.log");
    ASSERT_TRUE(doomed.wait_for("claimed", 120s)) << doomed.log() << submitter.log();
    std::this_thread::sleep_for(2s);  // mid-job: the candidate is building
    doomed.signal(SIGKILL);
    EXPECT_EQ(doomed.wait(30s), 128 + SIGKILL);
    EXPECT_EQ(doomed.log().find("stored"), std::string::npos) << doomed.log();
  }
  Process survivor(worker("survivor", "--lease 3"), dir_ / "survivor.log");
  ASSERT_EQ(submitter.wait(600s), 0) << submitter.log() << survivor.log();
  size_t lines = 0;
  auto results = results_of(dir_ / "out.jsonl", &lines);
  EXPECT_EQ(lines, 2u);  // one outcome per job
  EXPECT_EQ(results["pass"]["verdict"], "pass") << results["pass"].dump();
  EXPECT_NE(results["slow"]["verdict"], "evaluator_error") << results["slow"].dump();
  auto queue = JobQueue::open(db_->url());
  ASSERT_TRUE(queue) << queue.error().message();
  auto job = (*queue)->jobs({1});
  ASSERT_TRUE(job) << job.error().message();
  EXPECT_EQ(job->at(0).state, JobState::kDone);
  EXPECT_EQ(job->at(0).lease_owner, "survivor");  // claimed again after the doomed worker's lease
  EXPECT_EQ(job->at(0).attempts, 2);
  survivor.signal(SIGTERM);
  EXPECT_EQ(survivor.wait(60s), 128 + SIGTERM);
}

TEST_P(WorkerCommandTest, SigtermGivesTheJobBackAtOnce) {
  fs::path file = jobs({{"slow", (fs::path(KMEM_TESTDATA) / "slow_build.py").string()}});
  Process submitter(submit(file, dir_ / "out.jsonl"), dir_ / "submit.log");
  {
    Process first(worker("first", "--lease 600"), dir_ / "first.log");
    ASSERT_TRUE(first.wait_for("claimed", 120s)) << first.log();
    first.signal(SIGTERM);
    EXPECT_EQ(first.wait(60s), 128 + SIGTERM);
    EXPECT_NE(first.log().find("given back to the queue"), std::string::npos) << first.log();
  }
  // Its lease was 600 s: only the release lets this one have the job now.
  Process second(worker("second", "--lease 600 --exit-when-idle"), dir_ / "second.log");
  ASSERT_EQ(submitter.wait(600s), 0) << submitter.log() << second.log();
  EXPECT_EQ(second.wait(60s), 0) << second.log();
  EXPECT_EQ(results_of(dir_ / "out.jsonl").size(), 1u);
}

// `kmem experiment run --queue`: each episode's SUBMIT is a job of the
// database's queue, evaluated by a worker; the episodes are stored with the
// worker's verdicts, and the queue holds the experiment's jobs, all done.
TEST_P(WorkerCommandTest, AQueuedExperimentIsEvaluatedByTheWorkers) {
  fs::create_directories(dir_ / "kb" / "level1");
  fs::copy_file(kTests + "/problems/scale_add.py", dir_ / "kb/level1/1_Scale_add.py");
  Script script;
  script.mode = "turns";
  ScriptedReply reply;
  reply.content = "```python\n" + test::read_whole_file(kTests + "/candidates/pass.py") + "```\nACTION: SUBMIT\n";
  script.replies.push_back(reply);
  auto endpoint = ScriptedEndpoint::start(std::move(script));
  ASSERT_TRUE(endpoint) << endpoint.error().message();
  fs::path spec = dir_ / "spec.json";
  std::ofstream(spec) << Json{{"format", "kmem-experiment/1"},
                              {"name", "queued"},
                              {"kernelbench", (dir_ / "kb").string()},
                              {"problems", {"level1"}},
                              {"policies", {"none", "show_all"}},
                              {"samples", 2},
                              {"max_turns", 1},
                              {"concurrency", 2},
                              {"device", "cpu"},
                              {"readers", {{{"id", "r"}, {"endpoint", (*endpoint)->base_url()}, {"model", "m"}}}}}
                             .dump();
  Process w(worker("w1"), dir_ / "w1.log");
  Process run(std::string(KMEM_BINARY) + " experiment run " + spec.string() + " --db '" + db_->url() +
                  "' --queue --quiet --work-dir " + (dir_ / "work").string() + " --cache-dir " KMEM_EVAL_TEST_CACHE,
              dir_ / "run.log");
  ASSERT_EQ(run.wait(600s), 0) << run.log() << w.log();
  auto queue = JobQueue::open(db_->url());
  ASSERT_TRUE(queue) << queue.error().message();
  auto jobs = (*queue)->batch("experiment:queued");
  ASSERT_TRUE(jobs) << jobs.error().message();
  ASSERT_EQ(jobs->size(), 4u);  // 1 problem x 2 policies x 2 samples, one SUBMIT each
  for (const auto& job : *jobs) EXPECT_EQ(job.state, JobState::kDone) << job.error;
  EXPECT_NE(w.log().find("claimed"), std::string::npos) << w.log();
  auto db = Database::open(db_->url());
  ASSERT_TRUE(db) << db.error().message();
  auto episodes = db->experiment_episodes("queued");
  ASSERT_TRUE(episodes) << episodes.error().message();
  ASSERT_EQ(episodes->size(), 4u);
  for (const auto& episode : *episodes) {
    EXPECT_TRUE(episode.submitted);
    EXPECT_TRUE(episode.correct) << episode.end << " " << episode.error;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, WorkerCommandTest,
                         ::testing::Values(store::Engine::kSqlite, store::Engine::kPostgres), store::engine_name);

// The worker reads the KMEM_TUNE_* variables as every evaluating command
// does (a worker that ignored KMEM_TUNE_COMPILE_BASELINE=0 timed torch.compile
// baselines that a local `kmem eval` beside it left out); a bad value is one
// line and exit 2, before any database is opened.
TEST(WorkerTuningTest, ABadTuningValueIsRefusedBeforeTheQueueIsOpened) {
  fs::path dir = fs::temp_directory_path() / ("kmem-worker-tuning-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto bad = test::run_command("KMEM_TUNE_COMPILE_BASELINE=7 " + std::string(KMEM_BINARY) + " worker --db " +
                                   (dir / "never.db").string() + " --device cpu",
                               dir / "err");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("kmem worker: KMEM_TUNE_COMPILE_BASELINE=7: not a whole number from 0 to 1"),
            std::string::npos)
      << bad.err;
  EXPECT_FALSE(fs::exists(dir / "never.db"));
  fs::remove_all(dir);
}

// A PostgreSQL restart while a worker evaluates and a submitter waits: both
// reconnect and the outcome is stored once. The server is this test's own
// (scripts/test_postgres.sh), so that no other test sees it go away.
TEST(WorkerRestartTest, WorkersAndSubmittersSurviveADatabaseRestart) {
  if (std::getenv("KMEM_TEST_PG_URL") == nullptr)
    GTEST_SKIP() << "no PostgreSQL server binaries in use: KMEM_TEST_PG_URL (scripts/test.sh)";
  const std::string script = std::string(KMEM_SOURCE_DIR) + "/scripts/test_postgres.sh";
  fs::path dir = test::fresh_test_dir("kmem_pg_restart");
  const std::string server = (dir / "server").string();
  auto started = test::run_command(script + " start " + server, dir / "start.err");
  struct Stop {  // the server, then the test's folder
    std::string command;
    fs::path dir;
    ~Stop() {
      (void)std::system(command.c_str());
      fs::remove_all(dir);
    }
  } stop{script + " stop " + server + " >/dev/null 2>&1", dir};
  ASSERT_EQ(started.exit_code, 0) << started.err;
  const std::string marker = "KMEM_TEST_PG_URL='";
  size_t from = started.out.find(marker);
  ASSERT_NE(from, std::string::npos) << started.out;
  from += marker.size();
  const std::string url = started.out.substr(from, started.out.find('\'', from) - from);
  fs::path file = dir / "jobs.jsonl";
  std::ofstream(file) << Json{{"id", "slow"},
                              {"problem", kTests + "/problems/scale_add.py"},
                              {"candidate", (fs::path(KMEM_TESTDATA) / "slow_build.py").string()}}
                             .dump()
                      << "\n";
  Process submitter(std::string(KMEM_BINARY) + " eval --jobs " + file.string() + " --out " +
                        (dir / "out.jsonl").string() + " --queue --db '" + url + "'" + kEvalOptions,
                    dir / "submit.log");
  Process w(std::string(KMEM_BINARY) + " worker --db '" + url +
                "' --device cpu --name w --lease 30 --cache-dir " KMEM_EVAL_TEST_CACHE,
            dir / "w.log");
  ASSERT_TRUE(w.wait_for("claimed", 120s)) << w.log();
  auto restart = test::run_command(script + " restart " + server, dir / "restart.err");
  ASSERT_EQ(restart.exit_code, 0) << restart.err;
  ASSERT_EQ(submitter.wait(600s), 0) << submitter.log() << w.log();
  EXPECT_NE(w.log().find("stored"), std::string::npos) << w.log();
  EXPECT_EQ(results_of(dir / "out.jsonl").size(), 1u);
  w.signal(SIGTERM);
  EXPECT_EQ(w.wait(60s), 128 + SIGTERM);
}

}  // namespace
}  // namespace kmem
