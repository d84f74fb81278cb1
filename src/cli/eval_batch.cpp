// `kmem eval --jobs FILE --out RESULTS`: evaluates the jobs not yet in the
// results file (and those --redo names again), appends each outcome as it
// finishes, shows progress on a terminal, ends every process it started on
// Ctrl-C, and closes with a summary of the whole results file.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>

#include "batch_summary.h"
#include "commands.h"
#include "eval_command.h"
#include "interrupt.h"
#include "progress.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

int fail(const std::string& message) {
  std::cerr << "kmem eval: " << message << "\n";
  return kExitUsage;
}

// The ids of `results` that `selectors` name: by id, verdict or flag. A
// selector that names none is reported on stderr (nothing to redo is no error).
std::set<std::string> ids_to_redo(const std::map<std::string, FinishedJob>& results,
                                  const std::vector<std::string>& selectors) {
  std::set<std::string> ids;
  for (const std::string& selector : selectors) {
    bool named = false;
    for (const auto& [id, job] : results) {
      bool flagged = std::find(job.flags.begin(), job.flags.end(), selector) != job.flags.end();
      if (id == selector || job.verdict == selector || flagged) {
        ids.insert(id);
        named = true;
      }
    }
    if (!named)
      std::cerr << "kmem eval: --redo " << selector << ": no job of the results file has this id, verdict or flag\n";
  }
  return ids;
}

}  // namespace

int run_batch(const EvalArgs& args) {
  std::error_code jobs_ec, out_ec;
  fs::path jobs_path = fs::weakly_canonical(args.jobs, jobs_ec), out_path = fs::weakly_canonical(args.out, out_ec);
  if (!jobs_ec && !out_ec && jobs_path == out_path)
    return fail("--jobs and --out name the same file (" + args.out + "): results would be written into the jobs");
  auto jobs = read_jobs(args.jobs);
  if (!jobs) return fail(jobs.error().message());
  auto results = ResultsFile::open(args.out);
  if (!results) return fail(results.error().message());
  const std::set<std::string> redo = ids_to_redo(results->latest(), args.redo);
  std::set<std::string> done;
  for (const auto& [id, job] : results->latest())
    if (!redo.count(id)) done.insert(id);
  if (args.queue) {
    size_t already = 0;
    for (const auto& job : *jobs) already += done.count(job.id);
    return run_queued_batch(args, done, *results, already);
  }
  auto journal = InflightJournal::open(args.out, done);
  if (!journal) return fail(journal.error().message());
  const auto started = std::chrono::steady_clock::now();
  size_t skipped = 0;
  for (const auto& job : *jobs) skipped += done.count(job.id);
  Progress progress(stderr, jobs->size() - skipped, args.progress || isatty(STDERR_FILENO) != 0);
  size_t evaluated = 0;
  InterruptGuard guard([&](int signal) {
    // Jobs cut short by the user are no crash-loop suspects: they run again.
    journal->finish();
    fmt::print(stderr, "\nkmem eval: {}: {} job{} of this run kept in {}; the same command resumes\n",
               strsignal(signal), evaluated, evaluated == 1 ? "" : "s", args.out);
  });

  std::vector<EvalJob> left;
  for (const auto& job : *jobs)
    if (!done.count(job.id)) left.push_back(job);
  // id -> the job's files as absolute paths: a results file read from
  // another folder (kmem ingest) finds them (docs/jobs.md).
  std::map<std::string, EvalJob> recorded_as;
  for (const auto& job : *jobs)
    recorded_as[job.id] = EvalJob{job.id, fs::absolute(job.problem).lexically_normal().string(),
                                  fs::absolute(job.candidate).lexically_normal().string()};
  Status written;
  auto record = [&](const EvalOutcome& outcome) {
    EvalOutcome shown = outcome;
    shown.job = recorded_as[outcome.job.id];
    {
      std::lock_guard whole_lines(guard.writes());
      if (auto status = results->append(shown); !status && written) written = status;
      ++evaluated;
    }
    progress.finished(shown.job.id, shown.passed());
  };
  // The library screens every job with the static rules and runs the
  // crash-loop guard (evaluate_guarded, kmem/eval.h).
  auto on_start = [&](const EvalJob& job) { progress.started(job.id); };
  auto on_built = [&](const EvalJob& job) { progress.built(job.id); };
  if (auto journaled = evaluate_guarded(left, args.options, *journal, record, on_start, on_built);
      !journaled && written)
    written = journaled;
  journal->finish();
  progress.close();
  return finish_batch(args, results->latest(), evaluated, skipped, started, written);
}

int finish_batch(const EvalArgs& args, const std::map<std::string, FinishedJob>& results, size_t evaluated,
                 size_t skipped, std::chrono::steady_clock::time_point started, const Status& written) {
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BatchSummary summary(results, evaluated, skipped);
  if (args.json) std::cout << summary.json(wall_s, args.out).dump() << "\n";
  else std::cout << summary.text(wall_s, args.out);
  if (!written) return fail(written.error().message());
  return kExitOk;
}

}  // namespace kmem::cli
