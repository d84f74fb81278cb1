// What a Python string literal holds once Python has read it, and the C++/CUDA
// source inside it as the compiler would see its tokens: adjacent literals
// joined, escapes decoded, comments dropped, `##` pasting and line splices
// undone. The checker's rules match native identifiers on this text, so
// that "pthr" "ead_create", "\x70thread_create" or a comment naming __half
// read as the compiler reads them.
#pragma once

#include <string>
#include <string_view>

#include "syntax_tree.h"

namespace kmem::check_internal {

// The value of a `string` or `concatenated_string` node: escapes decoded,
// parts joined; an interpolation ({x} of an f-string) reads as one space.
std::string python_string_value(const SyntaxTree& tree, TSNode node);

// `source` without C/C++ comments and line splices, with `a ## b` pasted to
// `ab` and blanks around `::` removed ("std :: thread" -> "std::thread").
std::string native_tokens(std::string_view source);

// Whether `text` (from native_tokens) holds `name` as a whole identifier
// (or qualified name: "std::thread"), not followed by `::` and one of
// `unless_member` ("std::thread::hardware_concurrency" is no thread).
bool has_identifier(std::string_view text, std::string_view name, std::string_view unless_member = {});

// Whether `text` calls `name`: the identifier followed by '('.
bool has_call(std::string_view text, std::string_view name);

}  // namespace kmem::check_internal
