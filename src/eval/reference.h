// The reference of one problem, on a trusted reference worker that may host
// others (reference_hosts.h): prepares the input sets and expected outputs
// (from a secret seed drawn here and sent to that worker alone), times the
// reference (or reads its cached time), then judges candidates' outputs,
// reporting the problem's roofline floor with each judgement. Once the
// problem is done, it is dropped from its worker.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "candidate.h"
#include "kmem/eval.h"
#include "reference_hosts.h"

namespace kmem::eval {

// The reference's facts about one candidate's outputs.
// What the candidate's native harness measured, as the reference read it from
// the report slot the harness wrote in memory the reference shared (so no
// code in the candidate's process could rewrite it on the way, as it could
// the candidate's own record).
struct MeasuredTiming {
  double candidate_ms = 0.0;
  nlohmann::json tally;  // {"calls", "measured_ms", "fastest_ms", "slowest_ms"}, as the observation timing_tally
  bool same_storage = false, host_bound = false, steady = true;
  // Other threads' CPU time between timed calls' staging and their clock, over how many calls.
  double background_cpu_ms = 0.0;
  int background_calls = 0;
};

// What the reference's Stager saw of a candidate's calls on its own clock
// (the verdict's `staged`; python/kmem_worker/harness.cpp, Stager).
struct StagedCalls {
  int calls = 0;                   // input sets staged in turn, warm-up and timed
  int judged_calls = 0;            // timed calls whose outputs the Stager took for judging
  double judged_fastest_ms = 0.0;  // the shortest of their times, inputs staged to output taken
  double output_bytes = 0.0;       // the bytes of one call's outputs
};

struct Judgement {
  bool correct = false;
  std::string failure;  // shape, type, dtype, mutation, values, timed, missing, unreadable
  std::string detail;
  Correctness correctness;
  std::optional<double> roofline_ms;       // the problem's floor, when it could be computed
  std::optional<MismatchFacts> mismatch;   // where the values differ (failure "values")
  std::optional<MeasuredTiming> measured;  // absent when the harness finished no measurement
  std::optional<StagedCalls> staged;       // absent when nothing was staged
};

// What a problem takes of the device, in bytes, as its reference worker
// measured while preparing it (python/kmem_worker/footprint.py).
struct DeviceMemory {
  int64_t total = 0;          // the device's memory
  int64_t held = 0;           // kept on the reference's worker until the problem is dropped
  int64_t per_candidate = 0;  // one candidate's run, in its process and the reference's
};

// Whether the batch measures the compile baseline (EvalOptions::compile_baseline; by default on CUDA).
bool wants_compile_baseline(const EvalOptions& options);

class Reference {
 public:
  // Places `problem` on a reference worker of `hosts` and prepares it;
  // models are built after seeding with `init_seed` (the candidate's too).
  // An error of each call below is of kind Error::Kind::kOutOfMemory when
  // the worker ran out of memory (its error record's kind).
  static Result<std::unique_ptr<Reference>> prepare(const std::string& problem, uint64_t init_seed,
                                                    const EvalOptions& options, TimingLock& timing_lock,
                                                    ReferenceHosts& hosts);

  // The reference of `problem` under torch.compile, measured (unless cached)
  // and stored in the facts cache by a worker of `hosts` that keeps nothing
  // of it: none when compiling or timing failed (the reason is cached too).
  // Meant for hosts that serve no candidate, since compiling takes seconds
  // to a minute and a host answers one command at a time.
  static Result<std::optional<double>> measure_compile_baseline(const std::string& problem, uint64_t init_seed,
                                                                const EvalOptions& options, ReferenceHosts& hosts);

  // Gives the candidate working in `folder` its own copy of the inputs;
  // returns the path to hand it (thread-safe, like the two below).
  Result<std::string> share(const std::string& folder);
  // Judges the outputs of the candidate that worked in `folder` and ended
  // with `run` (its trials' in the slots shared with it, or saved at
  // `outputs_path`; its warm-up and timed calls' input sets and judged
  // outputs in the memory the reference shared with it).
  Result<Judgement> judge(const std::string& folder, const CandidateRun& run, const std::string& outputs_path);
  // Drops the copy shared with `folder`'s candidate, once it is done.
  Status release(const std::string& folder);

  // Tells the worker to drop the problem and free its memory, without
  // waiting for the answer (its next command reads it).
  ~Reference();

  double reference_ms() const { return reference_ms_; }
  // The process group of the worker hosting it, which stages a candidate's
  // inputs while the candidate measures (so it is not paused then).
  pid_t host_group() const { return place_.host->group(); }
  bool reference_cached() const { return reference_cached_; }
  // The reference under torch.compile; none when the baseline is off or failed.
  std::optional<double> compile_ms() const { return compile_ms_; }
  // The compile baseline is wanted but not cached: measure_compile_baseline gives it.
  bool compile_pending() const { return compile_pending_; }
  // The timed calls each measurement makes at least: iters, fewer where the
  // problem's input sets are large (docs/measurement.md, "Inputs and outputs of every call").
  int timed_calls() const { return timed_calls_; }
  // False when the reference is host-bound and was timed while the host ran
  // slow (python/kmem_worker/host_speed.py).
  bool timing_steady() const { return timing_steady_; }
  bool degenerate() const { return degenerate_; }
  // On CUDA: what the problem holds and a candidate needs (memory_gate.h).
  const std::optional<DeviceMemory>& device_memory() const { return device_memory_; }
  // The worker's stage timings while preparing.
  const Json& prepare_seconds() const { return seconds_; }

 private:
  Reference(ReferenceHosts::Place place, const EvalOptions& options) : place_(std::move(place)), options_(options) {}
  // ReferenceHost::request about this problem.
  Result<Json> request(const Json& command, const char* answer_event, double timeout_s, const std::string& what,
                       RequestInfo* info = nullptr) {
    return place_.host->request(place_.handle, command, answer_event, timeout_s, what, info);
  }

  ReferenceHosts::Place place_;
  const EvalOptions& options_;
  double reference_ms_ = 0.0;
  bool reference_cached_ = false;
  std::optional<double> compile_ms_;
  bool compile_pending_ = false;
  int timed_calls_ = options_.iters;
  bool timing_steady_ = true;
  bool degenerate_ = false;
  std::optional<DeviceMemory> device_memory_;
  Json seconds_ = Json::object();
};

}  // namespace kmem::eval
