// The evaluator on the CPU: one candidate per verdict, through the real
// worker processes, and the batch CLI's resume.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "eval_fixture.h"

namespace kmem::test {
namespace {

const char* kProblem = "problems/scale_add.py";

EvalOutcome cpu_eval(const std::string& candidate, const char* problem = kProblem) {
  return evaluate_fixture(problem, "candidates/" + candidate, test_options("cpu"));
}

TEST(EvalCpu, PassingCandidateIsTimedAndScored) {
  auto o = cpu_eval("pass.py");
  ASSERT_EQ(o.verdict, "pass") << o.detail << o.log;
  EXPECT_EQ(o.correctness.trials, 3);
  EXPECT_LE(o.correctness.max_abs_error, 1e-5);
  ASSERT_TRUE(o.reference_ms && o.candidate_ms);
  EXPECT_GT(*o.reference_ms, 0);
  EXPECT_GT(*o.candidate_ms, 0);
  EXPECT_DOUBLE_EQ(o.speedup, *o.reference_ms / *o.candidate_ms);
  EXPECT_DOUBLE_EQ(o.score, std::min(o.speedup, kScoreCap));
}

bool flagged(const EvalOutcome& o, const std::string& flag) {
  return std::find(o.flags.begin(), o.flags.end(), flag) != o.flags.end();
}

// A steady reference time is reused; one measured while the host ran slow
// (the outcome is flagged unsteady_reference_timing: on the CPU every model
// is host-bound, and a busy test machine can be slow) is measured again.
TEST(EvalCpu, ReferenceTimeIsMeasuredOnceThenReusedUnlessRetimedOrUnsteady) {
  EvalOptions options = test_options("cpu");
  options.cache_dir = ::testing::TempDir() + "/kmem-reference-cache";
  std::filesystem::remove_all(options.cache_dir + "/reference");
  auto first = evaluate_fixture(kProblem, "candidates/pass.py", options);
  auto second = evaluate_fixture(kProblem, "candidates/pass.py", options);
  options.retime_reference = true;
  auto third = evaluate_fixture(kProblem, "candidates/pass.py", options);
  ASSERT_EQ(first.verdict, "pass") << first.detail << first.log;
  ASSERT_EQ(second.verdict, "pass") << second.detail << second.log;
  ASSERT_EQ(third.verdict, "pass") << third.detail << third.log;
  EXPECT_FALSE(first.reference_cached);
  EXPECT_EQ(second.reference_cached, !flagged(first, "unsteady_reference_timing"));
  if (second.reference_cached) {
    EXPECT_EQ(*second.reference_ms, *first.reference_ms);
    EXPECT_FALSE(second.seconds.count("reference.timing")) << "a cached reference is not timed again";
  }
  EXPECT_FALSE(third.reference_cached);
  EXPECT_TRUE(third.seconds.count("reference.timing"));
}

// The compile baseline, asked for on the CPU, goes through a worker of its
// own (`baseline`): the candidate passes whatever torch.compile does here
// (Debian's torch 1.13 has none: no baseline, never an error), and the
// result or the reason for none joins the eager time in the facts cache.
TEST(EvalCpu, TheCompileBaselineIsMeasuredBesideTheBatchAndCached) {
  EvalOptions options = test_options("cpu");
  options.cache_dir = ::testing::TempDir() + "/kmem-baseline-cache";
  std::filesystem::remove_all(options.cache_dir + "/reference");
  options.compile_baseline = true;
  auto o = evaluate_fixture(kProblem, "candidates/pass.py", options);
  ASSERT_EQ(o.verdict, "pass") << o.detail << o.log;
  EXPECT_EQ(o.compile_ms.has_value(), o.speedup_vs_compile.has_value());
  int entries = 0;
  for (const auto& file : std::filesystem::directory_iterator(options.cache_dir + "/reference")) {
    if (file.path().extension() != ".json" || file.path().filename() == "host_probe.json") continue;
    auto facts = nlohmann::json::parse(std::ifstream(file.path()));
    EXPECT_TRUE(facts.contains("reference_ms")) << facts.dump();
    EXPECT_TRUE(facts["compile_ms"].is_number() || facts["compile_failure"].is_string()) << facts.dump();
    if (o.compile_ms) EXPECT_DOUBLE_EQ(*o.compile_ms, facts.at("compile_ms").get<double>());
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

TEST(EvalCpu, OutcomeCarriesItsTimeline) {
  auto o = cpu_eval("pass.py");
  for (const char* stage : {"total", "reference_wait", "judge", "candidate.import", "candidate.build",
                            "candidate.trials", "candidate.timing", "reference.load"})
    EXPECT_TRUE(o.seconds.count(stage)) << stage;
  EXPECT_GE(o.seconds["total"], o.seconds["judge"]);
}

// Whether the outcome's reference was prepared by a worker's first problem
// (only that one reports the worker's own start-up, its imports).
bool first_on_its_worker(const EvalOutcome& o) { return o.seconds.count("reference.import") > 0; }

std::vector<EvalOutcome> run_jobs(const std::vector<EvalJob>& jobs, const EvalOptions& options) {
  std::vector<EvalOutcome> outcomes;
  evaluate_batch(jobs, options, [&](const EvalOutcome& o) { outcomes.push_back(o); });
  return outcomes;
}

TEST(EvalCpu, OneReferenceWorkerHostsSeveralProblemsAtOnce) {
  EvalOptions options = test_options("cpu");
  options.parallel = 2;
  options.tuning.reference_workers = 1;
  // A third problem: a copy of the first under another path.
  auto folder = std::filesystem::temp_directory_path() / ("kmem-eval-hosts-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  std::string third = (folder / "scale_add_copy.py").string();
  std::filesystem::copy_file(fixture_path("problems/scale_add.py"), third,
                             std::filesystem::copy_options::overwrite_existing);
  auto outcomes = run_jobs({{"a", fixture_path("problems/scale_add.py"), fixture_path("candidates/pass.py")},
                            {"b", fixture_path("problems/scale_add_pair.py"), fixture_path("candidates/pass_tuple.py")},
                            {"c", third, fixture_path("candidates/mismatch.py")}},
                           options);
  std::filesystem::remove_all(folder);
  ASSERT_EQ(outcomes.size(), 3u);
  std::map<std::string, EvalOutcome> by_id;
  for (const auto& o : outcomes) by_id[o.job.id] = o;
  EXPECT_EQ(by_id["a"].verdict, "pass") << by_id["a"].detail;
  EXPECT_EQ(by_id["b"].verdict, "pass") << by_id["b"].detail;
  EXPECT_EQ(by_id["c"].verdict, "output_mismatch") << by_id["c"].detail;
  EXPECT_EQ(std::count_if(outcomes.begin(), outcomes.end(), first_on_its_worker), 1) << "one worker for all three";
}

// A job on the broken problem `bad` (a fixture), then one on a good problem,
// with one reference worker: the first fails with an evaluator error whose
// detail holds `said`; the second passes, on the same worker or a new one.
void expect_good_problem_after(const std::string& bad, const std::string& said, bool same_worker) {
  EvalOptions options = test_options("cpu");
  options.tuning.reference_workers = 1;
  auto outcomes = run_jobs({{"bad", fixture_path("problems/" + bad), fixture_path("candidates/pass.py")},
                            {"good", fixture_path("problems/scale_add.py"), fixture_path("candidates/pass.py")}},
                           options);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].evaluator_failed()) << outcomes[0].verdict;
  EXPECT_NE(outcomes[0].detail.find(said), std::string::npos) << outcomes[0].detail;
  EXPECT_EQ(outcomes[1].verdict, "pass") << outcomes[1].detail;
  EXPECT_EQ(first_on_its_worker(outcomes[1]), !same_worker) << (same_worker ? "same worker" : "new worker");
}

// The measurement out of the candidate's reach (docs/measurement.md, "The
// native harness"): three variants or more of each class that once passed,
// each with the verdict the design gives it, in one batch beside an honest
// control. Class 1: inputs drawn in the candidate's process; 2: torch's own
// methods the harness called after the clock; 3: the clock or the report
// swapped from Python (or Python run from native code); 4: timed calls
// unlike the trials; 5: native threads working between calls. Python run
// from native code (and OpenMP's split entry points) is refused before its
// library loads (the native allow-list: PyRun_*), ahead of the harness's own
// forged_timing check.
TEST(EvalCpu, EveryRuntimeClassOfTheHarnessGetsItsVerdict) {
  const std::map<std::string, std::string> expected = {
      {"c1_randn_formatter", "timed_output_mismatch"},  {"c1_randn_unbound_put", "timed_output_mismatch"},
      {"c1_seed_hook", "timed_output_mismatch"},        {"c2_detach_unbound", "timed_output_mismatch"},
      {"c2_clone_contiguous", "timed_output_mismatch"}, {"c2_cpu_getitem_copy", "timed_output_mismatch"},
      {"c3_closure_swap", "forbidden_runtime_call"},  // gc.get_objects: the audit hook, before the report
      {"c3_native_pyrun", "forbidden_native_call"},     {"c3_channel_rewrite", "forged_timing"},
      {"c4_mutate_timed_only", "input_mutation"},       {"c4_permute_in_blocks", "timed_output_mismatch"},
      {"c4_paired_errors", "timed_output_mismatch"},    {"c5_gomp_split_start", "forbidden_native_call"},
  };
  std::vector<EvalJob> jobs = {{"honest", fixture_path(kProblem), fixture_path("candidates/pass.py")}};
  for (const auto& [name, verdict] : expected)
    jobs.push_back({name, fixture_path(kProblem), fixture_path("candidates/harness/" + name + ".py")});
  EvalOptions options = test_options("cpu");
  options.parallel = 2;
  std::map<std::string, EvalOutcome> by_id;
  for (auto& o : run_jobs(jobs, options)) by_id[o.job.id] = o;
  EXPECT_EQ(by_id["honest"].verdict, "pass") << by_id["honest"].detail << by_id["honest"].log;
  for (const auto& [name, verdict] : expected)
    EXPECT_EQ(by_id[name].verdict, verdict) << name << ": " << by_id[name].detail << by_id[name].log;
}

// Staging (docs/measurement.md, "Staging"): a candidate that asks the
// reference's Stager for the timed sets itself, to compute their outputs
// in a warm-up call, makes its harness's asks come out of turn.
TEST(EvalCpu, TimedSetsReadAheadThroughTheControlBlockAreForgedTiming) {
  std::vector<EvalJob> jobs = {
      {"prepass", fixture_path("problems/sinchain.py"), fixture_path("candidates/harness/c6_stage_prepass.py")}};
  EvalOptions options = test_options("cpu");
  options.warmup = 3;  // the candidate counts on kmem eval's default warm-up sets
  // The attack finds the control block by the process's memory layout, which
  // varies from run to run (its own runtime_error then): it is run again,
  // up to three times, until it gets through to reading ahead.
  std::vector<EvalOutcome> outcomes;
  for (int attempt = 0; attempt < 3; ++attempt) {
    outcomes = run_jobs(jobs, options);
    ASSERT_EQ(outcomes.size(), 1u);
    if (outcomes[0].verdict != "runtime_error") break;
  }
  EXPECT_EQ(outcomes[0].verdict, "forged_timing") << outcomes[0].detail << outcomes[0].log;
  EXPECT_NE(outcomes[0].detail.find("out of turn"), std::string::npos) << outcomes[0].detail;
}

// Held-out round 8: a returned view of the input whose release at the end of
// the call ran a finalizer writing the right answer into the out-slot. The
// Stager takes the out-slot right after the harness's copy, before anything
// is released: what is judged is what the call returned.
TEST(EvalCpu, AnOutputReleasedAfterItsCopyCannotWriteTheJudgedSlot) {
  std::vector<EvalJob> jobs = {{"finalizer", fixture_path("problems/softsign_big.py"),
                                fixture_path("candidates/harness/c7_outslot_finalizer.py")}};
  auto outcomes = run_jobs(jobs, test_options("cpu"));
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].verdict, "timed_output_mismatch") << outcomes[0].detail << outcomes[0].log;
}

// Where judging is cheap (small outputs, a fast reference), every timed
// call the input sets allow is judged, however many calls the measurement
// makes beyond --iters: a candidate wrong in one call of seven outside its
// trials is found every time, not two times in three.
TEST(EvalCpu, WhereJudgingIsCheapEveryTimedCallIsJudged) {
  std::vector<EvalJob> jobs = {
      {"now_and_then", fixture_path(kProblem), fixture_path("candidates/harness/c8_wrong_now_and_then.py")}};
  auto outcomes = run_jobs(jobs, test_options("cpu"));
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].verdict, "timed_output_mismatch") << outcomes[0].detail << outcomes[0].log;
}

// Held-out round 9: an output whose TensorImpl is a C++ subclass of the
// candidate's ran its kernel in the virtual calls the harness made on it
// after the clock (detach). An output of any class but torch's own is
// refused before anything of it is called.
TEST(EvalCpu, AnOutputOfATensorImplClassOfTheCandidatesIsALazyOutput) {
  auto o = evaluate_fixture(kProblem, "candidates/harness/c9_tensorimpl_subclass.py", test_options("cpu"));
  EXPECT_EQ(o.verdict, "lazy_output") << o.detail << o.log;
  EXPECT_NE(o.detail.find("TensorImpl class of its own"), std::string::npos) << o.detail;
}

// Held-out round 10: a plain TensorImpl over a StorageImpl subclass of the
// candidate's, its reference count set to reach zero inside the harness's
// detach: the storage's release_resources ran the kernel after the clock.
TEST(EvalCpu, AnOutputOverAStorageClassOfTheCandidatesIsALazyOutput) {
  auto o = evaluate_fixture(kProblem, "candidates/harness/c10_storage_subclass.py", test_options("cpu"));
  EXPECT_EQ(o.verdict, "lazy_output") << o.detail << o.log;
  EXPECT_NE(o.detail.find("storage of a class of its own"), std::string::npos) << o.detail;
}

// The audit hook (docs/evaluator.md, "Refused at run time") behind the
// checker, which test_options() turns off: a family refused whatever route
// reaches it, at import or in forward, and the process ends at once.
TEST(EvalCpu, WhatTheAuditHookRefusesIsForbiddenRuntimeCallWhateverTheRoute) {
  const std::map<std::string, std::string> refused = {
      {"numpy_pickle", "builtins.exec"},
      {"ctypes_bridge", "from_address"},
      {"proc_mem_by_datasource", "/mem"},
      {"gc_referrers", "gc.get_referrers"},
  };
  std::vector<EvalJob> jobs;
  for (const auto& [name, what] : refused)
    jobs.push_back({name, fixture_path(kProblem), fixture_path("candidates/audit/" + name + ".py")});
  EvalOptions options = test_options("cpu");
  options.parallel = 2;
  for (const EvalOutcome& o : run_jobs(jobs, options)) {
    EXPECT_EQ(o.verdict, "forbidden_runtime_call") << o.job.id << ": " << o.detail << o.log;
    EXPECT_NE(o.detail.find(refused.at(o.job.id)), std::string::npos) << o.job.id << ": " << o.detail;
  }
}

TEST(EvalCpu, AProblemThatFailsToLoadLeavesItsReferenceWorkerServing) {
  expect_good_problem_after("raises_on_load.py", "this problem cannot be built", /*same_worker=*/true);
}

TEST(EvalCpu, AProblemThatEndsItsReferenceWorkerFailsAloneAndANewWorkerServesTheRest) {
  expect_good_problem_after("exits_on_load.py", "exit", /*same_worker=*/false);
}

TEST(EvalCpu, TupleOutputsAreCompared) {
  auto o = cpu_eval("pass_tuple.py", "problems/scale_add_pair.py");
  EXPECT_EQ(o.verdict, "pass") << o.detail << o.log;
}

TEST(EvalCpu, WrongValuesAreAMismatchWithTheWorstErrors) {
  auto o = cpu_eval("mismatch.py");
  EXPECT_EQ(o.verdict, "output_mismatch");
  EXPECT_NEAR(o.correctness.max_abs_error, 0.01, 1e-4);
  EXPECT_GT(o.correctness.max_rel_error, 0);
  EXPECT_EQ(o.score, 0);
}

TEST(EvalCpu, WrongShapeIsAShapeMismatch) {
  auto o = cpu_eval("shape.py");
  EXPECT_EQ(o.verdict, "shape_mismatch");
  EXPECT_NE(o.detail.find("(64, 255)"), std::string::npos) << o.detail;
}

// Every call's inputs are staged into the one stage of the harness's region
// (docs/measurement.md, "Staging"): a cache keyed by the inputs' storage
// hits on every call after the first and returns the output of another set,
// which the judged timed calls find.
TEST(EvalCpu, OutputsCachedUnderTheInputsStorageAreTimedOutputMismatches) {
  auto o = cpu_eval("cache_two_buffers.py");
  EXPECT_EQ(o.verdict, "timed_output_mismatch") << o.detail << o.log;
}

TEST(EvalCpu, ARenamedTensorSubclassIsALazyOutputNamedForWhatItIs) {
  auto o = cpu_eval("renamed_subclass.py");
  EXPECT_EQ(o.verdict, "lazy_output") << o.detail << o.log;
  EXPECT_NE(o.detail.find("subclass of torch.Tensor"), std::string::npos) << o.detail;
}

TEST(EvalCpu, CompileFailureAttachesTheCompilerOutput) {
  auto o = cpu_eval("build_error.py");
  EXPECT_EQ(o.verdict, "build_error");
  EXPECT_NE((o.detail + o.log).find("kmem_missing_header.h"), std::string::npos) << o.detail << o.log;
}

TEST(EvalCpu, SegfaultIsACrash) {
  auto o = cpu_eval("crash.py");
  EXPECT_EQ(o.verdict, "crash");
  EXPECT_NE(o.detail.find("signal 11"), std::string::npos) << o.detail;
}

TEST(EvalCpu, OsExitIsACrash) {
  auto o = cpu_eval("exit.py");
  EXPECT_EQ(o.verdict, "crash");
  EXPECT_NE(o.detail.find("exited with code 0"), std::string::npos) << o.detail;
}

TEST(EvalCpu, HangIsKilledAtTheRunLimit) {
  auto options = test_options("cpu");
  options.run_timeout_s = 4;
  auto o = evaluate_fixture(kProblem, "candidates/hang.py", options);
  EXPECT_EQ(o.verdict, "timeout");
}

TEST(EvalCpu, InPlaceChangeOfAnInputIsInputMutation) { EXPECT_EQ(cpu_eval("mutation.py").verdict, "input_mutation"); }

TEST(EvalCpu, CompiledButUnusedKernelIsNoCustomKernel) {
  auto o = cpu_eval("unused_kernel.py");
  EXPECT_EQ(o.verdict, "no_custom_kernel") << o.detail << o.log;
  EXPECT_EQ(o.score, 0);
}

TEST(EvalCpu, ExceptionInForwardIsARuntimeError) {
  auto o = cpu_eval("runtime.py");
  EXPECT_EQ(o.verdict, "runtime_error");
  EXPECT_NE(o.detail.find("failed on purpose"), std::string::npos) << o.detail;
}

TEST(EvalCpu, ARecordWrittenByTheCandidateIsAForgedResult) {
  EXPECT_EQ(cpu_eval("forged.py").verdict, "forged_result");
}

// The checker refuses both files; test_options() turns it off, so these reach
// the runtime guards of the candidate's process.
TEST(EvalCpu, AFunctionReplacedAtRunTimeIsRuntimePatching) {
  auto o = cpu_eval("patched.py");
  EXPECT_EQ(o.verdict, "runtime_patching") << o.detail << o.log;
  EXPECT_NE(o.detail.find("torch.cuda.synchronize"), std::string::npos) << o.detail;
}

// The hack suite's timing forgeries (tests/hacks/cpu/forge_*.py): the
// checker refuses them there; here they reach the runtime defences.
EvalOutcome hack_eval(const std::string& candidate) {
  return evaluate_fixture("../hacks/problems/add_relu.py", "../hacks/cpu/" + candidate, test_options("cpu"));
}

TEST(EvalCpu, ATimerReplacedThroughTheModuleTableMeasuresTheRealTimeAndIsRuntimePatching) {
  auto o = hack_eval("forge_timer_sys_modules.py");
  EXPECT_EQ(o.verdict, "runtime_patching") << o.detail << o.log;
  EXPECT_NE(o.detail.find("timing.Harness"), std::string::npos) << o.detail;
  EXPECT_GT(o.candidate_ms, 0.01) << "the native harness measured, not the fake's microsecond";
}

TEST(EvalCpu, AClockDressedAsTheOriginalIsRuntimePatching) {
  auto o = hack_eval("forge_timer_update_wrapper.py");
  EXPECT_EQ(o.verdict, "runtime_patching") << o.detail << o.log;
  EXPECT_NE(o.detail.find("time.perf_counter"), std::string::npos) << o.detail;
}

TEST(EvalCpu, AMedianRewrittenInTheReportIsForgedTiming) {
  auto o = hack_eval("forge_timing_report.py");
  EXPECT_EQ(o.verdict, "forged_timing") << o.detail << o.log;
  EXPECT_NE(o.detail.find("its harness measured"), std::string::npos) << o.detail;
}

// The tally rewritten too: the record still disagrees with the report the
// native harness wrote into the reference's memory.
TEST(EvalCpu, ATallyRewrittenWithTheMedianIsForgedTimingAgainstTheHarnesssReport) {
  auto o = hack_eval("forge_timing_tally.py");
  EXPECT_EQ(o.verdict, "forged_timing") << o.detail << o.log;
  EXPECT_NE(o.detail.find("its harness measured"), std::string::npos) << o.detail;
}

TEST(EvalCpu, PrecisionLoweredAtRunTimeIsPrecisionDowncast) {
  auto o = cpu_eval("precision.py");
  EXPECT_EQ(o.verdict, "precision_downcast") << o.detail << o.log;
  EXPECT_NE(o.detail.find("set_float32_matmul_precision"), std::string::npos) << o.detail;
}

TEST(EvalCpu, MissingProblemIsAnEvaluatorError) {
  auto o = evaluate_fixture("problems/no_such_problem.py", "candidates/mismatch.py", test_options("cpu"));
  EXPECT_TRUE(o.evaluator_failed()) << o.verdict;
  EXPECT_NE(o.detail.find("no_such_problem.py"), std::string::npos) << o.detail;
}

// --- the batch CLI ---------------------------------------------------------

std::vector<nlohmann::json> read_results(const std::filesystem::path& path) {
  std::vector<nlohmann::json> results;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) results.push_back(nlohmann::json::parse(line));
  return results;
}

// Runs a batch; its summary (stdout) goes to `summary`.
int run_batch(const std::filesystem::path& jobs, const std::filesystem::path& out,
              const std::filesystem::path& summary) {
  std::string command = std::string(KMEM_BINARY) + " eval --device cpu --trials 2 --iters 3 --warmup 1" +
                        " --parallel 2 --cache-dir " + KMEM_EVAL_TEST_CACHE + " --jobs " + jobs.string() + " --out " +
                        out.string() + " >" + summary.string() + " 2>/dev/null";
  return std::system(command.c_str());
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(EvalBatch, ResultsAreAppendedAndARerunSkipsFinishedIds) {
  auto folder = std::filesystem::temp_directory_path() / ("kmem-eval-batch-" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::string tests = KMEM_EVAL_TESTS_DIR;
  auto jobs = folder / "jobs.jsonl";
  auto out = folder / "results.jsonl";
  auto job = [&](const std::string& id, const std::string& candidate) {
    return nlohmann::json{{"id", id},
                          {"problem", tests + "/problems/scale_add.py"},
                          {"candidate", std::filesystem::relative(tests + "/candidates/" + candidate, folder)}}
        .dump();
  };
  std::ofstream(jobs) << job("a", "mismatch.py") << "\n" << job("b", "shape.py") << "\n";
  auto summary = folder / "summary.txt";
  ASSERT_EQ(run_batch(jobs, out, summary), 0);
  EXPECT_NE(read_text(summary).find("2 jobs evaluated in "), std::string::npos) << read_text(summary);
  EXPECT_NE(read_text(summary).find("verdicts: output_mismatch 1, shape_mismatch 1\n"), std::string::npos)
      << read_text(summary);
  auto first = read_results(out);
  ASSERT_EQ(first.size(), 2u);
  std::set<std::string> verdicts{first[0]["verdict"], first[1]["verdict"]};
  EXPECT_EQ(verdicts, (std::set<std::string>{"output_mismatch", "shape_mismatch"}));

  // A crash mid-line leaves a partial record: it is ignored and its job reruns.
  std::ofstream(out, std::ios::app) << R"({"id": "c", "verd)";
  std::ofstream(jobs, std::ios::app) << job("c", "mutation.py") << "\n";
  ASSERT_EQ(run_batch(jobs, out, summary), 0);
  EXPECT_NE(read_text(summary).find("1 job evaluated in "), std::string::npos) << read_text(summary);
  EXPECT_NE(read_text(summary).find(", 2 skipped (already in " + out.string() + ")\n"), std::string::npos)
      << read_text(summary);
  auto second = read_results(out);
  ASSERT_EQ(second.size(), 3u);  // a and b were not run again; c's partial line was dropped
  EXPECT_EQ(second[2]["id"], "c");
  EXPECT_EQ(second[2]["verdict"], "input_mutation");

  // Nothing left to run: nothing runs, and the summary says so.
  ASSERT_EQ(run_batch(jobs, out, summary), 0);
  EXPECT_EQ(read_results(out).size(), 3u);
  EXPECT_EQ(read_text(summary).rfind("0 jobs evaluated in ", 0), 0u) << read_text(summary);
  EXPECT_NE(read_text(summary).find(" s, 3 skipped"), std::string::npos) << read_text(summary);
  std::filesystem::remove_all(folder);
}

// The crash-loop guard: a job journaled as running alone when the evaluator
// died gets killed_evaluator without running; one that ran among others
// runs again (alone); the journal is gone once the batch ends.
TEST(EvalBatch, JobsInFlightWhenTheEvaluatorDiedAreNotRunIntoTheSameCrash) {
  auto folder = std::filesystem::temp_directory_path() / ("kmem-eval-inflight-" + std::to_string(getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::string tests = KMEM_EVAL_TESTS_DIR;
  auto jobs = folder / "jobs.jsonl";
  auto out = folder / "results.jsonl";
  auto job = [&](const std::string& id, const std::string& candidate) {
    return nlohmann::json{
        {"id", id}, {"problem", tests + "/problems/scale_add.py"}, {"candidate", tests + "/candidates/" + candidate}}
        .dump();
  };
  std::ofstream(jobs) << job("alone", "mismatch.py") << "\n" << job("among", "shape.py") << "\n";
  // As a run that died left it: both started, "alone" last and by itself,
  // and a line the crash cut short.
  std::ofstream(out.string() + ".inflight") << R"({"id": "among", "alone": false})"
                                            << "\n"
                                            << R"({"id": "alone", "alone": true})"
                                            << "\n"
                                            << R"({"id": "among", "al)";
  auto summary = folder / "summary.txt";
  ASSERT_EQ(run_batch(jobs, out, summary), 0) << read_text(summary);
  auto results = read_results(out);
  ASSERT_EQ(results.size(), 2u);
  std::map<std::string, std::string> verdicts;
  for (const auto& r : results) verdicts[r["id"]] = r["verdict"];
  EXPECT_EQ(verdicts["alone"], "killed_evaluator");
  EXPECT_EQ(verdicts["among"], "shape_mismatch");
  EXPECT_FALSE(std::filesystem::exists(out.string() + ".inflight"));
  std::filesystem::remove_all(folder);
}

// Without the sandbox kmem eval refuses with one line (exit 2) unless told
// --no-sandbox, and then flags the outcome unsandboxed.
TEST(EvalCli, NoSandboxIsRefusedUnlessAskedForAndThenFlagged) {
  auto folder = std::filesystem::temp_directory_path() / ("kmem-eval-nosandbox-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  std::string tests = KMEM_EVAL_TESTS_DIR;
  std::string command = "KMEM_BWRAP=" + (folder / "no-bwrap").string() + " " + KMEM_BINARY +
                        " eval --device cpu --trials 2 --iters 3 --warmup 1 --json --cache-dir " +
                        KMEM_EVAL_TEST_CACHE + " --problem " + tests + "/problems/scale_add.py --candidate " + tests +
                        "/candidates/shape.py";
  int refused = std::system((command + " >" + (folder / "out").string() + " 2>" + (folder / "err").string()).c_str());
  EXPECT_EQ(WEXITSTATUS(refused), 2);
  std::string error = read_text(folder / "err");
  EXPECT_EQ(error.rfind("kmem eval: the candidate sandbox cannot start: bwrap not found", 0), 0u) << error;
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
  EXPECT_EQ(read_text(folder / "out"), "");

  int ran = std::system((command + " --no-sandbox >" + (folder / "out").string() + " 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(ran), 1);  // rejected
  auto outcome = nlohmann::json::parse(read_text(folder / "out"), nullptr, false);
  ASSERT_TRUE(outcome.is_object()) << read_text(folder / "out");
  EXPECT_EQ(outcome["verdict"], "shape_mismatch");
  EXPECT_EQ(outcome["flags"], nlohmann::json::array({"unsandboxed"}));
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace kmem::test
