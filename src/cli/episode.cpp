// `kmem episode`: one agent episode against an OpenAI-compatible endpoint
// (docs/episodes.md). Resolves the problem, loads the memory and the pack
// (episode texts from the pack, else from the bundled seed pack), builds the
// chat client and the evaluator, runs the episode and prints it.
#include "kmem/episode.h"

#include <fmt/format.h>

#include "commands.h"
#include "eval_options.h"
#include "files.h"
#include "interrupt.h"
#include "kmem/catalog.h"
#include "kmem/experiment.h"
#include "kmem/store.h"
#include "store_option.h"

namespace kmem::cli {
namespace {

// How long the episode's evaluation stays up between turns.
constexpr double kKeepWarmS = 600;

struct EpisodeArgs {
  std::string problem, kernelbench, store, pack, work_dir;
  EpisodeSpec spec;
  EndpointConfig endpoint;
  long seed = 0;
  bool json = false;
  EvalChoices choices;  // --device, --no-sandbox
  EvalOptions eval;
};

Result<Pack> load_pack(const std::string& path) {
  auto text = util::read_file(path);
  if (!text) return text.error();
  return parse_pack_json(*text, path);
}

void print_text(const EpisodeOutcome& o) {
  fmt::print("episode {} ({} turns at most)\n", o.id, o.max_turns);
  for (const Turn& t : o.turns) {
    fmt::print("turn {}: {} -> {}", t.index, t.action.empty() ? "-" : t.action, t.verdict);
    if (t.verdict == "pass") fmt::print(" {:.3f}x", t.speedup);
    fmt::print("  (endpoint {:.1f} s, {} + {} tokens; evaluation {:.1f} s)\n", t.latency_s, t.prompt_tokens,
               t.completion_tokens, t.eval_s);
    if (!t.message.empty() && t.verdict != "pass") fmt::print("  {}\n", t.message);
    if (!t.error.empty()) fmt::print("  error: {}\n", t.error);
  }
  fmt::print("end: {}\nscore: {:.3f}\n", o.end, o.score);
  if (o.best_turn) fmt::print("best passing: turn {}, {:.3f}x\n", *o.best_turn, o.best_speedup);
}

int run_episode_command(EpisodeArgs& args) {
  InterruptGuard guard([](int) {});  // Ctrl-C ends every worker this command started
  std::string store_path = store_or_seed(args.store);
  std::string seed_pack = data_dir() + "/seed/prompt-pack.json";
  auto memory = load_memory(store_path);
  if (!memory) return report_error("episode", memory.error());
  auto pack = load_pack(args.pack.empty() ? seed_pack : args.pack);
  if (!pack) return report_error("episode", pack.error());
  if (pack->episode.empty()) {
    auto fallback = load_pack(seed_pack);
    if (!fallback) return report_error("episode", fallback.error());
    pack->episode = fallback->episode;
  }
  auto rules = CategoryRules::load(data_dir() + "/categories.json");
  if (!rules) return report_error("episode", rules.error());
  auto problem = resolve_problem(args.problem, args.kernelbench, *rules);
  if (!problem) return report_error("episode", problem.error());

  EvalOptions& eval = args.eval;
  if (Status resolved = resolve_eval_options(args.choices, std::getenv, eval); !resolved)
    return report_error("episode", resolved.error());

  args.spec.problem = problem->problem;
  args.spec.problem_path = problem->path;
  args.spec.device = eval.device;
  args.spec.model = args.endpoint.model;
  auto chat = make_chat_client(args.endpoint);
  if (!chat) return report_error("episode", chat.error());
  // One evaluation for the whole episode, its workers kept warm while the
  // model writes its next reply (a new one per turn would import torch again).
  auto evaluator = make_streaming_evaluator(eval, 1, kStreamingGatherS, kKeepWarmS);
  // Speedups measured on another device class are not shown as this one's.
  const Memory shown = memory_for_device(*memory, eval.device);
  MemoryIndex index(shown);
  EpisodeContext context{&index, &*pack, chat->get(), evaluator.get(),
                         args.work_dir.empty() ? eval.cache_dir + "/episodes" : args.work_dir};
  auto outcome = run_episode(args.spec, context);
  if (!outcome) return report_error("episode", outcome.error());
  Status written = args.json ? write_stdout(episode_json(*outcome) + "\n") : (print_text(*outcome), Status::success());
  if (!written) return report_error("episode", written.error());
  if (outcome->end == "endpoint_error" || outcome->end == "evaluator_error")
    return report_error("episode", Error(outcome->error));
  return outcome->correct ? kExitOk : kExitRejected;
}

}  // namespace

void add_episode_command(CLI::App& app, CommandSet& commands) {
  auto args = std::make_shared<EpisodeArgs>();
  EndpointConfig& e = args->endpoint;
  auto* cmd = app.add_subcommand("episode", "Run one agent episode against an OpenAI-compatible endpoint");
  cmd->add_option("--problem", args->problem, "KernelBench problem file (in a level<N> folder) or id L<l>_<nnn>")
      ->required();
  cmd->add_option("--kernelbench", args->kernelbench, "KernelBench checkout, to find the file of a problem id");
  cmd->add_option("--reader", args->spec.reader, "reader id (any; one without a baseline shows 'unknown' values)")
      ->required();
  cmd->add_option("--policy", args->spec.policy, "memory policy of the pack")->required();
  auto* endpoint = cmd->add_option("--endpoint", e.base_url, "base URL, e.g. http://127.0.0.1:8000/v1");
  cmd->add_option("--model", e.model, "model name sent to the endpoint")->required();
  cmd->add_option("--max-turns", args->spec.max_turns, "replies the agent may send, the SUBMIT included")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--device", args->choices.device, "cpu, cuda or auto")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "print the whole episode as one JSON object");
  add_store_option(*cmd, args->store, true);
  cmd->add_option("--pack", args->pack, "prompt pack JSON (default: the bundled seed pack)");
  cmd->add_option("--temperature", e.temperature, "sampling temperature")->capture_default_str();
  cmd->add_option("--max-tokens", e.max_tokens, "max_tokens of each reply")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  auto* seed = cmd->add_option("--seed", args->seed, "sampling seed sent to the endpoint (default: none sent)");
  cmd->add_option("--timeout", e.timeout_s, "seconds per request")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--retries", e.retries, "further attempts after 429, 5xx or a connection error")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  cmd->add_option("--backoff", e.backoff_s, "seconds before the first retry; doubles each time")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--api-key-env", e.api_key_env, "environment variable holding the API key (unset: no key sent)")
      ->capture_default_str();
  auto* record = cmd->add_option("--record", e.record_dir, "write every request/response pair into this folder");
  auto* replay = cmd->add_option("--replay", e.replay_dir, "answer from a recorded folder, without any network");
  record->excludes(replay);
  replay->excludes(endpoint);
  cmd->add_option("--id", args->spec.id, "episode id (names candidate files; default problem-reader-policy)");
  cmd->add_option("--work-dir", args->work_dir, "folder for candidate files (default: <cache-dir>/episodes)");
  cmd->add_option("--python", args->eval.python,
                  "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd->add_flag("--no-sandbox", args->choices.no_sandbox,
                "run candidates outside the sandbox (every outcome is flagged unsandboxed)");
  cmd->add_option("--cache-dir", args->eval.cache_dir,
                  "build caches, reference times and scratch (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd->callback([args, seed, &commands] {
    if (seed->count() > 0) args->endpoint.seed = args->seed;
    if (args->endpoint.base_url.empty() && args->endpoint.replay_dir.empty())
      throw CLI::RequiredError("episode needs --endpoint (or --replay)");
    commands.set_exit_code(run_episode_command(*args));
  });
}

}  // namespace kmem::cli
