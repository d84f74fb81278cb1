// The policy step (docs/memory.md, "Policies"): section choice, prohibition and
// correctness filters, and the source / source+target gates.
#include "memory/policy.h"

#include <fmt/format.h>

namespace kmem {
namespace {

std::string group_key(int level, const std::string& category) { return fmt::format("L{}|{}", level, category); }

const Baseline* baseline_of(const Memory& memory, const std::string& reader) {
  auto found = memory.baselines.find(reader);
  return found == memory.baselines.end() ? nullptr : &found->second;
}

std::optional<double> group_value(const Memory& memory, const std::string& reader, const Problem& problem) {
  const Baseline* baseline = baseline_of(memory, reader);
  if (baseline == nullptr) return std::nullopt;
  auto found = baseline->groups.find(group_key(problem.level, problem.category));
  if (found == baseline->groups.end()) return std::nullopt;
  return found->second;
}

std::vector<ShownItem> gated(const std::vector<const Item*>& items, const Policy& policy, const Memory& memory,
                             const std::string& reader, double target_floor) {
  std::vector<ShownItem> kept;
  for (const Item* item : items) {
    ReaderValue own = reader_value(memory, reader, item->source);
    bool keep = true;
    if (policy.gate != Gate::kNone) keep = item->speedup > own.value;
    if (policy.gate == Gate::kSourceAndTarget) keep = keep && item->speedup > target_floor;
    if (keep) kept.push_back({item, own});
  }
  return kept;
}

}  // namespace

ReaderValue reader_value(const Memory& memory, const std::string& reader, const std::string& problem_id) {
  if (const Baseline* baseline = baseline_of(memory, reader)) {
    auto own = baseline->problems.find(problem_id);
    if (own != baseline->problems.end()) return {ReaderValue::Kind::kOwn, own->second};
  }
  auto problem = memory.problems.find(problem_id);
  if (problem != memory.problems.end())
    if (auto group = group_value(memory, reader, problem->second))
      return {ReaderValue::Kind::kEstimate, *group};
  return {};
}

Shown apply_policy(const Selection& selection, const Policy& policy, const Memory& memory, const std::string& reader) {
  Shown shown;
  auto allowed = [&](const Item* item) { return !(policy.drop_prohibitions && item->has_label("prohibition")); };
  if (policy.lessons)
    for (const Item* item : selection.lessons)
      if (allowed(item)) shown.lessons.push_back(item);
  if (policy.pitfalls)
    for (const Item* item : selection.pitfalls)
      if (allowed(item) && (!policy.pitfalls_correctness_only || item->has_label("correctness")))
        shown.pitfalls.push_back(item);
  double target_floor = group_value(memory, reader, *selection.target).value_or(0.0);
  if (policy.recipes) shown.recipes = gated(selection.recipes, policy, memory, reader, target_floor);
  if (policy.kernels) shown.kernels = gated(selection.kernels, policy, memory, reader, target_floor);
  return shown;
}

}  // namespace kmem
