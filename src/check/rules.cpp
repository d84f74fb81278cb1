// The rule table: each rule's code, message, matcher (rule_matchers.h, one
// file per rule family) and the node types it looks at.
#include "rules.h"

#include <vector>

#include "grammar.h"
#include "rule_matchers.h"

namespace kmem::check {
namespace {

// The node types the matchers look at.
constexpr std::string_view kModule[] = {"module"};
constexpr std::string_view kClass[] = {"class_definition"};
constexpr std::string_view kCallIdentifier[] = {"call", "identifier"};
constexpr std::string_view kIdentifier[] = {"identifier"};
constexpr std::string_view kIdentifierEscape[] = {"identifier", "escape_sequence"};
constexpr std::string_view kTargets[] = {"assignment", "augmented_assignment", "for_statement", "for_in_clause",
                                         "as_pattern", "delete_statement",     "call"};
// match_names: imports and name references (literal getattr calls included).
constexpr std::string_view kNames[] = {"import_statement", "import_from_statement", "identifier", "attribute", "call"};
// match_names and match_strings (match_attributes looks at attributes).
constexpr std::string_view kNamesStrings[] = {
    "import_statement", "import_from_statement", "identifier",     "attribute", "call",
    "string",           "concatenated_string",   "binary_operator"};
constexpr std::string_view kPrecision[] = {
    "import_statement", "import_from_statement", "identifier", "attribute",
    "string",           "concatenated_string",   "call",       "keyword_argument",
    "subscript",        "binary_operator"};
constexpr std::string_view kImports[] = {"import_statement", "import_from_statement"};
constexpr std::string_view kDynamicCode[] = {"import_statement",
                                             "import_from_statement",
                                             "identifier",
                                             "attribute",
                                             "call",
                                             "string",
                                             "concatenated_string",
                                             "binary_operator",
                                             "keyword_argument",
                                             "function_definition",
                                             "assignment",
                                             "subscript",
                                             "dictionary_splat",
                                             "type"};
constexpr std::string_view kNativeSources[] = {"call", "string", "concatenated_string"};
constexpr std::string_view kAttribute[] = {"attribute", "function_definition", "assignment", "keyword_pattern",
                                           "string",    "keyword_argument",    "call",       "identifier"};
constexpr std::string_view kReferences[] = {"identifier", "attribute", "import_statement", "import_from_statement"};
constexpr std::string_view kPatching[] = {
    "import_statement", "import_from_statement", "identifier", "attribute", "call",
    "keyword_argument", "function_definition",   "assignment", "string",    "concatenated_string",
    "binary_operator",  "keyword_pattern"};
constexpr std::string_view kPaths[] = {
    "import_statement", "import_from_statement", "identifier",      "attribute",       "call",
    "string",           "concatenated_string",   "binary_operator", "keyword_pattern", "comment"};
constexpr std::string_view kFallback[] = {
    "import_statement",   "import_from_statement", "identifier",      "attribute",          "call",
    "try_statement",      "return_statement",      "break_statement", "continue_statement", "assignment",
    "function_definition"};

constexpr Rule kRules[] = {
    {"no_model_new", "the candidate defines no class named ModelNew", no_model_new, kModule},
    {"defines_model", "do not define a class named Model (the reference); define ModelNew only", defines_model, kClass},
    {kUnreadableSource.code, kUnreadableSource.message, non_ascii_name, kIdentifierEscape},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr, kCallIdentifier},
    {"dynamic_setattr", "setattr and delattr need a literal attribute name (got '{target}')", dynamic_setattr,
     kCallIdentifier},
    {"foreign_attribute_assignment", "assignment to attribute '{target}' is not allowed (only self.<x>)",
     foreign_attribute_assignment, kTargets},
    {"uses_threads", "threads, processes and async tasks are not allowed in a candidate ('{target}')", uses_threads,
     kNamesStrings},
    {"side_stream", "launching work on another CUDA stream is not allowed ('{target}')", side_stream, kNamesStrings},
    {"runtime_patching", "patching the timer, torch, the reference or builtins is not allowed ('{target}')",
     runtime_patching, kPatching},
    {"introspection",
     "reading other objects through gc, inspect, ctypes, sys frames or /proc is not allowed "
     "('{target}')",
     introspection, kPaths},
    {"try_fallback",
     "try/except around the custom path (a fallback to torch) is not allowed; only imports may be "
     "guarded",
     try_fallback, kFallback},
    {"references_model", "the candidate must not use or wrap the reference Model ('{target}')", references_model,
     kIdentifier},
    {"seed_manipulation", "the candidate must not seed or read random number generators' state ('{target}')",
     seed_manipulation, kNamesStrings},
    {"precision_downcast", "an fp32 problem must be computed in fp32 (no TF32, fp16 or bf16): '{target}'",
     precision_downcast, kPrecision},
    {"dynamic_code", "exec, eval, compile and __import__ hide code from the checker ('{target}')", dynamic_code,
     kDynamicCode},
    {"dynamic_code", "exec, eval, compile and __import__ hide code from the checker ('{target}')", native_python,
     kNativeSources},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr_names, kNamesStrings},
    {"forbidden_import", "the candidate may import only the modules docs/verdicts.md lists ('{target}')",
     forbidden_import, kImports, true},
    {"private_attribute", "private and dunder attributes are not allowed ('{target}')", private_attribute, kAttribute,
     true},
    {"private_attribute", "private and dunder attributes are not allowed ('{target}')", native_keyword_macro,
     kNativeSources},
    {"module_as_value", "a module may be used only through its attributes, not passed around as a value ('{target}')",
     module_as_value, kReferences, true},
};

}  // namespace

std::span<const Rule> rule_table() { return kRules; }

std::span<const Rule* const> rules_for(TSSymbol symbol) {
  // Built once from the constant table and grammar, then only read.
  static const std::vector<std::vector<const Rule*>> by_symbol = [] {
    std::vector<std::vector<const Rule*>> table(ts_language_symbol_count(python_language()));
    for (const Rule& rule : kRules)
      for (std::string_view type : rule.types) table.at(python_symbol(type)).push_back(&rule);
    return table;
  }();
  if (symbol >= by_symbol.size()) return {};
  return by_symbol[symbol];
}

std::string fill(std::string_view message, std::string_view name, std::string_view value) {
  std::string placeholder(1, '{');
  placeholder.append(name).push_back('}');
  std::string out(message);
  size_t at = out.find(placeholder);
  if (at != std::string::npos) out.replace(at, placeholder.size(), value);
  return out;
}

}  // namespace kmem::check
