// Token sets of problem names and their Jaccard similarity.
#include "memory/tokens.h"

#include <algorithm>
#include <cctype>

namespace kmem::memory {

std::vector<std::string> name_tokens(const std::string& name) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : name + "_") {
    if (c == '_') {
      if (!current.empty()) tokens.push_back(std::move(current));
      current.clear();
    } else {
      current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

double jaccard(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t common = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j) ++i;
    else if (*j < *i) ++j;
    else {
      ++common;
      ++i;
      ++j;
    }
  }
  size_t all = a.size() + b.size() - common;
  return all == 0 ? 0.0 : static_cast<double>(common) / static_cast<double>(all);
}

}  // namespace kmem::memory
