// The KMEM_TUNE_* environment variables: the one place they are read.
#include "tuning.h"

#include <charconv>
#include <string>
#include <string_view>

namespace kmem::cli {

namespace {

struct Knob {
  const char* variable;
  int low, high;
  std::function<void(EvalOptions&, int)> set;
};

const Knob kKnobs[] = {
    {"KMEM_TUNE_DEVICE_SETUPS", 0, 256, [](EvalOptions& o, int v) { o.tuning.device_setups = v; }},
    {"KMEM_TUNE_DEVICE_CONNECTIONS", 0, 32, [](EvalOptions& o, int v) { o.tuning.device_connections = v; }},
    {"KMEM_TUNE_REFERENCE_WORKERS", 0, 256, [](EvalOptions& o, int v) { o.tuning.reference_workers = v; }},
    {"KMEM_TUNE_BASELINE_WORKERS", 0, 256, [](EvalOptions& o, int v) { o.tuning.baseline_workers = v; }},
    {"KMEM_TUNE_INPUTS_BY_FILE", 0, 1, [](EvalOptions& o, int v) { o.tuning.inputs_by_ipc = v == 0; }},
    {"KMEM_TUNE_CALL_SETS_MB", 0, 1 << 20, [](EvalOptions& o, int v) { o.tuning.call_sets_mb = v; }},
    {"KMEM_TUNE_DEVICE_MEMORY_MB", 0, 1 << 24, [](EvalOptions& o, int v) { o.tuning.device_memory_mb = v; }},
    {"KMEM_TUNE_COMPILE_BASELINE", 0, 1, [](EvalOptions& o, int v) { o.compile_baseline = v == 1; }},
};

}  // namespace

Status apply_tuning(const Environment& environment, EvalOptions& options) {
  for (const Knob& knob : kKnobs) {
    const char* text = environment(knob.variable);
    if (text == nullptr || *text == '\0') continue;
    std::string_view value(text);
    int number = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size() || number < knob.low || number > knob.high)
      return Error(std::string(knob.variable) + "=" + text + ": not a whole number from " + std::to_string(knob.low) +
                   " to " + std::to_string(knob.high));
    knob.set(options, number);
  }
  return Status::success();
}

}  // namespace kmem::cli
