// Driving the candidate worker through build, inputs, timing and result.
#include "candidate.h"

#include <fmt/format.h>

#include <filesystem>

#include "protocol.h"
#include "secret_random.h"

namespace kmem::eval {

// How long a worker may take to exit after its terminal record.
static constexpr double kExitGraceSeconds = 10;

CandidateProcess::CandidateProcess(std::unique_ptr<Worker> worker, const EvalOptions& options, std::string scratch,
                                   std::string nonce)
    : worker_(std::move(worker)),
      options_(options),
      scratch_(std::move(scratch)),
      nonce_(std::move(nonce)),
      build_deadline_(Clock::now() + seconds(options.build_timeout_s)) {}

Result<std::unique_ptr<CandidateProcess>> CandidateProcess::start(const EvalJob& job, const EvalOptions& options,
                                                                  const std::string& scratch, uint64_t init_seed,
                                                                  WorkerPool& pool) {
  auto worker = pool.take("candidate");
  if (!worker) return worker.error().wrap(job.candidate);
  // In the sandbox the worker sees nothing of the machine's files but its
  // scratch folder (and the read-only system): the candidate goes there. The
  // problem's code never runs in its process (the reference draws every
  // call's inputs).
  std::string candidate = job.candidate;
  if (options.sandbox) {
    candidate = scratch + "/candidate.py";
    std::error_code ec;
    std::filesystem::copy_file(job.candidate, candidate, std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) return Error(job.candidate + ": cannot copy into the scratch folder: " + ec.message());
  }
  std::string nonce = fmt::format("{:016x}{:016x}", secret_random(), secret_random());
  std::unique_ptr<CandidateProcess> run(new CandidateProcess(std::move(*worker), options, scratch, nonce));
  bool sent = run->worker_->send(Json{
      {"cmd", "run"},
      {"candidate", candidate},
      {"device", options.device},
      {"init_seed", init_seed},
      {"timing", {{"warmup", options.warmup}, {"iters", options.iters}}},
      {"workdir", scratch},
      {"outputs", run->outputs_path()},
      {"nonce", nonce},
  });
  if (!sent)  // it died waiting in the pool: the evaluator's failure, not the candidate's
    return Error(job.candidate + ": the candidate worker was gone before the run began (" +
                 run->worker_->process().kill_and_reap().describe() + ")");
  return run;
}

CandidateRun CandidateProcess::ended(CandidateRun::End end, std::string detail) {
  CandidateRun run;
  run.end = end;
  run.detail = std::move(detail);
  worker_->process().kill_and_reap();
  run.log = read_tail(worker_->log_path(), kLogTail);
  run.timing_lock_wait_s = worker_->timing_lock_wait_s();
  run.timing_lock_held_s = worker_->timing_lock_held_s();
  return run;
}

// An answer that cuts the run short: timeout, exit, or a line that is no event.
CandidateRun CandidateProcess::after_answer(const Worker::Answer& answer, bool built) {
  using End = CandidateRun::End;
  if (answer.kind == Worker::Answer::kTimeout)
    return ended(built ? End::kTimeout : End::kBuildTimeout,
                 fmt::format("no result within {:g} s", built ? options_.run_timeout_s : options_.build_timeout_s));
  if (answer.kind == Worker::Answer::kMalformed)
    return ended(End::kForged, "the result channel held a line the worker did not write: " + answer.line);
  if (answer.kind == Worker::Answer::kInvalid)
    return ended(End::kForged, "the result channel held a record the worker protocol does not allow (" + answer.error +
                                   "): " + answer.line);
  auto status = worker_->process().wait_then_kill(Clock::now() + seconds(kExitGraceSeconds));
  return ended(End::kCrash, "the worker " + status.describe() + " before reporting a result");
}

CandidateRun CandidateProcess::finish(const std::string& inputs_path, pid_t reference_group,
                                      const std::function<void()>& on_built) {
  using End = CandidateRun::End;
  auto deadline = build_deadline_;
  auto answer = worker_->next(deadline);
  bool built = answer.kind == Worker::Answer::kEvent && answer.event["event"] == "built";
  if (built) {
    if (on_built) on_built();
    // Paused while others measure from now on; the build (compilers on
    // the CPU) went on while they did.
    worker_->measure_beside(reference_group);
    worker_->enroll();
    worker_->send(Json{{"cmd", "inputs"}, {"path", inputs_path}});
    deadline = Clock::now() + seconds(options_.run_timeout_s);
    answer = worker_->next(deadline);
  }
  if (answer.kind != Worker::Answer::kEvent) return after_answer(answer, built);
  // Checked against the protocol (Worker::next): every field is of its type.
  Json terminal = answer.event;
  const std::string name = terminal["event"];
  if ((name != "result" && name != "error") || Fields("candidate", name, terminal).text("nonce") != nonce_)
    return ended(End::kForged, "the result channel held a record the worker did not write: " + terminal.dump());
  // Exactly one terminal record: anything after it was not written by the worker.
  auto grace = Clock::now() + seconds(kExitGraceSeconds);
  auto after = worker_->next(grace);
  if (after.kind == Worker::Answer::kEvent || after.kind == Worker::Answer::kMalformed ||
      after.kind == Worker::Answer::kInvalid)
    return ended(End::kForged, "a second record followed the worker's result: " +
                                   (after.kind == Worker::Answer::kEvent ? after.event.dump() : after.line));
  worker_->process().wait_then_kill(grace);
  if (name == "error") {
    Fields error("candidate", "error", terminal);
    auto run = ended(End::kError, error.text("message") + "\n" + error.text("traceback"));
    run.stage = error.text("stage");
    run.error_kind = eval::error_kind(error.text("kind"));
    return run;
  }
  Fields result("candidate", "result", terminal);
  const std::string outputs = result.text("outputs");
  if (outputs != "slots" && outputs != outputs_path())
    return ended(End::kForged, "the result named outputs the worker does not write: " + Json(outputs).dump());
  auto run = ended(End::kResult, "");
  run.candidate_ms = result.number("candidate_ms");
  run.outputs_in_slots = outputs == "slots";
  run.inputs_changed = result.json("inputs_changed");
  run.observations = result.json("observations");
  run.seconds = result.json("seconds");
  return run;
}

}  // namespace kmem::eval
