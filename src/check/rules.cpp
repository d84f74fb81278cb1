// The rule table and its matchers. Name lists hold qualified names (aliases
// are resolved first): an entry matches itself and everything under it
// ("gc" matches "gc.get_objects"); an entry ending in '*' matches any name
// that starts with it ("os.spawn*" matches "os.spawnv").
#include "rules.h"

#include <algorithm>

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
    "vars", "globals"};
constexpr std::string_view kPatchingAttributes[] = {"__dict__", "__setattr__", "__delattr__",
                                                    "__builtins__"};

constexpr std::string_view kIntrospectionNames[] = {
    "gc", "inspect", "ctypes", "_ctypes", "cffi", "traceback", "tracemalloc", "dis", "mmap",
    "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.exc_info",
    "sys.getrefcount"};
constexpr std::string_view kIntrospectionAttributes[] = {
    "f_back", "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "gi_frame", "cr_frame",
    "ag_frame", "__globals__", "__code__", "__closure__", "__subclasses__", "__bases__", "__base__",
    "__mro__", "__self__", "__func__"};
constexpr std::string_view kIntrospectionStrings[] = {"/proc", "/dev/mem"};

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
  TSNode node = c.node();
  std::string_view type = c.type();
  if (type == "import_statement" || type == "import_from_statement") {
    for (const ImportedName& name : c.imported_names(node)) {
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
  if (c.type() != "attribute") return;
  TSNode attribute = field(c.node(), "attribute");
  if (ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (std::find(list.begin(), list.end(), name) != list.end())
    out.push_back({attribute, std::string(name)});
}

// String literals (e.g. CUDA sources) holding one of the tokens in `list`.
void match_strings(const Context& c, Names list, std::vector<Finding>& out) {
  if (c.type() != "string_content") return;
  std::string_view text = c.text(c.node());
  for (std::string_view token : list)
    if (text.find(token) != std::string_view::npos) out.push_back({c.node(), std::string(token)});
}

// The function of a call, resolved, when the current node is a call.
std::string called_name(const Context& c) {
  if (c.type() != "call") return {};
  TSNode function = field(c.node(), "function");
  return ts_node_is_null(function) ? std::string{} : c.qualified_name(function);
}

// The n-th positional argument of the current call (0-based), or null.
TSNode positional_argument(const Context& c, uint32_t index) {
  TSNode arguments = field(c.node(), "arguments");
  if (ts_node_is_null(arguments) || type_of(arguments) != "argument_list") return TSNode{};
  uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    std::string_view type = type_of(a);
    if (ts_node_is_extra(a) || type == "keyword_argument" || type == "list_splat" ||
        type == "dictionary_splat")
      continue;
    if (index-- == 0) return a;
  }
  return TSNode{};
}

bool is_setattr_call(const Context& c) {
  std::string name = called_name(c);
  return name == "setattr" || name == "delattr";
}

void defines_model(const Context& c, std::vector<Finding>& out) {
  if (c.type() != "class_definition") return;
  TSNode name = field(c.node(), "name");
  if (!ts_node_is_null(name) && c.text(name) == "Model") out.push_back({name, ""});
}

void no_model_new(const Context& c, std::vector<Finding>& out) {
  if (c.type() == "module" && !c.facts().defines_model_new()) out.push_back({c.node(), ""});
}

void dynamic_getattr(const Context& c, std::vector<Finding>& out) {
  if (called_name(c) != "getattr") return;
  TSNode name = positional_argument(c, 1);
  if (ts_node_is_null(name)) return;
  std::string_view literal;
  if (!c.string_literal(name, &literal) || literal.starts_with('_'))
    out.push_back({name, written(c.text(name))});
}

void dynamic_setattr(const Context& c, std::vector<Finding>& out) {
  if (!is_setattr_call(c)) return;
  TSNode name = positional_argument(c, 1);
  std::string_view literal;
  if (!ts_node_is_null(name) && !c.string_literal(name, &literal))
    out.push_back({name, written(c.text(name))});
}

// Whether writing `<object>.<name>` is allowed: only a direct, non-dunder
// attribute of the method's own `self`.
bool own_attribute(const Context& c, TSNode object, std::string_view name) {
  return type_of(object) == "identifier" && c.text(object) == "self" && !is_dunder(name) &&
         c.self_is_method_receiver();
}

// Every attribute written by a target pattern (through tuples, lists, stars).
void foreign_targets(const Context& c, TSNode target, std::vector<Finding>& out) {
  std::vector<TSNode> stack{target};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    std::string_view type = type_of(node);
    if (type == "attribute") {
      TSNode object = field(node, "object");
      TSNode attribute = field(node, "attribute");
      if (ts_node_is_null(object) || ts_node_is_null(attribute)) continue;
      if (!own_attribute(c, object, c.text(attribute))) out.push_back({node, written(c.text(node))});
    } else if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" ||
               type == "expression_list" || type == "tuple" || type == "list" ||
               type == "parenthesized_expression" || type == "list_splat_pattern" ||
               type == "list_splat" || type == "as_pattern_target") {
      uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = n; i-- > 0;) stack.push_back(ts_node_named_child(node, i));
    }
  }
}

void foreign_attribute_assignment(const Context& c, std::vector<Finding>& out) {
  TSNode node = c.node();
  std::string_view type = c.type();
  if (type == "assignment" || type == "augmented_assignment" || type == "for_statement" ||
      type == "for_in_clause") {
    TSNode left = field(node, "left");
    if (!ts_node_is_null(left)) foreign_targets(c, left, out);
  } else if (type == "as_pattern" && type_of(c.parent()) == "with_item") {
    TSNode alias = field(node, "alias");
    if (!ts_node_is_null(alias)) foreign_targets(c, alias, out);
  } else if (type == "delete_statement") {
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
  match_strings(c, kIntrospectionStrings, out);
}

// A try with an except clause, unless its body only imports (an optional
// dependency guard); contextlib.suppress is the same thing.
void try_fallback(const Context& c, std::vector<Finding>& out) {
  match_names(c, kFallbackNames, out);
  TSNode node = c.node();
  if (c.type() != "try_statement") return;
  bool handles = false;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view type = type_of(ts_node_named_child(node, i));
    handles = handles || type == "except_clause" || type == "except_group_clause";
  }
  if (!handles) return;
  TSNode body = field(node, "body");
  bool only_imports = !ts_node_is_null(body);
  uint32_t statements = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
  for (uint32_t i = 0; i < statements; ++i) {
    TSNode s = ts_node_named_child(body, i);
    std::string_view type = type_of(s);
    only_imports = only_imports && (ts_node_is_extra(s) || type == "import_statement" ||
                                    type == "import_from_statement");
  }
  if (!only_imports) out.push_back({node, ""});
}

void references_model(const Context& c, std::vector<Finding>& out) {
  TSNode node = c.node();
  if (c.type() != "identifier") return;
  std::string_view name = c.text(node);
  if (name != "Model" && name != "__main__") return;
  TSNode parent = c.parent();
  if (name == "Model" && type_of(parent) == "class_definition" &&
      ts_node_eq(field(parent, "name"), node))
    return;  // defines_model
  out.push_back({node, std::string(name)});
}

void seed_manipulation(const Context& c, std::vector<Finding>& out) { match_names(c, kSeedNames, out); }

void precision_downcast(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPrecisionNames, out);
  match_strings(c, kPrecisionStrings, out);
  TSNode node = c.node();
  std::string_view type = c.type();
  if (type == "call") {
    TSNode function = field(node, "function");
    if (!ts_node_is_null(function) && type_of(function) == "attribute") {
      TSNode method = field(function, "attribute");
      std::string_view name = ts_node_is_null(method) ? std::string_view{} : c.text(method);
      if (std::find(std::begin(kPrecisionMethods), std::end(kPrecisionMethods), name) !=
          std::end(kPrecisionMethods))
        out.push_back({method, std::string(".").append(name).append("()")});
    }
  } else if (type == "keyword_argument") {
    TSNode name = field(node, "name");
    TSNode value = field(node, "value");
    if (ts_node_is_null(name) || ts_node_is_null(value)) return;
    std::string_view key = c.text(name);
    std::string_view literal;
    if (key == "allow_tf32" && type_of(value) == "true")
      out.push_back({node, "allow_tf32=True"});
    else if (key == "input_precision" && !(c.string_literal(value, &literal) && literal == "ieee"))
      out.push_back({node, written(c.text(node))});
  }
}

void dynamic_code(const Context& c, std::vector<Finding>& out) { match_names(c, kDynamicCodeNames, out); }

constexpr Rule kRules[] = {
    {"no_model_new", "the candidate defines no class named ModelNew", no_model_new},
    {"defines_model", "do not define a class named Model (the reference); define ModelNew only",
     defines_model},
    {"dynamic_getattr", "getattr needs a literal, non-private attribute name", dynamic_getattr},
    {"dynamic_setattr", "setattr and delattr need a literal attribute name (got '{target}')",
     dynamic_setattr},
    {"foreign_attribute_assignment",
     "assignment to attribute '{target}' is not allowed (only self.<x>)",
     foreign_attribute_assignment},
    {"uses_threads", "threads, processes and async tasks are not allowed in a candidate ('{target}')",
     uses_threads},
    {"side_stream", "launching work on another CUDA stream is not allowed ('{target}')", side_stream},
    {"runtime_patching",
     "patching the timer, torch, the reference or builtins is not allowed ('{target}')",
     runtime_patching},
    {"introspection",
     "reading other objects through gc, inspect, ctypes, sys frames or /proc is not allowed "
     "('{target}')",
     introspection},
    {"try_fallback",
     "try/except around the custom path (a fallback to torch) is not allowed; only imports may be "
     "guarded",
     try_fallback},
    {"references_model", "the candidate must not use or wrap the reference Model ('{target}')",
     references_model},
    {"seed_manipulation",
     "the candidate must not seed or read random number generators' state ('{target}')",
     seed_manipulation},
    {"precision_downcast", "an fp32 problem must be computed in fp32 (no TF32, fp16 or bf16): '{target}'",
     precision_downcast},
    {"dynamic_code", "exec, eval, compile and __import__ hide code from the checker ('{target}')",
     dynamic_code},
};

}  // namespace

std::span<const Rule> rules() { return kRules; }

std::string fill(std::string_view message, std::string_view name, std::string_view value) {
  std::string placeholder(1, '{');
  placeholder.append(name).push_back('}');
  std::string out(message);
  size_t at = out.find(placeholder);
  if (at != std::string::npos) out.replace(at, placeholder.size(), value);
  return out;
}

}  // namespace kmem::check_internal
