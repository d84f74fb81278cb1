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
};

struct Judgement {
  bool correct = false;
  std::string failure;  // shape, type, dtype, mutation, values, timed, missing, unreadable
  std::string detail;
  Correctness correctness;
  std::optional<double> roofline_ms;  // the problem's floor, when it could be computed
  std::optional<MeasuredTiming> measured;  // absent when the harness finished no measurement
};

class Reference {
 public:
  // Places `problem` on a reference worker of `hosts` and prepares it;
  // models are built after seeding with `init_seed` (the candidate's too).
  // Each call below sets *out_of_memory, when given, to whether it failed
  // because the worker ran out of memory (its error record's kind).
  static Result<std::unique_ptr<Reference>> prepare(const std::string& problem, uint64_t init_seed,
                                                    const EvalOptions& options, TimingLock& timing_lock,
                                                    ReferenceHosts& hosts, bool* out_of_memory = nullptr);

  // Gives the candidate working in `folder` its own copy of the inputs;
  // returns the path to hand it (thread-safe, like the two below).
  Result<std::string> share(const std::string& folder, TimingLock& timing_lock, bool* out_of_memory = nullptr);
  // Judges the outputs of the candidate that worked in `folder` and ended
  // with `run` (its trials' in the slots shared with it, or saved at
  // `outputs_path`; its warm-up and timed calls' input sets and judged
  // outputs in the memory the reference shared with it).
  Result<Judgement> judge(const std::string& folder, const CandidateRun& run, const std::string& outputs_path,
                          TimingLock& timing_lock, bool* out_of_memory = nullptr);
  // Drops the copy shared with `folder`'s candidate, once it is done.
  Status release(const std::string& folder, TimingLock& timing_lock, bool* out_of_memory = nullptr);

  // Tells the worker to drop the problem and free its memory, without
  // waiting for the answer (its next command reads it).
  ~Reference();

  double reference_ms() const { return reference_ms_; }
  bool reference_cached() const { return reference_cached_; }
  // False when the reference is host-bound and was timed while the host ran
  // slow (python/kmem_worker/host_speed.py).
  bool timing_steady() const { return timing_steady_; }
  bool degenerate() const { return degenerate_; }
  // The worker's stage timings while preparing.
  const Json& prepare_seconds() const { return seconds_; }

 private:
  Reference(ReferenceHosts::Place place, const EvalOptions& options)
      : place_(std::move(place)), options_(options) {}
  // ReferenceHost::request about this problem; sets *out_of_memory (when given).
  Result<Json> request(const Json& command, const char* reply_event, double timeout_s, const std::string& what,
                       TimingLock& timing_lock, bool* out_of_memory, RequestInfo* info = nullptr) {
    RequestInfo own;
    RequestInfo& told = info != nullptr ? *info : own;
    auto answer = place_.host->request(place_.handle, command, reply_event, timeout_s, what, timing_lock, &told);
    if (out_of_memory != nullptr) *out_of_memory = told.out_of_memory;
    return answer;
  }

  ReferenceHosts::Place place_;
  const EvalOptions& options_;
  double reference_ms_ = 0.0;
  bool reference_cached_ = false;
  bool timing_steady_ = true;
  bool degenerate_ = false;
  Json seconds_ = Json::object();
};

// 64 bits from the operating system's random source.
uint64_t secret_random();
// A random seed that torch.manual_seed and JSON both take.
uint64_t random_seed();

}  // namespace kmem::eval
