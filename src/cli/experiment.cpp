// `kmem experiment run SPEC`: runs (or resumes) an experiment's episodes
// into a kmem database with a progress line on a terminal (stopped by a
// signal: exit 128 + the signal, the same command resumes); `kmem experiment
// report EXP`: the report as terminal tables, JSON and one HTML file;
// `kmem experiment list`: the experiments a database holds.
#include "kmem/experiment.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "eval_options.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/catalog.h"
#include "kmem/memory.h"
#include "kmem/queue.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

struct RunArgs {
  std::string spec, db, store, pack, work_dir;
  bool quiet = false;
  bool no_sandbox = false;
  bool queue = false;  // evaluate through the job queue of --db (kmem worker processes)
  EvalOptions options;
};

struct ReportArgs {
  std::string experiment, db, html, chart_js;
  bool json = false;
  ReportOptions options;
};

// Set by SIGINT/SIGTERM: no new episodes; those in flight finish and are
// stored. A second signal goes to the handler installed before (the
// InterruptGuard's: every worker ends with kmem, which exits at once).
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_signal{0};
using SignalHandler = void (*)(int);
SignalHandler g_second_signal = SIG_DFL;
extern "C" void on_stop_signal(int signal) {
  g_stop.store(true);
  g_stop_signal.store(signal);
  std::signal(signal, g_second_signal);
}

std::string duration(double s) {
  if (s < 0) return "?";
  int t = static_cast<int>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                   : fmt::format("{}:{:02}", t / 60, t % 60);
}

std::string progress_line(const ExperimentProgress& p, size_t resumed) {
  double rate = p.done ? static_cast<double>(p.correct) / static_cast<double>(p.done) : 0.0;
  return fmt::format("episodes {}/{} (+{} stored before)  correct {:.1f}%  errors {}  elapsed {}  eta {}", p.done,
                     p.total, resumed, 100 * rate, p.errors, duration(p.elapsed_s), duration(p.eta_s));
}

int run(RunArgs& args) {
  const char* cmd = "experiment run";
  // A second Ctrl-C ends every worker this command started; each finished
  // episode is already stored (one transaction each), so the same command resumes.
  InterruptGuard guard([&](int signal) {
    fmt::print(stderr, "\nkmem experiment run: {}: finished episodes are kept in {}; the same command resumes\n",
               strsignal(signal), args.db);
  });
  auto spec = load_experiment_spec(args.spec);
  if (!spec) return report_error(cmd, spec.error());
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return report_error(cmd, rules.error());
  auto problems = resolve_problems(*spec, *rules);
  if (!problems) return report_error(cmd, problems.error().wrap(args.spec));

  std::string store_path = store_or_seed(args.store);
  std::string pack_path = args.pack.empty() ? data_dir() + "/seed/prompt-pack.json" : args.pack;
  auto loaded = load_memory(store_path);
  if (!loaded) return report_error(cmd, loaded.error());
  // Speedups measured on another device class are not shown as this one's.
  const Memory memory = memory_for_device(*loaded, spec->device);
  auto pack_text = util::read_file(pack_path);
  if (!pack_text) return report_error(cmd, pack_text.error());
  auto pack = parse_pack_json(*pack_text, pack_path);
  if (!pack) return report_error(cmd, pack.error());
  if (pack->episode.empty())
    return report_error(cmd, Error(pack_path + ": the prompt pack has no 'episode' texts (docs/episodes.md)"));
  for (const auto& policy : spec->policies)
    if (!pack->policies.contains(policy))
      return report_error(cmd, Error(fmt::format("{}: unknown policy '{}' (not in {})", args.spec, policy, pack_path)));

  std::map<std::string, std::unique_ptr<ChatClient>> clients;
  ExperimentContext context;
  for (const auto& reader : spec->readers) {
    if (reader.endpoint.replay_dir.empty())
      if (Status s = probe_endpoint(reader.endpoint); !s)
        return report_error(cmd, s.error().wrap(fmt::format("{}: reader '{}'", args.spec, reader.id)));
    auto client = make_chat_client(reader.endpoint);
    if (!client) return report_error(cmd, client.error().wrap(fmt::format("{}: reader '{}'", args.spec, reader.id)));
    context.chat[reader.id] = client->get();
    clients[reader.id] = std::move(*client);
  }

  auto db = Database::open(args.db);
  if (!db) return report_error(cmd, db.error());
  if (Status s = db->begin_experiment(spec->name, spec->canonical_json); !s) return report_error(cmd, s.error());
  auto done = db->recorded_episodes(spec->name);
  if (!done) return report_error(cmd, done.error());
  auto source = make_matrix_source(*spec, *problems, *done);

  EvalOptions& options = args.options;
  // Queued evaluations run with the workers' device, interpreter and
  // sandbox: this machine needs neither a GPU nor a sandbox then.
  const EvalChoices choices{spec->device, args.no_sandbox};
  Status ready = args.queue ? complete_eval_options(choices, std::getenv, options)
                            : resolve_eval_options(choices, std::getenv, options);
  if (!ready) return report_error(cmd, ready.error());
  // Local: candidates of concurrent episodes evaluated together here.
  // Queued: each a job of --db's queue, for workers on any machine.
  auto evaluator = args.queue ? make_queue_evaluator(args.db, options, "experiment:" + spec->name)
                              : make_streaming_evaluator(options, spec->eval_parallel);

  MemoryIndex index(memory);
  context.memory = &index;
  context.pack = &*pack;
  context.evaluator = evaluator.get();
  context.work_dir = args.work_dir.empty() ? (fs::path(options.cache_dir) / "episodes" / spec->name).string()
                                           : fs::absolute(args.work_dir).string();
  context.stop = &g_stop;
  context.writes = &guard.writes();
  const bool terminal = !args.quiet && isatty(STDERR_FILENO) != 0;
  const size_t resumed = done->size();
  context.on_progress = [&](const ExperimentProgress& p) {
    if (terminal) std::cerr << "\r\033[K" << progress_line(p, resumed) << std::flush;
  };
  g_second_signal = std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  auto result = run_experiment(*spec, *problems, *source, *db, context);
  if (terminal) std::cerr << "\n";
  if (!result) return report_error(cmd, result.error());
  std::string summary = fmt::format("experiment {}: {}\n", spec->name, progress_line(*result, resumed));
  if (Status s = write_stdout(summary); !s) return report_error(cmd, s.error());
  if (g_stop.load() && result->done < result->total) {
    int signal = g_stop_signal.load();
    fmt::print(stderr,
               "kmem experiment run: stopped by {}: {} episodes left; finished episodes are kept in {}; resume with "
               "the same command\n",
               strsignal(signal), result->total - result->done, args.db);
    return 128 + signal;
  }
  return kExitOk;
}

int report(const ReportArgs& args) {
  const char* cmd = "experiment report";
  auto db = Database::open_existing(args.db);
  if (!db) return report_error(cmd, db.error());
  auto episodes = db->experiment_episodes(args.experiment);
  if (!episodes) return report_error(cmd, episodes.error());
  Report r = build_report(args.experiment, *episodes, args.options);
  if (!args.html.empty()) {
    std::string chart_path = args.chart_js;
    if (chart_path.empty()) {
      const char* env = std::getenv("KMEM_CHART_JS");
      chart_path = env != nullptr && *env != '\0' ? env : KMEM_DEFAULT_CHART_JS;
    }
    if (chart_path.empty())
      return report_error(
          cmd, Error("--html: no Chart.js found at build time (install libjs-chart.js, or give --chart-js)"));
    auto chart_js = util::read_file(chart_path);
    if (!chart_js) return report_error(cmd, chart_js.error().wrap("Chart.js"));
    if (chart_js->find("</script") != std::string::npos)
      return report_error(cmd, Error(chart_path + ": holds '</script', so it cannot be inlined"));
    auto views = db->episode_views(args.experiment);
    if (!views) return report_error(cmd, views.error());
    std::ofstream out(args.html, std::ios::binary | std::ios::trunc);
    out << report_html(r, *chart_js, *views);
    out.close();
    if (!out) return report_error(cmd, Error(args.html + ": cannot write the report"));
  }
  if (Status s = write_stdout(args.json ? report_json(r) : report_text(r)); !s) return report_error(cmd, s.error());
  return kExitOk;
}

struct ListArgs {
  std::string db;
  bool json = false;
};

int list(const ListArgs& args) {
  const char* cmd = "experiment list";
  auto db = Database::open_existing(args.db);
  if (!db) return report_error(cmd, db.error());
  auto names = db->experiments();
  if (!names) return report_error(cmd, names.error());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::string text = fmt::format("{:<32} {:>8} {:>8}\n", "experiment", "episodes", "correct");
  for (const std::string& name : *names) {
    auto episodes = db->experiment_episodes(name);
    if (!episodes) return report_error(cmd, episodes.error());
    size_t correct = 0;
    for (const StoredEpisode& e : *episodes) correct += e.correct ? 1 : 0;
    text += fmt::format("{:<32} {:>8} {:>8}\n", name, episodes->size(), correct);
    out.push_back({{"experiment", name}, {"episodes", episodes->size()}, {"correct", correct}});
  }
  if (args.json) text = out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  if (Status s = write_stdout(text); !s) return report_error(cmd, s.error());
  return kExitOk;
}

}  // namespace

void add_experiment_command(CLI::App& app, CommandSet& commands) {
  auto* experiment = app.add_subcommand("experiment", "Run experiments of episodes, list them and report on them");
  experiment->require_subcommand(1);

  auto run_args = std::make_shared<RunArgs>();
  auto* run_cmd = experiment->add_subcommand("run", "Run (or resume) the experiment a spec describes");
  run_cmd->add_option("spec", run_args->spec, "experiment spec, kmem-experiment/1 (.json or .toml)")->required();
  add_results_option(*run_cmd, run_args->db, true)->required();
  run_cmd->add_option("--store", run_args->store,
                      "the memory to render: a store JSON or a kmem database (default: the bundled seed)");
  run_cmd->add_option("--pack", run_args->pack, "prompt pack with episode texts (default: the bundled seed pack)");
  run_cmd->add_option("--work-dir", run_args->work_dir, "where candidate files go (default: <cache>/episodes/<name>)");
  run_cmd->add_flag("--quiet", run_args->quiet, "no progress line");
  run_cmd->add_option("--python", run_args->options.python, "Python interpreter with torch");
  run_cmd->add_flag("--no-sandbox", run_args->no_sandbox,
                    "run candidates outside the sandbox (every outcome is flagged unsandboxed)");
  run_cmd->add_option("--cache-dir", run_args->options.cache_dir,
                      "evaluator caches (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  run_cmd->add_flag("--queue", run_args->queue,
                    "evaluate through the job queue of --db: `kmem worker` processes on any machine evaluate "
                    "(docs/scale-out.md); the device, sandbox and caches are the workers'");
  run_cmd->footer(
      "Exit codes: 0 every episode stored, 2 usage or I/O error, 128+N stopped by signal N (Ctrl-C: 130; "
      "the finished episodes are kept and the same command resumes).");
  run_cmd->callback([run_args, &commands] { commands.set_exit_code(run(*run_args)); });

  auto report_args = std::make_shared<ReportArgs>();
  auto* report_cmd = experiment->add_subcommand("report", "Report on an experiment's stored episodes");
  report_cmd->add_option("experiment", report_args->experiment, "experiment name (the spec's \"name\")")->required();
  add_results_option(*report_cmd, report_args->db, true)->required();
  report_cmd->add_option("--html", report_args->html, "also write one self-contained HTML report here");
  report_cmd->add_flag("--json", report_args->json, "print the report as one JSON object");
  report_cmd->add_option("--p", report_args->options.p, "the threshold p of fast_p")->capture_default_str();
  report_cmd->add_option("--resamples", report_args->options.resamples, "bootstrap resamples")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  report_cmd->add_option("--seed", report_args->options.seed, "bootstrap seed")->capture_default_str();
  report_cmd->add_option("--chart-js", report_args->chart_js,
                         "Chart.js UMD file to inline (default: $KMEM_CHART_JS, the one found at build time)");
  report_cmd->callback([report_args, &commands] { commands.set_exit_code(report(*report_args)); });

  auto list_args = std::make_shared<ListArgs>();
  auto* list_cmd = experiment->add_subcommand("list", "List the experiments a database holds, with episode counts");
  add_results_option(*list_cmd, list_args->db, true)->required();
  list_cmd->add_flag("--json", list_args->json, "print a JSON list");
  list_cmd->callback([list_args, &commands] { commands.set_exit_code(list(*list_args)); });
}

}  // namespace kmem::cli
