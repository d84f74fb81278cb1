// `kmem eval --jobs FILE --out RESULTS --queue --db DB`: the batch of
// eval_batch.cpp, evaluated by `kmem worker` processes instead of here. The
// jobs not yet in the results file (and those --redo names) are enqueued in
// the database's job queue with their sources; each outcome is appended to
// the results file as a worker stores it, exactly as a local run writes it;
// the same summary closes the run. Interrupted, the jobs stay queued.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstring>
#include <iostream>
#include <set>
#include <thread>

#include "batch_summary.h"
#include "commands.h"
#include "eval_command.h"
#include "interrupt.h"
#include "kmem/queue.h"
#include "progress.h"

namespace kmem::cli {

namespace {

int fail(const std::string& message) {
  std::cerr << "kmem eval: " << message << "\n";
  return kExitUsage;
}

// Names the jobs of one run in the queue: host, process and time.
std::string batch_name() {
  char host[HOST_NAME_MAX + 1] = {};
  gethostname(host, sizeof host - 1);
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return fmt::format("eval:{}:{}:{}", host, getpid(),
                     std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

}  // namespace

int run_queued_batch(const EvalArgs& args, const std::set<std::string>& done, ResultsFile& results, size_t skipped) {
  auto jobs = read_jobs(args.jobs);
  if (!jobs) return fail(jobs.error().message());
  std::vector<EvalJob> left;
  std::vector<std::string> payloads;
  for (const auto& job : *jobs) {
    if (done.count(job.id)) continue;
    auto request = read_eval_request(job);
    if (!request) return fail(request.error().message());
    payloads.push_back(eval_payload_json(*request, args.options));
    left.push_back(job);
  }
  auto queue = JobQueue::open(args.store);
  if (!queue) return fail(queue.error().message());
  const auto started = std::chrono::steady_clock::now();
  auto ids = (*queue)->enqueue(JobKind::kEval, payloads, batch_name());
  if (!ids) return fail(ids.error().message());
  Progress progress(stderr, left.size(), args.progress || isatty(STDERR_FILENO) != 0);
  size_t evaluated = 0;
  InterruptGuard guard([&](int signal) {
    fmt::print(stderr, "\nkmem eval: {}: {} job{} of this run kept in {}; the rest stay in the queue of {}\n",
               strsignal(signal), evaluated, evaluated == 1 ? "" : "s", args.out, args.store);
  });

  Status written;
  std::set<size_t> pending, running;
  for (size_t i = 0; i < left.size(); ++i) pending.insert(i);
  while (!pending.empty()) {
    auto now = (*queue)->jobs(*ids);
    if (!now) {  // the database went away: reach it again, the workers go on meanwhile
      std::cerr << "kmem eval: " << now.error().message() << "; reconnecting\n";
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (auto again = JobQueue::open(args.store)) queue = std::move(again);
      continue;
    }
    for (auto it = pending.begin(); it != pending.end();) {
      const QueuedJob& q = (*now)[*it];
      if (q.state == JobState::kClaimed && running.insert(*it).second) progress.started(left[*it].id);
      if (!q.finished()) {
        ++it;
        continue;
      }
      EvalOutcome outcome = queued_outcome(q, left[*it], args.store);
      {
        std::lock_guard whole_lines(guard.writes());
        if (auto status = results.append(outcome); !status && written) written = status;
        ++evaluated;
      }
      progress.finished(outcome.job.id, outcome.passed());
      it = pending.erase(it);
    }
    if (!pending.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  progress.close();
  return finish_batch(args, results.latest(), evaluated, skipped, started, written);
}

}  // namespace kmem::cli
