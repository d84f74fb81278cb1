// The policy step (docs/memory.md, "Policies"): section choice, prohibition and
// correctness filters, and the source / source+target gates.
#include "memory/policy.h"

#include <fmt/format.h>

#include <algorithm>

namespace kmem::memory {
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

// Keeps at most `cap` learned items (not the seed's) across the sections,
// the most confident ones, each section in its own order.
void cap_learned(Shown& shown, int cap) {
  std::vector<const Item*> learned;
  auto collect = [&](const Item* item) {
    if (!item->provenance.is_seed()) learned.push_back(item);
  };
  for (const Item* item : shown.lessons) collect(item);
  for (const Item* item : shown.pitfalls) collect(item);
  for (const ShownItem& s : shown.recipes) collect(s.item);
  for (const ShownItem& s : shown.kernels) collect(s.item);
  if (static_cast<int>(learned.size()) <= cap) return;
  std::stable_sort(learned.begin(), learned.end(), [](const Item* a, const Item* b) { return more_confident(*a, *b); });
  learned.resize(cap);
  auto dropped = [&](const Item* item) {
    return !item->provenance.is_seed() && std::find(learned.begin(), learned.end(), item) == learned.end();
  };
  std::erase_if(shown.lessons, dropped);
  std::erase_if(shown.pitfalls, dropped);
  std::erase_if(shown.recipes, [&](const ShownItem& s) { return dropped(s.item); });
  std::erase_if(shown.kernels, [&](const ShownItem& s) { return dropped(s.item); });
}

}  // namespace

ReaderValue reader_value(const Memory& memory, const std::string& reader, const std::string& problem_id) {
  if (const Baseline* baseline = baseline_of(memory, reader)) {
    auto own = baseline->problems.find(problem_id);
    if (own != baseline->problems.end()) return {ReaderValue::Kind::kOwn, own->second};
  }
  auto problem = memory.problems.find(problem_id);
  if (problem != memory.problems.end())
    if (auto group = group_value(memory, reader, problem->second)) return {ReaderValue::Kind::kEstimate, *group};
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
  if (policy.max_learned) cap_learned(shown, *policy.max_learned);
  return shown;
}

}  // namespace kmem::memory
