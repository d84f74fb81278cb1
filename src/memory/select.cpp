// Selection: the items related to a target problem, identical for every
// policy (docs/memory.md, "Selection").
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
  for (const auto& [id, problem] : memory.problems) name_tokens_.emplace(id, memory::name_tokens(problem.name));
  for (const Item& item : memory.items) {
    if (item.state != ItemState::kActive) continue;  // candidates and retired items are never shown
    switch (item.kind) {
      case ItemKind::kLesson: lessons_.push_back(&item); break;
      case ItemKind::kPitfall: categories_[item.category].pitfalls.push_back(&item); break;
      case ItemKind::kRecipe: categories_[item.category].recipes.push_back(&item); break;
      case ItemKind::kKernel: categories_[item.category].kernels_by_source[item.source].kernels.push_back(&item); break;
    }
  }
  auto by_order = [](const Item* a, const Item* b) { return order_of(a) < order_of(b); };
  std::stable_sort(lessons_.begin(), lessons_.end(), by_order);
  for (auto& [name, category] : categories_) {
    std::stable_sort(category.pitfalls.begin(), category.pitfalls.end(), by_order);
    std::stable_sort(category.recipes.begin(), category.recipes.end(), by_speedup_then_source);
    for (auto& [source, group] : category.kernels_by_source) {
      std::stable_sort(group.kernels.begin(), group.kernels.end(), by_speedup_then_source);
      auto tokens = name_tokens_.find(source);
      if (tokens != name_tokens_.end()) group.source_tokens = &tokens->second;
    }
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

  // Within a source problem kernels are pre-sorted by speedup, so only the
  // first `related_kernels` of each source can be chosen; the similarity of a
  // source is computed once.
  const std::vector<std::string> target_tokens = memory::name_tokens(target.name);
  struct Candidate {
    double similarity;
    const Item* kernel;
  };
  std::vector<Candidate> candidates;
  for (const auto& [source, group] : c.kernels_by_source) {
    if (source == target.id) continue;
    double similarity = group.source_tokens ? memory::jaccard(target_tokens, *group.source_tokens) : 0.0;
    size_t take = std::min(group.kernels.size(), static_cast<size_t>(limits.related_kernels));
    for (size_t k = 0; k < take; ++k) candidates.push_back({similarity, group.kernels[k]});
  }
  size_t chosen = std::min(candidates.size(), static_cast<size_t>(limits.related_kernels));
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(chosen), candidates.end(),
                    [](const Candidate& a, const Candidate& b) {
                      if (a.similarity != b.similarity) return a.similarity > b.similarity;
                      if (by_speedup_then_source(a.kernel, b.kernel)) return true;
                      if (by_speedup_then_source(b.kernel, a.kernel)) return false;
                      return a.kernel < b.kernel;  // store order
                    });
  for (size_t k = 0; k < chosen; ++k) s.kernels.push_back(candidates[k].kernel);
  return s;
}

std::vector<std::string> target_ids(const Memory& memory) {
  if (memory.targets) return *memory.targets;
  std::vector<std::string> ids;
  for (const auto& [id, problem] : memory.problems) ids.push_back(id);
  return ids;
}

}  // namespace kmem
