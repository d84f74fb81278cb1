// The HTTP service (`kmem serve`, docs/serve.md): JSON over HTTP for what a
// program needs of kmem (render, check, evaluate, episodes, items, readers,
// experiments), behind bearer tokens, with an append-only audit log, limits
// on bodies, time and threads, and a shared immutable snapshot of the memory
// so readers never wait for a writer. Long work (evaluations, episodes) goes
// through the JobService seam: submit, then ask for the state or wait.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kmem/eval.h"
#include "kmem/result.h"

namespace kmem {

// ---- The seam for long work ---------------------------------------------------

// A job as data, so it can cross a process or a machine: its kind
// ("evaluation" or "episode") and its payload, one JSON object (docs/serve.md,
// "Jobs").
struct JobRequest {
  std::string kind;
  std::string payload_json;
};

// Where a job stands. `state` is "queued", "running", "done" or "failed";
// `result_json` is the outcome (done), `error` why it failed (failed).
struct JobStatus {
  std::string id;
  std::string kind;
  std::string state;
  std::string result_json;
  std::string error;
  bool finished() const { return state == "done" || state == "failed"; }
};

// Runs jobs. Implementations are thread-safe.
class JobService {
 public:
  virtual ~JobService() = default;
  // The new job's id; an error when no more can be taken (the queue is full).
  virtual Result<std::string> submit(const JobRequest& request) = 0;
  // The job's state, or nothing for an unknown id.
  virtual std::optional<JobStatus> status(const std::string& id) = 0;
  // Waits until the job has finished or `timeout` has passed; then as status().
  virtual std::optional<JobStatus> wait(const std::string& id, std::chrono::milliseconds timeout) = 0;
};

// Runs one job: its outcome as JSON, or an error (the job fails with it).
using JobExecutor = std::function<Result<std::string>(const JobRequest&)>;

// Runs jobs in this process on `workers` threads; at most `max_pending` jobs
// wait or run at once (submit fails beyond); the last `keep_finished`
// finished jobs stay to be asked for.
std::unique_ptr<JobService> make_local_job_service(JobExecutor executor, int workers, std::size_t max_pending = 1024,
                                                   std::size_t keep_finished = 10000);

// ---- The server ---------------------------------------------------------------

struct ServeConfig {
  std::string host = "127.0.0.1";
  int port = 8420;                             // 0: any free port
  std::string tokens_path;                     // kmem-serve-tokens/1 (docs/serve.md, "Tokens")
  bool insecure_local = false;                 // no tokens: every request may write; loopback hosts only
  std::string audit_path;                      // one JSON line per request, appended
  std::string store_path;                      // the memory: a kmem-memory-store/1 file or a database
  std::string pack_path;                       // the prompt pack
  std::string seed_pack_path;                  // the episode texts when the pack has none
  std::string experiments_db;                  // experiments (default: the store, when it is a database)
  std::string kernelbench;                     // a KernelBench checkout: problems by id or file (may be empty)
  std::string categories_path;                 // the category rule table
  std::vector<std::string> episode_endpoints;  // chat endpoints episodes may use (none: episodes refused)
  std::size_t max_body_bytes = std::size_t{2} << 20;
  int threads = 16;  // connections served at once
  double read_timeout_s = 5, write_timeout_s = 5, keep_alive_s = 5;
  double max_wait_s = 30;        // longest wait a status request may ask for
  double reload_interval_s = 1;  // how often the store and tokens file are checked for changes
  EvalOptions eval;              // every evaluation's and episode's options
  // How long the evaluation of the server's jobs stays up (its zygotes,
  // reference workers and references) with no job to evaluate; the next
  // job after that starts a new one (seconds of imports on a GPU machine).
  double keep_warm_s = 300;
  std::string work_dir;  // candidate files of jobs
};

// A running server. start() binds and serves on background threads.
class Server {
 public:
  // `jobs`: where evaluations and episodes run; nothing: in this process on
  // config.eval.parallel threads.
  static Result<std::unique_ptr<Server>> start(const ServeConfig& config, std::unique_ptr<JobService> jobs = nullptr);
  ~Server();  // stops serving

  int port() const;
  void wait();  // until stop() (or a signal handler calling it)
  void stop();

  struct Impl;

 private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Every route the server registers: its method, its path pattern as the
// OpenAPI document writes it ("/v1/items/{id}") and whether it needs a
// write token.
struct RouteInfo {
  std::string method, path;
  bool writes = false;
};
std::vector<RouteInfo> served_routes();

// Runs one job as the in-process service does: "evaluation" or "episode"
// with the payload of docs/serve.md. The executor's candidates, from every
// job, go to one evaluation that it keeps running (config.keep_warm_s).
JobExecutor make_job_executor(const ServeConfig& config);

// Evaluations go to the job queue of the database `queue_db` (a PostgreSQL
// URL or an SQLite file: docs/scale-out.md), for `kmem worker`s on any
// machine, with the problem's source in the payload; their ids are
// "queue-<row>". Episodes run in this process, as make_local_job_service's.
Result<std::unique_ptr<JobService>> make_queue_job_service(const std::string& queue_db, const ServeConfig& config);

}  // namespace kmem
