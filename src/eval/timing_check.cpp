// Whether a reported time is possible given the wall time of the timing
// lock's holds (timing_check.h). The margins keep every honest run inside:
// the harness's own work between calls (cache flush, synchronisation, host
// probes of host-bound models, Python) is per call and calibrated; the rest
// (allocating the flush buffer, pipes, scheduling, a garbage collection)
// is a fixed allowance per measurement.
#include "timing_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kmem::eval {

namespace {

// Overhead per call when no reference was timed in this batch: generous
// bounds of the harness's own work (GPU: flush of 2x L2 and two device
// synchronisations, ~0.1 ms on the H200; CPU: writing 64 MiB, 10 ms on an
// idle development machine, several times that when its CPUs are shared).
constexpr double kDefaultOverheadMsGpu = 1.0;
constexpr double kDefaultOverheadMsCpu = 60.0;
// A calibration is scaled by this (reference and candidate share the
// machine, not the moment) and never below the floor.
constexpr double kCalibrationFactor = 2.0;
constexpr double kFloorOverheadMsGpu = 0.2;
constexpr double kFloorOverheadMsCpu = 5.0;
// The wall time may exceed the calls plus their overhead by this factor and
// fixed allowance.
constexpr double kWallFactorGpu = 1.5, kWallFactorCpu = 2.0;
constexpr double kWallAllowanceMsGpu = 250.0, kWallAllowanceMsCpu = 500.0;
// Events measure inside the wall time; this much rounding is allowed.
constexpr double kMeasuredOverWallMs = 20.0;
// The reference's clock (Stager): the fastest judged call may take this
// factor of the reported median, plus the harness's overhead per call, two
// copies of the outputs (the harness's into the out-slot, the Stager's out
// of it) at a bandwidth any device exceeds, even from a permuted view (a
// CPU copied one of 64 MiB at 0.35 GB/s), and the hand-over
// between the two processes (futex wake-ups, the GPU switching between
// their contexts for the copy: 0.5 ms beyond the call seen on an H100 for a
// 0.05 ms kernel; 1 ms allowed). The factor covers a host's slow spells (up
// to twice as slow, measurement.md), which may fill whole rounds that gave
// up before the round whose median is reported.
constexpr double kStagedFactor = 2.5;
constexpr double kCopyBytesPerMsGpu = 100e6, kCopyBytesPerMsCpu = 0.25e6;  // 100 GB/s, 0.25 GB/s
constexpr double kHandOverMsGpu = 1.0, kHandOverMsCpu = 10.0;

bool finite_number(const nlohmann::json& tally, const char* key) {
  return tally.contains(key) && tally[key].is_number() && std::isfinite(tally[key].get<double>());
}

}  // namespace

std::optional<double> call_overhead_ms(const nlohmann::json& tally, double held_s) {
  if (!tally.is_object() || !finite_number(tally, "calls") || !finite_number(tally, "measured_ms")) return std::nullopt;
  double calls = tally["calls"].get<double>();
  if (calls < 1 || held_s <= 0) return std::nullopt;
  return std::max(0.0, (held_s * 1e3 - tally["measured_ms"].get<double>()) / calls);
}

std::optional<std::string> impossible_timing(const TimingClaim& claim) {
  const nlohmann::json& tally = claim.tally;
  for (const char* key : {"calls", "measured_ms", "fastest_ms", "slowest_ms"})
    if (!tally.is_object() || !finite_number(tally, key))
      return fmt::format("the native clock's tally lacks {} (reported: {})", key, tally.dump());
  const double calls = tally["calls"].get<double>(), measured = tally["measured_ms"].get<double>();
  const double fastest = tally["fastest_ms"].get<double>(), slowest = tally["slowest_ms"].get<double>();
  const double median = claim.candidate_ms;
  if (calls < claim.min_calls)
    return fmt::format("{:g} calls timed, fewer than the {} the harness makes", calls, claim.min_calls);
  if (!(median >= fastest * (1 - 1e-6) && median <= slowest * (1 + 1e-6)))
    return fmt::format("the median {:g} ms lies outside the calls timed ({:g}..{:g} ms)", median, fastest, slowest);
  if (!(measured >= fastest * calls * (1 - 1e-6) && measured <= slowest * calls * (1 + 1e-6)))
    return fmt::format("{:g} ms measured over {:g} calls of {:g}..{:g} ms", measured, calls, fastest, slowest);
  const bool gpu = claim.on_gpu;
  const double overhead = claim.call_overhead_ms > 0 ? std::max(kCalibrationFactor * claim.call_overhead_ms,
                                                                gpu ? kFloorOverheadMsGpu : kFloorOverheadMsCpu)
                                                     : (gpu ? kDefaultOverheadMsGpu : kDefaultOverheadMsCpu);
  if (claim.staged_calls > 0) {
    if (calls != claim.staged_calls)
      return fmt::format("{:g} calls timed, but the reference staged the inputs of {} calls", calls,
                         claim.staged_calls);
    const double copies = 2 * claim.staged_output_bytes / (gpu ? kCopyBytesPerMsGpu : kCopyBytesPerMsCpu);
    const double bound = kStagedFactor * median + overhead + copies + (gpu ? kHandOverMsGpu : kHandOverMsCpu);
    if (claim.staged_judged_calls > 0 && claim.staged_judged_fastest_ms > bound)
      return fmt::format(
          "on the reference's clock the fastest of the {} judged calls took {:.3g} ms (inputs staged to output "
          "taken), but a reported median of {:g} ms allows {:.3g} ms",
          claim.staged_judged_calls, claim.staged_judged_fastest_ms, median, bound);
  }
  if (claim.held_s <= 0) return std::nullopt;  // no hold seen: nothing to compare with
  const double wall = claim.held_s * 1e3;
  if (measured > wall * 1.05 + kMeasuredOverWallMs)
    return fmt::format("{:g} ms measured within {:g} ms of wall time", measured, wall);
  double allowed = (gpu ? kWallFactorGpu : kWallFactorCpu) * (measured + calls * overhead) +
                   (gpu ? kWallAllowanceMsGpu : kWallAllowanceMsCpu);
  if (wall > allowed)
    return fmt::format(
        "the timing lock was held {:.0f} ms, but {:g} calls measuring {:g} ms (median {:g} ms) "
        "account for {:.0f} ms at most",
        wall, calls, measured, median, allowed);
  return std::nullopt;
}

}  // namespace kmem::eval
