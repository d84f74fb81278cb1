// The scheduler (evaluate_batch) behind the WorkerLauncher seam, with fake
// workers (fake_worker.h): references prepared once per problem, verdicts of
// crashing, hung, slow, out-of-memory and forging workers, reruns alone
// after running out of memory, strict parsing of trusted records, the
// static rules composed into the library's evaluation, and the crash-loop
// journal written before a job's code runs. No Python, no torch:
// milliseconds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "batch.h"
#include "fake_worker.h"

namespace kmem::eval {
namespace {

namespace fs = std::filesystem;

class Scheduler : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("kmem-scheduler-" + std::to_string(getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    options_.device = "cpu";
    options_.trials = 3;
    options_.warmup = 1;
    options_.iters = 3;
    options_.build_timeout_s = 5;
    options_.run_timeout_s = 0.3;  // a hung fake is given up quickly
    options_.cache_dir = (folder_ / "cache").string();
    options_.sandbox = false;
    options_.static_rules = false;  // fake candidates are no Python
  }
  void TearDown() override { fs::remove_all(folder_); }

  // A candidate file that makes its fake behave as `behaviour`.
  std::string candidate(const std::string& behaviour, const std::string& name = "") {
    auto path = folder_ / ((name.empty() ? behaviour : name) + ".py");
    std::ofstream(path) << "# fake: " << behaviour << "\n";
    return path.string();
  }

  std::map<std::string, EvalOutcome> run(const std::vector<EvalJob>& jobs,
                                         const std::function<void(const EvalJob&)>& on_start = {},
                                         const std::function<void(const EvalJob&)>& on_built = {}) {
    std::map<std::string, EvalOutcome> outcomes;
    evaluate_batch_with(
        [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
        jobs, options_, [&](const EvalOutcome& o) { outcomes[o.job.id] = o; }, on_start, on_built);
    return outcomes;
  }

  // Three jobs of three problems whose references say a run needs 60 MiB
  // (on CUDA), each candidate taking 200 ms to time.
  std::vector<EvalJob> three_slow_runs_of_60_mib() {
    return {{"a", "/p/a_mib60.py", candidate("slow", "a")},
            {"b", "/p/b_mib60.py", candidate("slow", "b")},
            {"c", "/p/c_mib60.py", candidate("slow", "c")}};
  }

  fs::path folder_;
  EvalOptions options_;
  std::shared_ptr<FakeLog> log_ = std::make_shared<FakeLog>();
};

TEST_F(Scheduler, HonestCandidatesPassAndEachProblemIsPreparedOnceAndDropped) {
  std::vector<EvalJob> jobs;
  for (int i = 0; i < 6; ++i)
    jobs.push_back(
        {"j" + std::to_string(i), i % 2 ? "/p/one.py" : "/p/two.py", candidate("pass", "c" + std::to_string(i))});
  options_.parallel = 4;
  auto outcomes = run(jobs);
  ASSERT_EQ(outcomes.size(), 6u);
  for (const auto& [id, o] : outcomes) {
    EXPECT_EQ(o.verdict, "pass") << id << ": " << o.detail;
    EXPECT_DOUBLE_EQ(o.speedup, 4.0);
    EXPECT_EQ(o.flags, std::vector<std::string>{"unsandboxed"});
    EXPECT_EQ(o.job.candidate, (folder_ / ("c" + id.substr(1) + ".py")).string());
  }
  EXPECT_EQ(log_->count("prepare"), 2);
  EXPECT_EQ(log_->count("drop"), 2);
  EXPECT_EQ(log_->count("judge"), 6);
  EXPECT_EQ(log_->count("release"), 6);
  EXPECT_EQ(log_->started["candidate"], 6);
  EXPECT_TRUE(log_->protocol_errors.empty()) << log_->protocol_errors.front();
}

// A feed's jobs join the batch as it runs: the jobs given and those fed
// share the references (a problem prepared once while its jobs keep coming),
// the candidate workers and one pass through the deferred jobs; a job fed
// after its problem's last was done prepares the reference again; a job the
// static rules reject is reported as it comes and never runs.
TEST_F(Scheduler, JobsFedWhileTheBatchRunsJoinItAndShareItsReferences) {
  options_.parallel = 3;
  std::vector<EvalJob> fed;
  for (int i = 0; i < 5; ++i)
    fed.push_back(
        {"f" + std::to_string(i), i % 2 ? "/p/one.py" : "/p/two.py", candidate("pass", "f" + std::to_string(i))});
  std::mutex feeding;
  size_t next = 0;
  int asked_after_last = 0;
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_stream_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"g0", "/p/one.py", candidate("pass", "g0")}},
      [&]() -> std::optional<EvalJob> {
        std::lock_guard hold(feeding);
        if (next < fed.size()) return fed[next++];
        ++asked_after_last;
        return std::nullopt;
      },
      options_, [&](const EvalOutcome& o) { outcomes[o.job.id] = o; });
  ASSERT_EQ(outcomes.size(), 6u);
  for (const auto& [id, o] : outcomes) EXPECT_EQ(o.verdict, "pass") << id << ": " << o.detail;
  EXPECT_EQ(asked_after_last, 1);  // a feed that gave none is not asked again
  EXPECT_EQ(log_->started["candidate"], 6);
  EXPECT_EQ(log_->count("judge"), 6);
  EXPECT_EQ(log_->count("prepare"), log_->count("drop"));
  EXPECT_GE(log_->count("prepare"), 2);
  EXPECT_TRUE(log_->protocol_errors.empty()) << log_->protocol_errors.front();
}

TEST_F(Scheduler, AJobFedAfterItsProblemWasDroppedPreparesItAgain) {
  options_.parallel = 1;
  bool given = false;
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_stream_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"first", "/p/one.py", candidate("pass", "first")}},
      [&]() -> std::optional<EvalJob> {
        if (given) return std::nullopt;
        given = true;
        return EvalJob{"later", "/p/one.py", candidate("pass", "later")};
      },
      options_, [&](const EvalOutcome& o) { outcomes[o.job.id] = o; });
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes["later"].verdict, "pass") << outcomes["later"].detail;
  EXPECT_EQ(log_->count("judge"), 2);
  EXPECT_EQ(log_->count("prepare"), log_->count("drop"));
}

// A job fed whose problem's reference is being prepared is counted without
// waiting for the preparation, so that the feed goes on to jobs of other
// problems, which run meanwhile.
TEST_F(Scheduler, AFedJobOfAnotherProblemRunsWhileAReferenceIsPrepared) {
  options_.parallel = 3;
  std::vector<EvalJob> fed = {{"x1", "/p/reference_slow.py", candidate("pass", "x1")},
                              {"y0", "/p/one.py", candidate("pass", "y0")}};
  size_t next = 0;
  std::map<std::string, EvalOutcome> outcomes;
  std::map<std::string, double> reported_after;  // seconds from the start
  auto started = std::chrono::steady_clock::now();
  evaluate_stream_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"x0", "/p/reference_slow.py", candidate("pass", "x0")}},
      [&]() -> std::optional<EvalJob> {
        // The first answer comes once the slow reference is being prepared
        // (for x0, the job given).
        for (int waited = 0; next == 0 && log_->count("prepare") == 0 && waited < 200; ++waited)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (next < fed.size()) return fed[next++];
        return std::nullopt;
      },
      options_,
      [&](const EvalOutcome& o) {
        outcomes[o.job.id] = o;
        reported_after[o.job.id] = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      });
  ASSERT_EQ(outcomes.size(), 3u);
  for (const auto& [id, o] : outcomes) EXPECT_EQ(o.verdict, "pass") << id << ": " << o.detail;
  // The slow reference takes half a second to prepare: y0 was done before.
  EXPECT_LT(reported_after["y0"], 0.5) << ::testing::PrintToString(reported_after);
  EXPECT_GE(reported_after["x0"], 0.5) << ::testing::PrintToString(reported_after);
  EXPECT_EQ(log_->count("prepare"), 2);
}

TEST_F(Scheduler, AFedJobTheStaticRulesRejectIsReportedAndNeverRuns) {
  options_.static_rules = true;
  std::ofstream(folder_ / "thread.py") << "import threading\nthreading.Thread(target=print).start()\n";
  bool given = false;
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_stream_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); }, {},
      [&]() -> std::optional<EvalJob> {
        if (given) return std::nullopt;
        given = true;
        return EvalJob{"threads", "/p/one.py", (folder_ / "thread.py").string()};
      },
      options_, [&](const EvalOutcome& o) { outcomes[o.job.id] = o; });
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_NE(outcomes["threads"].verdict, "pass");
  EXPECT_NE(outcomes["threads"].verdict, "evaluator_error") << outcomes["threads"].detail;
  EXPECT_EQ(log_->started["candidate"], 0);
}

// The compile baseline: asked for, it is measured once per problem by a
// worker of its own (`baseline`), and its time and the speedup over it reach
// every outcome of the problem; by default on the CPU it is not asked for.
TEST_F(Scheduler, TheCompileBaselineReachesTheOutcomesWhenAskedFor) {
  auto by_default = run({{"plain", "/p/one.py", candidate("pass", "plain")}});
  EXPECT_FALSE(by_default["plain"].compile_ms);
  EXPECT_FALSE(by_default["plain"].speedup_vs_compile);
  EXPECT_EQ(log_->count("baseline"), 0);
  options_.compile_baseline = true;
  options_.parallel = 3;
  auto outcomes = run({{"fast", "/p/two.py", candidate("pass", "fast")},
                       {"wrong", "/p/two.py", candidate("mismatch", "wrong")},
                       {"again", "/p/two.py", candidate("pass", "again")},
                       {"none", "/p/no_compile.py", candidate("pass", "none")}});
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(log_->count("baseline"), 2);  // once per problem, not per job
  EXPECT_FALSE(outcomes["none"].compile_ms);
  EXPECT_FALSE(outcomes["none"].speedup_vs_compile);
  ASSERT_TRUE(outcomes["again"].compile_ms);
  ASSERT_TRUE(outcomes["fast"].compile_ms);
  EXPECT_DOUBLE_EQ(*outcomes["fast"].compile_ms, 0.2);
  ASSERT_TRUE(outcomes["fast"].speedup_vs_compile);
  EXPECT_DOUBLE_EQ(*outcomes["fast"].speedup_vs_compile, 2.0);
  EXPECT_TRUE(outcomes["wrong"].compile_ms);
  EXPECT_FALSE(outcomes["wrong"].speedup_vs_compile);  // no speedup without a pass
  EXPECT_TRUE(log_->protocol_errors.empty()) << log_->protocol_errors.front();
}

TEST_F(Scheduler, EachWayAWorkerFailsGetsItsVerdictAndTheBatchGoesOn) {
  const std::map<std::string, std::string> expected = {
      {"pass", "pass"},
      {"build_error", "build_error"},
      {"crash", "crash"},
      {"hang", "timeout"},
      {"slow", "pass"},
      {"device_fault", "crash"},
      {"oom_once", "runtime_error"},  // on the CPU: no rerun
      {"second_record", "forged_result"},
      {"mistyped", "forged_result"},
      {"mismatch", "output_mismatch"},
  };
  std::vector<EvalJob> jobs;
  for (const auto& [behaviour, verdict] : expected) jobs.push_back({behaviour, "/p/one.py", candidate(behaviour)});
  options_.parallel = 3;
  auto outcomes = run(jobs);
  ASSERT_EQ(outcomes.size(), expected.size());
  for (const auto& [behaviour, verdict] : expected)
    EXPECT_EQ(outcomes[behaviour].verdict, verdict) << behaviour << ": " << outcomes[behaviour].detail;
  EXPECT_NE(outcomes["crash"].detail.find("killed by signal 11"), std::string::npos) << outcomes["crash"].detail;
  // The reference's mismatch facts reach the outcome whole.
  ASSERT_TRUE(outcomes["mismatch"].mismatch);
  const MismatchFacts& where = *outcomes["mismatch"].mismatch;
  EXPECT_EQ(where.where, "edges");
  EXPECT_EQ(where.first_index, (std::vector<long>{3, 0}));
  EXPECT_EQ(where.shape, (std::vector<long>{4, 8}));
  EXPECT_EQ((std::pair{where.bad, where.nan}), (std::pair{8L, 1L}));
  ASSERT_EQ(where.samples.size(), 1u);
  EXPECT_EQ(where.samples[0].got, "nan");
  EXPECT_FALSE(outcomes["pass"].mismatch);
  EXPECT_NE(outcomes["mistyped"].detail.find("candidate event 'result': field 'candidate_ms': expected number"),
            std::string::npos)
      << outcomes["mistyped"].detail;
  EXPECT_EQ(log_->count("prepare"), 1);
  EXPECT_TRUE(log_->protocol_errors.empty()) << log_->protocol_errors.front();
  // Every pause of the timing lock was undone.
  int stops = 0, resumes = 0;
  for (const auto& s : log_->signals) (s.rfind("STOP", 0) == 0 ? stops : resumes)++;
  EXPECT_EQ(stops, resumes);
}

// What a progress display is told: every job starts; those whose candidate
// builds are reported built before their outcome, a build error never.
TEST_F(Scheduler, EachJobIsReportedStartedAndBuiltBeforeItsOutcome) {
  std::mutex mutex;
  std::vector<std::string> events;
  auto note = [&](const std::string& what) {
    std::lock_guard hold(mutex);
    events.push_back(what);
  };
  options_.parallel = 2;
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_batch_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"ok", "/p/one.py", candidate("pass")}, {"broken", "/p/one.py", candidate("build_error")}}, options_,
      [&](const EvalOutcome& o) { note("result " + o.job.id); }, [&](const EvalJob& job) { note("start " + job.id); },
      [&](const EvalJob& job) { note("built " + job.id); });
  auto at = [&](const std::string& what) { return std::find(events.begin(), events.end(), what) - events.begin(); };
  ASSERT_EQ(events.size(), 5u) << ::testing::PrintToString(events);
  EXPECT_LT(at("start ok"), at("built ok"));
  EXPECT_LT(at("built ok"), at("result ok"));
  EXPECT_LT(at("start broken"), at("result broken"));
  EXPECT_EQ(std::count(events.begin(), events.end(), "built broken"), 0);
}

TEST_F(Scheduler, OutOfMemoryByItsKindRunsTheJobAgainAloneOnTheGpu) {
  options_.device = "cuda";
  options_.parallel = 2;
  auto outcomes = run({{"oom", "/p/one.py", candidate("oom_once")}, {"other", "/p/one.py", candidate("pass")}});
  EXPECT_EQ(outcomes["oom"].verdict, "pass") << outcomes["oom"].detail;
  EXPECT_EQ(outcomes["oom"].seconds.count("first_attempt"), 1u);
  EXPECT_EQ(outcomes["other"].seconds.count("first_attempt"), 0u);
  EXPECT_EQ(log_->attempts["oom_once"], 2);
}

// Candidates' runs start as the device memory their references measured
// fits: three runs of 60 MiB under a budget of 130 MiB (references hold 1
// MiB each) run one or two at a time, never three, and none runs out of memory.
TEST_F(Scheduler, RunsStartAsTheDeviceMemoryTheirReferencesMeasuredAllows) {
  options_.device = "cuda";
  options_.parallel = 3;
  options_.tuning.device_memory_mb = 130;
  auto outcomes = run(three_slow_runs_of_60_mib());
  ASSERT_EQ(outcomes.size(), 3u);
  double waited = 0;
  for (auto& [id, outcome] : outcomes) {
    EXPECT_EQ(outcome.verdict, "pass") << id << ": " << outcome.detail;
    EXPECT_EQ(outcome.seconds.count("first_attempt"), 0u) << id;
    waited += outcome.seconds["memory_wait"];
  }
  EXPECT_EQ(log_->most_shared, 2);
  EXPECT_GT(waited, 0.1);  // the third waited for one of the first two (200 ms each)
}

// A run larger than the whole budget still runs, alone.
TEST_F(Scheduler, ARunLargerThanTheBudgetRunsAlone) {
  options_.device = "cuda";
  options_.parallel = 2;
  options_.tuning.device_memory_mb = 100;
  auto outcomes = run({{"big", "/p/big_mib500.py", candidate("slow", "big")},
                       {"small", "/p/small_mib10.py", candidate("slow", "small")}});
  EXPECT_EQ(outcomes["big"].verdict, "pass") << outcomes["big"].detail;
  EXPECT_EQ(outcomes["small"].verdict, "pass") << outcomes["small"].detail;
  EXPECT_EQ(log_->most_shared, 1);
}

// Without a measure (the CPU), runs start as before.
TEST_F(Scheduler, OnTheCpuNoRunWaitsForMemory) {
  options_.parallel = 3;
  options_.tuning.device_memory_mb = 1;
  auto outcomes = run(three_slow_runs_of_60_mib());
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(log_->most_shared, 3);
}

TEST_F(Scheduler, OutOfMemoryEvenAloneRunsOnceMoreAfterEveryOtherJobWithItsReferencePreparedAgain) {
  options_.device = "cuda";
  options_.parallel = 2;
  std::vector<std::string> runs;  // candidate files, as each run begins
  log_->on_run = [&](const std::string& candidate) {
    std::lock_guard hold(log_->mutex);
    runs.push_back(fs::path(candidate).stem().string());
  };
  auto outcomes = run({{"oom", "/p/one.py", candidate("oom_twice")},
                       {"a", "/p/two.py", candidate("pass", "a")},
                       {"b", "/p/three.py", candidate("slow", "b")}});
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(outcomes["oom"].verdict, "pass") << outcomes["oom"].detail;
  EXPECT_EQ(outcomes["b"].verdict, "pass") << outcomes["b"].detail;
  EXPECT_EQ(log_->attempts["oom_twice"], 3);
  for (const char* stage : {"first_attempt", "second_attempt", "started_at", "total"})
    EXPECT_EQ(outcomes["oom"].seconds.count(stage), 1u) << stage;
  // The last attempt comes after every other job's run, with its problem prepared again.
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs.back(), "oom_twice") << ::testing::PrintToString(runs);
  EXPECT_EQ(std::count(runs.begin(), runs.end(), "b"), 1);
  EXPECT_EQ(log_->count("prepare"), 4);                         // one, two, three, and one again
  EXPECT_EQ(log_->count("drop"), 4 + log_->count("baseline"));  // every problem dropped (and each baseline's)
}

// A job deferred for memory ends the feed: it runs once more after the jobs
// taken so far, not after every job the feed has (a worker's queue may never
// run dry); the feed keeps the jobs it was not asked for.
TEST_F(Scheduler, AJobDeferredForMemoryEndsTheFeed) {
  options_.device = "cuda";
  options_.parallel = 2;
  const int endless = 50;  // as good as a feed that never runs dry
  std::mutex feeding;
  int fed = 0;
  std::map<std::string, EvalOutcome> outcomes;
  evaluate_stream_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"oom", "/p/one.py", candidate("oom_twice")}},
      [&]() -> std::optional<EvalJob> {
        std::lock_guard hold(feeding);
        if (fed == endless) return std::nullopt;
        std::string id = "f" + std::to_string(fed++);
        return EvalJob{id, "/p/two.py", candidate("pass", id)};
      },
      options_, [&](const EvalOutcome& o) { outcomes[o.job.id] = o; });
  EXPECT_EQ(outcomes["oom"].verdict, "pass") << outcomes["oom"].detail;
  EXPECT_EQ(log_->attempts["oom_twice"], 3);
  EXPECT_LT(fed, endless);
  EXPECT_EQ(outcomes.size(), static_cast<size_t>(fed) + 1);
}

// A deferred job holds no reference while the rest of the batch runs: its
// problem's is dropped at once when no other job of the problem is left.
TEST_F(Scheduler, AJobDeferredForMemoryLeavesItsReferenceToNoLaterJob) {
  options_.device = "cuda";
  options_.parallel = 1;
  options_.compile_baseline = false;        // its workers' drops are no references'
  std::map<std::string, int> drops_before;  // candidate -> references dropped as its run began
  log_->on_run = [&](const std::string& candidate) {
    std::lock_guard hold(log_->mutex);
    drops_before[fs::path(candidate).stem().string()] = log_->commands["drop"];
  };
  auto outcomes = run({{"oom", "/p/one.py", candidate("oom_twice")},
                       {"a", "/p/two.py", candidate("pass", "a")},
                       {"b", "/p/two.py", candidate("pass", "b")}});
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(outcomes["oom"].verdict, "pass") << outcomes["oom"].detail;
  EXPECT_EQ(drops_before["a"], 1);  // /p/one.py's, before the batch went on
  EXPECT_EQ(drops_before["b"], 1);
  EXPECT_EQ(log_->count("prepare"), 3);  // one, two, and one again
  EXPECT_EQ(log_->count("drop"), 3);
}

TEST_F(Scheduler, AReferenceOutOfMemoryIsPreparedAgainAlone) {
  options_.device = "cuda";
  auto outcomes = run({{"j", "/p/reference_oom_once.py", candidate("pass")}});
  EXPECT_EQ(outcomes["j"].verdict, "pass") << outcomes["j"].detail;
  EXPECT_EQ(outcomes["j"].seconds.count("first_attempt"), 1u);
  EXPECT_EQ(log_->count("prepare"), 2);
}

TEST_F(Scheduler, ATrustedRecordWithAMistypedFieldIsAnErrorNamingTheRecordAndTheField) {
  options_.parallel = 2;
  // One reference worker per problem: a worker stopped for breaking the
  // protocol takes the other problems it hosts down with it (their jobs get
  // evaluator_error; `kmem eval --redo evaluator_error` runs them again).
  options_.tuning.reference_workers = 2;
  auto outcomes = run(
      {{"bad", "/p/reference_bad_ready.py", candidate("pass", "a")}, {"good", "/p/one.py", candidate("pass", "b")}});
  EXPECT_EQ(outcomes["bad"].verdict, "evaluator_error");
  EXPECT_NE(outcomes["bad"].detail.find("reference event 'ready': field 'reference_ms': expected number, got string"),
            std::string::npos)
      << outcomes["bad"].detail;
  EXPECT_EQ(outcomes["good"].verdict, "pass") << outcomes["good"].detail;
}

// The static rules are the library's: a caller of evaluate_batch (or
// evaluate) gets the checker's verdict, and no worker starts for it.
TEST_F(Scheduler, TheStaticRulesRunInsideTheLibraryBeforeAnyWorker) {
  options_.static_rules = true;
  auto reply = folder_ / "reply.md";
  std::ofstream(reply) << "Here it is.\n```python\nimport threading\nimport torch\n\nclass ModelNew(torch.nn.Module):\n"
                          "    def forward(self, x):\n        threading.Thread(target=print).start()\n"
                          "        return x\n```\n";
  auto outcomes = run({{"r", "/p/one.py", reply.string()}});
  EXPECT_EQ(outcomes["r"].verdict, "uses_threads") << outcomes["r"].detail;
  EXPECT_EQ(outcomes["r"].job.candidate, reply.string());
  EXPECT_EQ(log_->started["candidate"], 0);
  EXPECT_EQ(log_->started["reference"], 0);
}

TEST_F(Scheduler, ACleanReplyIsTakenOutOfItsBlockAndRun) {
  options_.static_rules = true;
  auto reply = folder_ / "reply.md";
  std::ifstream pass(std::string(KMEM_EVAL_TESTS_DIR) + "/candidates/pass.py");
  std::stringstream source;
  source << pass.rdbuf();
  std::ofstream(reply) << "Here it is.\n```python\n" << source.str() << "```\n";
  std::string ran;
  log_->on_run = [&](const std::string& candidate) { ran = candidate; };
  auto outcomes = run({{"r", "/p/one.py", reply.string()}});
  EXPECT_EQ(outcomes["r"].verdict, "pass") << outcomes["r"].detail;
  EXPECT_EQ(outcomes["r"].job.candidate, reply.string());
  EXPECT_EQ(fs::path(ran).parent_path(), fs::path(options_.cache_dir) / "sources");
}

// The crash-loop guard's journal (InflightJournal) holds a job before its
// code runs: a crash at any point of the run finds it there.
TEST_F(Scheduler, AJobIsJournaledBeforeItsCodeRuns) {
  auto results = (folder_ / "results.jsonl").string();
  auto journal = InflightJournal::open(results, {});
  ASSERT_TRUE(journal) << journal.error().message();
  std::vector<std::string> journaled_at_run;
  log_->on_run = [&](const std::string&) {
    std::ifstream in(results + ".inflight");
    std::stringstream text;
    text << in.rdbuf();
    journaled_at_run.push_back(text.str());
  };
  run({{"a", "/p/one.py", candidate("crash")}},
      [&](const EvalJob& job) { ASSERT_TRUE(journal->started(job.id, true)); });
  ASSERT_EQ(journaled_at_run.size(), 1u);
  EXPECT_NE(journaled_at_run[0].find(R"("id":"a")"), std::string::npos) << journaled_at_run[0];
  // A rerun after a crash: the job that ran alone is left over, as alone.
  auto rerun = InflightJournal::open(results, {});
  ASSERT_TRUE(rerun);
  EXPECT_EQ(rerun->left_over(), (std::map<std::string, bool>{{"a", true}}));
}

// The crash-loop guard (evaluate_guarded): after a run that died, the job
// that was running alone is not run into the same crash again; those that
// ran among others run again, each alone, after the rest.
TEST_F(Scheduler, TheCrashLoopGuardRunsNoJobIntoTheSameCrashTwice) {
  auto results = (folder_ / "results.jsonl").string();
  std::ofstream(results + ".inflight") << R"({"id": "among", "alone": false})"
                                       << "\n"
                                       << R"({"id": "alone", "alone": true})"
                                       << "\n"
                                       << R"({"id": "among", "al)";
  auto journal = InflightJournal::open(results, {});
  ASSERT_TRUE(journal) << journal.error().message();
  options_.parallel = 2;
  std::vector<std::string> order;
  std::map<std::string, EvalOutcome> outcomes;
  auto status = evaluate_guarded_with(
      [this](const EvalOptions&, const std::string&, const std::vector<int>&) { return make_fake_launcher(log_); },
      {{"alone", "/p/one.py", candidate("crash", "alone")},
       {"among", "/p/one.py", candidate("pass", "among")},
       {"fresh", "/p/one.py", candidate("slow", "fresh")}},
      options_, *journal,
      [&](const EvalOutcome& o) {
        order.push_back(o.job.id);
        outcomes[o.job.id] = o;
      });
  ASSERT_TRUE(status) << status.error().message();
  EXPECT_EQ(order, (std::vector<std::string>{"alone", "fresh", "among"}));
  EXPECT_EQ(outcomes["alone"].verdict, "killed_evaluator");
  EXPECT_EQ(outcomes["among"].verdict, "pass") << outcomes["among"].detail;
  EXPECT_EQ(outcomes["fresh"].verdict, "pass") << outcomes["fresh"].detail;
  EXPECT_EQ(log_->attempts["crash"], 0);  // never started
  // Journaled before they ran: the rerun alone, the fresh job among others.
  auto rerun = InflightJournal::open(results, {});
  ASSERT_TRUE(rerun);
  EXPECT_EQ(rerun->left_over(), (std::map<std::string, bool>{{"alone", true}, {"among", true}, {"fresh", false}}));
}

}  // namespace
}  // namespace kmem::eval
