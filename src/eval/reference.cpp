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

Result<Json> Reference::request(const Json& command, const char* reply_event, double timeout_s,
                                const std::string& what, TimingLock& timing_lock) {
  std::lock_guard hold(mutex_);
  worker_->send(command);
  auto deadline = Clock::now() + seconds(timeout_s);
  auto reply = worker_->next(deadline, timing_lock);
  if (reply.kind != Worker::Reply::kEvent || reply.event["event"] != reply_event) return failure(what, reply);
  return std::move(reply.event);
}

Result<std::unique_ptr<Reference>> Reference::prepare(const std::string& problem, uint64_t init_seed,
                                                      const EvalOptions& options,
                                                      TimingLock& timing_lock, WorkerPool& pool) {
  auto worker = pool.take("reference");
  if (!worker) return worker.error().wrap(problem);
  std::unique_ptr<Reference> reference(new Reference(std::move(*worker), options));
  reference->worker_->enroll(timing_lock);
  Json command{
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
  };
  // Preparing loads the problem and may compile, like a build: the build limit.
  auto ready = reference->request(command, "ready", options.build_timeout_s, problem + ": the reference failed",
                                  timing_lock);
  if (!ready) return ready.error();
  reference->reference_ms_ = ready->value("reference_ms", 0.0);
  reference->degenerate_ = ready->value("degenerate", false);
  reference->reference_cached_ = ready->value("cached", false);
  if (ready->contains("seconds") && (*ready)["seconds"].is_object()) reference->seconds_ = (*ready)["seconds"];
  return reference;
}

Result<std::string> Reference::share(const std::string& folder, TimingLock& timing_lock) {
  auto shared = request(Json{{"cmd", "share"}, {"folder", folder}, {"ipc", options_.inputs_by_ipc}}, "shared",
                        options_.run_timeout_s, "the reference failed to share its inputs with " + folder,
                        timing_lock);
  if (!shared) return shared.error();
  if (!(*shared)["path"].is_string()) return Error("the reference shared no path with " + folder);
  return (*shared)["path"].get<std::string>();
}

Status Reference::release(const std::string& folder, TimingLock& timing_lock) {
  auto released = request(Json{{"cmd", "release"}, {"folder", folder}}, "released", options_.run_timeout_s,
                          "the reference failed to release the inputs of " + folder, timing_lock);
  if (!released) return released.error();
  return Status::success();
}

void Reference::retire(WorkerPool& pool) {
  std::lock_guard hold(mutex_);
  if (worker_->send_owing(Json{{"cmd", "reset"}}, "reset", options_.run_timeout_s))
    pool.give_back("reference", std::move(worker_));
}

Result<Judgement> Reference::judge(const std::string& folder, const CandidateRun& run,
                                   const std::string& outputs_path, TimingLock& timing_lock) {
  Json command{{"cmd", "judge"},
               {"folder", folder},
               {"outputs", run.outputs_in_slots ? "slots" : outputs_path},
               {"inputs_changed", run.inputs_changed},
               {"tolerance", options_.tolerance}};
  auto verdict = request(command, "verdict", options_.run_timeout_s,
                         "the reference failed to judge the outputs of " + folder, timing_lock);
  if (!verdict) return verdict.error();
  const Json& e = *verdict;
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
