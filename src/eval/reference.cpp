// Driving the reference worker: prepare once, judge per candidate.
#include "reference.h"

#include <random>

namespace kmem::eval {

uint64_t secret_random() {
  std::random_device device;  // /dev/urandom on Linux
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

uint64_t random_seed() { return secret_random() % (1ULL << 62); }

static constexpr size_t kLogTail = 16 * 1024;

Error Reference::failure(const std::string& what, const Worker::Reply& reply) const {
  std::string text = what;
  if (reply.kind == Worker::Reply::kTimeout) text += ": timed out";
  if (reply.kind == Worker::Reply::kClosed) text += ": " + worker_->process().kill_and_reap().describe();
  if (reply.kind == Worker::Reply::kMalformed) text += ": unexpected output '" + reply.line + "'";
  if (reply.kind == Worker::Reply::kEvent)
    text += ": " + reply.event.value("message", reply.event.dump()) + "\n" + reply.event.value("traceback", "");
  std::string log = read_tail(worker_->log_path(), kLogTail);
  if (!log.empty()) text += "\n" + log;
  return Error(text);
}

Result<std::unique_ptr<Reference>> Reference::prepare(const std::string& problem, uint64_t init_seed,
                                                      const EvalOptions& options,
                                                      TimingLock& timing_lock, WorkerPool& pool) {
  auto worker = pool.take("reference");
  if (!worker) return worker.error().wrap(problem);
  std::unique_ptr<Reference> reference(new Reference(std::move(*worker), options));
  reference->worker_->send(Json{
      {"cmd", "prepare"},
      {"problem", problem},
      {"device", options.device},
      {"init_seed", init_seed},
      {"secret_seed", random_seed()},
      {"trials", options.trials},
      {"timing", {{"warmup", options.warmup}, {"iters", options.iters}, {"sets", options.timing_sets}}},
      {"tolerance", options.tolerance},
      {"facts_cache", options.cache_dir + "/reference"},
      {"retime", options.retime_reference},
  });
  // Preparing loads torch and the problem, like a build: the build limit.
  auto deadline = Clock::now() + seconds(options.build_timeout_s);
  auto reply = reference->worker_->next(deadline, timing_lock);
  if (reply.kind != Worker::Reply::kEvent || reply.event["event"] != "ready")
    return reference->failure(problem + ": the reference failed", reply);
  reference->reference_ms_ = reply.event.value("reference_ms", 0.0);
  reference->degenerate_ = reply.event.value("degenerate", false);
  reference->reference_cached_ = reply.event.value("cached", false);
  if (reply.event.contains("seconds") && reply.event["seconds"].is_object())
    reference->seconds_ = reply.event["seconds"];
  return reference;
}

Result<std::string> Reference::share(const std::string& folder, TimingLock& timing_lock) {
  std::lock_guard hold(mutex_);
  worker_->send(Json{{"cmd", "share"}, {"folder", folder}, {"ipc", options_.inputs_by_ipc}});
  auto deadline = Clock::now() + seconds(options_.run_timeout_s);
  auto reply = worker_->next(deadline, timing_lock);
  if (reply.kind != Worker::Reply::kEvent || reply.event["event"] != "shared" || !reply.event["path"].is_string())
    return failure("the reference failed to share its inputs with " + folder, reply);
  return reply.event["path"].get<std::string>();
}

Status Reference::release(const std::string& folder, TimingLock& timing_lock) {
  std::lock_guard hold(mutex_);
  worker_->send(Json{{"cmd", "release"}, {"folder", folder}});
  auto deadline = Clock::now() + seconds(options_.run_timeout_s);
  auto reply = worker_->next(deadline, timing_lock);
  if (reply.kind != Worker::Reply::kEvent || reply.event["event"] != "released")
    return failure("the reference failed to release the inputs of " + folder, reply);
  return Status::success();
}

Result<Judgement> Reference::judge(const std::string& outputs_path, TimingLock& timing_lock) {
  std::lock_guard hold(mutex_);
  worker_->send(Json{{"cmd", "judge"}, {"outputs", outputs_path}, {"tolerance", options_.tolerance}});
  auto deadline = Clock::now() + seconds(options_.run_timeout_s);
  auto reply = worker_->next(deadline, timing_lock);
  if (reply.kind != Worker::Reply::kEvent || reply.event["event"] != "verdict")
    return failure("the reference failed to judge " + outputs_path, reply);
  const Json& e = reply.event;
  Judgement judgement;
  judgement.correct = e.value("correct", false);
  judgement.failure = e.value("failure", "");
  judgement.detail = e.value("detail", "");
  judgement.correctness.trials = e.value("trials", 0);
  judgement.correctness.max_abs_error = e.value("max_abs_error", 0.0);
  judgement.correctness.max_rel_error = e.value("max_rel_error", 0.0);
  if (e.contains("roofline_ms") && e["roofline_ms"].is_number()) judgement.roofline_ms = e["roofline_ms"].get<double>();
  return judgement;
}

}  // namespace kmem::eval
