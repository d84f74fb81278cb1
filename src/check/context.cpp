// Name resolution and the `self` rule for the checker's rules. Every walk
// here is a loop (over the flattened tree, an explicit stack or the chain of
// parents), never a recursion.
#include "context.h"

#include <algorithm>
#include <cctype>

namespace kmem::check_internal {
namespace {

constexpr std::string_view kBuiltins[] = {"getattr", "setattr", "delattr", "exec",    "eval",
                                          "compile", "__import__", "vars", "globals", "__builtins__"};

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

}  // namespace

FileFacts::FileFacts(const SyntaxTree& tree, std::span<const FlatNode> nodes) {
  const Grammar& g = python_grammar();
  Context top(tree, *this, nodes, 0);
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    TSNode node = nodes[i].node;
    TSSymbol symbol = nodes[i].named ? nodes[i].symbol : 0;
    if (symbol == g.import_statement || symbol == g.import_from_statement) {
      Context statement(tree, *this, nodes, i);
      for (const ImportedName& name : statement.imported_names()) {
        if (!ts_node_is_null(name.alias)) {
          bindings_[std::string(tree.text(name.alias))] = name.qualified;
        } else if (symbol == g.import_statement) {
          // `import a.b.c` binds `a` to the module a.
          std::string head = name.qualified.substr(0, name.qualified.find('.'));
          bindings_[head] = head;
        } else if (name.qualified.size() > 2 && !name.qualified.ends_with(".*")) {
          bindings_[name.qualified.substr(name.qualified.rfind('.') + 1)] = name.qualified;
        }
      }
    } else if (symbol == g.class_definition) {
      TSNode name = field(node, g.field_name);
      if (!ts_node_is_null(name) && tree.text(name) == "ModelNew") defines_model_new_ = true;
    } else if (symbol == g.assignment) {
      TSNode left = field(node, g.field_left);
      TSNode right = field(node, g.field_right);
      if (!ts_node_is_null(left) && ts_node_symbol(left) == g.identifier) {
        if (tree.text(left) == "ModelNew") defines_model_new_ = true;
        if (!ts_node_is_null(right)) {
          std::string target = top.qualified_name(right);
          if (!target.empty() && tree.text(left) != target)
            bindings_[std::string(tree.text(left))] = target;
        }
      }
    }
    TSNode target = binding_target(g, node, symbol);
    if (!ts_node_is_null(target) && pattern_binds(tree, target, "self"))
      self_rebinds_.push_back(ts_node_start_byte(node));
  }
}

std::string_view FileFacts::binding(std::string_view local) const {
  auto it = bindings_.find(local);
  return it == bindings_.end() ? std::string_view{} : std::string_view(it->second);
}

bool FileFacts::rebinds_self_within(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(self_rebinds_.begin(), self_rebinds_.end(), begin);
  return it != self_rebinds_.end() && *it < end;
}

std::string Context::qualified_name(TSNode expr) const {
  const Grammar& g = grammar_;
  // The head identifier first: most chains (`self.conv`, `x.shape`) are not
  // bound to anything and end there, without allocating.
  TSNode node = expr;
  while (ts_node_symbol(node) == g.attribute) {
    node = field(node, g.field_object);
    if (ts_node_is_null(node)) return {};
  }
  if (ts_node_symbol(node) != g.identifier) return {};
  std::string_view head = text(node);
  std::string_view bound = facts_.binding(head);
  if (bound.empty()) {
    if (!is_builtin(head)) return {};
    bound = head;
  }
  std::vector<std::string_view> attributes;  // from the last one back
  size_t size = bound.size();
  for (node = expr; ts_node_symbol(node) == g.attribute; node = field(node, g.field_object)) {
    TSNode attribute = field(node, g.field_attribute);
    if (ts_node_is_null(attribute)) return {};
    attributes.push_back(text(attribute));
    size += 1 + attributes.back().size();
  }
  std::string out;
  out.reserve(size);
  out.append(bound);
  for (auto it = attributes.rbegin(); it != attributes.rend(); ++it) out.append(1, '.').append(*it);
  return out;
}

const std::string& Context::reference_name() const {
  if (reference_done_) return reference_;
  reference_done_ = true;
  const Grammar& g = grammar_;
  if (symbol() != g.identifier && symbol() != g.attribute) return reference_;
  TSSymbol parent = parent_symbol();
  if (parent == g.attribute || parent == g.dotted_name || parent == g.aliased_import)
    return reference_;
  if (parent == g.keyword_argument && ts_node_eq(field(this->parent(), g.field_name), node()))
    return reference_;
  reference_ = qualified_name(node());
  return reference_;
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
    module = ts_node_symbol(module_node) == g.dotted_name ? dotted(tree_, module_node)
                                                          : std::string(text(module_node));
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
      if (!result.empty()) return false;
      result = text(part);
    }
  }
  *content = result;
  return true;
}

bool Context::self_is_method_receiver() const {
  const Grammar& g = grammar_;
  auto parent_of = [this](uint32_t i) { return nodes_[i].parent; };
  for (uint32_t i = index_;; i = parent_of(i)) {
    TSSymbol symbol = nodes_[i].symbol;
    if (symbol == g.function_definition || symbol == g.lambda) {
      TSNode node = nodes_[i].node;
      std::vector<std::string_view> params = parameter_names(tree_, node);
      if (std::find(params.begin(), params.end(), "self") != params.end()) {
        if (symbol == g.lambda || params.front() != "self") return false;
        uint32_t up = i;
        bool is_static = false;
        if (up != 0 && nodes_[parent_of(up)].symbol == g.decorated_definition) {
          TSNode decorated = nodes_[parent_of(up)].node;
          is_static = decorated_as(tree_, decorated, "staticmethod") ||
                      decorated_as(tree_, decorated, "classmethod");
          up = parent_of(up);
        }
        bool in_class = up != 0 && parent_of(up) != 0 &&
                        nodes_[parent_of(up)].symbol == g.block &&
                        nodes_[parent_of(parent_of(up))].symbol == g.class_definition;
        return in_class && !is_static &&
               !facts_.rebinds_self_within(ts_node_start_byte(node), ts_node_end_byte(node));
      }
    }
    if (i == 0) return false;
  }
}

std::string written(std::string_view text) {
  constexpr size_t kMax = 120;
  std::string out;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') continue;
    if (out.size() == kMax) {
      out += "...";
      break;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace kmem::check_internal
