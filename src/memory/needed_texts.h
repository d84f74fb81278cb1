// The texts of the prompt pack that rendering a policy reads: checked once when
// a pack is parsed and again by render, so a Pack built in code fails with an
// error instead of a missing-key exception.
#pragma once

#include <optional>
#include <string>

#include "kmem/memory.h"

namespace kmem::memory {

// The first text `policy` needs that `pack` lacks, or nothing when all exist.
std::optional<std::string> missing_text(const Pack& pack, const Policy& policy);

}  // namespace kmem::memory
