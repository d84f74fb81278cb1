// `kmem ingest RESULTS.jsonl|EXPERIMENT --db DB`: verified outcomes become
// candidate items, baselines and readers (docs/learning.md), in one
// transaction: bad input leaves the store as it was.
#include <fmt/format.h>

#include <filesystem>

#include "commands.h"
#include "files.h"
#include "kmem/episode.h"
#include "kmem/learn.h"
#include "kmem/store.h"
#include "learn_args.h"

namespace kmem::cli {

namespace {

namespace fs = std::filesystem;

struct IngestArgs {
  std::string source, db, episodes_db, pack;
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
  if (Status resolved = resolve_evaluator(args.evaluator, /*runs_candidates=*/false); !resolved)
    return report_error("ingest", resolved.error());
  bool results = fs::is_regular_file(args.source);
  std::vector<LearnedEpisode> episodes;
  if (!results) {
    auto source = Database::open_existing(args.episodes_db.empty() ? args.db : args.episodes_db);
    if (!source) return report_error("ingest", source.error());
    auto found = source->learning_episodes(args.source);
    if (!found) return report_error("ingest", found.error().wrap(args.source + " (neither a results file nor an experiment)"));
    episodes = std::move(*found);
  }
  std::string results_text;
  if (results) {
    auto text = read_file(args.source);
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
  auto db = Database::open(args.db);
  if (!db) return report_error("ingest", db.error());
  LearnReport report;
  Status s = db->update([&](const Memory& before) -> Result<Memory> {
    report = LearnReport{};
    std::vector<VerifiedCandidate> candidates;
    if (results) {
      auto found = results_candidates(results_text, args.source, fs::path(args.source).parent_path().string(), before,
                                      *identity, args.learn.date);
      if (!found) return found.error();
      candidates = std::move(*found);
    } else {
      candidates = episode_candidates(episodes, *identity, args.learn.date);
    }
    auto memory = learn_kernels(before, candidates, args.learn, report);
    if (memory && !results) memory = learn_baselines(*memory, episodes, *identity, args.learn.date, report);
    if (memory && !results) memory = learn_lessons(*memory, episodes, args.learn, *identity, report);
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
  CLI::App* cmd = app.add_subcommand("ingest", "Turn verified outcomes (a kmem eval results file or an experiment) into candidate items, baselines and readers");
  cmd->add_option("source", args->source, "kmem eval results (JSON lines) or an experiment name")->required();
  cmd->add_option("--db", args->db, "kmem database holding the memory")->required();
  cmd->add_option("--episodes-db", args->episodes_db, "database holding the experiment (default: --db)");
  cmd->add_flag("--promote-flagged", args->learn.promote_flagged,
                "admit flagged outcomes too (implausible_speedup, unsteady_timing, host_bound_timing, negligible_own_work, unsandboxed, ...)");
  cmd->add_option("--lesson-min-episodes", args->learn.lesson_min_episodes, "episodes a verdict must recur in to become a lesson (default 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--endpoint", args->endpoint.base_url, "OpenAI-compatible endpoint that writes recipes and pitfalls (none: no texts)");
  cmd->add_option("--model", args->endpoint.model, "the endpoint's model")->needs("--endpoint");
  cmd->add_option("--api-key-env", args->endpoint.api_key_env, "environment variable holding the API key");
  cmd->add_option("--pack", args->pack, "prompt pack with the learn texts (default: the seed pack)");
  add_evaluator_options(*cmd, args->evaluator);
  cmd->callback([args, &commands] { commands.set_exit_code(run_ingest(*args)); });
}

}  // namespace kmem::cli
