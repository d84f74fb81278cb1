// The protected evaluator: runs a candidate against a KernelBench problem in
// isolated worker processes and returns its verdict, correctness figures and
// timing. The reference runs in a trusted process of its own that keeps the
// expected outputs and judges the candidate's; the candidate runs in another,
// each in its own process group with build and run time limits. Verdict codes
// are those of docs/verdicts.md; the protocol is docs/evaluator.md.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kmem/result.h"

namespace kmem {

struct EvalOptions {
  // The scheduler's internals, set only to tune a machine (the KMEM_TUNE_*
  // variables, docs/evaluator.md, "Tuning"): no verdict depends on them.
  struct Tuning {
    int device_setups = 0;  // CUDA: workers creating their CUDA context at once; 0: one per four CPUs
    // CUDA: hardware work queues per worker's context (CUDA_DEVICE_MAX_CONNECTIONS);
    // 0: the driver's default (8). Fewer make creating a context cheaper; work
    // runs on one stream (side streams are rejected). docs/measurement.md.
    int device_connections = 2;
    int reference_workers = 0;  // processes hosting the references (batch); 0: one per three problems in flight
    int baseline_workers = 0;   // processes measuring compile baselines (batch); 0: one per two jobs in flight
    // CUDA: hand inputs to candidates by IPC handles (docs/evaluator.md);
    // false: as files (always the case on the CPU).
    bool inputs_by_ipc = true;
    // MiB of warm-up and timed calls' input sets per candidate; 0: 256 on
    // CUDA, 32 on the CPU (docs/measurement.md, "Inputs and outputs of every call").
    int call_sets_mb = 0;
    // CUDA: MiB of device memory the references and candidates' runs of a
    // batch may take together (memory_gate.h); 0: the device's total less
    // the workers' contexts and a twentieth.
    int device_memory_mb = 0;
  };

  // What is evaluated and how strictly.
  std::string device = "cpu";  // "cpu" or "cuda"
  double tolerance = 1e-4;     // atol = rtol
  int trials = 5;              // correctness trials, each on fresh inputs
  int warmup = 3;              // warm-up calls: between warmup and 2*warmup, drawn at random
  int iters = 20;              // timed calls; the median counts
  double build_timeout_s = 600;
  double run_timeout_s = 180;
  long memory_limit_mb = 16384;   // RLIMIT_AS of CPU runs (none on CUDA)
  int parallel = 1;               // candidates in flight at once (batch)
  bool retime_reference = false;  // measure the reference even when its time is cached
  // Time the reference under torch.compile too (docs/evaluator.md,
  // "Baselines"); unset: on CUDA only (KMEM_TUNE_COMPILE_BASELINE).
  std::optional<bool> compile_baseline;
  // Candidate workers run in the sandbox (docs/evaluator.md, "Sandbox");
  // false (`kmem eval --no-sandbox`): they do not, and every outcome carries
  // the flag `unsandboxed`.
  bool sandbox = true;
  // The checker's static rules (kmem/check.h) run on every candidate before
  // any of its code does, and a candidate that is an agent's reply (a file
  // not ending in .py) is taken out of it first: the first offence is the
  // verdict. false only for tests of the run-time defences behind them.
  bool static_rules = true;

  // Where things are.
  std::string python;      // interpreter that runs the worker
  std::string python_dir;  // folder holding the kmem_worker package
  std::string cache_dir;   // build caches, reference times and scratch

  Tuning tuning;
};

struct EvalJob {
  std::string id;
  std::string problem;    // KernelBench problem file
  std::string candidate;  // candidate source file (Python)
};

struct Correctness {
  int trials = 0;
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;  // over elements whose |expected| > tolerance
};

// Where a candidate's outputs differ from the reference's, for the first
// trial and output that differ (docs/evaluator.md, "Mismatch facts").
struct MismatchFacts {
  struct Sample {
    std::vector<long> index;
    std::string expected, got;  // as text: NaN and infinity included
  };
  int trial = 0, output = 0;
  std::vector<long> shape, first_index;
  long bad = 0, elements = 0;  // elements beyond tolerance, of all
  long nan = 0, inf = 0;       // NaNs and infinities where the expected value is finite
  std::string where;           // "edges", "tail", "everywhere" or "scattered"
  std::vector<Sample> samples;
};

// Where a passing candidate's time goes, as far as the evaluator saw it.
struct TimeProfile {
  std::optional<double> roofline_ms;     // the problem's floor on this device
  std::optional<double> own_work_ms;     // the candidate's own kernels per forward
  std::optional<double> own_work_share;  // their share of its device time
  std::vector<std::string> own_kernels;  // their names, as the candidate's worker reported them
  // CPU time its process's other threads used between timed calls' inputs
  // and their clocks (background_work beyond an allowance), on every timed run.
  std::optional<double> background_cpu_ms;
};

struct EvalOutcome {
  EvalJob job;
  std::string verdict;  // "pass" or a code of docs/verdicts.md
  std::string message;  // the code's stable message
  std::string detail;   // what exactly went wrong: exception, mismatch place
  std::string log;      // the candidate worker's stderr (compiler output) when it failed
  Correctness correctness;
  std::optional<double> reference_ms;
  std::optional<double> candidate_ms;
  bool reference_cached = false;  // reference_ms came from the cache of reference times
  double speedup = 0.0;
  double score = 0.0;                     // min(speedup, 10) when passed, else 0
  std::optional<MismatchFacts> mismatch;  // on output_mismatch, when the reference located it
  TimeProfile profile;                    // roofline_ms on every judged run; the rest when passed
  // The reference under torch.compile (default mode) on the same device;
  // none when the baseline is off or compiling failed (docs/evaluator.md,
  // "Baselines"). speedup_vs_compile: compile_ms / candidate_ms.
  std::optional<double> compile_ms;
  std::optional<double> speedup_vs_compile;
  std::vector<std::string> flags;  // notes that are no rejection (docs/verdicts.md): implausible_speedup,
                                   // unsteady_timing, unsteady_reference_timing, host_bound_timing
  // Where the wall time went (diagnostics, no verdict depends on them):
  // "total", "reference_wait", "judge", "timing_lock_wait", and the stages the
  // workers report as "candidate.<stage>" and "reference.<stage>".
  std::map<std::string, double> seconds;

  bool passed() const { return verdict == "pass"; }
  // The problem or the evaluator failed: no verdict on the candidate.
  bool evaluator_failed() const { return verdict == "evaluator_error"; }
};

inline constexpr double kScoreCap = 10.0;

// The outcome of a candidate rejected before it ran (static checks).
EvalOutcome rejected_outcome(const EvalJob& job, const std::string& code, const std::string& detail);

// Evaluates one candidate: a Python file, or an agent's reply holding a
// ```python block. The static rules come first (EvalOptions::static_rules),
// then the candidate runs.
EvalOutcome evaluate(const EvalJob& job, const EvalOptions& options);

// Evaluates `jobs` (each screened by the static rules first, as evaluate()
// does: rejected ones are reported before any job starts) with
// options.parallel candidates in flight: they build and
// check correctness concurrently while timing is serialised through one lock;
// one reference per problem serves all of that problem's jobs, on reference
// worker processes that each host several problems.
// `on_result` is called once per job as it finishes, from one thread at a time.
// `on_start`, when given, is called as each job begins (before any of its
// code runs; from the job's thread), `on_built` once its candidate is
// imported and built (correctness and timing come next).
void evaluate_batch(const std::vector<EvalJob>& jobs, const EvalOptions& options,
                    const std::function<void(const EvalOutcome&)>& on_result,
                    const std::function<void(const EvalJob&)>& on_start = {},
                    const std::function<void(const EvalJob&)>& on_built = {});

// Jobs handed to an evaluation while it runs: called (from one thread at a
// time) whenever the evaluation has room for another job, it gives the next
// one, or none once no more will come (it may take a while to answer).
using JobFeed = std::function<std::optional<EvalJob>()>;

// evaluate_batch of `jobs`, then of each job `more` gives as candidates
// finish, in the same batch: one set of references, workers and timing lock
// for all (kmem worker's claims from a queue, evaluated as they come rather
// than batch after batch). Jobs fed are screened as they come.
void evaluate_stream(const std::vector<EvalJob>& jobs, const JobFeed& more, const EvalOptions& options,
                     const std::function<void(const EvalOutcome&)>& on_result);

// Whether candidate workers can run in the sandbox here (docs/evaluator.md,
// "Sandbox"): bubblewrap present and able to make a worker's namespaces.
// The error is one line naming what failed.
Status sandbox_available(const EvalOptions& options);

// Whether options.python sees a usable CUDA device (torch.cuda.is_available());
// the error is one line saying what is missing.
Status cuda_available(const EvalOptions& options);

// The evaluator that verified something: its version (a hash of the worker's
// code and the torch, Triton and CUDA versions) and the GPU model or "cpu".
struct EvaluatorIdentity {
  std::string version;
  std::string gpu;
};

// Asks the worker's Python (`python -m kmem_worker.identity`) who it is on
// `options.device`. An error names what failed.
Result<EvaluatorIdentity> probe_evaluator_identity(const EvalOptions& options);

// Jobs file: one JSON object per line, {"id", "problem", "candidate"}, paths
// relative to the file's folder.
Result<std::vector<EvalJob>> read_jobs(const std::string& path);

// One outcome as a single-line JSON object (the results file's format).
std::string outcome_json(const EvalOutcome& outcome);

// What a results file says of one job: its latest record (a job run again,
// `kmem eval --redo`, has a later line that counts instead of the earlier).
struct FinishedJob {
  std::string verdict;
  std::vector<std::string> flags;
  double speedup = 0.0;
  bool ran_alone = false;  // run again alone on the GPU after running out of memory among others
};

// A results file being appended to: the ids it already holds (to resume),
// the latest record of each, and an append that reaches the disk before it
// returns.
class ResultsFile {
 public:
  static Result<ResultsFile> open(const std::string& path);
  ResultsFile(ResultsFile&& other) noexcept;
  ResultsFile& operator=(ResultsFile&&) = delete;
  ~ResultsFile();

  const std::set<std::string>& finished_ids() const { return finished_; }
  // id -> its latest record, for every job in the file.
  const std::map<std::string, FinishedJob>& latest() const { return latest_; }
  Status append(const EvalOutcome& outcome);

 private:
  ResultsFile(std::string path, int fd, std::map<std::string, FinishedJob> latest);
  std::string path_;
  int fd_ = -1;
  std::set<std::string> finished_;
  std::map<std::string, FinishedJob> latest_;
};

// The crash-loop guard (docs/evaluator.md): the jobs of a batch in flight,
// journaled in `<results>.inflight` (a JSON line {"id", "alone"} per job
// started, on disk before the job's code runs), so that a rerun knows the
// jobs a run that died was running: those run again one at a time, and one
// that was running alone when the evaluator died is not run again (verdict
// killed_evaluator). The journal is removed when a batch ends.
class InflightJournal {
 public:
  // Reads the journal beside `results_path` (jobs in `finished` are no
  // longer in flight) and starts it again with what is left over.
  static Result<InflightJournal> open(const std::string& results_path, const std::set<std::string>& finished);
  InflightJournal(InflightJournal&& other) noexcept;
  InflightJournal& operator=(InflightJournal&&) = delete;
  ~InflightJournal();

  // Jobs in flight when the last run died: id -> whether it ran alone.
  const std::map<std::string, bool>& left_over() const { return left_over_; }
  // Records that job `id` starts (alone: the only job in flight). Thread-safe.
  Status started(const std::string& id, bool alone);
  // The batch ended: no job is in flight.
  void finish();
  const std::string& path() const { return path_; }

 private:
  InflightJournal(std::string path, int fd, std::map<std::string, bool> left_over);
  std::string path_;
  int fd_ = -1;
  std::map<std::string, bool> left_over_;
  std::mutex mutex_;
};

// Evaluates the jobs of a resumable batch under the crash-loop guard (the
// results file's `journal`; jobs already finished are left out by the
// caller): a job journaled as running alone when an earlier run died gets
// killed_evaluator and does not run; the jobs that were in flight among
// others run again one at a time after the rest; every job is journaled
// before its code runs (alone: options.parallel == 1, or such a rerun).
// `on_result` is called once per job, `on_start` and `on_built` (when given)
// as in evaluate_batch. Returns the first failure to write the journal (the
// batch goes on regardless).
Status evaluate_guarded(const std::vector<EvalJob>& jobs, const EvalOptions& options, InflightJournal& journal,
                        const std::function<void(const EvalOutcome&)>& on_result,
                        const std::function<void(const EvalJob&)>& on_start = {},
                        const std::function<void(const EvalJob&)>& on_built = {});

// The interpreter to run the worker with: $KMEM_PYTHON, else /usr/bin/python3
// when it can import torch, else `python3`.
std::string default_python();

// $KMEM_CACHE_DIR, else $XDG_CACHE_HOME/kmem, else ~/.cache/kmem.
std::string default_cache_dir();

}  // namespace kmem
