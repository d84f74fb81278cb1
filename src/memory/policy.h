// The policy step: drops selected items a policy filters out and works out
// the reader's own values ("you alone") that a policy may show.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kmem/memory.h"

namespace kmem::memory {

// A reader's baseline for a problem: their own mean score there, else their
// mean over the problem's (level, category) group, else nothing known.
struct ReaderValue {
  enum class Kind { kOwn, kEstimate, kUnknown };
  Kind kind = Kind::kUnknown;
  double value = 0.0;
};

ReaderValue reader_value(const Memory& memory, const std::string& reader, const std::string& problem_id);

struct ShownItem {
  const Item* item = nullptr;
  ReaderValue you_alone;  // the reader's value for the item's source problem
};

// What a policy keeps of a selection, in rendering order.
struct Shown {
  std::vector<const Item*> lessons;
  std::vector<const Item*> pitfalls;
  std::vector<ShownItem> recipes;
  std::vector<ShownItem> kernels;
};

Shown apply_policy(const Selection& selection, const Policy& policy, const Memory& memory, const std::string& reader);

}  // namespace kmem::memory
