// Template filling for pack texts.
#include "kmem/template.h"

namespace kmem {

std::string fill(std::string_view text, const TemplateValues& values) {
  std::string out;
  out.reserve(text.size() + 64);
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find('{', i);
    if (open == std::string_view::npos) break;
    size_t close = text.find('}', open + 1);
    if (close == std::string_view::npos) break;
    std::string_view name = text.substr(open + 1, close - open - 1);
    const std::string_view* value = nullptr;
    for (const auto& [key, v] : values)
      if (key == name) value = &v;
    out.append(text, i, open - i);
    if (value != nullptr) {
      out.append(*value);
      i = close + 1;
    } else {
      out.push_back('{');
      i = open + 1;
    }
  }
  out.append(text, i);
  return out;
}

}  // namespace kmem
