// `kmem eval`: evaluates one candidate (--problem, --candidate) or a batch
// of jobs (--jobs, --out, resumable) with the protected evaluator, and
// prints verdicts, correctness and timing as text or JSON.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "batch_summary.h"
#include "commands.h"
#include "kmem/eval.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

struct EvalArgs {
  std::string problem, candidate, jobs, out, device = "auto";
  bool json = false, inputs_by_file = false, no_sandbox = false;
  EvalOptions options;
};

std::string resolved_device(const std::string& device) {
  if (device != "auto") return device;
  return fs::exists("/dev/nvidiactl") ? "cuda" : "cpu";
}

void print_outcome(const EvalOutcome& o) {
  fmt::print("verdict: {}\n  {}\n", o.verdict, o.message);
  if (o.correctness.trials > 0)
    fmt::print("correctness: {} trials, max abs error {:.3g}, max rel error {:.3g}\n", o.correctness.trials,
               o.correctness.max_abs_error, o.correctness.max_rel_error);
  if (o.reference_ms && o.candidate_ms)
    fmt::print("time: reference {:.4f} ms, candidate {:.4f} ms, speedup {:.3f}x\n", *o.reference_ms,
               *o.candidate_ms, o.speedup);
  fmt::print("score: {:.3f}\n", o.score);
  for (const auto& flag : o.flags) fmt::print("flag: {}\n", flag);
  if (!o.detail.empty()) fmt::print("detail:\n{}\n", o.detail);
  if (!o.log.empty()) fmt::print("log (worker stderr, compiler output):\n{}\n", o.log);
}

int exit_code_of(const EvalOutcome& outcome) {
  if (outcome.evaluator_failed()) return kExitUsage;
  return outcome.passed() ? kExitOk : kExitRejected;
}

int run_single(const EvalArgs& args) {
  EvalJob job{fs::path(args.candidate).stem().string(), args.problem, args.candidate};
  if (!fs::is_regular_file(args.problem)) {
    std::cerr << args.problem << ": no such problem file\n";
    return kExitUsage;
  }
  // The library screens the candidate with the static rules first.
  EvalOutcome outcome = evaluate(job, args.options);
  if (args.json)
    std::cout << outcome_json(outcome) << "\n";
  else
    print_outcome(outcome);
  return exit_code_of(outcome);
}

// A one-line progress bar on stderr, redrawn as results arrive.
class Progress {
 public:
  Progress(size_t total, bool enabled) : total_(total), enabled_(enabled) {}
  // `last` has just been added to `so_far`.
  void update(const EvalOutcome& last, const BatchSummary& so_far) const {
    if (!enabled_) return;
    const size_t width = 30, done = so_far.evaluated();
    size_t filled = total_ ? done * width / total_ : width;
    fmt::print(stderr, "\r[{}{}] {}/{} passed {}  last: {} {}\x1b[K", std::string(filled, '#'),
               std::string(width - filled, '.'), done, total_, so_far.count("pass"), last.job.id, last.verdict);
    if (done == total_) fmt::print(stderr, "\n");
  }

 private:
  size_t total_;
  bool enabled_;
};

int run_batch(const EvalArgs& args) {
  auto jobs = read_jobs(args.jobs);
  if (!jobs) {
    std::cerr << jobs.error().message() << "\n";
    return kExitUsage;
  }
  auto results = ResultsFile::open(args.out);
  if (!results) {
    std::cerr << results.error().message() << "\n";
    return kExitUsage;
  }
  auto journal = InflightJournal::open(args.out, results->finished_ids());
  if (!journal) {
    std::cerr << journal.error().message() << "\n";
    return kExitUsage;
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<EvalJob> left;
  size_t skipped = 0;
  for (const auto& job : *jobs) {
    if (results->finished_ids().count(job.id))
      ++skipped;
    else
      left.push_back(job);
  }
  Progress progress(left.size(), isatty(STDERR_FILENO) != 0);
  BatchSummary summary(skipped);
  Status written;
  auto record = [&](const EvalOutcome& outcome) {
    if (auto status = results->append(outcome); !status && written) written = status;
    summary.add(outcome);
    progress.update(outcome, summary);
  };
  // The library runs the crash-loop guard and the static rules.
  if (auto journaled = evaluate_guarded(left, args.options, *journal, record); !journaled && written)
    written = journaled;
  journal->finish();
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (args.json)
    std::cout << summary.json(wall_s, args.out).dump() << "\n";
  else
    std::cout << summary.text(wall_s, args.out);
  if (!written) {
    std::cerr << written.error().message() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void add_eval_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<EvalArgs>();
  EvalOptions& o = args->options;
  auto* cmd = app.add_subcommand("eval", "Evaluate candidates with the protected evaluator");
  auto* problem = cmd->add_option("--problem", args->problem, "KernelBench problem file (one candidate)");
  auto* candidate =
      cmd->add_option("--candidate", args->candidate, "candidate: a .py file, or a reply holding a ```python block");
  auto* jobs = cmd->add_option("--jobs", args->jobs, "JSON-lines jobs file {id, problem, candidate} (batch)");
  auto* out = cmd->add_option("--out", args->out, "results file (JSON lines), appended to and resumed");
  problem->needs(candidate)->excludes(jobs);
  candidate->needs(problem)->excludes(jobs);
  jobs->needs(out);
  out->needs(jobs);
  cmd->add_option("--device", args->device, "cpu, cuda or auto")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the outcome (batch: the summary) as one JSON object");
  cmd->add_option("--tolerance", o.tolerance, "atol = rtol of the correctness check")->capture_default_str();
  cmd->add_option("--trials", o.trials, "correctness trials")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--iters", o.iters, "timed calls")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--warmup", o.warmup, "warm-up calls (randomised up to twice this)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--build-timeout", o.build_timeout_s, "seconds to import and compile")->capture_default_str();
  cmd->add_option("--run-timeout", o.run_timeout_s, "seconds to check and time")->capture_default_str();
  cmd->add_option("--memory-limit-mb", o.memory_limit_mb, "address-space limit of CPU runs (0: none)")
      ->capture_default_str();
  cmd->add_option("--parallel", o.parallel, "candidates in flight at once (batch)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--device-setups", o.device_setups,
                  "CUDA: workers creating their CUDA context at once (0: one per four CPUs)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_option("--device-connections", o.device_connections,
                  "CUDA: hardware work queues per worker (CUDA_DEVICE_MAX_CONNECTIONS; 0: the driver's default)")
      ->check(CLI::Range(0, 32))
      ->capture_default_str();
  cmd->add_option("--reference-workers", o.reference_workers,
                  "processes hosting the references, several problems each (0: one per three problems in flight)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_flag("--inputs-by-file", args->inputs_by_file,
                "CUDA: hand inputs to candidates as files instead of IPC handles");
  cmd->add_flag("--no-sandbox", args->no_sandbox,
                "run candidate workers outside the sandbox (every outcome is flagged unsandboxed)");
  cmd->add_flag("--retime-reference", o.retime_reference,
                "measure each reference again instead of using its cached time");
  cmd->add_option("--python", o.python, "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd->add_option("--cache-dir", o.cache_dir, "build caches, reference times and scratch (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd->callback([args, cmd, &commands] {
    if (args->problem.empty() && args->jobs.empty())
      throw CLI::RequiredError("eval needs --problem and --candidate, or --jobs and --out");
    EvalOptions& options = args->options;
    if (options.python.empty()) options.python = default_python();
    if (options.cache_dir.empty()) options.cache_dir = default_cache_dir();
    options.python_dir = python_dir();
    options.device = resolved_device(args->device);
    options.inputs_by_ipc = !args->inputs_by_file;
    options.cache_dir = fs::absolute(options.cache_dir).string();
    options.sandbox = !args->no_sandbox;
    if (options.sandbox) {
      if (auto sandbox = sandbox_available(options); !sandbox) {
        std::cerr << "kmem eval: " << sandbox.error().message() << "\n";
        commands.set_exit_code(kExitUsage);
        return;
      }
    }
    commands.set_exit_code(args->jobs.empty() ? run_single(*args) : run_batch(*args));
    (void)cmd;
  });
}

}  // namespace kmem::cli
