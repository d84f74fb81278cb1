// Helpers shared by the rule families (rules_*.cpp): matching qualified
// names against lists, reading string expressions, arguments, environment
// writes and definitions. Name lists hold qualified names (aliases are
// resolved first): an entry matches itself and everything under it ("gc"
// matches "gc.get_objects"); an entry ending in '*' matches any name that
// starts with it ("os.spawn*" matches "os.spawnv").
#include "rule_support.h"

#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "grammar.h"
#include "native_source.h"

namespace kmem::check {
namespace {

// Modules that other modules re-export under their own name
// (`torch.nn.functional.torch`, `os.path.os`, `typing.sys`): a name passing
// through one of them is also read from there on.
constexpr std::string_view kReexportedModules[] = {
    "torch",   "os",       "sys",       "threading", "_thread",         "subprocess", "signal",    "gc",
    "inspect", "ctypes",   "importlib", "builtins",  "multiprocessing", "concurrent", "asyncio",   "pickle",
    "marshal", "runpy",    "time",      "functools", "operator",        "mmap",       "traceback", "contextlib",
    "types",   "code",     "pkgutil",   "warnings",  "numpy",           "random",     "weakref",   "io",
    "shutil",  "tempfile", "socket",    "logging",   "atexit"};
// Submodules that only share a name with a top-level module.
constexpr std::string_view kOwnSubmodules[] = {"torch.signal", "torch.types",      "torch.random",
                                               "numpy.random", "torch.functional", "torch.cuda.random"};

}  // namespace

bool name_in_exactly(std::string_view name, Names list) {
  return std::any_of(list.begin(), list.end(), [name](std::string_view entry) {
    if (entry.ends_with('*')) return name.starts_with(entry.substr(0, entry.size() - 1));
    return name == entry || (name.starts_with(entry) && name[entry.size()] == '.');
  });
}

// The part of `name` that matches `list`: the whole name, or the part from
// a re-exported module on (`torch.cuda.Stream` of
// `torch.nn.functional.torch.cuda.Stream`); empty when none matches.
std::string_view matching_part(std::string_view name, Names list) {
  if (name_in_exactly(name, list)) return name;
  static const std::unordered_set<std::string_view> roots(std::begin(kReexportedModules), std::end(kReexportedModules));
  for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
    std::string_view rest = name.substr(dot + 1);
    std::string_view head = rest.substr(0, rest.find('.'));
    if (!roots.contains(head) || listed(name.substr(0, dot + 1 + head.size()), kOwnSubmodules)) continue;
    if (name_in_exactly(rest, list)) return rest;
  }
  return {};
}

bool name_in(std::string_view name, Names list) { return !matching_part(name, list).empty(); }

bool is_dunder(std::string_view name) { return name.size() > 4 && name.starts_with("__") && name.ends_with("__"); }

bool listed(std::string_view name, Names list) { return std::find(list.begin(), list.end(), name) != list.end(); }

// Whether the current node is the target of `= False` (`torch.backends.cudnn.allow_tf32 = False`).
bool assigned_false(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.parent_symbol() != g.assignment) return false;
  TSNode right = field(c.parent(), g.field_right);
  return ts_node_eq(field(c.parent(), g.field_left), c.node()) && !ts_node_is_null(right) &&
         ts_node_symbol(right) == g.false_;
}

// Whether the current node is only tested: the condition of an `if`,
// `elif`, `while` or `assert`, alone or under `not`, `and`, `or`
// (`if torch.backends.cuda.matmul.allow_tf32: raise ...`).
static bool only_tested(const Context& c) {
  static const TSSymbol kIf = python_symbol("if_statement"), kElif = python_symbol("elif_clause"),
                        kWhile = python_symbol("while_statement"), kAssert = python_symbol("assert_statement"),
                        kNot = python_symbol("not_operator"), kBoolean = python_symbol("boolean_operator");
  const Grammar& g = c.grammar();
  TSNode below = c.node();
  for (uint32_t up = 1; up < 8; ++up) {
    TSNode above = c.ancestor(up);
    TSSymbol s = ts_node_symbol(above);
    if (s == kIf || s == kElif || s == kWhile)
      return ts_node_eq(ts_node_child_by_field_name(above, "condition", 9), below);
    if (s == kAssert) return ts_node_eq(ts_node_named_child(above, 0), below);
    if (s != kNot && s != kBoolean && s != g.parenthesized_expression) return false;
    below = above;
  }
  return false;
}

// Whether the current node is only compared with (`x.dtype == torch.half`,
// `x.dtype in (torch.float16, torch.bfloat16)`) or tested: reading a dtype
// or a flag casts nothing.
bool only_compared(const Context& c) {
  const Grammar& g = c.grammar();
  if (only_tested(c)) return true;
  for (uint32_t up = 1; up < 4; ++up) {
    TSSymbol s = ts_node_symbol(c.ancestor(up));
    if (s == g.comparison_operator) return true;
    static const TSSymbol kSet = python_symbol("set");
    if (s != g.tuple && s != g.list && s != g.parenthesized_expression && s != kSet) return false;
  }
  return false;
}

// Imports and references of the names in `list`, except those whose
// matching part is `allowed` (an entry of it or a name under one).
void match_names(const Context& c, Names list, std::vector<Finding>& out, Names allowed) {
  const Grammar& g = c.grammar();
  auto offends = [&](std::string_view name) {
    std::string_view part = matching_part(name, list);
    return !part.empty() && !name_in_exactly(part, allowed);
  };
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& name : c.imported_names()) {
      std::string_view qualified = name.qualified;
      if (qualified.ends_with(".*")) qualified.remove_suffix(2);
      if (offends(qualified)) out.push_back({name.at, std::string(qualified)});
    }
    return;
  }
  const std::string& reference = c.reference_name();
  if (!reference.empty() && offends(reference)) out.push_back({c.node(), reference});
}

TSNode keyword_pattern_name(const Context& c) {
  static const TSSymbol kKeywordPattern = python_symbol("keyword_pattern");
  if (c.symbol() != kKeywordPattern || ts_node_named_child_count(c.node()) == 0) return TSNode{};
  TSNode name = ts_node_named_child(c.node(), 0);
  return ts_node_symbol(name) == c.grammar().identifier ? name : TSNode{};
}

// Attribute accesses `x.<name>` for the names in `list`, whatever x is.
void match_attributes(const Context& c, Names list, std::vector<Finding>& out) {
  if (TSNode name = keyword_pattern_name(c); !ts_node_is_null(name)) {
    if (listed(c.text(name), list)) out.push_back({name, std::string(c.text(name))});
    return;
  }
  if (c.symbol() != c.grammar().attribute) return;
  TSNode attribute = field(c.node(), c.grammar().field_attribute);
  if (ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (std::find(list.begin(), list.end(), name) != list.end()) out.push_back({attribute, std::string(name)});
}

// String literals (e.g. CUDA sources) naming one of the identifiers in `list`.
void match_strings(const Context& c, Names list, std::vector<Finding>& out) {
  const std::string& text = c.native_text();
  if (text.empty()) return;
  for (std::string_view token : list)
    if (has_identifier(text, token)) out.push_back({c.node(), std::string(token)});
}

// The value of a string expression made of literals only: a literal, an
// implicit or `+` concatenation, `os.path.join(...)` or `"sep".join([...])`
// of such; nullopt for anything else.
std::optional<std::string> folded_string(const Context& c, TSNode node, int depth) {
  const Grammar& g = c.grammar();
  if (depth > 64 || ts_node_is_null(node)) return std::nullopt;
  TSSymbol s = ts_node_symbol(node);
  if (s == g.string || s == g.concatenated_string) {
    // An f-string's fields are not read here.
    auto interpolated = [&](TSNode string) {
      for (uint32_t i = 0; i < ts_node_named_child_count(string); ++i)
        if (ts_node_symbol(ts_node_named_child(string, i)) == g.interpolation) return true;
      return false;
    };
    if (s == g.string && interpolated(node)) return std::nullopt;
    for (uint32_t i = 0; s == g.concatenated_string && i < ts_node_named_child_count(node); ++i)
      if (interpolated(ts_node_named_child(node, i))) return std::nullopt;
    return python_string_value(c.tree(), node);
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return folded_string(c, ts_node_named_child(node, 0), depth + 1);
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_name(node, "operator", 8);
    if (ts_node_is_null(op) || c.text(op) != "+") return std::nullopt;
    auto left = folded_string(c, field(node, g.field_left), depth + 1);
    auto right = folded_string(c, field(node, g.field_right), depth + 1);
    if (left && right) return *left + *right;
    return std::nullopt;
  }
  if (s != g.call) return std::nullopt;
  TSNode function = field(node, g.field_function);
  TSNode arguments = field(node, g.field_arguments);
  if (ts_node_is_null(function) || ts_node_is_null(arguments)) return std::nullopt;
  std::vector<std::string> parts;
  auto collect = [&](TSNode list) {
    uint32_t n = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < n; ++i) {
      auto part = folded_string(c, ts_node_named_child(list, i), depth + 1);
      if (!part) return false;
      parts.push_back(*part);
    }
    return true;
  };
  std::string joined;
  if (c.qualified_name(function) == "os.path.join") {
    if (!collect(arguments)) return std::nullopt;
    for (const std::string& part : parts) {
      if (part.starts_with('/')) joined.clear();
      else if (!joined.empty() && !joined.ends_with('/')) joined.push_back('/');
      joined += part;
    }
    return joined;
  }
  TSNode object;
  std::string_view method;
  if (!c.reads_attribute(function, &object, &method) || method != "join") return std::nullopt;
  auto separator = folded_string(c, object, depth + 1);
  if (!separator || ts_node_named_child_count(arguments) != 1) return std::nullopt;
  TSNode list = ts_node_named_child(arguments, 0);
  if (ts_node_symbol(list) != g.list && ts_node_symbol(list) != g.tuple) return std::nullopt;
  if (!collect(list)) return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i) joined += (i ? *separator : "") + parts[i];
  return joined;
}

// String expressions naming one of the paths in `list`: the path followed by
// the end of the string or a character that cannot continue a name ("/proc/",
// "/proc'"; not "loads/processes"), and not preceded by what a division's
// left operand ends with (native code's `(x - mean)/dev`, `n/sys`, `1./dev`
// divide; a path "x/dev" is relative, no /dev). Literals, concatenations and
// joins of literals are read as their value.
void match_paths(const Context& c, Names list, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSSymbol s = c.symbol();
  if (s != g.string && s != g.concatenated_string && s != g.binary_operator && s != g.call) return;
  if (s == g.string && c.parent_symbol() == g.concatenated_string) return;
  // A string standing alone as a statement (a docstring) is read by no one.
  static const TSSymbol kStatement = python_symbol("expression_statement");
  if ((s == g.string || s == g.concatenated_string) && c.parent_symbol() == kStatement &&
      ts_node_named_child_count(c.parent()) == 1)
    return;
  auto value = folded_string(c, c.node());
  if (!value) return;
  std::string_view text = *value;
  auto continues_name = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  auto divides = [&](size_t at) {
    if (at == 0) return false;
    char before = text[at - 1];
    if (continues_name(before) || before == ')' || before == ']') return true;
    return before == '.' && at >= 2 && std::isdigit(static_cast<unsigned char>(text[at - 2]));
  };
  for (std::string_view path : list) {
    for (size_t at = text.find(path); at != std::string_view::npos; at = text.find(path, at + 1)) {
      size_t end = at + path.size();
      if ((end == text.size() || !continues_name(text[end])) && !divides(at)) {
        out.push_back({c.node(), std::string(path)});
        break;
      }
    }
  }
}

std::string keywords_function(const Context& c) {
  const std::string& callee = c.callee_name();
  if (callee == "functools.partial" || callee == "functools.partialmethod") return c.partial_target(c.node());
  return callee;
}

// The n-th positional argument of the current call (0-based), or null.
TSNode positional_argument(const Context& c, uint32_t index) { return c.positional_argument(c.node(), index); }

// The builtin `name` used as a value rather than called (`map(setattr, ...)`,
// `f = getattr`): whatever it is later called with is out of sight.
bool uncalled_builtin(const Context& c, std::string_view name) {
  if (c.symbol() != c.grammar().identifier || c.reference_name() != name) return false;
  return !(c.parent_symbol() == c.grammar().call &&
           ts_node_eq(field(c.parent(), c.grammar().field_function), c.node()));
}

bool is_setattr_call(const Context& c) {
  const std::string& name = c.callee_name();
  return name == "setattr" || name == "delattr";
}

// Whether the current node is written to (rule_support.h).
bool is_target(const Context& c) {
  const Grammar& g = c.grammar();
  TSNode below = c.node();
  for (uint32_t up = 1; up < 16; ++up) {
    TSNode above = c.ancestor(up);
    TSSymbol s = ts_node_symbol(above);
    if (s == g.assignment || s == g.augmented_assignment || s == g.for_statement || s == g.for_in_clause)
      return ts_node_eq(field(above, g.field_left), below);
    if (s == g.delete_statement) return true;
    if (!g.is_target_group(s)) return false;
    below = above;
  }
  return false;
}

// The variables the current node writes into os.environ: `os.environ[k] = v`
// (and `+=`, `del`), `os.environ.update(...)`, `os.environ.setdefault(k, v)`;
// a variable named by anything but a plain literal reads as "?".
namespace {

// The process environment's mappings (`os.environb` is the same one, as bytes).
bool environment_mapping(const Context& c, TSNode node) {
  if (ts_node_is_null(node)) return false;
  std::string name = c.qualified_name(node);
  return name == "os.environ" || name == "os.environb";
}

// Whether the current node (a mapping) is only read where it stands: a
// member or an item of it read, `in` it, a loop over it. Given to any call
// (even `dict(...)`: the name may be rebound), it may be written.
bool read_in_place(const Context& c) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript");
  TSSymbol parent = c.parent_symbol();
  return parent == g.attribute || parent == kSubscript || parent == g.comparison_operator ||
         parent == g.for_statement || parent == g.for_in_clause;
}

}  // namespace

std::vector<std::pair<TSNode, std::string>> environment_writes(const Context& c) {
  const Grammar& g = c.grammar();
  std::vector<std::pair<TSNode, std::string>> writes;
  auto add = [&](TSNode key) {
    std::string_view literal;
    if (!ts_node_is_null(key) && c.string_literal(key, &literal)) {
      writes.push_back({key, std::string(literal)});
    } else if (static const TSSymbol kBytes = python_symbol("string");
               !ts_node_is_null(key) && ts_node_symbol(key) == kBytes && c.text(key).starts_with("b")) {
      // b"LD_PRELOAD": the name without its prefix and quotes.
      std::string_view text = c.text(key).substr(1);
      writes.push_back({key, text.size() >= 2 ? std::string(text.substr(1, text.size() - 2)) : "?"});
    } else {
      writes.push_back({key, "?"});
    }
  };
  static const TSSymbol kSubscript = python_symbol("subscript");
  bool written_to = is_target(c);
  if (c.symbol() == kSubscript) {
    TSNode value = ts_node_child_by_field_name(c.node(), "value", 5);
    if (written_to && environment_mapping(c, value)) add(ts_node_child_by_field_name(c.node(), "subscript", 9));
    return writes;
  }
  // `os.environ |= {...}`, `os.environ = {...}`, `del os.environ`.
  if ((c.symbol() == g.attribute || c.symbol() == g.identifier) && written_to && !c.reference_name().empty() &&
      environment_mapping(c, c.node())) {
    add(TSNode{});
    return writes;
  }
  // `os.environ` handed to other code (`operator.setitem(os.environ, ...)`,
  // `MutableMapping.update(os.environ, ...)`, an alias): it may write any
  // variable: only reading places keep it (read_in_place).
  if ((c.symbol() == g.attribute || c.symbol() == g.identifier) && !c.reference_name().empty() &&
      environment_mapping(c, c.node()) && !read_in_place(c)) {
    writes.push_back({c.node(), "?"});
    return writes;
  }
  if (c.symbol() != g.call) return writes;
  const std::string& callee = c.callee_name();
  std::string_view method = std::string_view(callee).substr(callee.rfind('.') + 1);
  bool on_mapping = (callee.starts_with("os.environ.") || callee.starts_with("os.environb.")) &&
                    std::count(callee.begin(), callee.end(), '.') == 2;
  if (callee == "os.unsetenv" || callee == "os.putenv" || (on_mapping && (method == "setdefault" || method == "pop"))) {
    add(positional_argument(c, 0));
  } else if (on_mapping && (method == "popitem" || method == "clear" || method.starts_with("__"))) {
    add(TSNode{});
  } else if (on_mapping && method == "update") {
    TSNode arguments = c.argument_list(c.node());
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
      TSNode a = ts_node_named_child(arguments, i);
      if (ts_node_symbol(a) == g.keyword_argument) {
        writes.push_back({a, std::string(c.text(field(a, g.field_name)))});
      } else if (static const TSSymbol kDictionary = python_symbol("dictionary"); ts_node_symbol(a) == kDictionary) {
        for (uint32_t j = 0; j < ts_node_named_child_count(a); ++j) {
          TSNode pair = ts_node_named_child(a, j);
          static const TSSymbol kPair = python_symbol("pair");
          add(ts_node_symbol(pair) == kPair ? ts_node_child_by_field_name(pair, "key", 3) : TSNode{});
        }
      } else {
        add(TSNode{});
      }
    }
  }
  return writes;
}

// The name a definition in a class body or at the top level gives: a def's
// or class's name, or an assignment's single name; empty otherwise.
std::string_view defined_name(const Context& c) {
  const Grammar& g = c.grammar();
  TSNode name;
  if (c.symbol() == g.function_definition) {
    name = field(c.node(), g.field_name);
  } else if (c.symbol() == g.assignment) {
    TSSymbol scope = ts_node_symbol(c.ancestor(3));
    if (scope != g.class_definition && scope != g.module && ts_node_symbol(c.ancestor(2)) != g.module) return {};
    name = field(c.node(), g.field_left);
    if (ts_node_is_null(name) || ts_node_symbol(name) != g.identifier) return {};
  } else {
    return {};
  }
  return ts_node_is_null(name) ? std::string_view{} : c.text(name);
}

// The dunder the current node names as a variable (`__annotations__` of a
// class body, `__class__` in a method): an identifier that is no
// attribute's member, keyword's name or def's or class's name. Empty
// otherwise.
std::string_view dunder_variable(const Context& c) {
  static const TSSymbol kKeywordPattern = python_symbol("keyword_pattern");
  const Grammar& g = c.grammar();
  if (c.symbol() != g.identifier || !is_dunder(c.text(c.node()))) return {};
  TSSymbol parent = c.parent_symbol();
  TSNode node = c.node();
  if ((parent == g.attribute && ts_node_eq(field(c.parent(), g.field_attribute), node)) ||
      ((parent == g.keyword_argument || parent == g.function_definition || parent == g.class_definition) &&
       ts_node_eq(field(c.parent(), g.field_name), node)) ||
      (parent == kKeywordPattern && ts_node_eq(ts_node_named_child(c.parent(), 0), node)))
    return {};
  return c.text(node);
}

}  // namespace kmem::check
