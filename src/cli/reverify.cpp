// `kmem reverify --store DB --kernelbench KB [--kind kernel]`: runs every kernel
// item that is not retired again on the current evaluator and GPU; failing
// ones are retired with the verdict, speedups updated with their history.
#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/catalog.h"
#include "kmem/episode.h"
#include "kmem/experiment.h"
#include "kmem/learn.h"
#include "kmem/store.h"
#include "learn_args.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

struct ReverifyArgs {
  std::string db, kernelbench, kind = "kernel", work_dir;
  int parallel = 1;
  EvaluatorArgs evaluator;
};

int run_reverify(ReverifyArgs& args) {
  InterruptGuard guard([](int) {});  // Ctrl-C ends every worker this command started
  if (Status resolved = resolve_evaluator(args.evaluator, /*runs_candidates=*/true); !resolved)
    return report_error("reverify", resolved.error());
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return report_error("reverify", rules.error());
  auto problems = scan_kernelbench(args.kernelbench, *rules);
  if (!problems) return report_error("reverify", problems.error());
  ProblemPaths paths;
  for (const ProblemFile& p : *problems) paths[p.problem.id] = p.path;
  auto identity = evaluator_identity(args.evaluator);
  if (!identity) return report_error("reverify", identity.error());
  // The reference is timed afresh: each run is a measurement that can
  // reproduce an item's speedup (docs/learning.md, "Confidence").
  EvalOptions retiming = args.evaluator.eval;
  retiming.retime_reference = true;
  // One evaluation for every kernel (its workers started once), several at
  // once sharing references, workers and the timing lock, as `kmem eval
  // --parallel` does.
  auto evaluator = make_streaming_evaluator(retiming, args.parallel);
  std::string work = args.work_dir.empty() ? args.evaluator.eval.cache_dir + "/reverify" : args.work_dir;
  auto db = open_store_database(args.db, false);
  if (!db) return report_error("reverify", db.error());
  LearnReport report;
  std::string date = utc_date();
  Status s = db->update([&](const Memory& m) {
    report = LearnReport{};
    return reverify_kernels(m, paths, *evaluator, args.parallel, work, *identity, date, report);
  });
  if (!s) return report_error("reverify", s.error());
  std::string out = fmt::format("{}: reverified {} kernels on {} ({}), {} skipped\n", args.db, report.updated.size(),
                                identity->gpu, identity->version, report.skipped.size());
  for (const auto& line : report.updated) out += "  " + line + "\n";
  for (const auto& line : report.skipped) out += "  " + line + "\n";
  if (Status w = write_stdout(out); !w) return report_error("reverify", w.error());
  return kExitOk;
}

}  // namespace

void add_reverify_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<ReverifyArgs>();
  CLI::App* cmd =
      app.add_subcommand("reverify", "Run every kernel item again on the current evaluator; retire those that fail");
  add_store_option(*cmd, args->db, false);
  cmd->add_option("--kernelbench", args->kernelbench, "KernelBench checkout holding the items' problems")->required();
  cmd->add_option("--kind", args->kind, "the kind of items to run again (kernel)")->check(CLI::IsMember({"kernel"}));
  cmd->add_option("--work-dir", args->work_dir, "where candidate files are written (default <cache-dir>/reverify)");
  cmd->add_option("--parallel", args->parallel, "candidates in flight at once, as kmem eval --parallel")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  add_evaluator_options(*cmd, args->evaluator);
  cmd->callback([args, &commands] { commands.set_exit_code(run_reverify(*args)); });
}

}  // namespace kmem::cli
