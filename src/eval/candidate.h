// One run of the untrusted candidate worker: started early so it imports and
// builds while the reference prepares, then fed the reference's inputs, timed
// under the timing lock, and read for exactly one terminal record carrying
// its nonce. Reports how the run ended; decides nothing.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "kmem/eval.h"
#include "worker.h"
#include "worker_pool.h"

namespace kmem::eval {

struct CandidateRun {
  enum class End { kResult, kError, kBuildTimeout, kTimeout, kCrash, kForged };
  End end = End::kCrash;
  std::string
      stage;  // kError: build, native, inputs, kernels, init, forward, timing, output_type, output_device, protocol
  ErrorKind error_kind = ErrorKind::kException;  // kError: out of memory, a sticky CUDA error, ...
  std::string detail;                            // the exception, the exit status, the forged line
  std::string log;                               // tail of the worker's stderr
  double candidate_ms = 0.0;
  bool outputs_in_slots = false;  // kResult: outputs in the reference's slots, else in outputs_path()
  Json inputs_changed;            // kResult: whether each trial changed its inputs, as reported
  Json observations = Json::object();
  Json seconds = Json::object();  // the worker's own stage timings
  double timing_lock_wait_s = 0.0;
  double timing_lock_held_s = 0.0;  // the orchestrator's wall time of its holds of the timing lock
};

class CandidateProcess {
 public:
  // Takes a worker from the pool and sends it the candidate to import;
  // `scratch` is a folder of this candidate's own.
  static Result<std::unique_ptr<CandidateProcess>> start(const EvalJob& job, const EvalOptions& options,
                                                         const std::string& scratch, uint64_t init_seed,
                                                         WorkerPool& pool);

  // Hands over the reference's inputs and runs to the end; `reference_group`
  // (the process group of the reference worker that stages its inputs)
  // keeps running while it measures. `on_built` (when given) is called once
  // the candidate reports it is built.
  CandidateRun finish(const std::string& inputs_path, pid_t reference_group,
                      const std::function<void()>& on_built = {});
  // Stops a candidate whose reference failed.
  void abandon() { worker_->process().kill_and_reap(); }

  // Where the candidate saves outputs that do not fit the reference's slots.
  std::string outputs_path() const { return scratch_ + "/outputs.pt"; }

 private:
  CandidateProcess(std::unique_ptr<Worker> worker, const EvalOptions& options, std::string scratch, std::string nonce);
  CandidateRun ended(CandidateRun::End end, std::string detail);
  CandidateRun after_answer(const Worker::Answer& answer, bool built);

  std::unique_ptr<Worker> worker_;
  const EvalOptions& options_;
  std::string scratch_;
  std::string nonce_;
  Clock::time_point build_deadline_;
};

}  // namespace kmem::eval
