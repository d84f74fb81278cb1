// Selection (memory.md "Selection"): for target T of category C, all lessons,
// the first pitfalls of C, the best recipes of C from other problems, and the
// kernels of C from other problems whose names are most like T's.
#include <algorithm>

#include "memory/index.h"

namespace kmem {
namespace {

using Tables = IndexedMemory::Tables;

// Jaccard similarity |A and B| / |A or B| as an exact fraction (0/1 when both are empty).
struct Similarity {
  uint64_t shared = 0;
  uint64_t total = 1;

  bool operator>(const Similarity& other) const { return shared * other.total > other.shared * total; }
};

Similarity jaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  uint64_t shared = 0;
  auto i = a.begin(), j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++shared, ++i, ++j;
    }
  }
  uint64_t total = a.size() + b.size() - shared;
  return total == 0 ? Similarity{} : Similarity{shared, total};
}

// The first `limit` items of `ranked`.
std::vector<const Item*> first_of(const std::vector<uint32_t>& ranked, size_t limit, const Memory& memory) {
  std::vector<const Item*> chosen;
  for (size_t i = 0; i < ranked.size() && i < limit; ++i) chosen.push_back(&memory.items[ranked[i]]);
  return chosen;
}

// The first `limit` items of `ranked` whose source is not `target` (leave one out).
std::vector<const Item*> first_from_others(const std::vector<uint32_t>& ranked, size_t limit, const Memory& memory,
                                  const std::string& target) {
  std::vector<const Item*> chosen;
  for (uint32_t i : ranked) {
    if (chosen.size() >= limit) break;
    if (memory.items[i].source != target) chosen.push_back(&memory.items[i]);
  }
  return chosen;
}

// The `limit` kernels most similar by name; the tables already rank them by
// speedup and source id, so a stable choice by similarity keeps those ties.
std::vector<const Item*> related_kernels(const std::vector<Tables::Kernel>& ranked, size_t limit,
                                         const Tables& tables, const Memory& memory, uint32_t target_slot) {
  struct Candidate {
    Similarity similarity;
    const Item* item;
  };
  std::vector<Candidate> best;
  const std::vector<uint32_t>& target_tokens = tables.problem_tokens[target_slot];
  for (const Tables::Kernel& kernel : ranked) {
    if (kernel.source == target_slot) continue;
    Similarity s = jaccard(target_tokens, tables.problem_tokens[kernel.source]);
    auto place = std::find_if(best.begin(), best.end(), [&](const Candidate& c) { return s > c.similarity; });
    if (static_cast<size_t>(place - best.begin()) >= limit) continue;
    best.insert(place, {s, &memory.items[kernel.item]});
    if (best.size() > limit) best.pop_back();
  }
  std::vector<const Item*> chosen;
  for (const Candidate& c : best) chosen.push_back(c.item);
  return chosen;
}

size_t limit_of(int value) { return value < 0 ? 0 : static_cast<size_t>(value); }

}  // namespace

Result<Selection> select(const IndexedMemory& indexed, const SelectionLimits& limits, const std::string& target) {
  const Memory& memory = indexed.memory_;
  const Tables& tables = *indexed.tables_;
  auto problem = memory.problems.find(target);
  if (problem == memory.problems.end()) return Error("unknown problem '" + target + "'");

  Selection selection;
  for (uint32_t i : tables.lessons) selection.lessons.push_back(&memory.items[i]);
  auto category = tables.categories.find(problem->second.category);
  if (category == tables.categories.end()) return selection;
  const Tables::Category& items = category->second;
  selection.pitfalls = first_of(items.pitfalls, limit_of(limits.max_pitfalls), memory);
  selection.recipes = first_from_others(items.recipes, limit_of(limits.max_recipes), memory, target);
  selection.kernels = related_kernels(items.kernels, limit_of(limits.related_kernels), tables, memory,
                                      tables.problem_slots.at(target));
  return selection;
}

}  // namespace kmem
