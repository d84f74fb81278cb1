// Evaluating jobs: the static rules first (screen.h), then `parallel`
// threads, one candidate process each, taking the jobs given and then those
// a feed hands over while they run (kmem worker's claims), sharing one
// reference per problem
// (prepared a few jobs ahead, on reference workers that host several
// problems each), one timing lock and one pool of workers started ahead of
// need, through a WorkerLauncher (the zygotes; fakes in tests). A job that
// runs out of GPU memory while others hold theirs is run again once the GPU
// is its alone, and, out of memory even then (the references of the jobs
// still to come hold their inputs drawn ahead), once more after every other
// job, with every reference dropped (the feed asked no more meanwhile).
// On CUDA a candidate's run starts only once the device memory its
// problem's reference measured fits (memory_gate.h), which makes running
// out of memory the exception rather than how the batch finds its limit.
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <shared_mutex>
#include <thread>

#include "batch.h"
#include "candidate.h"
#include "compile_baselines.h"
#include "kmem/eval.h"
#include "memory_gate.h"
#include "reference.h"
#include "reference_hosts.h"
#include "screen.h"
#include "secret_random.h"
#include "share_gate.h"
#include "verdict.h"
#include "worker_pool.h"

namespace kmem {

namespace fs = std::filesystem;
using eval::CandidateProcess;
using eval::Clock;
using eval::Reference;

EvalOutcome rejected_outcome(const EvalJob& job, const std::string& code, const std::string& detail) {
  EvalOutcome outcome;
  outcome.job = job;
  outcome.verdict = code;
  outcome.message = eval::verdict_message(code);
  outcome.detail = detail;
  return outcome;
}

namespace {

// The reference of one problem, prepared by the first job that needs it and
// closed when the last of the problem's jobs taken so far is done (a job of
// the problem fed later prepares it again).
struct ProblemSlot {
  explicit ProblemSlot(std::string problem) : problem(std::move(problem)) {}

  const std::string problem;  // the path of its first job (the slot's key is the canonical one)
  std::mutex mutex;
  uint64_t init_seed = eval::random_seed();
  bool tried = false;
  std::unique_ptr<Reference> reference;
  int64_t held_bytes = 0;  // what the reference holds on the device, counted in the batch's MemoryGate
  Error error{""};         // why it could not be prepared (of kind kOutOfMemory for want of memory)
  // The jobs of the problem taken in and not done: lowered under `mutex`,
  // raised without it by a job fed (the lock is held while the reference is
  // prepared, and the feed must not wait for that).
  std::atomic<int> remaining = 0;
};

// One run of a job's candidate: its outcome, and whether it failed because
// a worker ran out of memory (by its error record's kind).
struct Attempt {
  EvalOutcome outcome;
  bool out_of_memory = false;
};

// The attempt that `error` ended, before any verdict on the candidate.
Attempt failed(const EvalJob& job, const Error& error) {
  return {rejected_outcome(job, "evaluator_error", error.message()), error.kind() == Error::Kind::kOutOfMemory};
}

// The job as it will run (a reply taken apart), or nullopt when the static
// rules rejected it: its outcome then goes to `rejected` (no code ran:
// sandboxed or not makes no difference).
std::optional<EvalJob> screened_job(const EvalJob& job, const EvalOptions& options,
                                    const std::function<void(const EvalOutcome&)>& rejected) {
  if (!options.static_rules) return job;
  auto screened = eval::screen(job, options);
  if (auto* outcome = std::get_if<EvalOutcome>(&screened)) {
    rejected(*outcome);
    return std::nullopt;
  }
  return std::get<EvalJob>(std::move(screened));
}

// A job deferred to run_deferred(), with the seconds of its earlier attempts.
struct DeferredJob {
  size_t index;
  std::map<std::string, double> seconds;
};

class Batch {
 public:
  // `jobs` are run and reported as `shown` (the same jobs as given, before
  // their replies were taken apart); then the jobs `more` gives, screened
  // as they come, until it gives none.
  Batch(const std::vector<EvalJob>& jobs, const std::vector<EvalJob>& shown, const JobFeed& more,
        const EvalOptions& options, const std::function<void(const EvalOutcome&)>& on_result,
        const std::function<void(const EvalJob&)>& on_start, const std::function<void(const EvalJob&)>& on_built,
        const eval::LauncherFactory& launcher)
      : jobs_(jobs.begin(), jobs.end()),
        shown_(shown.begin(), shown.end()),
        more_(more),
        fed_all_(!more),
        options_(options),
        on_result_(on_result),
        on_start_(on_start),
        on_built_(on_built),
        make_launcher_(launcher) {}

  void run() {
    std::error_code ec;
    fs::create_directories(options_.cache_dir + "/work", ec);
    std::string pattern = options_.cache_dir + "/work/run-XXXXXX";
    if (ec || mkdtemp(pattern.data()) == nullptr) {
      std::string why = ec ? ec.message() : strerror(errno);
      refuse_all("cannot create a scratch folder under " + options_.cache_dir + "/work: " + why);
      return;
    }
    root_ = pattern;
    for (const EvalJob& job : jobs_) slot_of(job).remaining++;
    threads_ =
        std::max(1, fed_all_ ? std::min<int>(options_.parallel, static_cast<int>(jobs_.size())) : options_.parallel);
    lookahead_ = std::max(1, threads_ / 2);
    int hosts = reference_workers(threads_ + lookahead_);
    // Baseline workers start when a baseline is to be measured (none when all are cached).
    int baseline_hosts = eval::wants_compile_baseline(options_) ? baseline_workers(threads_) : 0;
    // Candidate workers running and as many started ahead, and the reference workers.
    workers_on_device_ = 2 * threads_ + hosts + baseline_hosts;
    launcher_ = make_launcher_(options_, root_, timing_lock_.worker_cpus());
    pool_ = std::make_unique<eval::WorkerPool>(options_, root_, timing_lock_, *launcher_);
    hosts_ = std::make_unique<eval::ReferenceHosts>(hosts, *pool_, timing_lock_);
    baseline_hosts_ = std::make_unique<eval::ReferenceHosts>(baseline_hosts, *pool_, timing_lock_);
    Status started = pool_->expect("candidate", static_cast<int>(jobs_.size()), threads_);
    if (started) started = pool_->expect("reference", hosts + baseline_hosts, hosts);
    if (!started) {
      refuse_all(started.error().message());
      baseline_hosts_.reset();
      hosts_.reset();
      pool_.reset();
      launcher_.reset();
      fs::remove_all(root_, ec);
      return;
    }
    baselines_ = std::make_unique<eval::CompileBaselines>(
        baseline_hosts, [this](const std::string& key) { return measure_compile_baseline(key); },
        [this](EvalOutcome outcome) { report(std::move(outcome)); });
    std::vector<std::thread> job_threads;
    job_threads.emplace_back([this] { pool_->start_ahead(); });
    for (int t = 0; t < threads_; ++t) job_threads.emplace_back([this] { work(); });
    for (int t = 0; t < lookahead_; ++t) job_threads.emplace_back([this] { prepare_ahead(); });
    for (auto& thread : job_threads) thread.join();
    run_deferred();
    baselines_->finish();  // the outcomes held for a baseline are reported
    slots_.clear();        // any reference left goes before its worker
    baseline_hosts_.reset();
    hosts_.reset();
    pool_.reset();
    launcher_.reset();  // the zygotes go after their workers
    fs::remove_all(root_, ec);
  }

 private:
  // Reports every job given as not evaluated for `why`. The feed is not
  // asked: its jobs stay where they are (a worker's in its queue, for a
  // later try) rather than all failing for one batch's trouble.
  void refuse_all(const std::string& why) {
    for (const auto& job : shown_) report(rejected_outcome(job, "evaluator_error", why));
  }

  // The slot of the job's problem, made when its first job comes.
  ProblemSlot& slot_of(const EvalJob& job) {
    std::string key = problem_key(job);
    std::lock_guard hold(slots_mutex_);
    auto& slot = slots_[key];
    if (!slot) slot = std::make_shared<ProblemSlot>(job.problem);
    return *slot;
  }

  ProblemSlot& slot_at(const std::string& key) {
    std::lock_guard hold(slots_mutex_);
    return *slots_.at(key);
  }

  // The job at `index` to run and as shown (references stay valid: the
  // queues only grow at their ends).
  const EvalJob& job_at(size_t index) {
    std::lock_guard hold(jobs_mutex_);
    return jobs_[index];
  }
  const EvalJob& shown_at(size_t index) {
    std::lock_guard hold(jobs_mutex_);
    return shown_[index];
  }

  // Whether a job has the index `index`, asking the feed for more until one
  // has or it gives none (or a job was deferred: see feed_ended_). A job fed
  // is screened by the static rules first: one they reject is reported at
  // once and never runs.
  bool has_job(size_t index) {
    {
      std::lock_guard hold(jobs_mutex_);
      if (index < jobs_.size()) return true;  // taken already: no wait behind a thread asking the feed
    }
    std::lock_guard feeding(feed_mutex_);
    for (;;) {
      {
        std::lock_guard hold(jobs_mutex_);
        if (index < jobs_.size()) return true;
      }
      if (fed_all_ || feed_ended_) return false;
      std::optional<EvalJob> fed = more_();
      if (!fed) {
        fed_all_ = true;
        return false;
      }
      std::optional<EvalJob> runnable = screened_job(*fed, options_, [this](const EvalOutcome& outcome) {
        std::lock_guard reporting(report_mutex_);
        on_result_(outcome);
      });
      if (!runnable) continue;
      ProblemSlot& slot = slot_of(*runnable);
      if (slot.remaining++ == 0) {  // none of the problem's jobs in flight: no job of it holds the lock long
        std::lock_guard hold(slot.mutex);
        if (!slot.reference) slot.tried = false;  // released: prepared again
      }
      (void)pool_->expect("candidate", 1, threads_);  // a zygote that failed fails this job's start
      std::lock_guard hold(jobs_mutex_);
      jobs_.push_back(std::move(*runnable));
      shown_.push_back(std::move(*fed));
    }
  }

  // Reference workers for `in_flight` problems at once: KMEM_TUNE_REFERENCE_WORKERS,
  // else one per three (and no more than the batch has problems, when all
  // its jobs are known: with a feed, later problems would otherwise wait for
  // one another's preparation on too few workers; a stream of one problem
  // keeps the others idle, a CUDA context each).
  int reference_workers(int in_flight) const {
    int wanted = options_.tuning.reference_workers > 0 ? options_.tuning.reference_workers : (in_flight + 2) / 3;
    return std::max(1, std::min(wanted, problems_at_most()));
  }

  // Reference workers measuring compile baselines beside the batch:
  // KMEM_TUNE_BASELINE_WORKERS, else one per two jobs in flight (compiling
  // is mostly the host's work; no more than the batch has problems).
  int baseline_workers(int in_flight) const {
    int wanted = options_.tuning.baseline_workers > 0 ? options_.tuning.baseline_workers : (in_flight + 1) / 2;
    return std::max(1, std::min(wanted, problems_at_most()));
  }

  // How many problems the batch may have: those of its jobs, unless a feed
  // may bring more (before the threads start: no lock needed).
  int problems_at_most() const { return fed_all_ ? static_cast<int>(slots_.size()) : std::numeric_limits<int>::max(); }

  // The compile baseline of the problem `key` (a slot's), measured beside the batch.
  Result<std::optional<double>> measure_compile_baseline(const std::string& key) {
    auto& slot = slot_at(key);
    std::shared_lock among_others(gpu_alone_);  // not while a job runs alone on the GPU
    return Reference::measure_compile_baseline(slot.problem, slot.init_seed, options_, *baseline_hosts_);
  }

  static std::string problem_key(const EvalJob& job) {
    std::error_code ec;
    auto canonical = fs::weakly_canonical(job.problem, ec);
    return ec ? job.problem : canonical.string();
  }

  void work() {
    for (size_t index; has_job(index = take_next());) {
      std::optional<EvalOutcome> outcome = evaluate_one(index);
      if (!outcome) continue;  // deferred: run_deferred() reports it
      outcome->job = shown_at(index);
      baselines_->report(problem_key(job_at(index)), std::move(*outcome));
    }
  }

  // The jobs out of memory even alone, once every other job is done (and
  // every reference dropped, each deferred job having released its own):
  // each runs alone with its reference prepared again, the jobs of one
  // problem one after another, so that no other problem's is held.
  void run_deferred() {
    std::stable_sort(deferred_.begin(), deferred_.end(), [this](const DeferredJob& a, const DeferredJob& b) {
      return problem_key(job_at(a.index)) < problem_key(job_at(b.index));
    });
    for (const DeferredJob& deferred : deferred_) {
      auto& slot = slot_of(job_at(deferred.index));
      std::lock_guard hold(slot.mutex);
      drop_reference(slot);
      slot.tried = false;
      slot.remaining++;
    }
    for (const DeferredJob& deferred : deferred_) {
      const EvalJob& job = job_at(deferred.index);
      auto& slot = slot_of(job);
      Attempt attempt;
      {
        std::unique_lock alone(gpu_alone_);  // compile baselines may still run
        attempt = run_candidate(job, slot, fmt::format("{}/c{}-last", root_, deferred.index));
      }
      for (const auto& [stage, seconds] : deferred.seconds) attempt.outcome.seconds[stage] = seconds;
      release(slot);
      attempt.outcome.job = shown_at(deferred.index);
      baselines_->report(problem_key(job), std::move(attempt.outcome));
    }
  }

  size_t take_next() {
    std::lock_guard hold(progress_mutex_);
    progress_.notify_all();
    return next_++;
  }

  // Prepares the references of the next `lookahead_` jobs before they start
  // (alongside the other preparing threads), so that a job finds its
  // reference ready instead of waiting for it.
  void prepare_ahead() {
    for (size_t index = next_to_prepare_++;; index = next_to_prepare_++) {
      {
        std::unique_lock hold(progress_mutex_);
        progress_.wait(hold, [&] { return index < next_ + static_cast<size_t>(lookahead_); });
      }
      if (!has_job(index)) return;
      const EvalJob& job = job_at(index);
      std::shared_lock among_others(gpu_alone_);  // not while a job runs alone on the GPU
      reference_of(job);
    }
  }

  void report(EvalOutcome outcome) {
    if (!options_.sandbox) outcome.flags.push_back("unsandboxed");
    std::lock_guard hold(report_mutex_);
    on_result_(outcome);
  }

  // The prepared reference of the job's problem, or null for the error (in
  // its slot) that prevents it; asks for the compile baseline that the
  // reference's worker found pending.
  Reference* reference_of(const EvalJob& job) {
    const std::string key = problem_key(job);
    auto& slot = slot_at(key);
    std::lock_guard hold(slot.mutex);
    if (!slot.tried) {
      slot.tried = true;
      auto prepared = Reference::prepare(job.problem, slot.init_seed, options_, timing_lock_, *hosts_);
      if (prepared) slot.reference = std::move(*prepared);
      else slot.error = prepared.error();
      if (slot.reference && slot.reference->device_memory()) count_on_device(slot);
      if (slot.reference && slot.reference->compile_pending()) baselines_->ask(key);
    }
    return slot.reference.get();
  }

  // Lets the next job that asks try again to prepare a reference that failed.
  void forget_failure(ProblemSlot& slot) {
    std::lock_guard hold(slot.mutex);
    if (!slot.reference) slot.tried = false;
  }

  void release(ProblemSlot& slot) {
    std::lock_guard hold(slot.mutex);
    if (--slot.remaining > 0) return;
    drop_reference(slot);
  }

  // Counts what the slot's new reference holds on the device (under its
  // mutex), learning the device's capacity from the first.
  void count_on_device(ProblemSlot& slot) {
    const eval::DeviceMemory& memory = *slot.reference->device_memory();
    if (memory_.capacity() < 0) memory_.set_capacity(device_capacity(memory.total));
    slot.held_bytes = memory.held;
    memory_.hold(slot.held_bytes);
  }

  // Drops the problem from its worker (under the slot's mutex).
  void drop_reference(ProblemSlot& slot) {
    slot.reference.reset();
    memory_.drop(slot.held_bytes);
    slot.held_bytes = 0;
  }

  // The bytes of a device of `total` that references and candidates' runs
  // may take: KMEM_TUNE_DEVICE_MEMORY_MB, else the total less every worker's
  // context and a margin.
  int64_t device_capacity(int64_t total) const {
    if (options_.tuning.device_memory_mb > 0) return static_cast<int64_t>(options_.tuning.device_memory_mb) << 20;
    constexpr int64_t kContextBytes = int64_t{768} << 20;  // a worker's CUDA context and libraries' workspaces
    return total - workers_on_device_ * kContextBytes - total / 20;
  }

  // The job's outcome, or nullopt when it is deferred to run_deferred().
  std::optional<EvalOutcome> evaluate_one(size_t index) {
    const EvalJob& job = job_at(index);
    if (on_start_) on_start_(job);
    auto& slot = slot_of(job);
    std::string scratch = fmt::format("{}/c{}", root_, index);
    double started_at = elapsed(batch_started_);
    Attempt attempt;
    {
      auto asked = Clock::now();
      std::shared_lock among_others(gpu_alone_);
      double waited = elapsed(asked);
      attempt = run_candidate(job, slot, scratch);
      attempt.outcome.seconds["gpu_share_wait"] = waited;
    }
    if (options_.device == "cuda" && attempt.out_of_memory) {
      double first_attempt = attempt.outcome.seconds["total"];
      auto asked = Clock::now();
      std::unique_lock alone(gpu_alone_);
      double waited = elapsed(asked);
      forget_failure(slot);
      attempt = run_candidate(job, slot, scratch);
      attempt.outcome.seconds["first_attempt"] = first_attempt;
      attempt.outcome.seconds["gpu_alone_wait"] = waited;
    }
    if (options_.device == "cuda" && attempt.out_of_memory) {
      release(slot);  // the rest of the batch runs without its reference (run_deferred prepares it again)
      feed_ended_ = true;
      std::lock_guard hold(progress_mutex_);
      deferred_.push_back({index,
                           {{"first_attempt", attempt.outcome.seconds["first_attempt"]},
                            {"second_attempt", attempt.outcome.seconds["total"]},
                            {"gpu_share_wait", attempt.outcome.seconds["gpu_share_wait"]},
                            {"gpu_alone_wait", attempt.outcome.seconds["gpu_alone_wait"]},
                            {"started_at", started_at}}});
      return std::nullopt;
    }
    EvalOutcome& outcome = attempt.outcome;
    auto releasing = Clock::now();
    release(slot);
    outcome.seconds["release"] = elapsed(releasing);
    outcome.seconds["started_at"] = started_at;
    return outcome;
  }

  // Seconds since `since`.
  static double elapsed(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

  // Copies a worker's reported stage timings into the outcome as "role.stage".
  static void add_seconds(EvalOutcome& outcome, const std::string& role, const eval::Json& seconds) {
    for (const auto& [stage, value] : seconds.items())
      if (value.is_number()) outcome.seconds[role + "." + stage] = value.get<double>();
  }

  Attempt run_candidate(const EvalJob& job, ProblemSlot& slot, const std::string& scratch) {
    auto started = Clock::now();
    Attempt attempt = run_candidate_untimed(job, slot, scratch);
    attempt.outcome.seconds["total"] = elapsed(started);
    return attempt;
  }

  Attempt run_candidate_untimed(const EvalJob& job, ProblemSlot& slot, const std::string& scratch) {
    std::error_code ec;
    fs::create_directories(scratch, ec);
    if (ec) return failed(job, Error(scratch + ": cannot create the scratch folder: " + ec.message()));
    struct Cleanup {
      std::string path;
      ~Cleanup() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
      }
    } cleanup{scratch};
    if (!fs::is_regular_file(job.candidate, ec)) return failed(job, Error(job.candidate + ": no such candidate file"));
    auto starting = Clock::now();
    auto candidate = CandidateProcess::start(job, options_, scratch, slot.init_seed, *pool_);
    double start_seconds = elapsed(starting);  // a worker taken (started, if none was ready) and told to run
    if (!candidate) return failed(job, candidate.error());
    auto asked = Clock::now();
    Reference* reference = reference_of(job);
    double reference_wait = elapsed(asked);
    if (reference == nullptr) {
      (*candidate)->abandon();
      return failed(job, slot.error);
    }
    // Room on the device for this run, until its copies are released.
    const int64_t needed = reference->device_memory() ? reference->device_memory()->per_candidate : 0;
    auto waiting = Clock::now();
    memory_.enter(needed);
    struct Leave {
      eval::MemoryGate& gate;
      int64_t bytes;
      ~Leave() { gate.leave(bytes); }
    } leave{memory_, needed};
    double memory_wait = elapsed(waiting);
    auto inputs = reference->share(scratch);
    if (!inputs) {
      (*candidate)->abandon();
      return failed(job, inputs.error());
    }
    eval::Facts facts;
    auto running = Clock::now();
    facts.run = (*candidate)->finish(*inputs, reference->host_group(), [&] {
      if (on_built_) on_built_(job);
    });
    double run_seconds = elapsed(running);  // the candidate's run as the orchestrator waits for it
    facts.reference_ms = reference->reference_ms();
    facts.reference_cached = reference->reference_cached();
    facts.compile_ms = reference->compile_ms();
    facts.reference_timing_steady = reference->timing_steady();
    facts.on_gpu = options_.device == "cuda";
    facts.min_timed_calls = options_.warmup + reference->timed_calls();
    facts.call_overhead_ms = timing_lock_.call_overhead_ms();
    facts.degenerate = reference->degenerate();
    double judge_seconds = 0.0;
    if (facts.run.end == eval::CandidateRun::End::kResult) {
      auto judging = Clock::now();
      auto judgement = reference->judge(scratch, facts.run, (*candidate)->outputs_path());
      if (!judgement) {
        (void)reference->release(scratch);  // the judging error is the one to report
        return failed(job, judgement.error());
      }
      facts.judgement = *judgement;
      judge_seconds = elapsed(judging);
    }
    if (auto released = reference->release(scratch); !released) return failed(job, released.error());
    EvalOutcome outcome = eval::decide(job, facts);
    outcome.seconds["reference_wait"] = reference_wait;
    outcome.seconds["memory_wait"] = memory_wait;
    outcome.seconds["judge"] = judge_seconds;
    outcome.seconds["candidate_start"] = start_seconds;
    outcome.seconds["candidate_run"] = run_seconds;
    outcome.seconds["timing_lock_wait"] = facts.run.timing_lock_wait_s;
    outcome.seconds["timing_lock_held"] = facts.run.timing_lock_held_s;
    add_seconds(outcome, "candidate", facts.run.seconds);
    add_seconds(outcome, "reference", reference->prepare_seconds());
    return {outcome, eval::ran_out_of_memory(facts.run)};
  }

  std::mutex feed_mutex_;  // one thread at a time asks the feed
  std::mutex jobs_mutex_;  // guards the two queues' growth
  std::deque<EvalJob> jobs_;
  std::deque<EvalJob> shown_;
  const JobFeed& more_;
  bool fed_all_;  // the feed gave its last job (or there is none); under feed_mutex_
  // A job was deferred to run_deferred(): the feed is asked no more, so that
  // the job runs once the jobs taken so far are done rather than once the
  // feed runs dry (a worker's queue may never); the feed keeps the rest.
  std::atomic<bool> feed_ended_{false};
  const EvalOptions& options_;
  const std::function<void(const EvalOutcome&)>& on_result_;
  const std::function<void(const EvalJob&)>& on_start_;
  const std::function<void(const EvalJob&)>& on_built_;
  const eval::LauncherFactory& make_launcher_;
  std::string root_;
  Clock::time_point batch_started_ = Clock::now();
  std::mutex slots_mutex_;
  std::map<std::string, std::shared_ptr<ProblemSlot>> slots_;  // one per problem, as its first job comes
  size_t next_ = 0;                                            // the next job to start (under progress_mutex_)
  std::mutex progress_mutex_;
  std::condition_variable progress_;  // next_ moved on
  int threads_ = 1;                   // jobs in flight at once
  int lookahead_ = 1;                 // jobs whose references are prepared before they start
  std::atomic<size_t> next_to_prepare_{0};
  // Jobs out of memory even alone (under progress_mutex_), for run_deferred().
  std::vector<DeferredJob> deferred_;
  std::unique_ptr<eval::WorkerLauncher> launcher_;  // before the lock and the pool: outlives their workers
  // Pauses workers through the launcher (signals, or a fake's).
  eval::TimingLock timing_lock_{[this](pid_t group, int signal) { return launcher_->signal_group(group, signal); }};
  std::unique_ptr<eval::WorkerPool> pool_;                // after the lock: its workers are enrolled in it
  std::unique_ptr<eval::ReferenceHosts> hosts_;           // after the pool: its workers come from it
  std::unique_ptr<eval::ReferenceHosts> baseline_hosts_;  // the same, for compile baselines alone
  std::unique_ptr<eval::CompileBaselines> baselines_;     // after the hosts: stopped before them
  eval::ShareGate gpu_alone_;  // held exclusively by a job run again after running out of memory
  eval::MemoryGate memory_;    // device memory: references held, candidates' runs started
  int workers_on_device_ = 0;  // worker processes with a CUDA context, at most
  std::mutex report_mutex_;
};

}  // namespace

namespace eval {

void evaluate_batch_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs, const EvalOptions& options,
                         const std::function<void(const EvalOutcome&)>& on_result,
                         const std::function<void(const EvalJob&)>& on_start,
                         const std::function<void(const EvalJob&)>& on_built) {
  evaluate_stream_with(launcher, jobs, {}, options, on_result, on_start, on_built);
}

void evaluate_stream_with(const LauncherFactory& launcher, const std::vector<EvalJob>& jobs, const JobFeed& more,
                          const EvalOptions& options, const std::function<void(const EvalOutcome&)>& on_result,
                          const std::function<void(const EvalJob&)>& on_start,
                          const std::function<void(const EvalJob&)>& on_built) {
  // The static rules first: candidates they reject are reported before any
  // job starts, and never reach a worker.
  std::vector<EvalJob> runnable, shown;
  for (const auto& job : jobs) {
    if (std::optional<EvalJob> run = screened_job(job, options, on_result)) {
      runnable.push_back(std::move(*run));
      shown.push_back(job);
    }
  }
  if (runnable.empty() && !more) return;  // no workers to start
  Batch(runnable, shown, more, options, on_result, on_start, on_built, launcher).run();
}

}  // namespace eval

void evaluate_batch(const std::vector<EvalJob>& jobs, const EvalOptions& options,
                    const std::function<void(const EvalOutcome&)>& on_result,
                    const std::function<void(const EvalJob&)>& on_start,
                    const std::function<void(const EvalJob&)>& on_built) {
  eval::evaluate_batch_with(eval::make_zygote_launcher, jobs, options, on_result, on_start, on_built);
}

void evaluate_stream(const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions& options,
                     const std::function<void(const EvalOutcome&)>& on_result) {
  eval::evaluate_stream_with(eval::make_zygote_launcher, jobs, more, options, on_result);
}

EvalOutcome evaluate(const EvalJob& job, const EvalOptions& options) {
  EvalOutcome result;
  evaluate_batch({job}, options, [&](const EvalOutcome& outcome) { result = outcome; });
  return result;
}

}  // namespace kmem
