// Completing the evaluator options of every command (see eval_options.h).
#include "eval_options.h"

#include <filesystem>

#include "commands.h"

namespace kmem::cli {

namespace fs = std::filesystem;

namespace {

// "cpu" or "cuda": `device` as asked, "auto" being CUDA where the worker's
// interpreter sees a usable device. An error when "cuda" is asked for and
// there is none.
Result<std::string> resolved_device(const std::string& device, const EvalOptions& options) {
  if (device == "cpu") return device;
  if (device == "auto" && !fs::exists("/dev/nvidiactl")) return std::string("cpu");
  Status usable = cuda_available(options);
  if (usable) return std::string("cuda");
  if (device == "auto") return std::string("cpu");
  return usable.error();
}

}  // namespace

Status complete_eval_options(const EvalChoices& choices, const Environment& environment, EvalOptions& options) {
  if (options.python.empty()) options.python = default_python();
  if (options.cache_dir.empty()) options.cache_dir = default_cache_dir();
  options.cache_dir = fs::absolute(options.cache_dir).string();
  options.python_dir = python_dir();
  options.sandbox = !choices.no_sandbox;
  options.device = choices.device;
  return apply_tuning(environment, options);
}

Status resolve_eval_options(const EvalChoices& choices, const Environment& environment, EvalOptions& options) {
  if (auto completed = complete_eval_options(choices, environment, options); !completed) return completed;
  auto device = resolved_device(choices.device, options);
  if (!device) return device.error();
  options.device = *device;
  if (options.sandbox)
    if (auto sandbox = sandbox_available(options); !sandbox) return sandbox.error();
  return Status::success();
}

}  // namespace kmem::cli
