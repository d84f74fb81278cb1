// Selection: the items related to a target problem, identical for every
// policy (memory.md, "Selection").
#include <algorithm>

#include "kmem/memory.h"
#include "memory/tokens.h"

namespace kmem {
namespace {

int order_of(const Item* item) { return item->order.value_or(0); }

// Speedup descending, then source id descending (string order).
bool by_speedup_then_source(const Item* a, const Item* b) {
  if (a->speedup != b->speedup) return a->speedup > b->speedup;
  return a->source > b->source;
}

}  // namespace

MemoryIndex::MemoryIndex(const Memory& memory) : memory_(memory) {
  for (const auto& [id, problem] : memory.problems) name_tokens_.emplace(id, name_tokens(problem.name));
  for (const Item& item : memory.items) {
    switch (item.kind) {
      case ItemKind::kLesson: lessons_.push_back(&item); break;
      case ItemKind::kPitfall: categories_[item.category].pitfalls.push_back(&item); break;
      case ItemKind::kRecipe: categories_[item.category].recipes.push_back(&item); break;
      case ItemKind::kKernel: categories_[item.category].kernels.push_back(&item); break;
    }
  }
  auto by_order = [](const Item* a, const Item* b) { return order_of(a) < order_of(b); };
  std::stable_sort(lessons_.begin(), lessons_.end(), by_order);
  for (auto& [name, category] : categories_) {
    std::stable_sort(category.pitfalls.begin(), category.pitfalls.end(), by_order);
    std::stable_sort(category.recipes.begin(), category.recipes.end(), by_speedup_then_source);
    std::stable_sort(category.kernels.begin(), category.kernels.end(), by_speedup_then_source);
  }
}

Selection MemoryIndex::select(const Problem& target, const SelectionLimits& limits) const {
  Selection s;
  s.target = &target;
  s.lessons = lessons_;
  auto found = categories_.find(target.category);
  if (found == categories_.end()) return s;
  const Category& c = found->second;

  size_t pitfalls = std::min(c.pitfalls.size(), static_cast<size_t>(limits.max_pitfalls));
  s.pitfalls.assign(c.pitfalls.begin(), c.pitfalls.begin() + static_cast<std::ptrdiff_t>(pitfalls));

  for (const Item* recipe : c.recipes) {
    if (static_cast<int>(s.recipes.size()) >= limits.max_recipes) break;
    if (recipe->source != target.id) s.recipes.push_back(recipe);
  }

  // Kernels come pre-sorted by speedup and source, so a stable sort on the
  // similarity alone yields the full (similarity, speedup, source) order.
  // Only the first `related_kernels` of each source problem can ever be chosen,
  // and each source's similarity is computed once.
  const std::vector<std::string> target_tokens = name_tokens(target.name);
  std::map<std::string, std::pair<double, int>> per_source;  // similarity, kernels taken
  std::vector<std::pair<double, const Item*>> candidates;
  for (const Item* kernel : c.kernels) {
    if (kernel->source == target.id) continue;
    auto [it, fresh] = per_source.try_emplace(kernel->source, 0.0, 0);
    if (fresh) {
      it->second.first = jaccard(target_tokens, name_tokens_.at(kernel->source));
    }
    if (it->second.second++ < limits.related_kernels) candidates.emplace_back(it->second.first, kernel);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [similarity, kernel] : candidates) {
    if (static_cast<int>(s.kernels.size()) >= limits.related_kernels) break;
    s.kernels.push_back(kernel);
  }
  return s;
}

std::vector<std::string> target_ids(const Memory& memory) {
  if (memory.targets) return *memory.targets;
  std::vector<std::string> ids;
  for (const auto& [id, problem] : memory.problems) ids.push_back(id);
  return ids;
}

}  // namespace kmem

