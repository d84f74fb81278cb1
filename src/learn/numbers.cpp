// The number filter (docs/learning.md, "Recipes and pitfalls"): every figure
// standing alone in a model's text must be a verified one.
#include <fmt/format.h>

#include <cctype>

#include "kmem/learn.h"

namespace kmem {
namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

std::vector<std::string> unverified_numbers(const std::string& text, const std::vector<double>& verified) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    bool starts = digit(text[i]) && (i == 0 || (!word_char(text[i - 1]) && text[i - 1] != '.'));
    if (!starts) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && digit(text[end])) ++end;
    if (end + 1 < text.size() && text[end] == '.' && digit(text[end + 1])) {
      ++end;
      while (end < text.size() && digit(text[end])) ++end;
    }
    std::string figure = text.substr(i, end - i);
    // A unit of speed or share belongs to the figure.
    if (end < text.size() && (text[end] == 'x' || text[end] == 'X' || text[end] == '%')) ++end;
    else if (text.compare(end, 2, "\xC3\x97") == 0) end += 2;  // ×
    if (end < text.size() && word_char(text[end])) {           // digits inside a word: 2D, 3x3
      while (end < text.size() && word_char(text[end])) ++end;
      i = end;
      continue;
    }
    bool known = false;
    for (double v : verified)
      if (figure == fmt::format("{:.2f}", v)) known = true;
    if (!known) out.push_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

}  // namespace kmem
