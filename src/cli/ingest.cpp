// `kmem ingest RESULTS.jsonl|EXPERIMENT --store DB`: verified outcomes become
// candidate items, baselines and readers (docs/learning.md), in one
// transaction: bad input leaves the store as it was. An implausible speedup
// measured against a cached reference time is measured again first, with
// the reference re-timed; an experiment's item values are kept on its items.
#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/episode.h"
#include "kmem/experiment.h"
#include "kmem/learn.h"
#include "kmem/store.h"
#include "learn_args.h"
#include "store_option.h"

namespace kmem::cli {

namespace {

namespace fs = std::filesystem;

struct IngestArgs {
  std::string source, db, results_db, pack, work_dir;
  LearnOptions learn;
  EvaluatorArgs evaluator;
  EndpointConfig endpoint;  // --endpoint: recipes and pitfalls written by a model
};

std::string listed(const std::vector<std::string>& lines, const char* what) {
  std::string out;
  for (const auto& l : lines) out += fmt::format("  {} {}\n", what, l);
  return out;
}

int run_ingest(IngestArgs& args) {
  InterruptGuard guard([](int) {});  // Ctrl-C ends every worker a re-measurement started
  if (Status resolved = resolve_evaluator(args.evaluator, /*runs_candidates=*/true); !resolved)
    return report_error("ingest", resolved.error());
  bool results = fs::is_regular_file(args.source);
  std::vector<LearnedEpisode> episodes;
  if (!results) {
    auto source = Database::open_existing(args.results_db.empty() ? args.db : args.results_db);
    if (!source) return report_error("ingest", source.error());
    auto found = source->learning_episodes(args.source);
    if (!found)
      return report_error("ingest", found.error().wrap(args.source + " (neither a results file nor an experiment)"));
    episodes = std::move(*found);
  }
  std::string results_text;
  if (results) {
    auto text = util::read_file(args.source);
    if (!text) return report_error("ingest", text.error());
    results_text = std::move(*text);
  }
  std::unique_ptr<ChatClient> chat;
  Pack pack;
  if (!args.endpoint.base_url.empty()) {
    auto client = make_chat_client(args.endpoint);
    if (!client) return report_error("ingest", client.error());
    chat = std::move(*client);
    auto loaded = load_pack_or_seed(args.pack);
    if (!loaded) return report_error("ingest", loaded.error());
    pack = std::move(*loaded);
  }
  auto identity = evaluator_identity(args.evaluator);
  if (!identity) return report_error("ingest", identity.error());
  args.learn.date = utc_date();
  auto db = open_store_database(args.db, true);
  if (!db) return report_error("ingest", db.error());
  // The results' candidates, with implausible speedups measured again
  // (outside the store's write lock: evaluating takes a while).
  std::vector<VerifiedCandidate> from_results;
  LearnReport rechecked;
  if (results) {
    auto snapshot = db->read();
    if (!snapshot) return report_error("ingest", snapshot.error());
    auto found = results_candidates(results_text, args.source, fs::path(args.source).parent_path().string(), *snapshot,
                                    *identity, args.learn.date);
    if (!found) return report_error("ingest", found.error());
    EvalOptions retiming = args.evaluator.eval;
    retiming.retime_reference = true;
    auto evaluator = make_streaming_evaluator(retiming, 1);  // one evaluation for every recheck
    std::string work = args.work_dir.empty() ? retiming.cache_dir + "/ingest" : args.work_dir;
    auto checked = recheck_implausible(std::move(*found), *evaluator, work, args.learn.date, rechecked);
    if (!checked) return report_error("ingest", checked.error());
    from_results = std::move(*checked);
  }
  LearnReport report;
  Status s = db->update([&](const Memory& before) -> Result<Memory> {
    report = rechecked;
    std::vector<VerifiedCandidate> candidates =
        results ? from_results : episode_candidates(episodes, *identity, args.learn.date);
    auto memory = learn_kernels(before, candidates, args.learn, report);
    if (memory && !results) memory = learn_baselines(*memory, episodes, *identity, args.learn.date, report);
    if (memory && !results) memory = learn_lessons(*memory, episodes, args.learn, *identity, report);
    if (memory && !results) memory = record_item_values(*memory, item_values(episodes), args.source);
    if (memory && chat) {
      std::vector<std::string> kernels;
      for (const auto& id : report.added)
        if (id.rfind("kernel:", 0) == 0) kernels.push_back(id);
      memory = learn_texts(*memory, episodes, kernels, pack, *chat, args.learn, report);
    }
    return memory;
  });
  if (!s) return report_error("ingest", s.error());
  std::string out = fmt::format("{}: ingested {}: {} items added (as candidates), {} updated, {} left out\n", args.db,
                                args.source, report.added.size(), report.updated.size(), report.skipped.size());
  out += listed(report.added, "added") + listed(report.updated, "updated") + listed(report.readers, "baselines") +
         listed(report.skipped, "left out");
  if (Status w = write_stdout(out); !w) return report_error("ingest", w.error());
  return kExitOk;
}

}  // namespace

void add_ingest_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<IngestArgs>();
  CLI::App* cmd = app.add_subcommand(
      "ingest",
      "Turn verified outcomes (a kmem eval results file or an experiment) into candidate items, baselines and readers");
  cmd->add_option("source", args->source, "kmem eval results (JSON lines) or an experiment name")->required();
  add_store_option(*cmd, args->db, false);
  add_results_option(*cmd, args->results_db, false)->description("database holding the experiment (default: --store)");
  cmd->add_option("--work-dir", args->work_dir,
                  "where candidates measured again are written (default <cache-dir>/ingest)");
  cmd->add_flag("--promote-flagged", args->learn.promote_flagged,
                "admit flagged outcomes too (implausible_speedup, unsteady_timing, host_bound_timing, "
                "negligible_own_work, unsandboxed, ...)");
  cmd->add_option("--lesson-min-episodes", args->learn.lesson_min_episodes,
                  "episodes a verdict must recur in to become a lesson (default 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--endpoint", args->endpoint.base_url,
                  "OpenAI-compatible endpoint that writes recipes and pitfalls (none: no texts)");
  cmd->add_option("--model", args->endpoint.model, "the endpoint's model")->needs("--endpoint");
  cmd->add_option("--api-key-env", args->endpoint.api_key_env, "environment variable holding the API key");
  cmd->add_option("--pack", args->pack, "prompt pack with the learn texts (default: the seed pack)");
  add_evaluator_options(*cmd, args->evaluator);
  cmd->callback([args, &commands] { commands.set_exit_code(run_ingest(*args)); });
}

}  // namespace kmem::cli
