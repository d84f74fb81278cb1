// The check of a reported time against the orchestrator's wall clock: honest
// phases pass with their overheads (calibrated or not), impossible reports
// are named.
#include "timing_check.h"

#include <gtest/gtest.h>

namespace kmem::eval {
namespace {

// 1000 GPU calls of 0.2 ms each (0.1-0.4 ms) held for 300 ms: honest.
TimingClaim honest_gpu() {
  TimingClaim claim;
  claim.candidate_ms = 0.2;
  claim.tally = {{"calls", 1000}, {"measured_ms", 200.0}, {"fastest_ms", 0.1}, {"slowest_ms", 0.4}};
  claim.held_s = 0.3;
  claim.min_calls = 23;
  claim.on_gpu = true;
  return claim;
}

TEST(TimingCheck, AnHonestPhasePassesWithOrWithoutCalibration) {
  TimingClaim claim = honest_gpu();
  EXPECT_FALSE(impossible_timing(claim));
  claim.call_overhead_ms = 0.08;  // a reference's flush and synchronisations
  EXPECT_FALSE(impossible_timing(claim));
  claim.held_s = 0.0;  // no hold seen: only the tally's own consistency counts
  EXPECT_FALSE(impossible_timing(claim));
}

// 60 CPU calls of 4 ms, each after a 10-25 ms flush of the CPU's cache,
// probes between windows, held for 1.8 s: honest.
TimingClaim host_bound_cpu() {
  TimingClaim claim;
  claim.candidate_ms = 4.0;
  claim.tally = {{"calls", 60}, {"measured_ms", 250.0}, {"fastest_ms", 3.8}, {"slowest_ms", 9.0}};
  claim.held_s = 1.8;
  claim.min_calls = 23;
  claim.call_overhead_ms = 12.0;
  return claim;
}

TEST(TimingCheck, AHostBoundCpuPhaseWithItsFlushesPasses) { EXPECT_FALSE(impossible_timing(host_bound_cpu())); }

TEST(TimingCheck, NoTimeIsAllowedForDrawingInputsInsideTheHold) {
  // 200 calls of 0.5 ms held 520 ms: the time a call took to draw its
  // inputs once (1 ms each) is no longer allowed; the reference draws them ahead.
  TimingClaim claim = honest_gpu();
  claim.candidate_ms = 0.5;
  claim.tally = {{"calls", 200}, {"measured_ms", 100.0}, {"fastest_ms", 0.5}, {"slowest_ms", 0.5}};
  claim.held_s = 0.52;
  claim.call_overhead_ms = 0.08;
  EXPECT_TRUE(impossible_timing(claim));
}

TEST(TimingCheck, AWallTimeTheCallsCannotExplainIsImpossible) {
  // The harness was replaced: its calls "measured" a tenth of what they took.
  TimingClaim claim = honest_gpu();
  claim.candidate_ms = 0.5;
  claim.tally = {{"calls", 120}, {"measured_ms", 60.0}, {"fastest_ms", 0.5}, {"slowest_ms", 0.5}};
  claim.held_s = 0.6;
  claim.call_overhead_ms = 0.08;
  auto detail = impossible_timing(claim);
  ASSERT_TRUE(detail);
  EXPECT_NE(detail->find("held 600 ms"), std::string::npos) << *detail;
}

// What the reference's Stager saw of an honest GPU phase: the 1000 calls
// staged, the fastest of its 8 judged ones at 0.26 ms on its clock (the
// call's flush, synchronisations and output copies included), 4 MiB of
// outputs.
TimingClaim staged(TimingClaim claim) {
  claim.staged_calls = 1000;
  claim.staged_judged_calls = 8;
  claim.staged_judged_fastest_ms = 0.26;
  claim.staged_output_bytes = 4 << 20;
  return claim;
}

TEST(TimingCheck, TheReferencesClockBoundsTheReportedMedian) {
  TimingClaim claim = staged(honest_gpu());
  claim.call_overhead_ms = 0.08;
  EXPECT_FALSE(impossible_timing(claim));
  // A host's slow spell over every judged call (twice as slow) still passes.
  claim.staged_judged_fastest_ms = 0.52;
  EXPECT_FALSE(impossible_timing(claim));
  // Seen on an H100: an honest Triton kernel of 0.05 ms took 0.54 ms from
  // its inputs staged to its output taken (the hand-over between the
  // processes and their GPU contexts).
  claim.candidate_ms = 0.051;
  claim.tally = {{"calls", 1000}, {"measured_ms", 51.0}, {"fastest_ms", 0.04}, {"slowest_ms", 0.06}};
  claim.staged_judged_fastest_ms = 0.543;
  claim.call_overhead_ms = 0.05;
  EXPECT_FALSE(impossible_timing(claim));
  // Outputs of 1 GiB: their two copies are allowed for (an honest 0.2 ms
  // view-returning call whose outputs take 5 ms to copy).
  claim = staged(honest_gpu());
  claim.staged_output_bytes = 1 << 30;
  claim.staged_judged_fastest_ms = 5.0;
  EXPECT_FALSE(impossible_timing(claim));
  // On the CPU, a permuted 64 MiB view returned by a 4 ms call: the
  // harness's strided copy into the out-slot ran at 0.35 GB/s (a review's
  // case; 182-208 ms on the Stager's clock).
  TimingClaim cpu = host_bound_cpu();
  cpu.staged_calls = 60;
  cpu.staged_judged_calls = 8;
  cpu.staged_judged_fastest_ms = 208.0;
  cpu.staged_output_bytes = 64 << 20;
  EXPECT_FALSE(impossible_timing(cpu));
  // Calls of 1.6 ms reported in place as 0.05 ms: impossible, with no hold
  // to compare with, once the overhead per call is calibrated (0.2 ms at
  // least on a GPU); without a calibration the default (1 ms) bounds only
  // longer calls.
  claim = staged(honest_gpu());
  claim.candidate_ms = 0.05;
  claim.tally = {{"calls", 1000}, {"measured_ms", 50.0}, {"fastest_ms", 0.04}, {"slowest_ms", 0.06}};
  claim.staged_judged_fastest_ms = 1.66;
  claim.held_s = 0.0;
  claim.call_overhead_ms = 0.05;
  auto detail = impossible_timing(claim);
  ASSERT_TRUE(detail);
  EXPECT_NE(detail->find("reference's clock"), std::string::npos) << *detail;
  claim.call_overhead_ms = 0.0;
  EXPECT_FALSE(impossible_timing(claim));
  claim.staged_judged_fastest_ms = 2.6;  // calls of 2.6 ms
  EXPECT_TRUE(impossible_timing(claim));
  // A tally of more (or fewer) calls than the reference staged inputs for.
  claim = staged(honest_gpu());
  claim.staged_calls = 400;
  detail = impossible_timing(claim);
  ASSERT_TRUE(detail);
  EXPECT_NE(detail->find("staged the inputs of 400 calls"), std::string::npos) << *detail;
}

TEST(TimingCheck, ATallyInconsistentWithItselfOrTheWallIsImpossible) {
  TimingClaim claim = honest_gpu();
  claim.candidate_ms = 0.05;  // below every call timed
  EXPECT_TRUE(impossible_timing(claim));
  claim = honest_gpu();
  claim.tally["measured_ms"] = 20.0;  // less than 1000 calls of at least 0.1 ms
  EXPECT_TRUE(impossible_timing(claim));
  claim = honest_gpu();
  claim.held_s = 0.1;  // 200 ms measured within 100 ms
  EXPECT_TRUE(impossible_timing(claim));
  claim = honest_gpu();
  claim.tally["calls"] = 5;  // fewer than the harness makes
  claim.tally["measured_ms"] = 1.0;
  EXPECT_TRUE(impossible_timing(claim));
  claim = honest_gpu();
  claim.tally = "forged";
  EXPECT_TRUE(impossible_timing(claim));
}

TEST(TimingCheck, TheOverheadOfAReferencePhaseIsItsWallTimeBeyondItsCallsPerCall) {
  auto overhead = call_overhead_ms({{"calls", 100}, {"measured_ms", 50.0}}, 0.06);
  ASSERT_TRUE(overhead);
  EXPECT_NEAR(*overhead, 0.1, 1e-9);
  EXPECT_FALSE(call_overhead_ms(nullptr, 0.06));
  EXPECT_FALSE(call_overhead_ms({{"calls", 0}, {"measured_ms", 0.0}}, 0.06));
  EXPECT_FALSE(call_overhead_ms({{"calls", 100}, {"measured_ms", 50.0}}, 0.0));
}

}  // namespace
}  // namespace kmem::eval
