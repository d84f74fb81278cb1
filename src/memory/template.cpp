// Scanning and expanding the placeholders of pack texts.
#include "memory/template.h"

#include <cctype>

namespace kmem {
namespace {

constexpr std::array<std::string_view, kPlaceholderCount> kNames = {"cat",    "sp", "name", "pid", "ya",
                                                                    "author", "v",  "text", "code"};

std::optional<Placeholder> placeholder_named(std::string_view word) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == word) return static_cast<Placeholder>(i);
  return std::nullopt;
}

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The word of a "{word}" starting at `open`, or empty when there is none.
std::string_view word_at(std::string_view text, size_t open) {
  size_t end = open + 1;
  while (end < text.size() && is_word_char(text[end])) ++end;
  if (end == open + 1 || end >= text.size() || text[end] != '}') return {};
  return text.substr(open + 1, end - open - 1);
}

}  // namespace

std::string_view placeholder_name(Placeholder placeholder) { return kNames[static_cast<size_t>(placeholder)]; }

std::vector<PlaceholderUse> placeholders_in(std::string_view text) {
  std::vector<PlaceholderUse> uses;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    std::string_view word = word_at(text, open);
    if (!word.empty()) uses.push_back({std::string(word), placeholder_named(word)});
  }
  return uses;
}

void expand(std::string_view text, const Fill& fill, std::string& out) {
  size_t done = 0;
  for (size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
    std::string_view word = word_at(text, open);
    std::optional<Placeholder> placeholder = placeholder_named(word);
    if (!placeholder) continue;
    out.append(text, done, open - done);
    out.append(fill[static_cast<size_t>(*placeholder)]);
    done = open + word.size() + 2;
    open = done - 1;
  }
  out.append(text, done);
}

}  // namespace kmem
