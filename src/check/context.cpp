// Name resolution and the `self` rule for the checker's rules. Every walk
// here is a loop over a cursor or an explicit stack, never a recursion.
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
  std::string out;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(node, i);
    if (type_of(part) != "identifier") continue;
    if (!out.empty()) out.push_back('.');
    out.append(tree.text(part));
  }
  return out;
}

// The identifiers a target pattern binds, through tuples, lists, stars and
// parentheses (explicit stack: targets may be nested thousands deep).
bool pattern_binds(const SyntaxTree& tree, TSNode pattern, std::string_view name) {
  std::vector<TSNode> stack{pattern};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    std::string_view type = type_of(node);
    if (type == "identifier") {
      if (tree.text(node) == name) return true;
    } else if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" ||
               type == "expression_list" || type == "tuple" || type == "list" ||
               type == "parenthesized_expression" || type == "list_splat_pattern" ||
               type == "as_pattern_target" || type == "list_splat") {
      uint32_t n = ts_node_named_child_count(node);
      for (uint32_t i = 0; i < n; ++i) stack.push_back(ts_node_named_child(node, i));
    }
  }
  return false;
}

// The target a binding construct writes to, if `node` is one.
TSNode binding_target(TSNode node, std::string_view type) {
  if (type == "assignment" || type == "augmented_assignment" || type == "for_statement" ||
      type == "for_in_clause")
    return field(node, "left");
  if (type == "named_expression") return field(node, "name");
  if (type == "as_pattern") return field(node, "alias");
  return TSNode{};
}

std::string_view parameter_name(const SyntaxTree& tree, TSNode parameter) {
  std::string_view type = type_of(parameter);
  if (type == "identifier") return tree.text(parameter);
  if (type == "default_parameter" || type == "typed_default_parameter") {
    TSNode name = field(parameter, "name");
    return ts_node_is_null(name) ? std::string_view{} : tree.text(name);
  }
  if (type == "typed_parameter" && ts_node_named_child_count(parameter) > 0) {
    TSNode first = ts_node_named_child(parameter, 0);
    if (type_of(first) == "identifier") return tree.text(first);
  }
  return {};
}

// The parameter names of a function or lambda, in order.
std::vector<std::string_view> parameter_names(const SyntaxTree& tree, TSNode function) {
  std::vector<std::string_view> names;
  TSNode params = field(function, "parameters");
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
    if (type_of(d) != "decorator") continue;
    std::string_view text = tree.text(d);
    if (text.find(name) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

FileFacts::FileFacts(const SyntaxTree& tree) {
  Context top(tree, *this, {});
  TSTreeCursor cursor = ts_tree_cursor_new(tree.root());
  for (bool more = true; more;) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    std::string_view type = ts_node_is_named(node) ? type_of(node) : std::string_view{};
    if (type == "import_statement" || type == "import_from_statement") {
      for (const ImportedName& name : top.imported_names(node)) {
        std::string_view local;
        TSNode parent = ts_node_parent(name.at);
        TSNode alias = type_of(parent) == "aliased_import" ? field(parent, "alias") : TSNode{};
        if (!ts_node_is_null(alias)) {
          local = tree.text(alias);
          bindings_[std::string(local)] = name.qualified;
        } else if (type == "import_statement") {
          // `import a.b.c` binds `a` to the module a.
          std::string head = name.qualified.substr(0, name.qualified.find('.'));
          bindings_[head] = head;
        } else if (name.qualified.size() > 2 && !name.qualified.ends_with(".*")) {
          bindings_[name.qualified.substr(name.qualified.rfind('.') + 1)] = name.qualified;
        }
      }
    } else if (type == "class_definition") {
      TSNode name = field(node, "name");
      if (!ts_node_is_null(name) && tree.text(name) == "ModelNew") defines_model_new_ = true;
    } else if (type == "assignment") {
      TSNode left = field(node, "left");
      TSNode right = field(node, "right");
      if (!ts_node_is_null(left) && type_of(left) == "identifier") {
        if (tree.text(left) == "ModelNew") defines_model_new_ = true;
        if (!ts_node_is_null(right)) {
          std::string target = top.qualified_name(right);
          if (!target.empty() && tree.text(left) != target)
            bindings_[std::string(tree.text(left))] = target;
        }
      }
    }
    TSNode target = binding_target(node, type);
    if (!ts_node_is_null(target) && pattern_binds(tree, target, "self"))
      self_rebinds_.push_back(ts_node_start_byte(node));

    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

std::string_view FileFacts::binding(std::string_view local) const {
  auto it = bindings_.find(local);
  return it == bindings_.end() ? std::string_view{} : std::string_view(it->second);
}

bool FileFacts::rebinds_self_within(uint32_t begin, uint32_t end) const {
  auto it = std::lower_bound(self_rebinds_.begin(), self_rebinds_.end(), begin);
  return it != self_rebinds_.end() && *it < end;
}

TSNode Context::parent() const {
  return path_.size() >= 2 ? path_[path_.size() - 2] : TSNode{};
}

std::string Context::qualified_name(TSNode expr) const {
  std::vector<std::string_view> parts;
  TSNode node = expr;
  while (type_of(node) == "attribute") {
    TSNode attribute = field(node, "attribute");
    TSNode object = field(node, "object");
    if (ts_node_is_null(attribute) || ts_node_is_null(object)) return {};
    parts.push_back(text(attribute));
    node = object;
  }
  if (type_of(node) != "identifier") return {};
  std::string_view head = text(node);
  std::string out(facts_.binding(head));
  if (out.empty()) {
    if (!is_builtin(head)) return {};
    out = head;
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    out.push_back('.');
    out.append(*it);
  }
  return out;
}

const std::string& Context::reference_name() const {
  if (reference_done_) return reference_;
  reference_done_ = true;
  if (type_ != "identifier" && type_ != "attribute") return reference_;
  std::string_view parent_type = path_.size() >= 2 ? type_of(parent()) : std::string_view{};
  if (parent_type == "attribute" || parent_type == "dotted_name" || parent_type == "aliased_import")
    return reference_;
  if (parent_type == "keyword_argument" && ts_node_eq(field(parent(), "name"), node()))
    return reference_;
  reference_ = qualified_name(node());
  return reference_;
}

std::vector<ImportedName> Context::imported_names(TSNode statement) const {
  std::vector<ImportedName> names;
  std::string module;
  TSNode module_node = field(statement, "module_name");
  if (type_of(statement) == "import_from_statement") {
    if (ts_node_is_null(module_node)) return names;
    module = type_of(module_node) == "dotted_name" ? dotted(tree_, module_node)
                                                   : std::string(text(module_node));
  }
  uint32_t n = ts_node_named_child_count(statement);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode child = ts_node_named_child(statement, i);
    if (ts_node_eq(child, module_node)) continue;
    std::string_view type = type_of(child);
    TSNode name = child;
    if (type == "aliased_import") name = field(child, "name");
    if (type == "wildcard_import") {
      names.push_back({child, module + ".*"});
      continue;
    }
    if (ts_node_is_null(name) || type_of(name) != "dotted_name") continue;
    std::string qualified = dotted(tree_, name);
    if (!module.empty()) qualified = module + "." + qualified;
    names.push_back({name, qualified});
  }
  return names;
}

bool Context::string_literal(TSNode node, std::string_view* content) const {
  if (type_of(node) != "string") return false;
  std::string_view result;
  uint32_t n = ts_node_named_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(node, i);
    std::string_view type = type_of(part);
    if (type == "interpolation") return false;
    if (type == "string_content") {
      if (!result.empty()) return false;
      result = text(part);
    }
  }
  *content = result;
  return true;
}

bool Context::self_is_method_receiver() const {
  for (size_t i = path_.size(); i-- > 0;) {
    TSNode node = path_[i];
    std::string_view type = type_of(node);
    if (type != "function_definition" && type != "lambda") continue;
    std::vector<std::string_view> params = parameter_names(tree_, node);
    if (std::find(params.begin(), params.end(), "self") == params.end()) continue;
    if (type == "lambda" || params.front() != "self") return false;
    size_t up = i;
    bool is_static = false;
    if (up >= 1 && type_of(path_[up - 1]) == "decorated_definition") {
      is_static = decorated_as(tree_, path_[up - 1], "staticmethod") ||
                  decorated_as(tree_, path_[up - 1], "classmethod");
      --up;
    }
    bool in_class = up >= 2 && type_of(path_[up - 1]) == "block" &&
                    type_of(path_[up - 2]) == "class_definition";
    return in_class && !is_static &&
           !facts_.rebinds_self_within(ts_node_start_byte(node), ts_node_end_byte(node));
  }
  return false;
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
