// The lookup tables of an IndexedMemory: items by kind and category in the
// order selection walks them, and the name tokens of every problem as sorted
// ids, so that Jaccard similarity is a merge of two short integer lists.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "kmem/memory.h"

namespace kmem {

// The tokens of a problem name: lower-cased, split on '_', empty pieces dropped.
std::vector<std::string> name_tokens(const std::string& name);

struct IndexedMemory::Tables {
  struct Kernel {
    uint32_t item;    // index into Memory::items
    uint32_t source;  // index into problem_tokens
  };
  struct Category {
    std::vector<uint32_t> pitfalls;  // by order, then store order
    std::vector<uint32_t> recipes;   // by speedup desc, source id desc, store order
    std::vector<Kernel> kernels;     // by speedup desc, source id desc, store order
  };

  std::vector<uint32_t> lessons;  // by order, then store order
  std::unordered_map<std::string, Category> categories;
  std::unordered_map<std::string, uint32_t> problem_slots;  // problem id -> index below
  std::vector<std::vector<uint32_t>> problem_tokens;         // sorted, distinct token ids
};

}  // namespace kmem
