// Name resolution and the `self` rule for the checker's rules. Every walk
// here is a loop (over the flattened tree, an explicit stack or the chain of
// parents), never a recursion, but evaluate's, which follows an
// expression's own nesting and stops 32 levels deep.
#include "context.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "native_source.h"

namespace kmem::check {
namespace {

constexpr std::string_view kBuiltins[] = {"getattr",    "setattr",    "delattr", "exec",         "eval",    "compile",
                                          "__import__", "vars",       "globals", "__builtins__", "locals",  "open",
                                          "type",       "breakpoint", "help",    "__loader__",   "__spec__"};

// Calls whose result is an object of a class the rules know: `type(r)` and
// `r.__class__` of their result read as that class, so that
// `type(torch.cuda.current_stream())()` is `torch.cuda.Stream()`.
constexpr std::pair<std::string_view, std::string_view> kResultClasses[] = {
    {"torch.cuda.current_stream", "torch.cuda.Stream"},   {"torch.cuda.default_stream", "torch.cuda.Stream"},
    {"torch.accelerator.current_stream", "torch.Stream"}, {"torch.cuda.Event", "torch.cuda.Event"},
    {"threading.current_thread", "threading.Thread"},     {"threading.main_thread", "threading.Thread"}};

// Pure text functions that change only the blanks at lines' starts and ends
// of the one string they take (no token of code nor a format field changes):
// Context::evaluate reads them as that string.
constexpr std::string_view kIndentFunctions[] = {"textwrap.dedent", "inspect.cleandoc"};

// Decorators that keep a method a method: what they return binds its first
// parameter to the instance it is called through (a function wrapping it,
// a property, a cache). Any other (`staticmethod` under another name, a
// function of the file's own, `functools.partial`) may make `self` whatever
// the caller passes: FileFacts::self_is_method_receiver.
constexpr std::string_view kBindingDecorators[] = {"property",
                                                   "functools.cached_property",
                                                   "functools.lru_cache",
                                                   "functools.cache",
                                                   "abc.abstractmethod",
                                                   "typing.final",
                                                   "typing.override",
                                                   "typing_extensions.final",
                                                   "typing_extensions.override",
                                                   "contextlib.contextmanager",
                                                   "torch.no_grad",
                                                   "torch.enable_grad",
                                                   "torch.inference_mode",
                                                   "torch.compile",
                                                   "torch.compiler.disable",
                                                   "torch.jit.export",
                                                   "torch.jit.ignore",
                                                   "torch.jit.unused",
                                                   "torch.autograd.function.once_differentiable",
                                                   "torch.amp.custom_fwd",
                                                   "torch.amp.custom_bwd",
                                                   "torch.cuda.amp.custom_fwd",
                                                   "torch.cuda.amp.custom_bwd"};

bool is_builtin(std::string_view name) {
  return std::find(std::begin(kBuiltins), std::end(kBuiltins), name) != std::end(kBuiltins);
}

// Collects the dotted text of a dotted_name node: "torch.cuda".
std::string dotted(const SyntaxTree& tree, TSNode node) {
  const Grammar& g = python_grammar();
  std::string out;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(node, i);
    if (ts_node_symbol(part) != g.identifier) continue;
    if (!out.empty()) out.push_back('.');
    out.append(tree.text(part));
  }
  return out;
}

// The identifiers a target pattern binds, through tuples, lists, stars and
// parentheses (explicit stack: targets may be nested thousands deep).
bool pattern_binds(const SyntaxTree& tree, TSNode pattern, std::string_view name) {
  const Grammar& g = python_grammar();
  std::vector<TSNode> stack;  // allocates only for groups of targets
  for (TSNode node = pattern;;) {
    TSSymbol symbol = ts_node_symbol(node);
    if (symbol == g.identifier) {
      if (tree.text(node) == name) return true;
    } else if (g.is_target_group(symbol)) {
      uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = 0; i < n; ++i) stack.push_back(ts_node_named_child(node, i));
    }
    if (stack.empty()) return false;
    node = stack.back();
    stack.pop_back();
  }
}

// The target a binding construct writes to, if `node` is one.
TSNode binding_target(const Grammar& g, TSNode node, TSSymbol symbol) {
  if (symbol == g.assignment || symbol == g.augmented_assignment || symbol == g.for_statement ||
      symbol == g.for_in_clause)
    return field(node, g.field_left);
  if (symbol == g.named_expression) return field(node, g.field_name);
  if (symbol == g.as_pattern) return field(node, g.field_alias);
  return TSNode{};
}

std::string_view parameter_name(const SyntaxTree& tree, TSNode parameter) {
  const Grammar& g = python_grammar();
  TSSymbol symbol = ts_node_symbol(parameter);
  if (symbol == g.identifier) return tree.text(parameter);
  if (symbol == g.default_parameter || symbol == g.typed_default_parameter) {
    TSNode name = field(parameter, g.field_name);
    return ts_node_is_null(name) ? std::string_view{} : tree.text(name);
  }
  if (symbol == g.typed_parameter && ts_node_named_child_count(parameter) > 0) {
    TSNode first = ts_node_named_child(parameter, 0);
    if (ts_node_symbol(first) == g.identifier) return tree.text(first);
  }
  return {};
}

// The parameter names of a function or lambda, in order.
std::vector<std::string_view> parameter_names(const SyntaxTree& tree, TSNode function) {
  std::vector<std::string_view> names;
  TSNode params = field(function, python_grammar().field_parameters);
  if (ts_node_is_null(params)) return names;
  uint32_t n = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode p = ts_node_named_child(params, i);
    if (ts_node_is_extra(p)) continue;
    names.push_back(parameter_name(tree, p));
  }
  return names;
}

bool decorated_as(const SyntaxTree& tree, TSNode decorated, std::string_view name) {
  uint32_t n = ts_node_named_child_count(decorated);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode d = ts_node_named_child(decorated, i);
    if (ts_node_symbol(d) != python_grammar().decorator) continue;
    std::string_view text = tree.text(d);
    if (text.find(name) != std::string_view::npos) return true;
  }
  return false;
}

// Whether the identifier nodes[i] is used where its value cannot change or
// be kept: assigned to, an operand of `+`, or a cpp_extension flag, source
// or function-list argument (`extra_cflags=FLAGS`, `cpp_sources=SOURCES`). Anything else (`FLAGS.append`, `f(FLAGS)`,
// `x = FLAGS`) lets its value change out of sight.
bool value_use_only(const SyntaxTree& tree, std::span<const FlatNode> nodes, uint32_t i) {
  static constexpr std::string_view kFlagArguments[] = {
      "extra_cflags", "extra_cuda_cflags", "extra_ldflags", "extra_include_paths",
      "cpp_sources",  "cuda_sources",      "functions"};
  const Grammar& g = python_grammar();
  const FlatNode& parent = nodes[nodes[i].parent];
  TSNode node = nodes[i].node;
  if (parent.symbol == g.assignment) return ts_node_eq(field(parent.node, g.field_left), node);
  if (parent.symbol == g.binary_operator) return true;
  if (parent.symbol == g.keyword_argument && ts_node_eq(field(parent.node, g.field_value), node)) {
    std::string_view key = tree.text(field(parent.node, g.field_name));
    return std::find(std::begin(kFlagArguments), std::end(kFlagArguments), key) != std::end(kFlagArguments);
  }
  return false;
}

}  // namespace

bool binds_name(TSNode identifier) {
  static const TSSymbol kBinders[] = {python_symbol("pattern_list"),
                                      python_symbol("tuple_pattern"),
                                      python_symbol("list_pattern"),
                                      python_symbol("list_splat_pattern"),
                                      python_symbol("dictionary_splat_pattern"),
                                      python_symbol("as_pattern_target"),
                                      python_symbol("global_statement"),
                                      python_symbol("nonlocal_statement"),
                                      python_symbol("aliased_import"),
                                      python_symbol("dotted_name"),
                                      python_symbol("case_pattern"),
                                      python_symbol("keyword_pattern"),
                                      python_symbol("splat_pattern"),
                                      python_symbol("delete_statement")};
  const Grammar& g = python_grammar();
  TSNode node = identifier;
  // `(n) = ...`, `a, (n, b) = ...`: a target inside a group of targets.
  while (g.is_target_group(ts_node_symbol(ts_node_parent(node)))) node = ts_node_parent(node);
  TSNode parent = ts_node_parent(node);
  TSSymbol s = ts_node_symbol(parent);
  if (std::find(std::begin(kBinders), std::end(kBinders), s) != std::end(kBinders)) return true;
  // `with x as n`, `case str() as n`: the alias (anything after the first child).
  if (s == g.as_pattern) return !ts_node_eq(ts_node_named_child(parent, 0), node);
  if (s == g.assignment || s == g.augmented_assignment || s == g.for_statement || s == g.for_in_clause)
    return ts_node_eq(field(parent, g.field_left), node);
  if (s == g.named_expression) return ts_node_eq(field(parent, g.field_name), node);
  return false;
}

bool names_parameter(TSNode identifier) {
  static const TSSymbol kParameters[] = {python_symbol("parameters"), python_symbol("lambda_parameters"),
                                         python_symbol("typed_parameter")};
  const Grammar& g = python_grammar();
  TSNode parent = ts_node_parent(identifier);
  TSSymbol s = ts_node_symbol(parent);
  if (std::find(std::begin(kParameters), std::end(kParameters), s) != std::end(kParameters)) return true;
  return (s == g.default_parameter || s == g.typed_default_parameter) &&
         ts_node_eq(field(parent, g.field_name), identifier);
}

TSNode local_scope(const SyntaxTree& tree, TSNode identifier, int* parameter) {
  static const TSSymbol kComprehensions[] = {python_symbol("list_comprehension"), python_symbol("set_comprehension"),
                                             python_symbol("dictionary_comprehension"),
                                             python_symbol("generator_expression")};
  static const TSSymbol kDictionarySplat = python_symbol("dictionary_splat_pattern");
  const Grammar& g = python_grammar();
  std::string_view name = tree.text(identifier);
  *parameter = -1;
  for (TSNode below = identifier, scope = ts_node_parent(identifier); !ts_node_is_null(scope);
       below = scope, scope = ts_node_parent(scope)) {
    TSSymbol s = ts_node_symbol(scope);
    if (s == g.function_definition || s == g.lambda) {
      TSNode params = field(scope, g.field_parameters);
      if (ts_node_is_null(params) || ts_node_eq(params, below)) continue;  // a default is read outside
      for (uint32_t i = 0, n = ts_node_named_child_count(params); i < n; ++i) {
        TSNode p = ts_node_named_child(params, i);
        // `*src`, `**src` (alone or typed: `*src: str`)
        TSNode inner =
            ts_node_symbol(p) == g.typed_parameter && ts_node_named_child_count(p) > 0 ? ts_node_named_child(p, 0) : p;
        TSSymbol is = ts_node_symbol(inner);
        if (is == g.list_splat_pattern || is == kDictionarySplat) {
          if (ts_node_named_child_count(inner) > 0 && tree.text(ts_node_named_child(inner, 0)) == name) return scope;
        } else if (parameter_name(tree, p) == name) {
          *parameter = static_cast<int>(i);
          return scope;
        }
      }
    } else if (std::find(std::begin(kComprehensions), std::end(kComprehensions), s) != std::end(kComprehensions)) {
      for (uint32_t i = 0; i < ts_node_named_child_count(scope); ++i) {
        TSNode clause = ts_node_named_child(scope, i);
        if (ts_node_symbol(clause) == g.for_in_clause && pattern_binds(tree, field(clause, g.field_left), name))
          return scope;
      }
    }
  }
  return TSNode{};
}

bool bound_locally(const SyntaxTree& tree, TSNode identifier) {
  int parameter = -1;
  return !ts_node_is_null(local_scope(tree, identifier, &parameter));
}

FileFacts::FileFacts(const SyntaxTree& tree, std::span<const FlatNode> nodes, NameVerdict passes_alone)
    : tree_(tree), nodes_(nodes), passes_alone_(std::move(passes_alone)) {
  const Grammar& g = python_grammar();
  Context top(tree, *this, nodes, 0);
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    TSNode node = nodes[i].node;
    TSSymbol symbol = nodes[i].named ? nodes[i].symbol : 0;
    if (symbol == g.import_statement || symbol == g.import_from_statement) {
      Context statement(tree, *this, nodes, i);
      for (const ImportedName& name : statement.imported_names()) {
        if (symbol == g.import_statement) {  // `import a.b` names the modules a and a.b
          for (size_t dot = name.qualified.find('.'); dot != std::string::npos; dot = name.qualified.find('.', dot + 1))
            modules_.insert(name.qualified.substr(0, dot));
          modules_.insert(name.qualified);
        }
        if (!ts_node_is_null(name.alias)) {
          bind(std::string(tree.text(name.alias)), name.qualified);
        } else if (symbol == g.import_statement) {
          // `import a.b.c` binds `a` to the module a.
          std::string head = name.qualified.substr(0, name.qualified.find('.'));
          bind(head, head);
        } else if (name.qualified.size() > 2 && !name.qualified.ends_with(".*")) {
          bind(name.qualified.substr(name.qualified.rfind('.') + 1), name.qualified);
        }
      }
    } else if (symbol == g.class_definition) {
      TSNode name = field(node, g.field_name);
      if (!ts_node_is_null(name) && tree.text(name) == "ModelNew") defines_model_new_ = true;
      if (!ts_node_is_null(name)) classes_.insert(std::string(tree.text(name)));
    } else if (symbol == g.assignment) {
      TSNode left = field(node, g.field_left);
      TSNode right = field(node, g.field_right);
      if (!ts_node_is_null(left) && ts_node_symbol(left) == g.identifier) {
        if (tree.text(left) == "ModelNew") defines_model_new_ = true;
        std::string name(tree.text(left));
        if (nodes[nodes[i].parent].parent == 0) {  // module > expression_statement > assignment
          defined_.insert(name);
          if (!ts_node_is_null(right)) top_values_[name] = right;
        }
      }
      if (!ts_node_is_null(left) && !ts_node_is_null(right)) bind_pairs(top, left, right);
    } else if (symbol == g.named_expression) {
      // (c := torch.cuda) binds c as `c = torch.cuda` does.
      TSNode name = field(node, g.field_name);
      TSNode value = field(node, g.field_value);
      if (!ts_node_is_null(name) && !ts_node_is_null(value)) bind_pairs(top, name, value);
    } else if (symbol == g.default_parameter || symbol == g.typed_default_parameter) {
      // def f(s=torch.cuda.Stream) and lambda s=torch.cuda.Stream: bind s.
      TSNode name = field(node, g.field_name);
      TSNode value = field(node, g.field_value);
      if (!ts_node_is_null(name) && !ts_node_is_null(value)) bind_pairs(top, name, value);
    } else if (symbol == g.function_definition || symbol == g.class_definition) {
      // Names the module itself defines (`def compile(...)` at the top
      // level is no longer the builtin there).
      uint32_t up = nodes[i].parent;
      if (up != 0 && nodes[up].symbol == g.decorated_definition) up = nodes[up].parent;
      TSNode name = field(node, g.field_name);
      if (up == 0 && !ts_node_is_null(name)) defined_.insert(std::string(tree.text(name)));
    }
    if (symbol == g.identifier && !value_use_only(tree, nodes, i)) escaped_.insert(tree.text(node));
    // Every binding of a name (`x = ...`, `x += ...`, `a, x = ...`, a loop
    // target, `with ... as x`, `global x`, an import's name), wherever it
    // stands, counts: one more makes its top-level value unknown.
    if (symbol == g.identifier && binds_name(node)) {
      ++assignments_[std::string(tree.text(node))];
      binding_sites_[std::string(tree.text(node))].push_back(node);
    }
    TSNode target = binding_target(g, node, symbol);
    if (!ts_node_is_null(target) && pattern_binds(tree, target, "self"))
      self_rebinds_.push_back(ts_node_start_byte(node));
  }
  // Whether `self` is the receiver is decided once per function binding
  // `self` and inherited by the nodes inside it (a parent comes before its
  // children), so that no rule walks the chain of parents.
  self_receiver_.assign(nodes.size(), false);
  ctx_parameter_.assign(nodes.size(), false);
  for (uint32_t i = 1; i < nodes.size(); ++i) {
    TSSymbol symbol = nodes[i].named ? nodes[i].symbol : 0;
    self_receiver_[i] = self_receiver_[nodes[i].parent];
    ctx_parameter_[i] = ctx_parameter_[nodes[i].parent];
    if (symbol != g.function_definition && symbol != g.lambda) continue;
    std::vector<std::string_view> params = parameter_names(tree, nodes[i].node);
    if (bool is_static = false; symbol == g.function_definition) {
      TSNode owner = enclosing_class(tree, nodes, i, &is_static);
      TSNode name = field(nodes[i].node, g.field_name);
      TSNode owner_name = ts_node_is_null(owner) ? TSNode{} : field(owner, g.field_name);
      if (!ts_node_is_null(name) && !ts_node_is_null(owner_name) && is_static)
        static_methods_.insert(std::string(tree.text(owner_name)) + "." + std::string(tree.text(name)));
      else if (!ts_node_is_null(name) && !ts_node_is_null(owner) && !params.empty() && params.front() == "self")
        instance_methods_.insert(std::string(tree.text(name)));
    }
    // An autograd.Function's forward/backward/setup_context take `ctx` first.
    ctx_parameter_[i] = symbol == g.function_definition && !params.empty() && params.front() == "ctx";
    if (std::find(params.begin(), params.end(), "self") == params.end()) continue;
    self_receiver_[i] = symbol == g.function_definition && params.front() == "self" && is_method(tree, nodes, i);
  }
}

TSNode FileFacts::enclosing_class(const SyntaxTree& tree, std::span<const FlatNode> nodes, uint32_t i,
                                  bool* is_static) {
  const Grammar& g = python_grammar();
  auto parent_of = [nodes](uint32_t n) { return nodes[n].parent; };
  uint32_t up = i;
  *is_static = false;
  if (nodes[parent_of(up)].symbol == g.decorated_definition) {
    TSNode decorated = nodes[parent_of(up)].node;
    *is_static = decorated_as(tree, decorated, "staticmethod") || decorated_as(tree, decorated, "classmethod");
    up = parent_of(up);
  }
  bool in_class = up != 0 && parent_of(up) != 0 && nodes[parent_of(up)].symbol == g.block &&
                  nodes[parent_of(parent_of(up))].symbol == g.class_definition;
  return in_class ? nodes[parent_of(parent_of(up))].node : TSNode{};
}

bool FileFacts::is_method(const SyntaxTree& tree, std::span<const FlatNode> nodes, uint32_t i) const {
  bool is_static = false;
  TSNode node = nodes[i].node;
  TSNode owner = enclosing_class(tree, nodes, i, &is_static);
  TSNode decorated = nodes[nodes[i].parent].node;
  return !ts_node_is_null(owner) && !is_static &&
         (nodes[nodes[i].parent].symbol != python_grammar().decorated_definition ||
          binding_decorators(tree, decorated, owner)) &&
         !rebinds_self_within(ts_node_start_byte(node), ts_node_end_byte(node));
}

bool FileFacts::builtin_unchanged(std::string_view name) const {
  return binding(name).empty() && !defines(name) && bindings_of(name) == 0;
}

bool FileFacts::property_accessor(const SyntaxTree& tree, TSNode expression, TSNode owner) const {
  constexpr std::string_view kAccessors[] = {"setter", "getter", "deleter"};
  const Grammar& g = python_grammar();
  if (ts_node_symbol(expression) != g.attribute || ts_node_symbol(owner) != g.class_definition) return false;
  TSNode object = field(expression, g.field_object);
  std::string_view name = tree.text(object);
  if (ts_node_symbol(object) != g.identifier ||
      std::ranges::find(kAccessors, tree.text(field(expression, g.field_attribute))) == std::end(kAccessors) ||
      bindings_of(name) != 0 || !builtin_unchanged("property"))
    return false;
  TSNode body = field(owner, g.field_body);
  for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); ++i) {
    TSNode member = ts_node_named_child(body, i);
    if (ts_node_symbol(member) != g.decorated_definition) continue;
    TSNode function = ts_node_named_child(member, ts_node_named_child_count(member) - 1);
    if (ts_node_is_null(function) || tree.text(field(function, g.field_name)) != name) continue;
    for (uint32_t d = 0; d < ts_node_named_child_count(member); ++d) {
      TSNode decorator = ts_node_named_child(member, d);
      if (ts_node_symbol(decorator) == g.decorator && ts_node_named_child_count(decorator) == 1 &&
          tree.text(ts_node_named_child(decorator, 0)) == "property")
        return true;
    }
  }
  return false;
}

bool FileFacts::binding_decorators(const SyntaxTree& tree, TSNode decorated, TSNode owner) const {
  const Grammar& g = python_grammar();
  Context top(tree, *this, nodes_, 0);
  for (uint32_t i = 0; i < ts_node_named_child_count(decorated); ++i) {
    TSNode decorator = ts_node_named_child(decorated, i);
    if (ts_node_symbol(decorator) != g.decorator) continue;
    TSNode expression = ts_node_named_child(decorator, 0);
    if (ts_node_symbol(expression) == g.call) expression = field(expression, g.field_function);
    if (ts_node_is_null(expression)) return false;
    if (property_accessor(tree, expression, owner)) continue;  // `@x.setter` of the class's property `x`
    // A builtin (`property`) by its own name, unless the file rebinds it.
    std::string name = top.qualified_name(expression);
    if (name.empty() && ts_node_symbol(expression) == g.identifier) name = tree.text(expression);
    if (std::ranges::find(kBindingDecorators, name) == std::end(kBindingDecorators) ||
        (name.find('.') == std::string::npos && !builtin_unchanged(name)))
      return false;
  }
  return true;
}

bool FileFacts::is_static_method(std::string_view name, std::string_view method) const {
  std::string key(name);
  key.append(".").append(method);
  return static_methods_.contains(key);
}

void FileFacts::bind_pairs(const Context& top, TSNode target, TSNode value) {
  const Grammar& g = python_grammar();
  std::vector<std::pair<TSNode, TSNode>> stack{{target, value}};
  while (!stack.empty()) {
    auto [left, right] = stack.back();
    stack.pop_back();
    if (ts_node_is_null(left) || ts_node_is_null(right)) continue;  // `a = b: int` has no value
    TSSymbol l = ts_node_symbol(left), r = ts_node_symbol(right);
    if (l == g.identifier) {
      std::string bound = top.qualified_name(right);
      std::string name(top.text(left));
      if (ts_node_symbol(right) == g.assignment) {  // a = b = torch.cuda
        stack.push_back({left, field(right, g.field_right)});
        continue;
      }
      if (!bound.empty() && name != bound) bind(name, bound);
      continue;
    }
    // a, b = torch.cuda, 1 (and nested groups of the same shape)
    bool left_group = l == g.pattern_list || l == g.tuple_pattern || l == g.list_pattern || l == g.tuple ||
                      l == g.list || l == g.expression_list;
    bool right_group = r == g.expression_list || r == g.tuple || r == g.list;
    if (l == g.parenthesized_expression && ts_node_named_child_count(left) == 1) {
      stack.push_back({ts_node_named_child(left, 0), right});
      continue;
    }
    if (r == g.parenthesized_expression && ts_node_named_child_count(right) == 1) {
      stack.push_back({left, ts_node_named_child(right, 0)});
      continue;
    }
    if (!left_group || !right_group) continue;
    uint32_t n = ts_node_named_child_count(left);
    if (n != ts_node_named_child_count(right)) continue;
    for (uint32_t i = 0; i < n; ++i) stack.push_back({ts_node_named_child(left, i), ts_node_named_child(right, i)});
  }
}

bool FileFacts::defines(std::string_view name) const { return defined_.find(name) != defined_.end(); }

void FileFacts::bind(std::string name, std::string qualified) {
  auto [it, fresh] = bindings_.try_emplace(std::move(name), qualified);
  if (!fresh && it->second != qualified) ambiguous_.insert(it->first);
  it->second = std::move(qualified);
}

bool FileFacts::bound_ambiguously(std::string_view name) const { return ambiguous_.find(name) != ambiguous_.end(); }

int FileFacts::bindings_of(std::string_view name) const {
  auto count = assignments_.find(name);
  return count == assignments_.end() ? 0 : count->second;
}

std::span<const TSNode> FileFacts::binding_sites(std::string_view name) const {
  auto sites = binding_sites_.find(name);
  return sites == binding_sites_.end() ? std::span<const TSNode>{} : std::span<const TSNode>(sites->second);
}

TSNode FileFacts::constant_value(std::string_view name) const {
  auto value = top_values_.find(name);
  auto count = assignments_.find(name);
  if (value == top_values_.end() || count == assignments_.end() || count->second != 1 ||
      escaped_.find(name) != escaped_.end())
    return TSNode{};
  return value->second;
}

TSNode FileFacts::bound_once(std::string_view name) const {
  auto value = top_values_.find(name);
  auto count = assignments_.find(name);
  if (value == top_values_.end() || count == assignments_.end() || count->second != 1) return TSNode{};
  return value->second;
}

TSNode FileFacts::string_constant(std::string_view name) const {
  const Grammar& g = python_grammar();
  auto value = top_values_.find(name);
  auto count = assignments_.find(name);
  if (value == top_values_.end() || count == assignments_.end() || count->second != 1) return TSNode{};
  TSSymbol s = ts_node_symbol(value->second);
  return s == g.string || s == g.concatenated_string || s == g.binary_operator ? value->second : TSNode{};
}

TSNode FileFacts::constant_attribute(std::string_view name) const {
  if (auto found = constant_attributes_.find(name); found != constant_attributes_.end()) return found->second;
  TSNode value = kept_attribute(name);
  constant_attributes_.emplace(std::string(name), value);
  return value;
}

TSNode FileFacts::kept_attribute(std::string_view name) const {
  const Grammar& g = python_grammar();
  static const TSSymbol kPair = python_symbol("pair");
  TSNode value{};
  int writes = 0;
  for (uint32_t i = 1; i < nodes_.size(); ++i) {
    if (!nodes_[i].named) continue;
    TSNode node = nodes_[i].node;
    TSSymbol symbol = nodes_[i].symbol;
    const FlatNode& parent = nodes_[nodes_[i].parent];
    if (symbol == g.attribute && tree_.text(field(node, g.field_attribute)) == name) {
      if (binds_name(node)) {
        ++writes;
        TSNode object = field(node, g.field_object);
        TSNode right = field(parent.node, g.field_right);
        bool kept = parent.symbol == g.assignment && ts_node_eq(field(parent.node, g.field_left), node) &&
                    !ts_node_is_null(right) && (ts_node_symbol(right) == g.list || ts_node_symbol(right) == g.tuple);
        if (kept && ts_node_symbol(object) == g.identifier && tree_.text(object) == "self" && self_receiver_[i])
          value = right;
      } else if (!((parent.symbol == g.for_statement || parent.symbol == g.for_in_clause) &&
                   ts_node_eq(field(parent.node, g.field_right), node))) {
        return TSNode{};
      }
    } else if (symbol == g.identifier && tree_.text(node) == name) {
      // `names = ...` in a class body, `def names(self)`, `class names`,
      // `f(names=...)`, `{names: ...}` do not leave self.names alone.
      bool defined = (parent.symbol == g.function_definition || parent.symbol == g.class_definition) &&
                     ts_node_eq(field(parent.node, g.field_name), node);
      if (binds_name(node) || defined || parent.symbol == g.keyword_argument || parent.symbol == kPair) return TSNode{};
    } else if (symbol == g.string && tree_.text(node).size() <= 4 * name.size() + 8 &&
               python_string_value(tree_, node) == name) {
      return TSNode{};
    } else if (symbol == g.call) {
      Context call(tree_, *this, nodes_, i);
      std::string_view literal;
      if ((call.callee_name() == "setattr" || call.callee_name() == "delattr") &&
          !call.string_literal(call.positional_argument(node, 1), &literal))
        return TSNode{};
    }
  }
  return writes == 1 ? value : TSNode{};
}

namespace {

// Modules under torch, numpy and Triton, and the stdlib's the rules name: a
// name the file reaches through an imported package (`torch.nn.init`,
// `numpy.linalg`) is a module even where the file imports only the package.
// Kept sorted (std::binary_search).
constexpr std::string_view kKnownModules[] = {"builtins",
                                              "collections",
                                              "collections.abc",
                                              "functools",
                                              "importlib",
                                              "itertools",
                                              "math",
                                              "numpy",
                                              "numpy.char",
                                              "numpy.core",
                                              "numpy.ctypeslib",
                                              "numpy.dtypes",
                                              "numpy.emath",
                                              "numpy.exceptions",
                                              "numpy.f2py",
                                              "numpy.fft",
                                              "numpy.lib",
                                              "numpy.lib.stride_tricks",
                                              "numpy.linalg",
                                              "numpy.ma",
                                              "numpy.matlib",
                                              "numpy.polynomial",
                                              "numpy.random",
                                              "numpy.rec",
                                              "numpy.strings",
                                              "numpy.testing",
                                              "numpy.typing",
                                              "numpy.version",
                                              "operator",
                                              "os",
                                              "os.path",
                                              "sys",
                                              "threading",
                                              "time",
                                              "torch",
                                              "torch.accelerator",
                                              "torch.amp",
                                              "torch.ao",
                                              "torch.autograd",
                                              "torch.autograd.forward_ad",
                                              "torch.autograd.function",
                                              "torch.autograd.functional",
                                              "torch.autograd.grad_mode",
                                              "torch.autograd.graph",
                                              "torch.autograd.profiler",
                                              "torch.backends",
                                              "torch.backends.cpu",
                                              "torch.backends.cuda",
                                              "torch.backends.cuda.matmul",
                                              "torch.backends.cudnn",
                                              "torch.backends.cusparselt",
                                              "torch.backends.mha",
                                              "torch.backends.mkl",
                                              "torch.backends.mkldnn",
                                              "torch.backends.mps",
                                              "torch.backends.nnpack",
                                              "torch.backends.openmp",
                                              "torch.backends.opt_einsum",
                                              "torch.backends.quantized",
                                              "torch.backends.xnnpack",
                                              "torch.compiler",
                                              "torch.cpu",
                                              "torch.cpu.amp",
                                              "torch.cuda",
                                              "torch.cuda.amp",
                                              "torch.cuda.comm",
                                              "torch.cuda.graphs",
                                              "torch.cuda.jiterator",
                                              "torch.cuda.memory",
                                              "torch.cuda.nccl",
                                              "torch.cuda.nvtx",
                                              "torch.cuda.profiler",
                                              "torch.cuda.random",
                                              "torch.cuda.sparse",
                                              "torch.cuda.streams",
                                              "torch.cuda.tunable",
                                              "torch.distributed",
                                              "torch.distributions",
                                              "torch.export",
                                              "torch.fft",
                                              "torch.func",
                                              "torch.functional",
                                              "torch.futures",
                                              "torch.fx",
                                              "torch.hub",
                                              "torch.jit",
                                              "torch.library",
                                              "torch.linalg",
                                              "torch.masked",
                                              "torch.monitor",
                                              "torch.mps",
                                              "torch.mtia",
                                              "torch.multiprocessing",
                                              "torch.nested",
                                              "torch.nn",
                                              "torch.nn.attention",
                                              "torch.nn.common_types",
                                              "torch.nn.functional",
                                              "torch.nn.grad",
                                              "torch.nn.init",
                                              "torch.nn.intrinsic",
                                              "torch.nn.modules",
                                              "torch.nn.parallel",
                                              "torch.nn.parameter",
                                              "torch.nn.qat",
                                              "torch.nn.quantizable",
                                              "torch.nn.quantized",
                                              "torch.nn.utils",
                                              "torch.nn.utils.parametrizations",
                                              "torch.nn.utils.parametrize",
                                              "torch.nn.utils.prune",
                                              "torch.nn.utils.rnn",
                                              "torch.nn.utils.stateless",
                                              "torch.onnx",
                                              "torch.ops",
                                              "torch.optim",
                                              "torch.optim.lr_scheduler",
                                              "torch.overrides",
                                              "torch.package",
                                              "torch.profiler",
                                              "torch.quantization",
                                              "torch.random",
                                              "torch.return_types",
                                              "torch.serialization",
                                              "torch.signal",
                                              "torch.sparse",
                                              "torch.special",
                                              "torch.storage",
                                              "torch.testing",
                                              "torch.types",
                                              "torch.utils",
                                              "torch.utils.benchmark",
                                              "torch.utils.checkpoint",
                                              "torch.utils.cpp_extension",
                                              "torch.utils.data",
                                              "torch.utils.dlpack",
                                              "torch.utils.hooks",
                                              "torch.version",
                                              "torch.xpu",
                                              "triton",
                                              "triton.backends",
                                              "triton.compiler",
                                              "triton.knobs",
                                              "triton.language",
                                              "triton.language.core",
                                              "triton.language.extra",
                                              "triton.language.extra.cuda",
                                              "triton.language.extra.cuda.libdevice",
                                              "triton.language.extra.libdevice",
                                              "triton.language.math",
                                              "triton.language.random",
                                              "triton.language.standard",
                                              "triton.runtime",
                                              "triton.runtime.autotuner",
                                              "triton.runtime.driver",
                                              "triton.runtime.jit",
                                              "triton.testing",
                                              "triton.tools"};
// Modules that packages import and so hold as attributes under their own
// name (`torch.nn.functional.torch`, `numpy.math`, `os.sys`): such a name
// under a module is a module. Not `time`, `random`, `copy`, `signal`,
// `socket`, which name a function or class of their own module too.
constexpr std::string_view kReexportedNames[] = {
    "abc",       "builtins", "collections", "contextlib", "ctypes",  "enum",       "functools", "gc",
    "importlib", "inspect",  "io",          "itertools",  "logging", "math",       "np",        "numpy",
    "operator",  "os",       "pickle",      "re",         "string",  "subprocess", "sys",       "textwrap",
    "threading", "torch",    "traceback",   "triton",     "types",   "typing",     "warnings",  "weakref"};

}  // namespace

bool FileFacts::is_module(std::string_view qualified) const {
  if (std::binary_search(std::begin(kKnownModules), std::end(kKnownModules), qualified)) return true;
  if (modules_.find(qualified) != modules_.end()) return true;
  size_t dot = qualified.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view parent = qualified.substr(0, dot), last = qualified.substr(dot + 1);
  // Under a package's own submodules, known or not (`torch.nn.modules.linear.torch`,
  // `torch.nn.modules.conv.F`, `torch.nn.modules.linear.init`: what they import).
  bool in_package = parent.starts_with("torch.") || parent.starts_with("numpy.") || parent.starts_with("triton.");
  if ((last == "F" || last == "init") && parent.starts_with("torch.nn.")) return true;
  return std::find(std::begin(kReexportedNames), std::end(kReexportedNames), last) != std::end(kReexportedNames) &&
         (in_package || is_module(parent));
}

std::string_view FileFacts::binding(std::string_view local) const {
  auto it = bindings_.find(local);
  return it == bindings_.end() ? std::string_view{} : std::string_view(it->second);
}

bool FileFacts::rebinds_self_within(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(self_rebinds_.begin(), self_rebinds_.end(), begin);
  return it != self_rebinds_.end() && *it < end;
}

bool Context::attribute_read(TSNode node, TSNode* object, std::string_view* name) const {
  const Grammar& g = grammar_;
  TSSymbol symbol = ts_node_symbol(node);
  if (symbol == g.attribute) {
    *object = field(node, g.field_object);
    TSNode attribute = field(node, g.field_attribute);
    if (ts_node_is_null(*object) || ts_node_is_null(attribute)) return false;
    *name = text(attribute);
    return true;
  }
  if (symbol != g.call) return false;
  TSNode function = field(node, g.field_function);
  if (ts_node_is_null(function) || ts_node_symbol(function) != g.identifier) return false;
  std::string_view callee = text(function);
  std::string_view bound = facts_.binding(callee);
  if ((bound.empty() ? callee : bound) != "getattr" || !ts_node_is_null(unpacked_argument(node))) return false;
  *object = positional_argument(node, 0);
  TSNode literal = positional_argument(node, 1);
  return !ts_node_is_null(*object) && !ts_node_is_null(literal) && string_literal(literal, name);
}

std::string Context::qualified_name(TSNode expr) const {
  const Grammar& g = grammar_;
  if (ts_node_is_null(expr)) return {};
  // Walk down the chain to its head, through `(c := torch.cuda)` and
  // parentheses; most chains (`self.conv`, `x.shape`) end at a head bound
  // to nothing, without allocating.
  std::vector<std::string_view> attributes;  // from the last one back
  TSNode node = expr;
  TSNode object;
  std::string_view name;
  for (;;) {
    if (attribute_read(node, &object, &name)) {
      attributes.push_back(name);
      node = object;
    } else if (ts_node_symbol(node) == g.parenthesized_expression && ts_node_named_child_count(node) == 1) {
      node = ts_node_named_child(node, 0);
    } else if (ts_node_symbol(node) == g.named_expression && node.id != expr.id) {
      node = field(node, g.field_value);
      if (ts_node_is_null(node)) return {};
    } else {
      break;
    }
  }
  std::string out;
  if (ts_node_symbol(node) == g.call) {
    out = call_result_name(node, attributes);
    if (out.empty()) return {};
  } else {
    if (ts_node_symbol(node) != g.identifier) return {};
    std::string_view head = text(node);
    std::string_view bound = facts_.binding(head);
    if (bound.empty()) {
      if (!is_builtin(head) || facts_.defines(head)) return {};
      bound = head;
    }
    out = bound;
  }
  for (auto it = attributes.rbegin(); it != attributes.rend(); ++it) out.append(1, '.').append(*it);
  return out;
}

std::string Context::partial_target(TSNode call) const {
  for (uint32_t index = 0; index < 8; ++index) {
    std::string target = qualified_name(positional_argument(call, index));
    if (target != "functools.partial" && target != "functools.partialmethod") return target;
  }
  return {};
}

bool result_known_by_name(std::string_view callee) {
  return callee == "torch.get_device_module" ||
         std::any_of(std::begin(kResultClasses), std::end(kResultClasses),
                     [callee](const auto& known) { return known.first == callee; });
}

std::string Context::call_result_name(TSNode call, std::vector<std::string_view>& attributes) const {
  TSNode function = field(call, grammar_.field_function);
  if (ts_node_is_null(function) || ts_node_symbol(function) == grammar_.call) return {};
  std::string callee = qualified_name(function);
  // functools.partial(f, ...) calls f with the keywords and arguments given
  // (`make = partial(namedtuple, module="torch")`: `make(...)` is namedtuple's
  // call; `partial(partial, f)` is f's too).
  if (callee == "functools.partial" || callee == "functools.partialmethod") {
    if (!attributes.empty()) return {};
    return partial_target(call);
  }
  // torch.get_device_module("cuda") is the module torch.cuda.
  if (callee == "torch.get_device_module") {
    TSNode device = positional_argument(call, 0);
    std::string_view literal = "cuda";
    if (!ts_node_is_null(device) && !string_literal(device, &literal)) return {};
    return "torch." + std::string(literal.substr(0, literal.find(':')));
  }
  // type(r) and r.__class__, r being the result of a call listed in kResultClasses.
  TSNode object = call;
  if (callee == "type" && ts_node_is_null(positional_argument(call, 1))) {
    object = positional_argument(call, 0);
  } else if (!attributes.empty() && attributes.back() == "__class__") {
    attributes.pop_back();
  } else {
    return {};
  }
  if (ts_node_is_null(object) || ts_node_symbol(object) != grammar_.call) return {};
  std::string made = qualified_name(field(object, grammar_.field_function));
  for (const auto& [function_name, class_name] : kResultClasses)
    if (made == function_name) return std::string(class_name);
  return {};
}

const std::string& Context::reference_name() const {
  if (reference_done_) return reference_;
  reference_done_ = true;
  const Grammar& g = grammar_;
  TSNode object;
  std::string_view name;
  // A call is a name when it is a literal getattr or its result is known
  // by name (call_result_name: `type(torch.cuda.current_stream())`).
  if (symbol() != g.identifier && symbol() != g.attribute && symbol() != g.call) return reference_;
  if (symbol() == g.call && !attribute_read(node(), &object, &name) && callee_name() != "type" &&
      callee_name() != "torch.get_device_module")
    return reference_;
  TSSymbol parent = parent_symbol();
  if (parent == g.attribute || parent == g.dotted_name || parent == g.aliased_import) return reference_;
  if (parent == g.keyword_argument && ts_node_eq(field(this->parent(), g.field_name), node())) return reference_;
  // The object of a literal getattr is part of that longer name.
  if (parent == g.argument_list && attribute_read(nodes_[nodes_[nodes_[index_].parent].parent].node, &object, &name) &&
      ts_node_eq(object, node()))
    return reference_;
  reference_ = qualified_name(node());
  return reference_;
}

namespace {

// Whether `node` is `a + b`.
bool is_plus(const SyntaxTree& tree, TSNode node) {
  if (ts_node_symbol(node) != python_grammar().binary_operator) return false;
  TSNode op = ts_node_child_by_field_name(node, "operator", 8);
  return !ts_node_is_null(op) && tree.text(op) == "+";
}

}  // namespace

const std::string& Context::native_text() const {
  if (native_done_) return native_;
  native_done_ = true;
  const Grammar& g = grammar_;
  // A `+` chain of strings is read whole, as the compiler will get it
  // (`"__ha" + "lf h;"` is `__half h;`), at its top; its parts are not read
  // alone.
  auto top_of_chain = [&](TSNode node) {
    for (TSNode up = ts_node_parent(node); is_plus(tree_, up) || ts_node_symbol(up) == g.parenthesized_expression;
         up = ts_node_parent(up))
      if (is_plus(tree_, up)) node = up;
    return node;
  };
  // load_inline's sources that are built (f-strings, `.format`, `%`,
  // `.join`, `.replace`, names): read whole, as the compiler gets them, at the
  // call; a plain literal is read where it stands.
  if (symbol() == g.call && callee_name() == "torch.utils.cpp_extension.load_inline") {
    TSNode arguments = argument_list(node());
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
      TSNode a = ts_node_named_child(arguments, i);
      bool keyword = ts_node_symbol(a) == g.keyword_argument;
      if (keyword) {
        std::string_view key = text(field(a, g.field_name));
        if (key != "cpp_sources" && key != "cuda_sources" && key != "sycl_sources") continue;
        a = field(a, g.field_value);
      } else if (i < 1 || i > 3) {  // name, cpp_sources, cuda_sources, sycl_sources (torch 2.11)
        continue;
      }
      if (ts_node_is_null(a) || ts_node_symbol(a) == g.concatenated_string) continue;
      if (ts_node_symbol(a) == g.string && python_string_value(tree_, a) == source_value(a).value_or("")) continue;
      if (auto value = source_value(a)) native_ += native_tokens(*value) + "\n";
    }
    return native_;
  }
  if (is_plus(tree_, node())) {
    if (!ts_node_eq(top_of_chain(node()), node())) return native_;
    if (auto joined = source_value(node())) native_ = native_tokens(*joined);
    return native_;
  }
  if (symbol() != g.string && symbol() != g.concatenated_string) return native_;
  if (symbol() == g.string && parent_symbol() == g.concatenated_string) return native_;
  if (TSNode top = top_of_chain(node()); !ts_node_eq(top, node()) && source_value(top)) return native_;
  native_ = native_tokens(python_string_value(tree_, node()));
  return native_;
}

namespace {

// Python's `str.format` for fields `{}`, `{N}` and `{name}` (no conversion or
// specification) and `{{`/`}}`; nullopt for anything else.
std::optional<std::string> python_format(std::string_view format, const std::vector<std::string>& positional,
                                         const std::vector<std::pair<std::string, std::string>>& named) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char ch = format[i];
    if ((ch == '{' || ch == '}') && i + 1 < format.size() && format[i + 1] == ch) {
      out.push_back(ch);
      ++i;
      continue;
    }
    if (ch == '}') return std::nullopt;
    if (ch != '{') {
      out.push_back(ch);
      continue;
    }
    size_t end = format.find('}', i);
    if (end == std::string_view::npos) return std::nullopt;
    std::string_view field = format.substr(i + 1, end - i - 1);
    if (field.find_first_of("!:[.{") != std::string_view::npos) return std::nullopt;
    if (field.empty()) {
      if (next >= positional.size()) return std::nullopt;
      out += positional[next++];
    } else if (std::all_of(field.begin(), field.end(),
                           [](char d) { return std::isdigit(static_cast<unsigned char>(d)); })) {
      size_t index = std::stoul(std::string(field));
      if (index >= positional.size()) return std::nullopt;
      out += positional[index];
    } else {
      auto found = std::find_if(named.begin(), named.end(), [&](const auto& pair) { return pair.first == field; });
      if (found == named.end()) return std::nullopt;
      out += found->second;
    }
    i = end;
  }
  return out;
}

// Python's `%` for `%s`, `%d`, `%i` and `%%`; nullopt for anything else.
std::optional<std::string> python_percent(std::string_view format, const std::vector<std::string>& values) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    if (i + 1 >= format.size()) return std::nullopt;
    char kind = format[++i];
    if (kind == '%') {
      out.push_back('%');
    } else if ((kind == 's' || kind == 'd' || kind == 'i') && next < values.size()) {
      out += values[next++];
    } else {
      return std::nullopt;
    }
  }
  return next == values.size() ? std::optional<std::string>(out) : std::nullopt;
}

std::string stripped(std::string_view text, bool left, bool right) {
  size_t begin = left ? text.find_first_not_of(" \t\r\n\f\v") : 0;
  if (begin == std::string_view::npos) return {};
  size_t end = right ? text.find_last_not_of(" \t\r\n\f\v") + 1 : text.size();
  return std::string(text.substr(begin, end - begin));
}

}  // namespace

std::optional<std::string> Context::source_value(TSNode node) const {
  std::optional<Value> value = evaluate(node);
  if (!value || value->kind == Value::kNumber) return std::nullopt;
  if (value->kind == Value::kText) return value->text;
  std::string out;
  for (size_t i = 0; i < value->items.size(); ++i) {
    if (value->items[i].kind != Value::kText) return std::nullopt;
    out += (i ? "\n" : "") + value->items[i].text;
  }
  return out;
}

std::optional<std::string> Context::text_value(TSNode node) const {
  std::optional<Value> value = evaluate(node);
  if (!value || value->kind != Value::kText) return std::nullopt;
  return value->text;
}

std::optional<Context::Value> Context::evaluate(TSNode node, int depth) const {
  static const TSSymbol kInteger = python_symbol("integer");
  const Grammar& g = grammar_;
  if (ts_node_is_null(node) || depth > 32) return std::nullopt;
  TSSymbol s = ts_node_symbol(node);
  auto text_of = [](std::string text) { return Value{Value::kText, std::move(text), {}}; };
  // The values of a list's, tuple's or argument list's children.
  auto values_of = [&](TSNode list, std::vector<Value>& out) {
    for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
      auto value = evaluate(ts_node_named_child(list, i), depth + 1);
      if (!value) return false;
      out.push_back(std::move(*value));
    }
    return true;
  };
  // A value Python writes into a string as the checker does: a string's or
  // a number's text (a list's repr is no text the checker writes).
  auto scalar = [&](TSNode expression) -> std::optional<std::string> {
    auto value = evaluate(expression, depth + 1);
    if (!value || !value->scalar()) return std::nullopt;
    return value->text;
  };
  if (s == kInteger) {  // decimal only: `0x10` and `1_000` are written otherwise by str()
    std::string_view digits = text(node);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos ||
        (digits.size() > 1 && digits.front() == '0'))
      return std::nullopt;
    return Value{Value::kNumber, std::string(digits), {}};
  }
  if (s == g.identifier) {
    int parameter = -1;
    if (TSNode scope = local_scope(tree_, node, &parameter); !ts_node_is_null(scope))
      return parameter < 0 ? std::nullopt : argument_value(scope, parameter, text(node), depth + 1);
    TSNode bound = facts_.bound_once(text(node));
    // A list may change after its binding (`SRC.append(...)`, `SRC[0] = ...`):
    // only one nothing can change is read.
    if (!ts_node_is_null(bound) && ts_node_symbol(bound) == g.list &&
        !ts_node_eq(facts_.constant_value(text(node)), bound))
      return std::nullopt;
    return evaluate(bound, depth + 1);
  }
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return evaluate(ts_node_named_child(node, 0), depth + 1);
  if (s == g.concatenated_string) {
    std::vector<Value> parts;
    if (!values_of(node, parts)) return std::nullopt;
    std::string out;
    for (const Value& part : parts) {
      if (part.kind != Value::kText) return std::nullopt;
      out += part.text;
    }
    return text_of(std::move(out));
  }
  if (s == g.list || s == g.tuple) {
    Value out{s == g.list ? Value::kList : Value::kTuple, {}, {}};
    if (!values_of(node, out.items)) return std::nullopt;
    return out;
  }
  if (s == g.string) {  // a literal; an f-string's fields (no conversion or specification) evaluated in place
    std::string_view prefix = text(node).substr(0, text(node).find_first_of("\"'"));
    if (prefix.find_first_of("bB") != std::string_view::npos) return std::nullopt;  // bytes are no str
    auto value = python_string_value(tree_, node, [&](TSNode field) -> std::optional<std::string> {
      if (ts_node_named_child_count(field) != 1) return std::nullopt;
      return scalar(ts_node_named_child(field, 0));
    });
    if (!value) return std::nullopt;
    return text_of(std::move(*value));
  }
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_name(node, "operator", 8);
    std::string_view sign = ts_node_is_null(op) ? std::string_view() : text(op);
    auto left = evaluate(field(node, g.field_left), depth + 1);
    if (!left) return std::nullopt;
    TSNode right_node = field(node, g.field_right);
    if (sign == "+") {
      auto right = evaluate(right_node, depth + 1);
      if (!right || right->kind != left->kind || left->kind == Value::kNumber) return std::nullopt;
      left->text += right->text;
      for (Value& item : right->items) left->items.push_back(std::move(item));
      return left;
    }
    if (sign != "%" || left->kind != Value::kText) return std::nullopt;
    auto right = evaluate(right_node, depth + 1);
    if (!right || right->kind == Value::kList) return std::nullopt;  // a list is substituted as its repr
    std::vector<std::string> values;
    if (right->kind == Value::kTuple) {
      for (const Value& item : right->items) {
        if (!item.scalar()) return std::nullopt;
        values.push_back(item.text);
      }
    } else {
      values.push_back(right->text);
    }
    auto formatted = python_percent(left->text, values);
    if (!formatted) return std::nullopt;
    return text_of(std::move(*formatted));
  }
  if (s != g.call) return std::nullopt;
  TSNode function = field(node, g.field_function);
  TSNode arguments = argument_list(node);
  if (ts_node_is_null(function) || ts_node_is_null(arguments)) return std::nullopt;
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> named;
  uint32_t count = ts_node_named_child_count(arguments);
  TSNode object;
  std::string_view method;
  bool is_join = attribute_read(function, &object, &method) && method == "join" && count == 1;
  for (uint32_t i = 0; i < count && !is_join; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) == g.keyword_argument) {
      auto value = scalar(field(a, g.field_value));
      if (!value) return std::nullopt;
      named.emplace_back(std::string(text(field(a, g.field_name))), *value);
    } else {
      auto value = scalar(a);  // a list or tuple is substituted as its repr
      if (!value) return std::nullopt;
      positional.push_back(*value);
    }
  }
  if (std::ranges::find(kIndentFunctions, qualified_name(function)) != std::end(kIndentFunctions) &&
      positional.size() == 1 && named.empty()) {
    auto value = evaluate(ts_node_named_child(arguments, 0), depth + 1);
    if (!value || value->kind != Value::kText) return std::nullopt;
    return value;
  }
  if (!attribute_read(function, &object, &method)) return std::nullopt;
  auto self = evaluate(object, depth + 1);
  if (!self || self->kind != Value::kText) return std::nullopt;
  auto result = [&](std::optional<std::string> value) -> std::optional<Value> {
    if (!value) return std::nullopt;
    return text_of(std::move(*value));
  };
  if (method == "format") return result(python_format(self->text, positional, named));
  if (!named.empty()) return std::nullopt;
  if (method == "strip" && positional.empty()) return text_of(stripped(self->text, true, true));
  if (method == "lstrip" && positional.empty()) return text_of(stripped(self->text, true, false));
  if (method == "rstrip" && positional.empty()) return text_of(stripped(self->text, false, true));
  if (method == "replace" && positional.size() == 2 && !positional[0].empty()) {
    // Only strings: `"a".replace("1", 2)` is a TypeError, no text.
    for (uint32_t i = 0; i < 2; ++i)
      if (auto part = evaluate(ts_node_named_child(arguments, i), depth + 1); !part || part->kind != Value::kText)
        return std::nullopt;
    std::string out = self->text;
    for (size_t at = out.find(positional[0]); at != std::string::npos;
         at = out.find(positional[0], at + positional[1].size()))
      out.replace(at, positional[0].size(), positional[1]);
    return text_of(std::move(out));
  }
  if (is_join) {
    auto list = evaluate(ts_node_named_child(arguments, 0), depth + 1);
    if (!list || (list->kind != Value::kList && list->kind != Value::kTuple)) return std::nullopt;
    std::string out;
    for (size_t i = 0; i < list->items.size(); ++i) {
      if (list->items[i].kind != Value::kText) return std::nullopt;
      out += (i ? self->text : "") + list->items[i].text;
    }
    return text_of(std::move(out));
  }
  return std::nullopt;
}

std::optional<std::vector<TSNode>> Context::argument_nodes(TSNode function, int parameter,
                                                           std::string_view name) const {
  static const TSSymbol kKeywordSeparator = python_symbol("keyword_separator"),
                        kDictionarySplat = python_symbol("dictionary_splat_pattern");
  const Grammar& g = grammar_;
  TSNode function_name = field(function, g.field_name);
  if (ts_node_symbol(function) != g.function_definition || ts_node_is_null(function_name)) return std::nullopt;
  // Defined at the top level, decorated at most by caches that pass the
  // arguments on as given (`@functools.lru_cache(maxsize=None)`).
  if (TSNode up = ts_node_parent(function); ts_node_symbol(up) == g.decorated_definition) {
    for (uint32_t i = 0; i < ts_node_named_child_count(up); ++i) {
      TSNode decorator = ts_node_named_child(up, i);
      if (ts_node_symbol(decorator) != g.decorator) continue;
      TSNode expression = ts_node_named_child(decorator, 0);
      if (ts_node_symbol(expression) == g.call) expression = field(expression, g.field_function);
      std::string name = qualified_name(expression);
      if (name != "functools.lru_cache" && name != "functools.cache") return std::nullopt;
    }
    if (ts_node_symbol(ts_node_parent(up)) != g.module) return std::nullopt;
  } else if (ts_node_symbol(up) != g.module) {
    return std::nullopt;
  }
  std::string_view called = text(function_name);
  // Where the parameter may be given by position (none after `*` or `*args`).
  TSNode params = field(function, g.field_parameters);
  static const TSSymbol kPositionalSeparator = python_symbol("positional_separator");
  bool by_position = true;
  uint32_t position = 0;  // among the parameters given by position
  for (int i = 0; i < parameter; ++i) {
    TSNode p = ts_node_named_child(params, static_cast<uint32_t>(i));
    TSNode inner =
        ts_node_symbol(p) == g.typed_parameter && ts_node_named_child_count(p) > 0 ? ts_node_named_child(p, 0) : p;
    TSSymbol s = ts_node_symbol(inner);
    if (s == kKeywordSeparator || s == g.list_splat_pattern || s == kDictionarySplat) by_position = false;
    if (!ts_node_is_extra(p) && s != kPositionalSeparator) ++position;
  }
  TSNode parameter_node = ts_node_named_child(params, static_cast<uint32_t>(parameter));
  TSSymbol parameter_symbol = ts_node_symbol(parameter_node);
  TSNode fallback = parameter_symbol == g.default_parameter || parameter_symbol == g.typed_default_parameter
                        ? field(parameter_node, g.field_value)
                        : TSNode{};
  std::uint32_t function_start = ts_node_start_byte(function), function_end = ts_node_end_byte(function);
  std::vector<TSNode> given_values;
  for (uint32_t i = 1; i < nodes_.size(); ++i) {
    if (!nodes_[i].named) continue;
    TSNode node = nodes_[i].node;
    TSSymbol symbol = nodes_[i].symbol;
    const FlatNode& parent = nodes_[nodes_[i].parent];
    uint32_t start = ts_node_start_byte(node);
    bool inside = start >= function_start && start < function_end;
    // The parameter rebound in the function (`src = ...`, `nonlocal src` in a nested one).
    if (inside && symbol == g.identifier && text(node) == name && binds_name(node)) return std::nullopt;
    if ((symbol == g.function_definition || symbol == g.class_definition) && !ts_node_eq(node, function) &&
        text(field(node, g.field_name)) == called)
      return std::nullopt;
    if (symbol != g.identifier || text(node) != called || ts_node_eq(node, function_name)) continue;
    // `x.called` and `f(called=...)` name no variable.
    if ((parent.symbol == g.attribute && ts_node_eq(field(parent.node, g.field_attribute), node)) ||
        (parent.symbol == g.keyword_argument && ts_node_eq(field(parent.node, g.field_name), node)))
      continue;
    if (parent.symbol != g.call || !ts_node_eq(field(parent.node, g.field_function), node)) return std::nullopt;
    TSNode call = parent.node;
    if (!ts_node_is_null(unpacked_argument(call))) return std::nullopt;
    TSNode given = fallback;
    TSNode arguments = argument_list(call);
    for (uint32_t a = 0; !ts_node_is_null(arguments) && a < ts_node_named_child_count(arguments); ++a) {
      TSNode argument = ts_node_named_child(arguments, a);
      if (ts_node_symbol(argument) == g.keyword_argument && text(field(argument, g.field_name)) == name)
        given = field(argument, g.field_value);
    }
    if (by_position)
      if (TSNode positional = positional_argument(call, position); !ts_node_is_null(positional)) given = positional;
    if (!ts_node_is_null(given)) given_values.push_back(given);  // a call without it raises
  }
  return given_values;
}

std::optional<Context::Value> Context::argument_value(TSNode function, int parameter, std::string_view name,
                                                      int depth) const {
  auto given = argument_nodes(function, parameter, name);
  if (!given || given->empty()) return std::nullopt;
  auto same = [](const Value& a, const Value& b, auto& self) -> bool {
    if (a.kind != b.kind || a.text != b.text || a.items.size() != b.items.size()) return false;
    for (size_t i = 0; i < a.items.size(); ++i)
      if (!self(a.items[i], b.items[i], self)) return false;
    return true;
  };
  std::optional<Value> found;
  for (TSNode node : *given) {
    auto value = evaluate(node, depth + 1);
    if (!value || (found && !same(*found, *value, same))) return std::nullopt;
    found = std::move(value);
  }
  return found;
}

const std::string& Context::callee_name() const {
  if (callee_done_) return callee_;
  callee_done_ = true;
  if (symbol() != grammar_.call) return callee_;
  TSNode function = field(node(), grammar_.field_function);
  if (!ts_node_is_null(function)) callee_ = qualified_name(function);
  return callee_;
}

const std::vector<ImportedName>& Context::imported_names() const {
  if (imports_done_) return imports_;
  imports_done_ = true;
  const Grammar& g = grammar_;
  if (symbol() != g.import_statement && symbol() != g.import_from_statement) return imports_;
  TSNode statement = node();
  std::vector<ImportedName>& names = imports_;
  std::string module;
  TSNode module_node = field(statement, g.field_module_name);
  if (symbol() == g.import_from_statement) {
    if (ts_node_is_null(module_node)) return names;
    module = ts_node_symbol(module_node) == g.dotted_name ? dotted(tree_, module_node) : std::string(text(module_node));
  }
  uint32_t n = ts_node_named_child_count(statement);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_named_child(statement, i);
    if (ts_node_eq(child, module_node)) continue;
    TSSymbol symbol = ts_node_symbol(child);
    TSNode name = child;
    TSNode alias{};
    if (symbol == g.aliased_import) {
      name = field(child, g.field_name);
      alias = field(child, g.field_alias);
    }
    if (symbol == g.wildcard_import) {
      names.push_back({child, {}, module + ".*"});
      continue;
    }
    if (ts_node_is_null(name) || ts_node_symbol(name) != g.dotted_name) continue;
    std::string qualified = dotted(tree_, name);
    if (!module.empty()) qualified = module + "." + qualified;
    names.push_back({name, alias, qualified});
  }
  return names;
}

bool Context::string_literal(TSNode node, std::string_view* content) const {
  const Grammar& g = grammar_;
  if (ts_node_symbol(node) != g.string) return false;
  std::string_view result;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(node, i);
    TSSymbol symbol = ts_node_symbol(part);
    if (symbol == g.interpolation) return false;
    if (symbol == g.string_content) {
      // An escape (`"\x5f_class__"`) makes the value differ from the text.
      if (!result.empty() || ts_node_named_child_count(part) > 0) return false;
      result = text(part);
    }
  }
  *content = result;
  return true;
}

TSNode Context::argument_list(TSNode call) const {
  TSNode arguments = field(call, grammar_.field_arguments);
  if (ts_node_is_null(arguments) || ts_node_symbol(arguments) != grammar_.argument_list) return TSNode{};
  return arguments;
}

namespace {

// The first named child of `arguments` (an argument list, or a null node)
// that `pick(child, its symbol)` takes; a null node when none does.
template <typename Pick>
TSNode first_argument(TSNode arguments, Pick pick) {
  if (ts_node_is_null(arguments)) return TSNode{};
  uint32_t n = ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (pick(a, ts_node_symbol(a))) return a;
  }
  return TSNode{};
}

}  // namespace

TSNode Context::positional_argument(TSNode call, uint32_t index) const {
  const Grammar& g = grammar_;
  return first_argument(argument_list(call), [&](TSNode a, TSSymbol symbol) {
    if (ts_node_is_extra(a) || symbol == g.keyword_argument || symbol == g.list_splat || symbol == g.dictionary_splat)
      return false;
    return index-- == 0;
  });
}

TSNode Context::unpacked_argument(TSNode call) const {
  const Grammar& g = grammar_;
  return first_argument(argument_list(call), [&](TSNode, TSSymbol symbol) {
    return symbol == g.list_splat || symbol == g.dictionary_splat;
  });
}

std::string written(std::string_view text) {
  constexpr size_t kMax = 120;
  std::string out;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') continue;
    if (out.size() > kMax) break;
    out.push_back(c);
  }
  if (out.size() > kMax) out = std::string(utf8_prefix(out, kMax)) + "...";
  return out;
}

std::string_view utf8_prefix(std::string_view text, size_t max) {
  if (text.size() <= max) return text;
  // Back off over continuation bytes (10xxxxxx) to the start of a character.
  while (max > 0 && (static_cast<unsigned char>(text[max]) & 0xC0) == 0x80) --max;
  return text.substr(0, max);
}

}  // namespace kmem::check
