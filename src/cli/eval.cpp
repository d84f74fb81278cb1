// `kmem eval`: evaluates one candidate (--problem, --candidate) or a batch
// of jobs (--jobs, --out, resumable; src/cli/eval_batch.cpp) with the
// protected evaluator, and prints verdicts, correctness and timing as text
// or JSON. Only the user's options are here; the rest of the evaluator's
// options, the scheduler's KMEM_TUNE_* variables among them, are completed
// where every command's are (src/cli/eval_options.h).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "commands.h"
#include "eval_command.h"
#include "eval_options.h"
#include "files.h"
#include "interrupt.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

void print_outcome(const EvalOutcome& o) {
  fmt::print("verdict: {}\n  {}\n", o.verdict, o.message);
  if (o.correctness.trials > 0)
    fmt::print("correctness: {} trials, max abs error {:.3g}, max rel error {:.3g}\n", o.correctness.trials,
               o.correctness.max_abs_error, o.correctness.max_rel_error);
  if (o.reference_ms && o.candidate_ms)
    fmt::print("time: reference {:.4f} ms, candidate {:.4f} ms, speedup {:.3f}x\n", *o.reference_ms, *o.candidate_ms,
               o.speedup);
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
  if (!fs::exists(args.problem)) {
    std::cerr << "kmem eval: " << args.problem << ": no such problem file\n";
    return kExitUsage;
  }
  if (Status s = util::check_regular_file(args.problem); !s) {
    std::cerr << "kmem eval: " << s.error().message() << " (given as the problem file)\n";
    return kExitUsage;
  }
  InterruptGuard guard([](int) {});
  // The library screens the candidate with the static rules first.
  EvalOutcome outcome = evaluate(job, args.options);
  if (outcome.verdict == "missing_candidate") {
    std::cerr << "kmem eval: " << outcome.detail << "\n";
    return kExitUsage;
  }
  outcome.job.candidate = args.candidate;
  if (args.json) std::cout << outcome_json(outcome) << "\n";
  else print_outcome(outcome);
  return exit_code_of(outcome);
}

}  // namespace

void add_eval_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<EvalArgs>();
  EvalOptions& o = args->options;
  auto* cmd = app.add_subcommand("eval", "Evaluate candidates with the protected evaluator");
  cmd->footer(
      "Exit codes: one candidate 0 pass, 1 rejected, 2 usage/I-O error or evaluator_error; a batch 0 when every "
      "job has its outcome in --out (whatever the verdicts), 2 usage or I/O error, 128+N killed by signal N "
      "(Ctrl-C: 130; the same command resumes). Tuning of the scheduler: KMEM_TUNE_* (docs/evaluator.md).");
  auto* problem = cmd->add_option("--problem", args->problem, "KernelBench problem file (one candidate)");
  auto* candidate =
      cmd->add_option("--candidate", args->candidate, "candidate: a .py file, or a reply holding a ```python block");
  auto* jobs = cmd->add_option("--jobs", args->jobs, "JSON-lines jobs file {id, problem, candidate} (batch)");
  auto* out = cmd->add_option("--out", args->out, "results file (JSON lines), appended to and resumed");
  problem->needs(candidate)->excludes(jobs);
  candidate->needs(problem)->excludes(jobs);
  jobs->needs(out);
  out->needs(jobs);
  auto* redo = cmd->add_option("--redo", args->redo,
                               "batch: run again the jobs of --out with this id, verdict or flag "
                               "(repeatable, or comma-separated: --redo unsteady_timing,evaluator_error)")
                   ->delimiter(',');
  redo->needs(jobs);
  cmd->add_option("--device", args->choices.device, "cpu, cuda or auto")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  auto* queue = cmd->add_flag("--queue", args->queue,
                              "batch: enqueue the jobs in --store for `kmem worker`s and collect their outcomes "
                              "(docs/scale-out.md)");
  auto* db =
      cmd->add_option("--store,--db", args->store, "with --queue: the database, postgresql://... or an SQLite file");
  queue->needs(jobs)->needs(db);
  db->needs(queue);
  cmd->add_flag("--json", args->json, "print the outcome (batch: the summary) as one JSON object");
  cmd->add_flag("--progress", args->progress, "batch: show progress on stderr even when it is no terminal");
  cmd->add_option("--parallel", o.parallel, "candidates in flight at once (batch)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
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
  cmd->add_flag("--no-sandbox", args->choices.no_sandbox,
                "run candidate workers outside the sandbox (every outcome is flagged unsandboxed)");
  cmd->add_flag("--retime-reference", o.retime_reference,
                "measure each reference again instead of using its cached time");
  cmd->add_option("--python", o.python, "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd->add_option("--cache-dir", o.cache_dir,
                  "build caches, reference times and scratch (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd->callback([args, &commands] {
    if (args->problem.empty() && args->jobs.empty())
      throw CLI::RequiredError("eval needs --problem and --candidate, or --jobs and --out");
    // Queued jobs run with the workers' device, interpreter and sandbox.
    if (!args->queue)
      if (auto resolved = resolve_eval_options(args->choices, std::getenv, args->options); !resolved)
        return commands.set_exit_code(report_error("eval", resolved.error()));
    commands.set_exit_code(args->jobs.empty() ? run_single(*args) : run_batch(*args));
  });
}

}  // namespace kmem::cli
