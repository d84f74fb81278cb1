// Who the evaluator is (docs/learning.md, "Provenance"): asks the worker's
// Python, `python -m kmem_worker.identity <device>`, for its version (a hash
// of the worker's code and the torch, Triton and CUDA versions) and GPU.
#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "kmem/eval.h"
#include "process.h"

namespace kmem {

Result<EvaluatorIdentity> probe_evaluator_identity(const EvalOptions& options) {
  namespace fs = std::filesystem;
  std::string python = options.python.empty() ? default_python() : options.python;
  std::string cache = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  std::error_code ec;
  fs::create_directories(cache, ec);
  eval::SpawnSpec spec;
  spec.argv = {python, "-m", "kmem_worker.identity", options.device};
  spec.environment = {"PYTHONPATH=" + options.python_dir};
  spec.log_path = (fs::path(cache) / "identity.log").string();
  auto child = eval::ChildProcess::spawn(spec);
  if (!child) return child.error().wrap("evaluator identity");
  (*child)->close_input();
  std::string line;
  auto read = (*child)->read_line(eval::Clock::now() + std::chrono::seconds(120), line);
  (*child)->wait_then_kill(eval::Clock::now() + std::chrono::seconds(5));
  if (read != eval::ChildProcess::Read::kLine)
    return Error(fmt::format("evaluator identity: {} -m kmem_worker.identity gave no answer: {}", python,
                             eval::read_tail(spec.log_path, 400)));
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || j.value("format", "") != "kmem-evaluator-identity/1" || !j.contains("version") ||
      !j.contains("gpu") || !j["version"].is_string() || !j["gpu"].is_string())
    return Error("evaluator identity: not a kmem-evaluator-identity/1 line: " + line.substr(0, 200));
  return EvaluatorIdentity{j["version"].get<std::string>(), j["gpu"].get<std::string>()};
}

}  // namespace kmem
