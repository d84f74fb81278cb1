// The candidate's text as CPython reads it, where that differs from how
// tree-sitter reads the same bytes: CPython ends a line at a lone '\r' (the
// grammar reads it as part of a comment), and a coding declaration (PEP 263)
// makes CPython decode the file as another encoding (utf-7 hides code that
// the checker sees as a comment).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kmem::check {

// `source` with "\r\n" and lone '\r' translated to '\n', so that lines are
// CPython's; `source` itself when it holds no '\r', else a view of `buffer`.
std::string_view python_newlines(std::string_view source, std::string& buffer);

// A coding declaration naming an encoding other than UTF-8: where the comment
// starts (1-based line and byte column) and the encoding as written.
struct ForeignCoding {
  int line = 0;
  int column = 0;
  std::string name;
};

// The coding declaration of line 1 or 2 of `text` (lines ended by '\n') when
// it names anything but UTF-8, found as CPython finds it: a comment line
// holding "coding" followed by ':' or '=' and a name.
std::optional<ForeignCoding> foreign_coding(std::string_view text);

}  // namespace kmem::check
