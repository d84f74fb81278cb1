// Pack texts as templates: "{name}" marks a placeholder, everything else is
// literal. Expansion is one pass, so values (item texts, kernel code) are
// never scanned for placeholders themselves.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kmem {

enum class Placeholder { kCat, kSp, kName, kPid, kYa, kAuthor, kV, kText, kCode };
inline constexpr size_t kPlaceholderCount = 9;

// The value of each placeholder, indexed by Placeholder.
using Fill = std::array<std::string_view, kPlaceholderCount>;

std::string_view placeholder_name(Placeholder placeholder);

// Each "{word}" of `text` (word: letters, digits, '_'), in order; known ones
// carry their Placeholder.
struct PlaceholderUse {
  std::string word;
  std::optional<Placeholder> placeholder;
};
std::vector<PlaceholderUse> placeholders_in(std::string_view text);

// Appends `text` to `out` with each known placeholder replaced by its value.
void expand(std::string_view text, const Fill& fill, std::string& out);

}  // namespace kmem
