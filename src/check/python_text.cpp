// Newline translation and the coding declaration, as CPython's tokenizer
// does them (Parser/tokenizer.c: universal newlines, get_coding_spec and
// get_normal_name).
#include "python_text.h"

#include <algorithm>
#include <cctype>

namespace kmem::check {
namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

// The encoding a comment line declares, as CPython reads it: the first
// "coding" followed by ':' or '=', blanks, then a non-empty name; empty if none.
std::string_view declared_coding(std::string_view line) {
  size_t hash = line.find_first_not_of(" \t\f");
  if (hash == std::string_view::npos || line[hash] != '#') return {};
  for (size_t at = line.find("coding", hash); at != std::string_view::npos; at = line.find("coding", at + 1)) {
    size_t begin = at + 6;
    if (begin >= line.size() || (line[begin] != ':' && line[begin] != '=')) continue;
    begin = line.find_first_not_of(" \t", begin + 1);
    if (begin == std::string_view::npos) return {};
    size_t end = begin;
    while (end < line.size() && is_name_char(line[end])) ++end;
    if (end > begin) return line.substr(begin, end - begin);
  }
  return {};
}

// Whether CPython decodes `name` as UTF-8: "utf-8" and "utf8" in any case,
// '_' for '-', and CPython's own "utf-8-*" (utf-8-sig).
bool names_utf8(std::string_view name) {
  std::string normal(name);
  std::transform(normal.begin(), normal.end(), normal.begin(),
                 [](unsigned char c) { return c == '_' ? '-' : static_cast<char>(std::tolower(c)); });
  return normal == "utf-8" || normal == "utf8" || normal.starts_with("utf-8-");
}

}  // namespace

std::string_view python_newlines(std::string_view source, std::string& buffer) {
  if (source.find('\r') == std::string_view::npos) return source;
  buffer.clear();
  buffer.reserve(source.size());
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] != '\r') {
      buffer.push_back(source[i]);
    } else {
      buffer.push_back('\n');
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
    }
  }
  return buffer;
}

std::optional<ForeignCoding> foreign_coding(std::string_view text) {
  size_t start = 0;
  for (int line = 1; line <= 2 && start <= text.size(); ++line) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view content = text.substr(start, end - start);
    // CPython reads the first line's declaration after a byte order mark.
    size_t skip = line == 1 && content.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    std::string_view name = declared_coding(content.substr(skip));
    if (!name.empty() && !names_utf8(name))
      return ForeignCoding{line, static_cast<int>(content.find('#')) + 1, std::string(name)};
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace kmem::check
