// The loop of `kmem worker` (worker.h).
#include "kmem/worker.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

namespace kmem {

namespace {

namespace fs = std::filesystem;

// A stable 64-bit FNV-1a hash of a text (names a problem's staged copy).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

// The last part of a submitter's file name, or `fallback` when it has none
// usable: a name from the payload never leaves the staging folder.
std::string safe_file_name(const std::string& name, const std::string& fallback) {
  std::string base = fs::path(name).filename().string();
  if (base.empty() || base == "." || base == "..") return fallback;
  return base;
}

// Writes `text` to `path` whole (a temporary file renamed into place), so
// workers sharing a cache never read a half-written problem.
Status write_whole(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return Error(path.parent_path().string() + ": cannot create: " + ec.message());
  fs::path temporary = path.string() + fmt::format(".tmp-{}", getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out.flush()) return Error(temporary.string() + ": cannot write");
  }
  fs::rename(temporary, path, ec);
  if (ec) return Error(path.string() + ": cannot write: " + ec.message());
  return Status::success();
}

class Worker {
 public:
  Worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLease& current, std::mutex& writes)
      : o_(options), stop_(stop), current_(current), writes_(writes) {}

  Status start() {
    auto queue = JobQueue::open(o_.db, o_.queue);
    if (!queue) return queue.error();
    queue_ = std::move(*queue);
    return Status::success();
  }

  WorkerTally run() {
    while (!stop_) {
      JobQueue* queue = reach();
      if (queue == nullptr) break;
      auto claimed = queue->claim(o_.name, {JobKind::kEval});
      if (!claimed) {
        lost(claimed.error());
        continue;
      }
      if (!*claimed) {
        if (o_.exit_when_idle) break;
        pause(o_.poll_s);
        continue;
      }
      process(**claimed);
    }
    return tally_;
  }

 private:
  void log(const std::string& line) const {
    if (o_.log) o_.log(line);
  }

  // Sleeps up to `seconds`, waking early when stopped.
  void pause(double seconds) const {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!stop_ && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  // The queue, opened again after it was lost; nullptr once stopped.
  JobQueue* reach() {
    while (!queue_ && !stop_) {
      auto queue = JobQueue::open(o_.db, o_.queue);
      if (queue) {
        queue_ = std::move(*queue);
        log("database reached again");
      } else {
        pause(o_.reconnect_s);
      }
    }
    return queue_.get();
  }

  void lost(const Error& error) {
    log(fmt::format("database lost ({}); reconnecting", error.message()));
    queue_.reset();
    pause(o_.reconnect_s);
  }

  // The job's files in the worker's cache: the problem under a name made of
  // its text's hash (shared by every job of the problem), the candidate in a
  // folder of this claim's own.
  Result<EvalJob> stage(const EvalRequest& request, const Lease& lease, fs::path& claim_folder) const {
    fs::path cache = o_.eval.cache_dir.empty() ? default_cache_dir() : o_.eval.cache_dir;
    fs::path problem = cache / "queue" / "problems" / fmt::format("{:016x}", fnv1a(request.problem_source)) /
                       safe_file_name(request.problem_name, "problem.py");
    if (!fs::exists(problem))
      if (Status s = write_whole(problem, request.problem_source); !s) return s.error();
    claim_folder = cache / "queue" / "claims" / fmt::format("{}-{}-{}", getpid(), lease.job_id, lease.attempt);
    fs::path candidate = claim_folder / safe_file_name(request.candidate_name, "candidate.py");
    if (Status s = write_whole(candidate, request.candidate_source); !s) return s.error();
    return EvalJob{request.id, problem.string(), candidate.string()};
  }

  // Evaluates the claimed job while renewing its lease, then stores the outcome.
  void process(const ClaimedJob& claimed) {
    const Lease& lease = claimed.lease;
    current_.set(lease);
    auto payload = parse_eval_payload(claimed.job.payload, o_.eval);
    fs::path claim_folder;
    Result<EvalJob> staged = payload ? stage(payload->request, lease, claim_folder) : Result<EvalJob>(payload.error());
    if (!staged) {
      log(fmt::format("job {}: {}", lease.job_id, staged.error().message()));
      finish(
          lease, [&](JobQueue& q) { return q.fail(lease, staged.error().message()); }, "failure");
      current_.set(std::nullopt);
      return;
    }
    log(fmt::format("job {} ({}) claimed, attempt {}", lease.job_id, payload->request.id, lease.attempt));
    auto evaluate =
        o_.evaluate ? o_.evaluate : [](const EvalJob& j, const EvalOptions& eo) { return kmem::evaluate(j, eo); };
    EvalOptions options = payload->options;
    auto running = std::async(std::launch::async, [&] { return evaluate(*staged, options); });
    double every = o_.heartbeat_s > 0 ? o_.heartbeat_s : o_.queue.lease_s / 3;
    bool held = true;
    while (running.wait_for(std::chrono::duration<double>(every)) != std::future_status::ready) {
      if (!held) continue;
      if (!queue_) {  // one try per beat: the evaluation goes on meanwhile
        auto queue = JobQueue::open(o_.db, o_.queue);
        if (!queue) continue;
        queue_ = std::move(*queue);
        log("database reached again");
      }
      auto beat = queue_->heartbeat(lease);
      if (!beat) {
        log(fmt::format("job {}: heartbeat failed ({})", lease.job_id, beat.error().message()));
        queue_.reset();
      } else if (!*beat) {
        held = false;
        log(fmt::format("job {}: lease lost (another worker has the job); this outcome will be dropped", lease.job_id));
      }
    }
    EvalOutcome outcome = running.get();
    outcome.job = EvalJob{payload->request.id, payload->request.problem_name, payload->request.candidate_name};
    std::error_code ec;
    fs::remove_all(claim_folder, ec);
    if (held) {
      std::string json = outcome_json(outcome);
      finish(
          lease, [&](JobQueue& q) { return q.complete(lease, json); }, outcome.verdict);
    } else {
      ++tally_.dropped;
    }
    current_.set(std::nullopt);
  }

  // Stores the end of a job (`store` returns whether the lease still held),
  // retrying while the database is lost; `what` names it in the log.
  template <typename Store>
  void finish(const Lease& lease, Store store, const std::string& what) {
    while (!stop_) {
      JobQueue* queue = reach();
      if (queue == nullptr) return;
      Result<bool> stored = [&] {
        std::lock_guard whole(writes_);
        return store(*queue);
      }();
      if (!stored) {
        lost(stored.error());
        continue;
      }
      if (!*stored) {
        ++tally_.dropped;
        log(fmt::format("job {}: {} refused: the lease was taken over", lease.job_id, what));
      } else {
        what == "failure" ? ++tally_.failed : ++tally_.completed;
        log(fmt::format("job {}: {} stored", lease.job_id, what));
      }
      return;
    }
  }

  const WorkerOptions& o_;
  const std::atomic<bool>& stop_;
  CurrentLease& current_;
  std::mutex& writes_;
  std::unique_ptr<JobQueue> queue_;
  WorkerTally tally_;
};

}  // namespace

Result<WorkerTally> run_worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLease& current,
                               std::mutex& writes) {
  Worker worker(options, stop, current, writes);
  if (Status s = worker.start(); !s) return s.error();
  return worker.run();
}

}  // namespace kmem
