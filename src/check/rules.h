// The checker's rule table: one entry per rule (code, message template,
// matcher, the node types it looks at). Adding a rule is adding one entry in
// rules.cpp, its matcher in the rules_<family>.cpp it belongs to
// (rule_matchers.h) and one row in docs/verdicts.md. The offences found before any
// rule runs (no code block, unreadable source, syntax error) are the
// constants below.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "context.h"

namespace kmem::check {

struct CodeMessage {
  std::string_view code;
  std::string_view message;
};

inline constexpr CodeMessage kNoCodeBlock{"no_code_block",
                                          "A reply without a ```python fenced code block was rejected by the checker."};
// {detail} is "unexpected 'x'" or "missing ')'".
inline constexpr CodeMessage kSyntaxError{"syntax_error", "the candidate is not valid Python: {detail}"};
// Source that CPython would read other than as the checker does; {target}
// says how ("coding declaration 'utf-7'", "non-ASCII name 'ｇｃ'"). Given
// before parsing for a coding declaration, and by a rule for names.
inline constexpr CodeMessage kUnreadableSource{
    "unreadable_source",
    "the candidate must be UTF-8 source with ASCII names, read alike by the checker and by Python: "
    "{target}"};

// One offence a matcher found: where (a null node for the start of the
// file, 1:1), and the text that fills {target}.
struct Finding {
  TSNode at;
  std::string target;
};

// Looks at the context's current node; appends what it finds.
using Matcher = void (*)(const Context& context, std::vector<Finding>& out);

struct Rule {
  std::string_view code;
  std::string_view message;  // may hold {target}
  Matcher match;
  // The named node types ("call") the matcher looks at: it is offered the
  // nodes of these types only.
  std::span<const std::string_view> types;
  // A backstop (an allow-list: imports, private attributes, modules as
  // values) reports only on lines where no other rule reported, so that an
  // offence gets its specific code rather than two.
  bool backstop = false;
};

// Every rule, in table order.
std::span<const Rule> rule_table();

// The rules whose types hold `symbol`, in table order.
std::span<const Rule* const> rules_for(TSSymbol symbol);

// `message` with its placeholder {name} replaced by `value`.
std::string fill(std::string_view message, std::string_view name, std::string_view value);

}  // namespace kmem::check
