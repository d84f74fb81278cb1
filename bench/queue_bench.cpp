// Throughput of the job queue with 1, 2, 4, ... `kmem worker` processes
// draining one batch of CPU evaluations (docs/scale-out.md). Not a Google
// Benchmark: each round enqueues --jobs copies of an honest CPU candidate
// (tests/hacks: relu(a + b)), starts the workers with --exit-when-idle and
// times until the last outcome is stored; a first round of one job warms the
// caches (the extension's build, the reference's time) and is not counted.
//
//   kmem_queue_bench --kmem build/kmem [--db URL] [--jobs 8] [--workers 1,2,4]
//
// Without --db the queue is an SQLite file in a temporary folder.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "kmem/queue.h"

namespace fs = std::filesystem;

namespace {

// Enqueues `n` jobs and runs `workers` workers until the queue is empty;
// the seconds it took.
kmem::Result<double> round(const std::string& kmem, const std::string& db, const std::string& payload, int n,
                           int workers, const std::string& cache) {
  auto queue = kmem::JobQueue::open(db);
  if (!queue) return queue.error();
  auto start = std::chrono::steady_clock::now();
  auto ids = (*queue)->enqueue(kmem::JobKind::kEval, std::vector<std::string>(n, payload),
                               fmt::format("bench-{}-{}", workers, getpid()));
  if (!ids) return ids.error();
  std::vector<pid_t> pids;
  for (int w = 0; w < workers; ++w) {
    pid_t pid = fork();
    if (pid == 0) {
      int quiet = open("/dev/null", O_WRONLY);  // the workers' event lines would bury the figures
      dup2(quiet, STDERR_FILENO);
      execl(kmem.c_str(), kmem.c_str(), "worker", "--db", db.c_str(), "--device", "cpu", "--exit-when-idle", "--poll",
            "0.1", "--cache-dir", cache.c_str(), "--name", fmt::format("bench-{}", w).c_str(), nullptr);
      _exit(127);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) waitpid(pid, nullptr, 0);
  auto done = (*queue)->wait(*ids, 0);
  if (!done) return done.error();
  for (const auto& job : *done)
    if (job.state != kmem::JobState::kDone) return kmem::Error(fmt::format("job {} not done", job.id));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("Throughput of the job queue with 1, 2, 4 CPU workers");
  std::string kmem, db, cache = (fs::temp_directory_path() / "kmem-queue-bench-cache").string();
  int jobs = 8;
  std::vector<int> counts = {1, 2, 4};
  app.add_option("--kmem", kmem, "the kmem binary")->required();
  app.add_option("--db", db, "the queue's database (default: an SQLite file in a temporary folder)");
  app.add_option("--jobs", jobs, "jobs per round")->capture_default_str();
  app.add_option("--workers", counts, "worker counts, one round each")->delimiter(',');
  app.add_option("--cache-dir", cache, "the workers' evaluator cache")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  fs::path scratch = fs::temp_directory_path() / fmt::format("kmem-queue-bench-{}", getpid());
  fs::create_directories(scratch);
  if (db.empty()) db = (scratch / "queue.db").string();
  std::string tests = std::string(KMEM_SOURCE_DIR) + "/tests/hacks";
  auto request =
      kmem::read_eval_request({"add_relu", tests + "/problems/add_relu.py", tests + "/cpu/honest_add_relu.py"});
  if (!request) {
    fmt::print(stderr, "{}\n", request.error().message());
    return 2;
  }
  kmem::EvalOptions options;
  options.trials = 2;
  options.iters = 5;
  std::string payload = kmem::eval_payload_json(*request, options);
  if (auto warm = round(kmem, db, payload, 1, 1, cache); !warm) {
    fmt::print(stderr, "warm-up: {}\n", warm.error().message());
    return 2;
  }
  fmt::print("{} jobs per round ({} CPUs), queue {}\n", jobs, std::thread::hardware_concurrency(),
             db.starts_with("postgres") ? "PostgreSQL" : "SQLite");
  fmt::print("{:>8} {:>10} {:>10} {:>8}\n", "workers", "seconds", "jobs/s", "scaling");
  double one = 0;
  for (int workers : counts) {
    auto seconds = round(kmem, db, payload, jobs, workers, cache);
    if (!seconds) {
      fmt::print(stderr, "{} workers: {}\n", workers, seconds.error().message());
      return 2;
    }
    double rate = jobs / *seconds;
    if (one == 0) one = rate;
    fmt::print("{:>8} {:>10.1f} {:>10.3f} {:>7.2f}x\n", workers, *seconds, rate, rate / one);
  }
  fs::remove_all(scratch);
  return 0;
}
