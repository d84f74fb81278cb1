// `kmem worker --store URL --device cpu|cuda|cuda:N`: drains the job queue of a
// kmem database (docs/scale-out.md), a batch of jobs at a time with
// `--parallel` candidates in flight, on one device; run one per GPU, on as
// many machines as reach the database. On SIGINT or SIGTERM it gives its
// jobs back to the queue (the next worker claims them at once) and ends
// every process it started.
#include "kmem/worker.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "commands.h"
#include "eval_options.h"
#include "interrupt.h"
#include "kmem/queue.h"
#include "worker_command.h"

namespace kmem::cli {

namespace {

struct WorkerArgs {
  std::string db, device = "cpu";
  bool no_sandbox = false;
  std::optional<double> keep_warm_s;  // --keep-warm; unset: kDefaultKeepWarmS, 0 with --exit-when-idle
  WorkerOptions options;
};

constexpr double kDefaultKeepWarmS = 300;

void say(const std::string& line) { fmt::print(stderr, "kmem worker: {}\n", line); }

// "cpu", or "cuda" with CUDA_VISIBLE_DEVICES set for "cuda:N".
Result<std::string> device_of(const std::string& device, const EvalOptions& options) {
  if (device == "cpu") return device;
  if (device.starts_with("cuda:")) {
    std::string index = device.substr(5);
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos)
      return Error("--device " + device + ": expected cpu, cuda or cuda:N");
    setenv("CUDA_VISIBLE_DEVICES", index.c_str(), 1);
  } else if (device != "cuda") {
    return Error("--device " + device + ": expected cpu, cuda or cuda:N");
  }
  if (Status usable = cuda_available(options); !usable) return usable.error();
  return std::string("cuda");
}

std::string default_name() {
  char host[HOST_NAME_MAX + 1] = {};
  gethostname(host, sizeof host - 1);
  return fmt::format("{}:{}", host, getpid());
}

int run(WorkerArgs& args) {
  WorkerOptions& o = args.options;
  o.db = args.db;
  if (o.name.empty()) o.name = default_name();
  o.keep_warm_s = args.keep_warm_s.value_or(o.exit_when_idle ? 0.0 : kDefaultKeepWarmS);
  EvalOptions& e = o.eval;
  // The defaults and KMEM_TUNE_* variables every evaluating command gets
  // (eval_options.h); the device is resolved below, cuda:N included.
  if (Status completed = complete_eval_options({args.device, args.no_sandbox}, std::getenv, e); !completed)
    return report_error("worker", completed.error());
  auto device = device_of(args.device, e);
  if (!device) return report_error("worker", device.error());
  e.device = *device;
  if (e.sandbox)
    if (Status s = sandbox_available(e); !s) return report_error("worker", s.error());
  o.log = say;

  std::atomic<bool> stop = false;
  CurrentLeases current;
  InterruptGuard guard([&](int signal) {
    // Jobs cut short go back to the queue now rather than when their leases
    // end, and none is claimed again before the exit.
    stop = true;
    auto leases = current.close();
    if (leases.empty()) {
      say(fmt::format("{}: stopped", strsignal(signal)));
      return;
    }
    auto queue = JobQueue::open(o.db, o.queue);
    for (const Lease& lease : leases) {
      bool released = queue && (*queue)->release(lease).ok();
      say(fmt::format("{}: job {} {}", strsignal(signal), lease.job_id,
                      released ? "given back to the queue" : "left to its lease's expiry"));
    }
  });
  say(fmt::format("{} on {}, {} candidate{} in flight, batches of up to {} jobs, lease {} s, kept warm {} s", o.name,
                  e.device, e.parallel, e.parallel == 1 ? "" : "s", o.batch > 0 ? o.batch : 4 * e.parallel,
                  o.queue.lease_s, o.keep_warm_s));
  auto tally = run_worker(o, stop, current, guard.writes());
  if (!tally) return report_error("worker", tally.error());
  say(fmt::format("queue drained: {} outcome{} stored, {} dropped, {} failed", tally->completed,
                  tally->completed == 1 ? "" : "s", tally->dropped, tally->failed));
  return kExitOk;
}

}  // namespace

void add_worker_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<WorkerArgs>();
  WorkerOptions& o = args->options;
  auto* cmd = app.add_subcommand("worker", "Evaluate the jobs of a database's queue (docs/scale-out.md)");
  cmd->footer(
      "Exit codes: 0 the queue was drained (--exit-when-idle), 2 usage error or the database unreachable "
      "at start, 128+N stopped by signal N (its jobs given back to the queue).");
  cmd->add_option("--store,--db", args->db, "kmem database: postgresql://... (many machines) or an SQLite file")
      ->required();
  cmd->add_option("--device", args->device, "cpu, cuda or cuda:N (one worker per GPU)")->capture_default_str();
  cmd->add_option("--parallel", o.eval.parallel, "candidates in flight at once, as kmem eval --parallel")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--batch", o.batch,
                  "jobs claimed at once to start a batch, which claims more as it runs (default: 4 x --parallel)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--gather", o.gather_s, "seconds to go on claiming for a batch while the queue is empty")
      ->check(CLI::Range(0.0, 60.0))
      ->capture_default_str();
  cmd->add_option("--name", o.name, "this worker's name in leases (default: host:pid)");
  cmd->add_option("--lease", o.queue.lease_s, "seconds a claim holds a job without a heartbeat")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--max-attempts", o.queue.max_attempts, "leases a job may outlive before it fails")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--poll", o.poll_s, "seconds between claims while the queue is empty")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  cmd->add_option("--keep-warm", args->keep_warm_s,
                  "seconds a batch's evaluation waits for another job while the queue is empty, its workers warm "
                  "(default: 300; 0 with --exit-when-idle)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_flag("--exit-when-idle", o.exit_when_idle, "end once no job is left to claim");
  o.first_job_wait_s = 30;
  cmd->add_option("--first-job-wait", o.first_job_wait_s,
                  "with --exit-when-idle: seconds to wait for a first job while the queue is empty "
                  "(a worker started beside its submitter)")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  cmd->add_flag("--no-sandbox", args->no_sandbox,
                "run candidate workers outside the sandbox (every outcome is flagged unsandboxed)");
  cmd->add_option("--python", o.eval.python, "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd->add_option("--cache-dir", o.eval.cache_dir,
                  "build caches, reference times and scratch (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd->callback([args, &commands] { commands.set_exit_code(run(*args)); });
}

}  // namespace kmem::cli
