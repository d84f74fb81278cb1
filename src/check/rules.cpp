// The rule table and its matchers. Name lists hold qualified names (aliases
// are resolved first): an entry matches itself and everything under it
// ("gc" matches "gc.get_objects"); an entry ending in '*' matches any name
// that starts with it ("os.spawn*" matches "os.spawnv").
#include "rules.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "grammar.h"

namespace kmem::check_internal {
namespace {

using Names = std::span<const std::string_view>;

constexpr std::string_view kThreadNames[] = {
    "threading", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess", "signal",
    "pty", "os.fork", "os.forkpty", "os.register_at_fork", "os.system", "os.popen", "os.spawn*",
    "os.exec*", "os.posix_spawn*", "torch.multiprocessing", "torch.jit.fork", "torch.jit._fork",
    "torch.futures", "torch.distributed"};
constexpr std::string_view kThreadStrings[] = {"std::thread", "std::async", "pthread_create"};

constexpr std::string_view kStreamNames[] = {
    "torch.cuda.Stream", "torch.cuda.stream", "torch.cuda.ExternalStream", "torch.cuda.set_stream",
    "torch.cuda.StreamContext", "torch.cuda.streams", "torch.Stream", "torch.stream",
    "cupy.cuda.Stream", "cupy.cuda.ExternalStream", "numba.cuda.stream"};
constexpr std::string_view kStreamStrings[] = {"cudaStreamCreate", "getStreamFromPool"};

constexpr std::string_view kPatchingNames[] = {
    "builtins", "__builtin__", "__builtins__", "importlib", "sys.modules", "sys.meta_path",
    "unittest.mock", "mock", "torch.library", "torch.overrides", "torch.utils._python_dispatch",
    "vars", "globals", "kmem_worker"};
constexpr std::string_view kPatchingAttributes[] = {"__dict__", "__setattr__", "__delattr__",
                                                    "__getattribute__", "__builtins__"};

constexpr std::string_view kIntrospectionNames[] = {
    "gc", "inspect", "ctypes", "_ctypes", "cffi", "traceback", "tracemalloc", "dis", "mmap",
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.exc_info",
    "sys.getrefcount"};
constexpr std::string_view kIntrospectionAttributes[] = {
    "f_back", "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "gi_frame", "cr_frame",
    "ag_frame", "__globals__", "__code__", "__closure__", "__subclasses__", "__bases__", "__base__",
    "__mro__", "__self__", "__func__"};
constexpr std::string_view kIntrospectionPaths[] = {"/proc", "/dev/mem"};

constexpr std::string_view kFallbackNames[] = {"contextlib.suppress"};

constexpr std::string_view kSeedNames[] = {
    "torch.manual_seed", "torch.seed", "torch.initial_seed", "torch.get_rng_state",
    "torch.set_rng_state", "torch.random", "torch.default_generator", "torch.cuda.manual_seed",
    "torch.cuda.manual_seed_all", "torch.cuda.seed", "torch.cuda.seed_all",
    "torch.cuda.initial_seed", "torch.cuda.get_rng_state", "torch.cuda.get_rng_state_all",
    "torch.cuda.set_rng_state", "torch.cuda.set_rng_state_all", "torch.cuda.random",
    "torch.cuda.default_generators", "random.seed", "random.getstate", "random.setstate",
    "numpy.random.seed", "numpy.random.get_state", "numpy.random.set_state"};

constexpr std::string_view kPrecisionNames[] = {
    "torch.float16", "torch.half", "torch.bfloat16", "torch.HalfTensor", "torch.BFloat16Tensor",
    "torch.cuda.HalfTensor", "torch.cuda.BFloat16Tensor", "torch.set_float32_matmul_precision",
    "torch.autocast", "torch.amp", "torch.cuda.amp", "torch.cpu.amp",
    "torch.backends.cuda.matmul.allow_tf32", "torch.backends.cudnn.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
    "torch.backends.cuda.matmul.fp32_precision", "torch.backends.cudnn.fp32_precision",
    "torch.backends.fp32_precision", "triton.language.float16", "triton.language.bfloat16",
    "triton.language.float8*", "numpy.float16", "numpy.half"};
constexpr std::string_view kPrecisionMethods[] = {"half", "bfloat16"};
constexpr std::string_view kPrecisionStrings[] = {"__half", "__nv_bfloat16", "precision::tf32"};

constexpr std::string_view kDynamicCodeNames[] = {"exec", "eval", "compile", "__import__", "runpy"};

bool name_in(std::string_view name, Names list) {
  return std::any_of(list.begin(), list.end(), [name](std::string_view entry) {
    if (entry.ends_with('*')) return name.starts_with(entry.substr(0, entry.size() - 1));
    return name == entry || (name.starts_with(entry) && name[entry.size()] == '.');
  });
}

bool is_dunder(std::string_view name) {
  return name.size() > 4 && name.starts_with("__") && name.ends_with("__");
}

// Imports and references of the names in `list`.
void match_names(const Context& c, Names list, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& name : c.imported_names()) {
      std::string_view qualified = name.qualified;
      if (qualified.ends_with(".*")) qualified.remove_suffix(2);
      if (name_in(qualified, list)) out.push_back({name.at, std::string(qualified)});
    }
    return;
  }
  const std::string& reference = c.reference_name();
  if (!reference.empty() && name_in(reference, list)) out.push_back({node, reference});
}

// Attribute accesses `x.<name>` for the names in `list`, whatever x is.
void match_attributes(const Context& c, Names list, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().attribute) return;
  TSNode attribute = field(c.node(), c.grammar().field_attribute);
  if (ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (std::find(list.begin(), list.end(), name) != list.end())
    out.push_back({attribute, std::string(name)});
}

// String literals (e.g. CUDA sources) holding one of the tokens in `list`.
void match_strings(const Context& c, Names list, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().string_content) return;
  std::string_view text = c.text(c.node());
  for (std::string_view token : list)
    if (text.find(token) != std::string_view::npos) out.push_back({c.node(), std::string(token)});
}

// String literals naming one of the paths in `list`: the path followed by
// the end of the string or a character that cannot continue a name ("/proc/",
// "/proc'"; not "loads/processes").
void match_paths(const Context& c, Names list, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().string_content) return;
  std::string_view text = c.text(c.node());
  auto continues_name = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  };
  for (std::string_view path : list) {
    for (size_t at = text.find(path); at != std::string_view::npos; at = text.find(path, at + 1)) {
      size_t end = at + path.size();
      if (end == text.size() || !continues_name(text[end])) {
        out.push_back({c.node(), std::string(path)});
        break;
      }
    }
  }
}

// The n-th positional argument of the current call (0-based), or null.
TSNode positional_argument(const Context& c, uint32_t index) {
  return c.positional_argument(c.node(), index);
}

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

void defines_model(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().class_definition) return;
  TSNode name = field(c.node(), c.grammar().field_name);
  if (!ts_node_is_null(name) && c.text(name) == "Model") out.push_back({name, ""});
}

// Reported at the start of the file (a null node), whatever comes first.
void no_model_new(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() == c.grammar().module && !c.facts().defines_model_new())
    out.push_back({TSNode{}, ""});
}

// getattr with a name that is not a plain, public literal, with unpacked
// arguments (`getattr(torch, *names)`), or passed around uncalled.
void dynamic_getattr(const Context& c, std::vector<Finding>& out) {
  if (uncalled_builtin(c, "getattr")) out.push_back({c.node(), "getattr"});
  if (c.callee_name() != "getattr") return;
  if (TSNode unpacked = c.unpacked_argument(c.node()); !ts_node_is_null(unpacked)) {
    out.push_back({unpacked, written(c.text(unpacked))});
    return;
  }
  TSNode name = positional_argument(c, 1);
  if (ts_node_is_null(name)) return;
  std::string_view literal;
  if (!c.string_literal(name, &literal) || literal.starts_with('_'))
    out.push_back({name, written(c.text(name))});
}

// setattr/delattr with a name that is not a plain literal, with unpacked
// arguments, or passed around uncalled.
void dynamic_setattr(const Context& c, std::vector<Finding>& out) {
  for (std::string_view builtin : {"setattr", "delattr"})
    if (uncalled_builtin(c, builtin)) out.push_back({c.node(), std::string(builtin)});
  if (!is_setattr_call(c)) return;
  if (TSNode unpacked = c.unpacked_argument(c.node()); !ts_node_is_null(unpacked)) {
    out.push_back({unpacked, written(c.text(unpacked))});
    return;
  }
  TSNode name = positional_argument(c, 1);
  std::string_view literal;
  if (!ts_node_is_null(name) && !c.string_literal(name, &literal))
    out.push_back({name, written(c.text(name))});
}

// Names CPython would read differently from the checker: it folds non-ASCII
// identifiers to NFKC (`ｇｃ` is gc), the rules match names as written.
void non_ascii_name(const Context& c, std::vector<Finding>& out) {
  if (c.symbol() != c.grammar().identifier) return;
  std::string_view name = c.text(c.node());
  if (std::any_of(name.begin(), name.end(), [](char ch) { return (ch & 0x80) != 0; }))
    out.push_back({c.node(), "non-ASCII name '" + written(name) + "'"});
}

// Whether writing `<object>.<name>` is allowed: only a direct, non-dunder
// attribute of the method's own `self`.
bool own_attribute(const Context& c, TSNode object, std::string_view name) {
  return ts_node_symbol(object) == c.grammar().identifier && c.text(object) == "self" &&
         !is_dunder(name) && c.self_is_method_receiver();
}

// Every attribute written by a target pattern (through tuples, lists, stars).
void foreign_targets(const Context& c, TSNode target, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  std::vector<TSNode> stack;  // allocates only for groups of targets
  for (TSNode node = target;;) {
    TSSymbol symbol = ts_node_symbol(node);
    if (symbol == g.attribute) {
      TSNode object = field(node, g.field_object);
      TSNode attribute = field(node, g.field_attribute);
      if (!ts_node_is_null(object) && !ts_node_is_null(attribute) &&
          !own_attribute(c, object, c.text(attribute)))
        out.push_back({node, written(c.text(node))});
    } else if (g.is_target_group(symbol)) {
      uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = n; i-- > 0;) stack.push_back(ts_node_named_child(node, i));
    }
    if (stack.empty()) return;
    node = stack.back();
    stack.pop_back();
  }
}

void foreign_attribute_assignment(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  TSSymbol symbol = c.symbol();
  if (symbol == g.assignment || symbol == g.augmented_assignment || symbol == g.for_statement ||
      symbol == g.for_in_clause) {
    TSNode left = field(node, g.field_left);
    if (!ts_node_is_null(left)) foreign_targets(c, left, out);
  } else if (symbol == g.as_pattern && c.parent_symbol() == g.with_item) {
    TSNode alias = field(node, g.field_alias);
    if (!ts_node_is_null(alias)) foreign_targets(c, alias, out);
  } else if (symbol == g.delete_statement) {
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; ++i) foreign_targets(c, ts_node_named_child(node, i), out);
  } else if (is_setattr_call(c)) {
    TSNode object = positional_argument(c, 0);
    TSNode name = positional_argument(c, 1);
    std::string_view literal;
    if (ts_node_is_null(object) || ts_node_is_null(name) || !c.string_literal(name, &literal)) return;
    if (!own_attribute(c, object, literal))
      out.push_back({node, written(c.text(object)) + "." + std::string(literal)});
  }
}

void uses_threads(const Context& c, std::vector<Finding>& out) {
  match_names(c, kThreadNames, out);
  match_strings(c, kThreadStrings, out);
}

void side_stream(const Context& c, std::vector<Finding>& out) {
  match_names(c, kStreamNames, out);
  match_strings(c, kStreamStrings, out);
}

void runtime_patching(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPatchingNames, out);
  match_attributes(c, kPatchingAttributes, out);
}

void introspection(const Context& c, std::vector<Finding>& out) {
  match_names(c, kIntrospectionNames, out);
  match_attributes(c, kIntrospectionAttributes, out);
  match_paths(c, kIntrospectionPaths, out);
}

// A try with an except clause, unless its body only imports (an optional
// dependency guard); contextlib.suppress is the same thing.
void try_fallback(const Context& c, std::vector<Finding>& out) {
  match_names(c, kFallbackNames, out);
  const Grammar& g = c.grammar();
  TSNode node = c.node();
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
                                    symbol == g.import_from_statement);
  }
  if (!only_imports) out.push_back({node, ""});
}

void references_model(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() != g.identifier) return;
  std::string_view name = c.text(node);
  if (name != "Model" && name != "__main__") return;
  if (name == "Model" && c.parent_symbol() == g.class_definition &&
      ts_node_eq(field(c.parent(), g.field_name), node))
    return;  // defines_model
  out.push_back({node, std::string(name)});
}

void seed_manipulation(const Context& c, std::vector<Finding>& out) { match_names(c, kSeedNames, out); }

void precision_downcast(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPrecisionNames, out);
  match_strings(c, kPrecisionStrings, out);
  const Grammar& g = c.grammar();
  TSNode node = c.node();
  if (c.symbol() == g.call) {
    TSNode function = field(node, g.field_function);
    if (!ts_node_is_null(function) && ts_node_symbol(function) == g.attribute) {
      TSNode method = field(function, g.field_attribute);
      std::string_view name = ts_node_is_null(method) ? std::string_view{} : c.text(method);
      if (std::find(std::begin(kPrecisionMethods), std::end(kPrecisionMethods), name) !=
          std::end(kPrecisionMethods))
        out.push_back({method, std::string(".").append(name).append("()")});
    }
  } else if (c.symbol() == g.keyword_argument) {
    TSNode name = field(node, g.field_name);
    TSNode value = field(node, g.field_value);
    if (ts_node_is_null(name) || ts_node_is_null(value)) return;
    std::string_view key = c.text(name);
    std::string_view literal;
    if (key == "allow_tf32" && ts_node_symbol(value) == g.true_)
      out.push_back({node, "allow_tf32=True"});
    else if (key == "input_precision" && !(c.string_literal(value, &literal) && literal == "ieee"))
      out.push_back({node, written(c.text(node))});
  }
}

void dynamic_code(const Context& c, std::vector<Finding>& out) { match_names(c, kDynamicCodeNames, out); }

// The node types the matchers look at.
constexpr std::string_view kModule[] = {"module"};
constexpr std::string_view kClass[] = {"class_definition"};
constexpr std::string_view kCallIdentifier[] = {"call", "identifier"};
constexpr std::string_view kIdentifier[] = {"identifier"};
constexpr std::string_view kTargets[] = {"assignment", "augmented_assignment", "for_statement",
                                         "for_in_clause", "as_pattern", "delete_statement", "call"};
// match_names: imports and name references (literal getattr calls included).
constexpr std::string_view kNames[] = {"import_statement", "import_from_statement", "identifier",
                                       "attribute", "call"};
// match_names and match_strings (match_attributes looks at attributes).
constexpr std::string_view kNamesStrings[] = {"import_statement", "import_from_statement",
                                              "identifier", "attribute", "call", "string_content"};
constexpr std::string_view kNamesTry[] = {"import_statement", "import_from_statement",
                                          "identifier", "attribute", "call", "try_statement"};
constexpr std::string_view kPrecision[] = {"import_statement", "import_from_statement",
                                           "identifier", "attribute", "string_content", "call",
                                           "keyword_argument"};

constexpr Rule kRules[] = {
    {"no_model_new", "the candidate defines no class named ModelNew", no_model_new, kModule},
    {"defines_model", "do not define a class named Model (the reference); define ModelNew only",
     defines_model, kClass},
    {kUnreadableSource.code, kUnreadableSource.message, non_ascii_name, kIdentifier},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr,
     kCallIdentifier},
    {"dynamic_setattr", "setattr and delattr need a literal attribute name (got '{target}')",
     dynamic_setattr, kCallIdentifier},
    {"foreign_attribute_assignment",
     "assignment to attribute '{target}' is not allowed (only self.<x>)",
     foreign_attribute_assignment, kTargets},
    {"uses_threads", "threads, processes and async tasks are not allowed in a candidate ('{target}')",
     uses_threads, kNamesStrings},
    {"side_stream", "launching work on another CUDA stream is not allowed ('{target}')", side_stream,
     kNamesStrings},
    {"runtime_patching",
     "patching the timer, torch, the reference or builtins is not allowed ('{target}')",
     runtime_patching, kNames},
    {"introspection",
     "reading other objects through gc, inspect, ctypes, sys frames or /proc is not allowed "
     "('{target}')",
     introspection, kNamesStrings},
    {"try_fallback",
     "try/except around the custom path (a fallback to torch) is not allowed; only imports may be "
     "guarded",
     try_fallback, kNamesTry},
    {"references_model", "the candidate must not use or wrap the reference Model ('{target}')",
     references_model, kIdentifier},
    {"seed_manipulation",
     "the candidate must not seed or read random number generators' state ('{target}')",
     seed_manipulation, kNames},
    {"precision_downcast", "an fp32 problem must be computed in fp32 (no TF32, fp16 or bf16): '{target}'",
     precision_downcast, kPrecision},
    {"dynamic_code", "exec, eval, compile and __import__ hide code from the checker ('{target}')",
     dynamic_code, kNames},
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

}  // namespace kmem::check_internal
