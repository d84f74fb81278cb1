// Name similarity for kernel selection: the Jaccard index of two problem
// names' token sets (lower-cased, split on '_', empty pieces dropped).
#pragma once

#include <string>
#include <vector>

namespace kmem::memory {

// The sorted, de-duplicated tokens of a problem name.
std::vector<std::string> name_tokens(const std::string& name);

// |a ∩ b| / |a ∪ b| of two sorted token sets; 0 when both are empty.
double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b);

}  // namespace kmem::memory
