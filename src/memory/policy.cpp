// The policy step (memory.md "Policies"): drops what a policy does not show.
// Dropping never backfills: a dropped item leaves its place empty.
#include <fmt/format.h>

#include <algorithm>

#include "kmem/memory.h"

namespace kmem {
namespace {

std::string group_key(const Problem& problem) {
  return fmt::format("L{}|{}", problem.level, problem.category);
}

// The reader's group value for `problem`'s (level, category), if any.
std::optional<double> group_value(const Baseline& baseline, const Problem& problem) {
  auto group = baseline.groups.find(group_key(problem));
  if (group == baseline.groups.end()) return std::nullopt;
  return group->second;
}

void drop_if(std::vector<const Item*>& items, auto&& unwanted) {
  items.erase(std::remove_if(items.begin(), items.end(), unwanted), items.end());
}

}  // namespace

bool Policy::shows(Section section) const {
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

ReaderValue reader_value(const Memory& memory, const std::string& reader, const std::string& problem) {
  auto baseline = memory.baselines.find(reader);
  if (baseline == memory.baselines.end()) return {};
  auto own = baseline->second.problems.find(problem);
  if (own != baseline->second.problems.end()) return {ReaderValue::Kind::kOwn, own->second};
  auto source = memory.problems.find(problem);
  if (source == memory.problems.end()) return {};
  if (auto group = group_value(baseline->second, source->second))
    return {ReaderValue::Kind::kEstimate, *group};
  return {};
}

Selection apply_policy(Selection selection, const Policy& policy, const Memory& memory, const std::string& reader,
                       const std::string& target) {
  if (!policy.shows(Section::kLessons)) selection.lessons.clear();
  if (!policy.shows(Section::kPitfalls)) selection.pitfalls.clear();
  if (!policy.shows(Section::kRecipes)) selection.recipes.clear();
  if (!policy.shows(Section::kKernels)) selection.kernels.clear();

  auto prohibited = [](const Item* item) { return item->has_label("prohibition"); };
  if (policy.drop_prohibitions) {
    drop_if(selection.lessons, prohibited);
    drop_if(selection.pitfalls, prohibited);
  }
  if (policy.pitfalls_correctness_only)
    drop_if(selection.pitfalls, [](const Item* item) { return !item->has_label("correctness"); });

  if (policy.gate != Gate::kNone) {
    double target_bar = 0.0;
    auto baseline = memory.baselines.find(reader);
    auto problem = memory.problems.find(target);
    if (policy.gate == Gate::kSourceAndTarget && baseline != memory.baselines.end() &&
        problem != memory.problems.end())
      target_bar = group_value(baseline->second, problem->second).value_or(0.0);
    auto fails_gate = [&](const Item* item) {
      if (!(item->speedup > reader_value(memory, reader, item->source).value)) return true;
      return policy.gate == Gate::kSourceAndTarget && !(item->speedup > target_bar);
    };
    drop_if(selection.recipes, fails_gate);
    drop_if(selection.kernels, fails_gate);
  }
  return selection;
}

}  // namespace kmem
