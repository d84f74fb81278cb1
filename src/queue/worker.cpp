// The loop of `kmem worker` (worker.h).
#include "kmem/worker.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <optional>
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

// A claimed job on its way through a batch.
struct HeldJob {
  Lease lease;
  EvalRequest request;
  std::string options_key;  // verdict_options_key of its options
  EvalOptions options;
  fs::path claim_folder;
  EvalJob staged;
  bool held = true;  // false once its lease was lost: the outcome will be dropped
  bool done = false;
};

// Between the evaluating threads and the worker's loop, which alone uses
// the database: outcomes one way, and asks for another job (the evaluation's
// feed) answered by the loop.
class Mailbox {
 public:
  void post(const EvalOutcome& outcome) {
    std::lock_guard hold(mutex_);
    outcomes_.push_back(outcome);
    arrived_.notify_one();
  }
  void close() {
    std::lock_guard hold(mutex_);
    closed_ = true;
    arrived_.notify_one();
  }
  // From an evaluating thread: the loop's answer to an ask for a job.
  std::optional<EvalJob> ask() {
    std::promise<std::optional<EvalJob>> answer;
    auto answered = answer.get_future();
    {
      std::lock_guard hold(mutex_);
      asks_.push_back(std::move(answer));
      arrived_.notify_one();
    }
    return answered.get();
  }

  // What the loop takes at once: outcomes, and the asks it must answer.
  struct Mail {
    std::vector<EvalOutcome> outcomes;
    std::vector<std::promise<std::optional<EvalJob>>> asks;
  };
  // Waits until something arrives, the mailbox is closed or `until`; takes
  // what arrived. `closed` says whether nothing more will come.
  Mail wait(std::chrono::steady_clock::time_point until, bool& closed) {
    std::unique_lock hold(mutex_);
    arrived_.wait_until(hold, until, [&] { return !outcomes_.empty() || !asks_.empty() || closed_; });
    Mail mail{{std::make_move_iterator(outcomes_.begin()), std::make_move_iterator(outcomes_.end())},
              {std::make_move_iterator(asks_.begin()), std::make_move_iterator(asks_.end())}};
    outcomes_.clear();
    asks_.clear();
    closed = closed_ && mail.outcomes.empty();
    return mail;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<EvalOutcome> outcomes_;
  std::deque<std::promise<std::optional<EvalJob>>> asks_;
  bool closed_ = false;
};

class Worker {
 public:
  Worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLeases& current, std::mutex& writes)
      : o_(options), stop_(stop), current_(current), writes_(writes) {}

  Status start() {
    auto queue = JobQueue::open(o_.db, o_.queue);
    if (!queue) return queue.error();
    queue_ = std::move(*queue);
    return Status::success();
  }

  WorkerTally run() {
    const auto first_job_deadline = Clock::now() + std::chrono::duration<double>(o_.first_job_wait_s);
    bool claimed_any = false;
    while (!stop_) {
      if (reach() == nullptr) break;
      std::vector<ClaimedJob> claimed = std::move(waiting_);
      waiting_.clear();
      for (ClaimedJob& more : claim_batch(static_cast<int>(claimed.size()))) claimed.push_back(std::move(more));
      if (claimed.empty()) {
        if (!queue_) continue;  // lost while claiming: reached again above
        if (o_.exit_when_idle && (claimed_any || Clock::now() >= first_job_deadline)) break;
        pause(o_.poll_s);
        continue;
      }
      claimed_any = true;
      process(claimed);
    }
    give_back_waiting();
    return tally_;
  }

 private:
  using Clock = std::chrono::steady_clock;

  void log(const std::string& line) const {
    if (o_.log) o_.log(line);
  }

  // Sleeps up to `seconds`, waking early when stopped.
  void pause(double seconds) const {
    auto until = Clock::now() + std::chrono::duration<double>(seconds);
    while (!stop_ && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
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

  // Gives the claims still waiting for a batch back to the queue (the worker
  // stops before their batch): claimable again at once, their attempts not
  // counted; with the database lost, they are left to their leases' expiry.
  void give_back_waiting() {
    for (const ClaimedJob& waiting : waiting_) {
      const Lease& lease = waiting.lease;
      Result<bool> released = queue_ ? queue_->release(lease) : Result<bool>(Error("the database is lost"));
      if (!released) {
        log(fmt::format("job {}: not given back ({}); left to its lease's expiry", lease.job_id,
                        released.error().message()));
        continue;
      }
      log(fmt::format("job {}: {}", lease.job_id,
                      *released ? "given back to the queue" : "not given back: the lease was taken over"));
      current_.remove(lease.job_id);
    }
    waiting_.clear();
  }

  void lost(const Error& error) {
    log(fmt::format("database lost ({}); reconnecting", error.message()));
    queue_.reset();
    pause(o_.reconnect_s);
  }

  // One job claimed, its lease listed among the current ones; nullopt when
  // the queue has none or was lost (then queue_ is null, to be reached
  // again), or once the current leases are closed.
  std::optional<ClaimedJob> claim_one() {
    auto claiming = current_.claiming();
    if (current_.closed()) return std::nullopt;  // a signal's handler is giving the leases back
    auto next = queue_->claim(o_.name, {JobKind::kEval});
    if (!next) {
      lost(next.error());
      return std::nullopt;
    }
    if (*next) current_.add((*next)->lease);
    return std::move(*next);
  }

  // Up to a batch of jobs, less `held` already: once one is held, claims go
  // on for o_.gather_s while the queue is empty (a batch may still be being
  // submitted).
  std::vector<ClaimedJob> claim_batch(int held) {
    std::vector<ClaimedJob> claimed;
    auto gather = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.gather_s));
    std::optional<Clock::time_point> gather_until;  // set once a job is held
    if (held > 0) gather_until = Clock::now() + gather;
    int most = (o_.batch > 0 ? o_.batch : 4 * std::max(1, o_.eval.parallel)) - held;
    while (!stop_ && static_cast<int>(claimed.size()) < most) {
      std::optional<ClaimedJob> next = claim_one();
      if (!queue_) break;  // lost: the claims made so far are evaluated; their heartbeats reach it again
      if (next) {
        if (!gather_until) gather_until = Clock::now() + gather;
        claimed.push_back(std::move(*next));
        continue;
      }
      if (!gather_until || Clock::now() >= *gather_until) break;
      std::this_thread::sleep_for(
          std::min<Clock::duration>(std::chrono::milliseconds(50), *gather_until - Clock::now()));
    }
    return claimed;
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
    // Named by the claim: jobs of one batch may share a submitter's id.
    return EvalJob{fmt::format("job-{}", lease.job_id), problem.string(), candidate.string()};
  }

  // The claimed job staged for evaluation, or nullopt when its payload
  // cannot be read or staged (the job is then failed).
  std::optional<HeldJob> hold(ClaimedJob& claimed) {
    const Lease& lease = claimed.lease;
    auto payload = parse_eval_payload(claimed.job.payload, o_.eval);
    HeldJob job{lease, {}, "", o_.eval, {}, {}};
    Result<EvalJob> staged =
        payload ? stage(payload->request, lease, job.claim_folder) : Result<EvalJob>(payload.error());
    if (!staged) {
      log(fmt::format("job {}: {}", lease.job_id, staged.error().message()));
      finish(
          lease, [&](JobQueue& q) { return q.fail(lease, staged.error().message()); }, "failure");
      current_.remove(lease.job_id);
      return std::nullopt;
    }
    log(fmt::format("job {} ({}) claimed, attempt {}", lease.job_id, payload->request.id, lease.attempt));
    job.request = std::move(payload->request);
    job.options = payload->options;
    job.options_key = verdict_options_key(job.options);
    job.staged = std::move(*staged);
    return job;
  }

  // Stages the claimed jobs (failing those whose payload cannot be read)
  // and evaluates them, one batch per set of verdict options; the last
  // batch goes on with the jobs claimed while it runs.
  void process(std::vector<ClaimedJob>& claimed) {
    std::deque<HeldJob> jobs;
    for (ClaimedJob& c : claimed)
      if (std::optional<HeldJob> job = hold(c)) jobs.push_back(std::move(*job));
    std::vector<std::string> keys;
    for (const HeldJob& job : jobs)
      if (std::find(keys.begin(), keys.end(), job.options_key) == keys.end()) keys.push_back(job.options_key);
    for (size_t k = 0; k < keys.size(); ++k) evaluate_group(jobs, keys[k], k + 1 == keys.size());
  }

  // Another job for the batch of options `key` while it runs: claimed,
  // staged and held in `jobs`; nullopt when the queue has none (or is
  // lost, or the worker stops) or the job claimed wants other options (it
  // waits for the next batch).
  std::optional<EvalJob> feed(std::deque<HeldJob>& jobs, std::map<std::string, HeldJob*>& by_id,
                              const std::string& key) {
    while (!stop_ && queue_) {
      std::optional<ClaimedJob> next = claim_one();
      if (!next) return std::nullopt;
      std::optional<HeldJob> job = hold(*next);
      if (!job) continue;
      if (job->options_key != key) {
        std::error_code ec;
        std::filesystem::remove_all(job->claim_folder, ec);  // staged again in its own batch
        waiting_.push_back(std::move(*next));
        return std::nullopt;
      }
      jobs.push_back(std::move(*job));
      by_id[jobs.back().staged.id] = &jobs.back();
      return jobs.back().staged;
    }
    return std::nullopt;
  }

  // Evaluates the jobs whose options are `key` as one batch (with `feeding`,
  // also the jobs claimed while it runs), renewing the leases of every job
  // still held meanwhile and storing each outcome as it comes.
  void evaluate_group(std::deque<HeldJob>& jobs, const std::string& key, bool feeding) {
    std::vector<EvalJob> batch;
    std::map<std::string, HeldJob*> by_id;
    EvalOptions options;
    for (HeldJob& job : jobs) {
      if (job.options_key != key) continue;
      batch.push_back(job.staged);
      by_id[job.staged.id] = &job;
      options = job.options;
    }
    BatchEvaluator evaluate = o_.evaluate ? o_.evaluate : evaluate_stream;
    Mailbox mailbox;
    JobFeed more;
    if (feeding) more = [&] { return mailbox.ask(); };
    auto running = std::async(std::launch::async, [&] {
      evaluate(batch, more, options, [&](const EvalOutcome& outcome) { mailbox.post(outcome); });
      mailbox.close();
    });
    auto every = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(o_.heartbeat_s > 0 ? o_.heartbeat_s : o_.queue.lease_s / 3));
    auto poll = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.poll_s));
    auto next_beat = Clock::now() + every;
    std::deque<WaitingAsk> asks;  // asks of the feed the queue had no job for yet
    for (bool closed = false; !closed;) {
      Mailbox::Mail mail = mailbox.wait(asks.empty() ? next_beat : std::min(next_beat, Clock::now() + poll), closed);
      for (EvalOutcome& outcome : mail.outcomes) {
        auto found = by_id.find(outcome.job.id);
        if (found != by_id.end() && !found->second->done) store(*found->second, std::move(outcome));
      }
      for (auto& ask : mail.asks) asks.push_back({std::move(ask), Clock::now() + keep_warm()});
      answer(asks, jobs, by_id, key);
      if (Clock::now() >= next_beat) {
        heartbeat(jobs);
        next_beat = Clock::now() + every;
      }
    }
    running.get();
    for (auto& [id, job] : by_id)
      if (!job->done) store(*job, rejected_outcome(job->staged, "evaluator_error", "the evaluator gave no outcome"));
  }

  // An ask of the feed, kept unanswered while the queue is empty until `until`.
  struct WaitingAsk {
    std::promise<std::optional<EvalJob>> answer;
    Clock::time_point until;
  };

  Clock::duration keep_warm() const {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.keep_warm_s));
  }

  // Answers the feed's asks in turn: with a job claimed, else (the queue
  // empty) with none only once the batch should end: o_.keep_warm_s after
  // the ask, at once when the worker stops, the database is lost, the
  // leases are closed or a job waits for a batch of other options. Until
  // then the evaluation keeps its workers warm for the next job.
  void answer(std::deque<WaitingAsk>& asks, std::deque<HeldJob>& jobs, std::map<std::string, HeldJob*>& by_id,
              const std::string& key) {
    while (!asks.empty()) {
      if (std::optional<EvalJob> job = feed(jobs, by_id, key)) {
        asks.front().answer.set_value(std::move(job));
        asks.pop_front();
        continue;
      }
      bool ended = stop_ || !queue_ || current_.closed() || !waiting_.empty();
      if (!ended && Clock::now() < asks.front().until) return;  // asked again at the next poll
      if (!ended && o_.keep_warm_s > 0)
        log(fmt::format("no job for {:g} s: the evaluation ends with its jobs in flight", o_.keep_warm_s));
      asks.front().answer.set_value(std::nullopt);
      asks.pop_front();
    }
  }

  // Renews the lease of every job not done, and of every claim waiting for
  // the next batch; a job whose lease was taken over is no longer held (its
  // outcome will be dropped), a waiting claim whose lease was is let go.
  void heartbeat(std::deque<HeldJob>& jobs) {
    if (!queue_) {  // one try per beat: the evaluations go on meanwhile
      auto queue = JobQueue::open(o_.db, o_.queue);
      if (!queue) return;
      queue_ = std::move(*queue);
      log("database reached again");
    }
    for (HeldJob& job : jobs) {
      if (job.done || !job.held) continue;
      std::optional<bool> held = renew(job.lease);
      if (!held) return;
      if (!*held) {
        job.held = false;
        log(fmt::format("job {}: lease lost (another worker has the job); this outcome will be dropped",
                        job.lease.job_id));
      }
    }
    for (auto waiting = waiting_.begin(); waiting != waiting_.end();) {
      std::optional<bool> held = renew(waiting->lease);
      if (!held) return;
      if (*held) {
        ++waiting;
        continue;
      }
      log(fmt::format("job {}: lease lost while it waited for a batch of its options (another worker has the job)",
                      waiting->lease.job_id));
      current_.remove(waiting->lease.job_id);
      waiting = waiting_.erase(waiting);
    }
  }

  // One heartbeat of `lease`: whether it still holds, or nullopt when the
  // database was lost (then reached again at the next beat).
  std::optional<bool> renew(const Lease& lease) {
    auto beat = queue_->heartbeat(lease);
    if (!beat) {
      log(fmt::format("job {}: heartbeat failed ({})", lease.job_id, beat.error().message()));
      queue_.reset();
      return std::nullopt;
    }
    return *beat;
  }

  // Stores the outcome of `job` under the submitter's names, unless its lease was lost.
  void store(HeldJob& job, EvalOutcome outcome) {
    job.done = true;
    outcome.job = EvalJob{job.request.id, job.request.problem_name, job.request.candidate_name};
    std::error_code ec;
    fs::remove_all(job.claim_folder, ec);
    const Lease& lease = job.lease;
    if (job.held) {
      std::string json = outcome_json(outcome);
      finish(
          lease, [&](JobQueue& q) { return q.complete(lease, json); }, outcome.verdict);
    } else {
      ++tally_.dropped;
    }
    current_.remove(lease.job_id);
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
  CurrentLeases& current_;
  std::mutex& writes_;
  std::unique_ptr<JobQueue> queue_;
  // Claimed while a batch of other options ran: the next batch's (their leases renewed meanwhile).
  std::vector<ClaimedJob> waiting_;
  WorkerTally tally_;
};

}  // namespace

Result<WorkerTally> run_worker(const WorkerOptions& options, const std::atomic<bool>& stop, CurrentLeases& current,
                               std::mutex& writes) {
  Worker worker(options, stop, current, writes);
  if (Status s = worker.start(); !s) return s.error();
  return worker.run();
}

}  // namespace kmem
