// Which runs count as running out of memory (and so earn a run of their
// own on the GPU), and when a passing outcome is flagged: timed on an
// unsteady host or bound by it, or faster than the problem's floor.
#include "verdict.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace kmem::eval {
namespace {

CandidateRun error_run(ErrorKind kind, const std::string& detail) {
  CandidateRun run;
  run.end = CandidateRun::End::kError;
  run.stage = "forward";
  run.error_kind = kind;
  run.detail = detail;
  return run;
}

TEST(OutOfMemory, IsTheErrorRecordsKindNotItsMessage) {
  EXPECT_TRUE(ran_out_of_memory(error_run(ErrorKind::kOutOfMemory, "whatever the message says")));
  EXPECT_FALSE(ran_out_of_memory(error_run(ErrorKind::kException, "OutOfMemoryError: CUDA out of memory. Tried")));
  EXPECT_FALSE(ran_out_of_memory(error_run(ErrorKind::kDeviceFault, "CUDA error: an illegal memory access")));
  CandidateRun crashed;
  crashed.end = CandidateRun::End::kCrash;
  EXPECT_FALSE(ran_out_of_memory(crashed));
}

TEST(OutOfMemory, IsARuntimeErrorAndADeviceFaultACrash) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts;
  facts.run = error_run(ErrorKind::kOutOfMemory, "OutOfMemoryError");
  EXPECT_EQ(decide(job, facts).verdict, "runtime_error");
  facts.run = error_run(ErrorKind::kDeviceFault, "RuntimeError: CUDA error: an illegal memory access");
  EXPECT_EQ(decide(job, facts).verdict, "crash");
}

// The worker's own harness failing to set up (before any candidate code)
// is the evaluator's failure, out of memory (then run again alone) or not.
TEST(OutOfMemory, InTheWorkersSetUpIsAnEvaluatorErrorNotTheCandidates) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts;
  facts.run = error_run(ErrorKind::kOutOfMemory, "OutOfMemoryError: CUDA out of memory");
  facts.run.stage = "setup";
  EXPECT_EQ(decide(job, facts).verdict, "evaluator_error");
  EXPECT_TRUE(ran_out_of_memory(facts.run));
}

// The facts of a candidate that passed in 2 ms against a 4 ms reference.
Facts passed_facts() {
  Facts facts;
  facts.run.end = CandidateRun::End::kResult;
  facts.run.candidate_ms = 2.0;
  facts.run.observations =
      Json{{"custom_kernel_launches", 3},
           {"timing_tally", {{"calls", 30}, {"measured_ms", 60.0}, {"fastest_ms", 1.9}, {"slowest_ms", 2.2}}}};
  facts.run.timing_lock_held_s = 0.1;
  facts.on_gpu = true;
  facts.min_timed_calls = 23;
  facts.reference_ms = 4.0;
  Judgement judgement;
  judgement.correct = true;
  facts.judgement = judgement;
  return facts;
}

bool flagged(const EvalOutcome& o, const char* flag) {
  return std::find(o.flags.begin(), o.flags.end(), flag) != o.flags.end();
}

TEST(UnsteadyTiming, FlagsAPassWhoseCandidateOrReferenceWasTimedOnAnUnsteadyHost) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts steady = passed_facts();
  steady.run.observations["timing_steady"] = true;
  auto o = decide(job, steady);
  ASSERT_EQ(o.verdict, "pass") << o.detail;
  EXPECT_DOUBLE_EQ(o.speedup, 2.0);
  EXPECT_TRUE(o.flags.empty());

  Facts candidate_unsteady = passed_facts();
  candidate_unsteady.run.observations["timing_steady"] = false;
  EXPECT_EQ(decide(job, candidate_unsteady).flags, std::vector<std::string>{"unsteady_timing"});

  Facts reference_unsteady = passed_facts();
  reference_unsteady.reference_timing_steady = false;
  EXPECT_EQ(decide(job, reference_unsteady).flags, std::vector<std::string>{"unsteady_reference_timing"});
}

TEST(HostBoundTiming, FlagsAPassWhoseCandidateWasBoundByTheHostOnAGpuOnly) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.on_gpu = false;
  facts.run.observations["host_bound"] = true;
  EXPECT_TRUE(decide(job, facts).flags.empty()) << "on the CPU every model is bound by the host";
  facts.on_gpu = true;
  EXPECT_EQ(decide(job, facts).flags, std::vector<std::string>{"host_bound_timing"});
  facts.run.observations["host_bound"] = false;
  EXPECT_TRUE(decide(job, facts).flags.empty());
  facts.run.observations.erase("host_bound");
  EXPECT_TRUE(decide(job, facts).flags.empty()) << "an absent observation is no fact";
}

TEST(ImplausibleSpeedup, FlagsAPassFasterThanTheProblemsRooflineFloor) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  EXPECT_TRUE(decide(job, facts).flags.empty()) << "no floor, no flag";
  facts.judgement->roofline_ms = 1.0;
  EXPECT_TRUE(decide(job, facts).flags.empty()) << "2 ms is above a 1 ms floor";
  facts.judgement->roofline_ms = 3.0;
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "pass") << "a flag, not a rejection";
  EXPECT_EQ(o.flags, std::vector<std::string>{"implausible_speedup"});
}

TEST(UnsteadyTiming, AnObservationThatIsNoBooleanIsIgnored) {
  Facts facts = passed_facts();
  facts.run.observations["timing_steady"] = "no";
  auto o = decide(EvalJob{"j", "problem.py", "candidate.py"}, facts);
  EXPECT_EQ(o.verdict, "pass") << o.detail;
  EXPECT_FALSE(flagged(o, "unsteady_timing"));
}

TEST(Observations, OfTheWrongTypeRejectTheCandidateInsteadOfThrowing) {
  Facts facts = passed_facts();
  facts.run.observations["custom_kernel_launches"] = "many";
  facts.run.observations["threads_after_forward"] = "none";
  EXPECT_EQ(decide(EvalJob{"j", "problem.py", "candidate.py"}, facts).verdict, "no_custom_kernel");
}

TEST(OwnKernels, EveryCallMustLaunchOneOfTheCandidatesOwn) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.run.observations["calls_without_own_kernel"] = Json{{"trials", 0}, {"warmup", 0}, {"timed", 0}};
  EXPECT_EQ(decide(job, facts).verdict, "pass");
  facts.run.observations["calls_without_own_kernel"]["timed"] = 7;
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "no_custom_kernel");
  EXPECT_NE(o.detail.find("7 timed"), std::string::npos) << o.detail;
  EXPECT_EQ(o.message, verdict_message("no_custom_kernel"));
}

TEST(OwnKernels, ANegligibleShareOfTheTimeIsFlaggedNotRejected) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.run.observations["own_work_share"] = 0.5;
  facts.run.observations["own_work_ms"] = 0.002;
  EXPECT_TRUE(decide(job, facts).flags.empty()) << "tiny kernels of a tiny problem";
  // A decoy beside a large torch operation: one launch touching one element.
  facts.run.observations["own_work_share"] = 0.001;
  facts.run.observations["own_work_ms"] = 0.003;
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "pass");
  EXPECT_EQ(o.flags, std::vector<std::string>{"negligible_own_work"});
  // Below 2% whatever its time; a few percent only when its time is tiny too.
  facts.run.observations["own_work_share"] = 0.015;
  facts.run.observations["own_work_ms"] = 0.5;
  EXPECT_TRUE(flagged(decide(job, facts), "negligible_own_work"));
  facts.run.observations["own_work_share"] = 0.05;
  facts.run.observations["own_work_ms"] = 0.005;
  EXPECT_TRUE(flagged(decide(job, facts), "negligible_own_work"));
}

TEST(OwnKernels, OnTheCpuTheShareAloneDecides) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.on_gpu = false;
  facts.run.observations["own_work_share"] = 0.05;
  facts.run.observations["own_work_ms"] = 0.5;
  EXPECT_TRUE(flagged(decide(job, facts), "negligible_own_work"));
  facts.run.observations["own_work_share"] = 0.2;
  facts.run.observations["own_work_ms"] = 0.001;
  EXPECT_FALSE(flagged(decide(job, facts), "negligible_own_work"));
}

TEST(OwnKernels, AnEpilogueFusedBesideATorchConvolutionIsNotFlagged) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.run.observations["own_work_share"] = 0.04;  // 40 us of own kernels beside a 1 ms convolution
  facts.run.observations["own_work_ms"] = 0.04;
  EXPECT_TRUE(decide(job, facts).flags.empty());
}

// The facts of a candidate that ended with an error record of `stage`.
Facts ended_at(const std::string& stage, const std::string& detail) {
  Facts facts;
  facts.run.end = CandidateRun::End::kError;
  facts.run.stage = stage;
  facts.run.detail = detail;
  return facts;
}

TEST(Outputs, RefusedByIdentityOrDeviceBeforeUseHaveVerdictsOfTheirOwn) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = ended_at("output_type", "output 0 is a subclass of torch.Tensor (its type calls itself torch.Tensor)");
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "lazy_output");
  EXPECT_EQ(o.detail, facts.run.detail);
  facts.run.stage = "output_device";
  o = decide(job, facts);
  EXPECT_EQ(o.verdict, "device_mismatch");
  EXPECT_EQ(o.message, verdict_message("device_mismatch"));
  EXPECT_FALSE(o.message.empty());
}

TEST(NativeCalls, AForbiddenSymbolRejectsWhetherTheBuildFailedOrTheCandidateCaughtIt) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts caught = passed_facts();
  caught.run.observations["forbidden_native_calls"] = Json{"fork"};
  auto o = decide(job, caught);
  EXPECT_EQ(o.verdict, "forbidden_native_call");
  EXPECT_NE(o.detail.find("fork"), std::string::npos);
  EXPECT_EQ(decide(job, ended_at("native", "ForbiddenNativeCall: kmem_x.so calls pthread_create")).verdict,
            "forbidden_native_call");
}

TEST(RuntimeCalls, AnEventTheAuditHookRefusedIsItsOwnVerdictWithWhatWasRefused) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  auto o = decide(
      job,
      ended_at("audit", "unpickling the global builtins.exec (pickled code runs) (audit event pickle.find_class)"));
  EXPECT_EQ(o.verdict, "forbidden_runtime_call");
  EXPECT_EQ(o.message, verdict_message("forbidden_runtime_call"));
  EXPECT_NE(o.detail.find("builtins.exec"), std::string::npos);
}

TEST(ForgedTiming, AMedianOutsideTheNativeTallyIsRejected) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.run.candidate_ms = 0.01;  // rewritten after the native clock measured 1.9..2.2 ms
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "forged_timing");
  EXPECT_EQ(o.score, 0.0);
  facts = passed_facts();
  facts.run.observations.erase("timing_tally");
  EXPECT_EQ(decide(job, facts).verdict, "forged_timing") << "a worker of ours always reports its tally";
}

// What the candidate's native harness wrote into the reference's report slot.
MeasuredTiming measured_as_reported(const Facts& facts) {
  MeasuredTiming measured;
  measured.candidate_ms = facts.run.candidate_ms;
  measured.tally = facts.run.observations["timing_tally"];
  return measured;
}

TEST(ForgedTiming, ARecordThatDisagreesWithTheHarnesssReportIsRejected) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.judgement->measured = measured_as_reported(facts);
  EXPECT_EQ(decide(job, facts).verdict, "pass");
  // The record rewritten consistently (median and tally 40x shorter): possible
  // by itself, but not what the harness measured.
  facts.run.candidate_ms = 2.0 / 40;
  facts.run.observations["timing_tally"] = {
      {"calls", 30}, {"measured_ms", 60.0 / 40}, {"fastest_ms", 1.9 / 40}, {"slowest_ms", 2.2 / 40}};
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "forged_timing");
  EXPECT_NE(o.detail.find("its harness measured 2 ms"), std::string::npos) << o.detail;
}

TEST(ForgedTiming, TheSpeedupAndFlagsComeFromTheHarnesssReport) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.judgement->measured = measured_as_reported(facts);
  facts.judgement->measured->steady = false;
  facts.judgement->measured->same_storage = true;
  EXPECT_EQ(decide(job, facts).verdict, "stale_output");
  facts.judgement->measured->same_storage = false;
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "pass");
  EXPECT_DOUBLE_EQ(o.speedup, 2.0);
  EXPECT_TRUE(flagged(o, "unsteady_timing"));
}

// Other threads' CPU time between timed calls' staging and their clocks is
// work done outside the clock: background_work beyond 2 ms, a tenth of the
// calls' time at the median and, on a GPU, 0.02 ms a call; reported on every
// timed run either way.
TEST(BackgroundWork, OtherThreadsWorkingBetweenTheInputsAndTheClockReject) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();  // 2 ms calls on a GPU
  facts.judgement->measured = measured_as_reported(facts);
  facts.judgement->measured->background_calls = 20;
  facts.judgement->measured->background_cpu_ms = 2.0 + 0.1 * 2.0 * 20 + 0.02 * 20;  // the allowance itself
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "pass") << o.detail;
  EXPECT_DOUBLE_EQ(*o.profile.background_cpu_ms, 6.4);
  facts.judgement->measured->background_cpu_ms = 6.5;
  o = decide(job, facts);
  EXPECT_EQ(o.verdict, "background_work");
  EXPECT_NE(o.detail.find("6.5 ms of CPU"), std::string::npos) << o.detail;
  facts.on_gpu = false;  // no allowance for the driver's threads on the CPU
  facts.judgement->measured->background_cpu_ms = 6.1;
  EXPECT_EQ(decide(job, facts).verdict, "background_work");
}

// The reference's Stager saw an input set asked for out of turn (read
// ahead of its call): the time is forged, whatever the outputs.
TEST(Staging, ASetAskedForOutOfTurnIsForgedTiming) {
  EvalJob job{"j", "problem.py", "candidate.py"};
  Facts facts = passed_facts();
  facts.judgement->correct = false;
  facts.judgement->failure = "read_ahead";
  facts.judgement->detail = "1 input set(s) asked for out of turn (the first: set 4)";
  auto o = decide(job, facts);
  EXPECT_EQ(o.verdict, "forged_timing");
  EXPECT_EQ(o.detail, facts.judgement->detail);
}

}  // namespace
}  // namespace kmem::eval
