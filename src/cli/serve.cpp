// `kmem serve`: the HTTP service (docs/serve.md). Reads the options into a
// ServeConfig, checks the evaluator can run here (device, sandbox), starts
// the server and serves until SIGINT or SIGTERM, which end it and every
// worker its jobs started (exit 128 + the signal).
#include "kmem/serve.h"

#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "eval_options.h"
#include "interrupt.h"
#include "util/file.h"

namespace kmem::cli {
namespace {

namespace fs = std::filesystem;

struct ServeArgs {
  ServeConfig config;
  EvalChoices choices{"cpu", false};  // --device, --no-sandbox
  std::string queue;                  // --queue: the database whose workers evaluate
};

bool is_database(const std::string& path) {
  auto start = util::read_file_start(path, 16);
  return start && *start == std::string("SQLite format 3\0", 16);
}

int run_serve(ServeArgs& args) {
  InterruptGuard guard([](int signal) { fmt::print(stderr, "kmem serve: {}: stopped\n", strsignal(signal)); });
  ServeConfig& c = args.config;
  if (c.store_path.empty()) c.store_path = data_dir() + "/seed/memory-store.json";
  c.seed_pack_path = data_dir() + "/seed/prompt-pack.json";
  if (c.pack_path.empty()) c.pack_path = c.seed_pack_path;
  c.categories_path = data_dir() + "/categories.json";
  if (c.experiments_db.empty() && is_database(c.store_path)) c.experiments_db = c.store_path;
  if (!c.kernelbench.empty()) c.kernelbench = fs::absolute(c.kernelbench).string();
  EvalOptions& eval = c.eval;
  // With --queue the workers evaluate, each with its own device and sandbox;
  // evaluations run here only for the episodes.
  if (Status resolved = resolve_eval_options(args.choices, std::getenv, eval); !resolved)
    return report_error("serve", resolved.error());
  c.work_dir = c.work_dir.empty() ? eval.cache_dir + "/serve" : fs::absolute(c.work_dir).string();
  std::unique_ptr<JobService> jobs;
  if (!args.queue.empty()) {
    auto queued = make_queue_job_service(args.queue, c);
    if (!queued) return report_error("serve", queued.error());
    jobs = std::move(*queued);
  }
  auto server = Server::start(c, std::move(jobs));
  if (!server) return report_error("serve", server.error());
  fmt::print(stderr, "kmem serve: listening on http://{}:{} ({})\n", c.host, (*server)->port(),
             c.insecure_local ? "no tokens: --insecure-local" : c.tokens_path);
  (*server)->wait();
  return kExitOk;
}

}  // namespace

void add_serve_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<ServeArgs>();
  ServeConfig& c = args->config;
  auto* cmd =
      app.add_subcommand("serve", "Serve kmem over HTTP: render, check, evaluate, episodes, items (docs/serve.md)");
  cmd->footer("Runs until SIGINT or SIGTERM (exit 130 or 143). The API: docs/serve.md and docs/openapi.json.");
  cmd->add_option("--host", c.host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", c.port, "port to listen on (0: any free one, printed on stderr)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  auto* tokens = cmd->add_option("--tokens", c.tokens_path,
                                 "tokens file, kmem-serve-tokens/1 (mode 600; reloaded when it changes)");
  auto* insecure =
      cmd->add_flag("--insecure-local", c.insecure_local, "no tokens: every request may write (loopback hosts only)");
  tokens->excludes(insecure);
  cmd->add_option("--audit-log", c.audit_path, "append one JSON line per request to this file");
  cmd->add_option("--store", c.store_path, "memory: store JSON or database (default: the bundled seed memory)");
  cmd->add_option("--pack", c.pack_path, "prompt pack JSON (default: the bundled seed pack)");
  cmd->add_option("--experiments-db", c.experiments_db,
                  "database holding experiments (default: --store when it is a database)");
  cmd->add_option("--kernelbench", c.kernelbench, "KernelBench checkout: problems by id or by path inside it");
  cmd->add_option("--episode-endpoint", c.episode_endpoints,
                  "a chat endpoint episodes may use (repeatable; none: no episodes)");
  cmd->add_option("--max-body-bytes", c.max_body_bytes, "larger request bodies are refused (413)")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30))
      ->capture_default_str();
  cmd->add_option("--threads", c.threads, "connections served at once")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--read-timeout", c.read_timeout_s, "seconds a client may take to send")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--write-timeout", c.write_timeout_s, "seconds a client may take to receive")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--max-wait", c.max_wait_s, "longest ?wait= of a job status request, seconds")
      ->check(CLI::Range(0.0, 600.0))
      ->capture_default_str();
  cmd->add_option("--device", args->choices.device, "evaluations and episodes on cpu, cuda or auto")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd->add_option("--eval-parallel", c.eval.parallel, "jobs (evaluations, episodes) run at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--trials", c.eval.trials, "correctness trials")->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--iters", c.eval.iters, "timed calls")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--warmup", c.eval.warmup, "warm-up calls (randomised up to twice this)")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  cmd->add_option("--keep-warm", c.keep_warm_s,
                  "seconds the evaluation's workers stay up with no job (the next job after that starts them again)")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  cmd->add_flag("--no-sandbox", args->choices.no_sandbox,
                "run candidates outside the sandbox (every outcome is flagged unsandboxed)");
  cmd->add_option("--python", c.eval.python, "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd->add_option("--cache-dir", c.eval.cache_dir, "evaluator caches (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd->add_option("--queue", args->queue,
                  "evaluations go to this database's job queue for `kmem worker`s (postgresql://... or an SQLite "
                  "file: docs/scale-out.md); episodes still run here");
  cmd->add_option("--work-dir", c.work_dir, "where jobs' candidate files go (default: <cache-dir>/serve)");
  cmd->callback([args, &commands] { commands.set_exit_code(run_serve(*args)); });
}

}  // namespace kmem::cli
