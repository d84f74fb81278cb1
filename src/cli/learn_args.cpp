// The evaluator options, identity, date and pack of the learning commands.
#include "learn_args.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>

#include "commands.h"
#include "files.h"

namespace kmem::cli {

void add_evaluator_options(CLI::App& cmd, EvaluatorArgs& args) {
  cmd.add_option("--device", args.choices.device, "cpu or cuda (default cpu)")->check(CLI::IsMember({"cpu", "cuda"}));
  cmd.add_option("--python", args.eval.python,
                 "Python interpreter with torch (default: $KMEM_PYTHON, /usr/bin/python3)");
  cmd.add_option("--cache-dir", args.eval.cache_dir,
                 "build caches, reference times and scratch (default: $KMEM_CACHE_DIR, ~/.cache/kmem)");
  cmd.add_flag("--no-sandbox", args.choices.no_sandbox,
               "run candidates outside the sandbox (every outcome is flagged unsandboxed)");
  auto* version =
      cmd.add_option("--evaluator-version", args.version, "the evaluator's version (default: asked of the worker)");
  auto* gpu = cmd.add_option("--gpu", args.gpu, "the GPU model, or cpu (with --evaluator-version)");
  version->needs(gpu);
  gpu->needs(version);
}

Status resolve_evaluator(EvaluatorArgs& args, bool runs_candidates) {
  return runs_candidates ? resolve_eval_options(args.choices, std::getenv, args.eval)
                         : complete_eval_options(args.choices, std::getenv, args.eval);
}

Result<EvaluatorIdentity> evaluator_identity(const EvaluatorArgs& args) {
  if (!args.version.empty()) return EvaluatorIdentity{args.version, args.gpu};
  return probe_evaluator_identity(args.eval);
}

std::string utc_date() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                     fmt::gmtime(std::chrono::system_clock::to_time_t(std::chrono::system_clock::now())));
}

Result<Pack> load_pack_or_seed(const std::string& path) {
  std::string file = path.empty() ? data_dir() + "/seed/prompt-pack.json" : path;
  auto text = util::read_file(file);
  if (!text) return text.error();
  return parse_pack_json(*text, file);
}

}  // namespace kmem::cli
