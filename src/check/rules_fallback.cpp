// The rule on fallbacks: exceptions swallowed around the candidate's own
// path (try/except, contextlib.suppress, returns in finally, __exit__
// returning true), which would hand the work to torch when its kernel fails.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

constexpr std::string_view kFallbackNames[] = {"contextlib"};
// Of contextlib, what swallows no exception: the module itself, a context
// that does nothing, one closing a thing, one made from a generator (whose
// own try/except and finally the rule judges).
constexpr std::string_view kFallbackAllowed[] = {"contextlib.nullcontext", "contextlib.closing",
                                                 "contextlib.contextmanager", "contextlib.asynccontextmanager"};

// Whether `body` yields or awaits in its own scope (not in a nested
// function, lambda or class).
bool yields_in(const Context& c, TSNode body) {
  static const TSSymbol kYield = python_symbol("yield"), kAwait = python_symbol("await");
  const Grammar& g = c.grammar();
  if (ts_node_is_null(body)) return false;
  std::vector<TSNode> stack{body};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    TSSymbol s = ts_node_symbol(node);
    if (s == kYield || s == kAwait) return true;
    if (s == g.function_definition || s == g.lambda || s == g.class_definition) continue;
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) stack.push_back(ts_node_named_child(node, i));
  }
  return false;
}

// `HAVE_TRITON = True`: a name set to a constant, as an optional import's
// guard records whether it worked (the handlers may set anything already).
bool is_flag_assignment(const Context& c, TSNode statement) {
  const Grammar& g = c.grammar();
  if (ts_node_symbol(statement) != g.expression_statement || ts_node_named_child_count(statement) != 1) return false;
  TSNode assignment = ts_node_named_child(statement, 0);
  if (ts_node_symbol(assignment) != g.assignment) return false;
  TSNode left = field(assignment, g.field_left), right = field(assignment, g.field_right);
  if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_symbol(left) != g.identifier) return false;
  TSSymbol value = ts_node_symbol(right);
  return value == g.true_ || value == g.false_ || value == g.none || value == g.integer || value == g.float_ ||
         (value == g.string && ts_node_named_child_count(right) <= 3);  // no interpolation: start, content, end
}

}  // namespace

// A try with an except clause, unless its body only imports (an optional
// dependency guard), perhaps setting flags that say so; contextlib.suppress
// is the same thing.
void try_fallback(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() == c.grammar().import_statement || c.symbol() == c.grammar().import_from_statement) {
    for (const ImportedName& name : c.imported_names())  // `import contextlib` itself swallows nothing
      if (name.qualified != "contextlib" && name_in(name.qualified, kFallbackNames) &&
          !name_in_exactly(name.qualified, kFallbackAllowed))
        out.push_back({name.at, std::string(name.qualified)});
  } else if (c.reference_name() != "contextlib") {
    match_names(c, kFallbackNames, out, kFallbackAllowed);
  }
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  // An exit whose value is out of sight or always true: decorated (the
  // decorator makes the method), a generator or a coroutine as `__exit__`
  // (the object it returns is true), `__aexit__` as an async generator.
  if (c.symbol() == g.function_definition) {
    TSNode name = field(node, g.field_name);
    std::string_view defined = ts_node_is_null(name) ? std::string_view() : c.text(name);
    if (defined == "__exit__" || defined == "__aexit__") {
      bool decorated = c.parent_symbol() == python_symbol("decorated_definition");
      bool is_async = c.text(node).starts_with("async");
      if (decorated || (is_async && defined == "__exit__") || yields_in(c, field(node, g.field_body)))
        out.push_back({node, std::string(defined) + " that is no plain method"});
    }
    return;
  }
  // `__exit__ = f`: an exit whose return value is out of sight.
  if (c.symbol() == g.assignment) {
    std::string_view defined = defined_name(c);
    if (defined == "__exit__" || defined == "__aexit__") out.push_back({node, ""});
    return;
  }
  // `return`, `break` or `continue` in a finally swallows the exception; a
  // context manager's __exit__ that returns does too (when it returns true).
  if (c.symbol() == g.return_statement || c.symbol() == g.break_statement || c.symbol() == g.continue_statement) {
    for (uint32_t up = 1; up < 64; ++up) {
      TSNode a = c.ancestor(up);
      TSSymbol s = ts_node_symbol(a);
      if (s == g.function_definition || s == g.lambda || s == g.module) {
        TSNode name = field(a, g.field_name);
        bool exits = s == g.function_definition && !ts_node_is_null(name) &&
                     (c.text(name) == "__exit__" || c.text(name) == "__aexit__");
        TSNode value = ts_node_named_child_count(node) ? ts_node_named_child(node, 0) : TSNode{};
        bool returns_something = c.symbol() == g.return_statement && !ts_node_is_null(value) &&
                                 ts_node_symbol(value) != g.none && ts_node_symbol(value) != g.false_;
        if (exits && returns_something) out.push_back({node, ""});
        return;
      }
      if (s == g.finally_clause) {
        out.push_back({node, ""});
        return;
      }
      if (c.symbol() != g.return_statement && (s == g.for_statement || s == python_symbol("while_statement")))
        return;  // break/continue of a loop inside the finally
    }
    return;
  }
  if (c.symbol() != g.try_statement) return;
  bool handles = false;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSSymbol symbol = ts_node_symbol(ts_node_named_child(node, i));
    handles = handles || symbol == g.except_clause || symbol == g.except_group_clause;
  }
  if (!handles) return;
  TSNode body = field(node, g.field_body);
  bool only_imports = !ts_node_is_null(body);
  uint32_t statements = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < statements; ++i) {
    TSNode s = ts_node_named_child(body, i);
    TSSymbol symbol = ts_node_symbol(s);
    only_imports = only_imports && (ts_node_is_extra(s) || symbol == g.import_statement ||
                                    symbol == g.import_from_statement || is_flag_assignment(c, s));
  }
  if (!only_imports) out.push_back({node, ""});
}

}  // namespace kmem::check
