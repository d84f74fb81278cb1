// The orchestrator's check of a candidate's reported time against its own
// clock: the wall time for which the candidate held the timing lock (from
// the grant to its release, every turn), which no code in the candidate's
// process can shorten. The worker reports, besides its median, the native
// clock's tally of every call it timed while holding the lock
// (python/kmem_worker/native_clock.c): the count, the summed, fastest and
// slowest milliseconds. A report is impossible when the tally is missing or
// too short, the median lies outside the fastest..slowest range, more was
// measured than the wall clock allows, or the wall time is longer than the
// calls measured plus the harness's own overhead per call (calibrated on
// the reference workers' phases of this batch, see TimingLock) could take.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace kmem::eval {

struct TimingClaim {
  double candidate_ms = 0.0;      // the reported median
  nlohmann::json tally;           // the reported observation `timing_tally`
  double held_s = 0.0;            // the orchestrator's wall time of the candidate's holds
  int min_calls = 1;              // the fewest calls the harness makes (warm-up and iters)
  double call_overhead_ms = 0.0;  // calibrated harness overhead per call (0: none; the device's default)
  bool on_gpu = false;
  // The reference's own view of the calls (Stager): how many sets it staged,
  // and the shortest time of a judged call on its clock, from the staging
  // of its inputs to the end of its copy of the call's outputs (of
  // staged_output_bytes): a right output took at least that long, whatever
  // the harness's report says. staged_calls 0: nothing staged, nothing to
  // compare.
  int staged_calls = 0, staged_judged_calls = 0;
  double staged_judged_fastest_ms = 0.0, staged_output_bytes = 0.0;
};

// A detail naming what is impossible, or nullopt when the claim is possible.
std::optional<std::string> impossible_timing(const TimingClaim& claim);

// The per-call overhead a reference's phase shows: (wall - measured) / calls,
// or nullopt when the tally says nothing.
std::optional<double> call_overhead_ms(const nlohmann::json& tally, double held_s);

}  // namespace kmem::eval
