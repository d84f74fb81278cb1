// Which outcomes count as the GPU running out of memory (and so earn a run
// of their own), and when a passing outcome is flagged: timed on an
// unsteady host or bound by it, or faster than the problem's floor.
#include <gtest/gtest.h>

#include <algorithm>

#include "verdict.h"

namespace kmem::eval {
namespace {

EvalOutcome outcome(const std::string& verdict, const std::string& detail) {
  EvalOutcome o;
  o.verdict = verdict;
  o.detail = detail;
  return o;
}

TEST(OutOfDeviceMemory, TorchAndCudaMessagesAreRecognised) {
  EXPECT_TRUE(ran_out_of_device_memory(outcome("runtime_error", "OutOfMemoryError: CUDA out of memory. Tried")));
  EXPECT_TRUE(ran_out_of_device_memory(outcome("evaluator_error", "the reference failed to judge x: OutOfMemoryError")));
  EXPECT_TRUE(ran_out_of_device_memory(outcome("crash", "RuntimeError: CUDA error: out of memory")));
}

TEST(OutOfDeviceMemory, OtherFailuresAndVerdictsAreNot) {
  EXPECT_FALSE(ran_out_of_device_memory(outcome("runtime_error", "ValueError: bad shape")));
  EXPECT_FALSE(ran_out_of_device_memory(outcome("crash", "killed by signal 11")));
  // A judgement is final whatever its detail says.
  EXPECT_FALSE(ran_out_of_device_memory(outcome("output_mismatch", "OutOfMemoryError")));
  EXPECT_FALSE(ran_out_of_device_memory(outcome("pass", "")));
}

// The facts of a candidate that passed in 2 ms against a 4 ms reference.
Facts passed_facts() {
  Facts facts;
  facts.run.end = CandidateRun::End::kResult;
  facts.run.candidate_ms = 2.0;
  facts.run.observations = Json{{"custom_kernel_launches", 3}, {"output_types", {"torch.Tensor"}}};
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

}  // namespace
}  // namespace kmem::eval
