// Which pack texts a policy's rendering reads (docs/pack.md, "Texts and their placeholders"; docs/memory.md,
// "Rendering").
#include "memory/needed_texts.h"

#include <vector>

namespace kmem::memory {
namespace {

// Every text that render may read for `p`: a superset of what one call uses.
std::vector<std::string> needed_texts(const Policy& p) {
  if (p.fixed_text) return {*p.fixed_text};
  std::vector<std::string> needed = {"h1", "section_join", "bullet"};
  std::string suffix = p.numbers ? (p.you_alone ? "_reader" : "") : "_no_numbers";
  if (p.how_to_read) {
    needed.push_back("how_header");
    needed.push_back(p.gate != Gate::kNone ? "how_to_read_gated" : "how_to_read_self");
    if (p.gate == Gate::kNone) needed.push_back("how_to_read_other");
  }
  if (p.lessons) needed.push_back("lessons_header");
  if (p.pitfalls) needed.push_back("pitfalls_header");
  if (p.recipes) {
    needed.push_back(p.numbers ? "recipes_header" : "recipes_header_no_numbers");
    needed.push_back("recipe_bullet" + suffix);
  }
  if (p.kernels) {
    needed.push_back("kernel_header" + suffix);
    needed.push_back("kernel_code");
  }
  if (p.you_alone && p.numbers && (p.recipes || p.kernels))
    for (const char* t : {"you_alone_own", "you_alone_est", "you_alone_unknown"}) needed.push_back(t);
  return needed;
}

}  // namespace

std::optional<std::string> missing_text(const Pack& pack, const Policy& policy) {
  for (std::string& text : needed_texts(policy))
    if (!pack.texts.contains(text)) return std::move(text);
  return std::nullopt;
}

}  // namespace kmem::memory
