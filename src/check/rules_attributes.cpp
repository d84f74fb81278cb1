// Rules on reading and writing attributes by name: getattr/setattr/delattr
// with names the checker cannot read, their other spellings (attrgetter,
// methodcaller, string.Formatter, format strings whose fields read private
// or dunder attributes), and writes to attributes of anything but one's own
// self.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

// Tensor attributes of a submodule of self that a candidate may set
// (`self.linear.bias = None`, `self.bn.weight.data = ...`).
constexpr std::string_view kSubmoduleAttributes[] = {
    "weight", "bias", "running_mean", "running_var", "num_batches_tracked", "requires_grad", "data"};

// getattr in another form (string.Formatter's get_field reads
// "0.__globals__" as attributes).
constexpr std::string_view kDynamicGetattrNames[] = {"operator.attrgetter", "operator.methodcaller",
                                                     "string.Formatter"};
// Methods that read a format string's fields (`"{0.attr}".format(x)`), and
// their unbound forms taking the format string first.
constexpr std::string_view kFormatMethods[] = {"format", "format_map"};
constexpr std::string_view kUnboundFormats[] = {"str.format", "str.format_map"};

// The nearest ancestor of the current node of type `symbol`, looking from
// `from` levels up to 255; a null node when the module (or the search's end)
// comes first.
TSNode enclosing(const Context& c, TSSymbol symbol, uint32_t from = 1) {
  for (uint32_t up = from; up < 256; ++up) {
    TSNode a = c.ancestor(up);
    if (ts_node_symbol(a) == c.grammar().module) return TSNode{};
    if (ts_node_symbol(a) == symbol) return a;
  }
  return TSNode{};
}

// Calls `visit` on `root` and every named node under it, depth first.
template <typename Visit>
void for_each_named_node(TSNode root, Visit visit) {
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    visit(node);
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) stack.push_back(ts_node_named_child(node, i));
  }
}

// Whether `object` is the method's own self, or, where `chain` allows, a
// chain of public attributes of it (`self.body.layers`: its own submodules).
bool own_object(const Context& c, TSNode object, bool chain) {
  const Grammar& g = c.grammar();
  TSNode inner;
  std::string_view inner_name;
  while (chain && !ts_node_is_null(object) && ts_node_symbol(object) == g.attribute &&
         c.reads_attribute(object, &inner, &inner_name)) {
    if (inner_name.starts_with('_')) return false;
    object = inner;
  }
  return !ts_node_is_null(object) && ts_node_symbol(object) == g.identifier && c.text(object) == "self" &&
         c.self_is_method_receiver();
}

// The string a name is bound to by its only binding in the function around
// the current node, an assignment there (`n = f"fc{i}"` before
// `setattr(self, n, ...)`); a null node otherwise (bound twice, in a loop's
// target, as a parameter, declared global or nonlocal).
TSNode local_string(const Context& c, TSNode name) {
  const Grammar& g = c.grammar();
  std::string_view id = c.text(name);
  TSNode function = enclosing(c, g.function_definition);
  if (ts_node_is_null(function)) return TSNode{};
  TSNode value{};
  int bindings = 0;
  for_each_named_node(function, [&](TSNode node) {
    if (ts_node_symbol(node) != g.identifier || c.text(node) != id || !(binds_name(node) || names_parameter(node)))
      return;
    ++bindings;
    TSNode parent = ts_node_parent(node);
    // Bound in a nested function, lambda or class: that scope's own name,
    // while the function's may be a global.
    TSNode scope = parent;
    while (!ts_node_eq(scope, function) && ts_node_symbol(scope) != g.function_definition &&
           ts_node_symbol(scope) != g.lambda && ts_node_symbol(scope) != g.class_definition)
      scope = ts_node_parent(scope);
    if (ts_node_symbol(parent) == g.assignment && ts_node_eq(scope, function)) value = field(parent, g.field_right);
  });
  if (bindings != 1 || ts_node_is_null(value) || ts_node_symbol(value) != g.string) return TSNode{};
  return value;
}

// `getattr(self, f"fc{i}")`: the method's own attribute (or, where `chain`
// allows, its submodule's: `getattr(self.body, f"fc{i}")`) by an f-string
// that starts with a public name (so never a dunder or private one), written
// in the call or bound once in the function (`n = f"fc{i}"`).
bool own_submodule_name(const Context& c, TSNode object, TSNode name, bool chain) {
  const Grammar& g = c.grammar();
  if (!ts_node_is_null(name) && ts_node_symbol(name) == g.identifier) name = local_string(c, name);
  if (ts_node_is_null(name) || !own_object(c, object, chain) || ts_node_symbol(name) != g.string) return false;
  // The first part after the quote must be literal text starting with a letter.
  uint32_t n = ts_node_named_child_count(name);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode part = ts_node_named_child(name, i);
    TSSymbol s = ts_node_symbol(part);
    if (s == g.string_content) {
      std::string_view text = c.text(part);
      return !text.empty() && std::isalpha(static_cast<unsigned char>(text.front()));
    }
    if (s == g.interpolation || s == g.escape_sequence) return false;
  }
  return false;
}

// Whether a `global` or `nonlocal` statement anywhere in the file names
// `id`: code out of sight (a function called in a loop) may then rebind it.
bool declared_shared(const Context& c, std::string_view id) {
  static const TSSymbol kDeclarations[] = {python_symbol("global_statement"), python_symbol("nonlocal_statement")};
  bool declared = false;
  for_each_named_node(c.tree().root(), [&](TSNode node) {
    TSNode parent = ts_node_parent(node);
    declared =
        declared || (ts_node_symbol(node) == c.grammar().identifier && c.text(node) == id && !ts_node_is_null(parent) &&
                     std::ranges::find(kDeclarations, ts_node_symbol(parent)) != std::end(kDeclarations));
  });
  return declared;
}

// Whether `inner` lies within `outer` (byte ranges).
bool within(TSNode inner, TSNode outer) {
  return !ts_node_is_null(outer) && ts_node_start_byte(inner) >= ts_node_start_byte(outer) &&
         ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

// Whether `scope` binds `id` anywhere but at `target` (binds_name: an
// assignment, walrus, loop target, `with`/`except` alias, import, del, ...).
bool rebinds_within(const Context& c, TSNode scope, TSNode target, std::string_view id) {
  bool rebound = false;
  for_each_named_node(scope, [&](TSNode node) {
    rebound = rebound || (ts_node_symbol(node) == c.grammar().identifier && !ts_node_eq(node, target) &&
                          c.text(node) == id && binds_name(node));
  });
  return rebound;
}

// The iterable whose items the identifier `use` holds where it stands, read
// flow-aware from the innermost loop or comprehension clause of its scope
// that binds it: `use` must lie in that loop's body (a for statement's
// block, a comprehension's element or a later clause; not its iterable or
// `else`), the loop's target must be the plain name, and nothing else may
// rebind the name since (no other binding inside the loop or comprehension,
// no `global`/`nonlocal` of it in the file). Other bindings of the name
// elsewhere in the function (`for name, p in self.named_parameters()` after
// the loop) do not matter. A null node otherwise.
TSNode loop_iterable(const Context& c, TSNode use) {
  const Grammar& g = c.grammar();
  if (ts_node_symbol(use) != g.identifier) return TSNode{};
  std::string_view id = c.text(use);
  // Whether `clause` (a for statement or comprehension clause) binds `id` at all.
  auto binds_id = [&](TSNode clause) {
    bool binds = false;
    for_each_named_node(field(clause, g.field_left), [&](TSNode node) {
      binds = binds || (ts_node_symbol(node) == g.identifier && c.text(node) == id);
    });
    return binds;
  };
  // Whether the loop target of `clause` is `id` alone, `scope` rebinds it
  // nowhere else, and no declaration shares it.
  auto plain_target = [&](TSNode clause, TSNode scope) {
    TSNode left = field(clause, g.field_left);
    return ts_node_symbol(left) == g.identifier && !rebinds_within(c, scope, left, id) && !declared_shared(c, id);
  };
  for (TSNode up = ts_node_parent(use); !ts_node_is_null(up); up = ts_node_parent(up)) {
    TSSymbol s = ts_node_symbol(up);
    if (s == g.function_definition || s == g.lambda || s == g.class_definition) return TSNode{};
    if (s == g.for_statement && binds_id(up)) {
      if (!within(use, field(up, g.field_body)) || !plain_target(up, up)) return TSNode{};
      return field(up, g.field_right);
    }
    for (uint32_t i = ts_node_named_child_count(up); i-- > 0;) {  // comprehensions: the last clause binding `id`
      TSNode clause = ts_node_named_child(up, i);
      if (ts_node_symbol(clause) != g.for_in_clause || !binds_id(clause)) continue;
      bool after = ts_node_start_byte(use) >= ts_node_end_byte(clause) || within(use, field(up, g.field_body));
      if (!after || !plain_target(clause, up)) return TSNode{};
      return field(clause, g.field_right);
    }
  }
  return TSNode{};
}

// The names an identifier takes as the target of an enclosing loop or
// comprehension (loop_iterable), over plain public names: a tuple or list of
// them written there (`for n in ("q", "k", "v")`) or one the method's `self`
// keeps unchanged (`self.names = ["fc1", "fc2"]` in `__init__`, then `for n
// in self.names`: FileFacts::constant_attribute); nullopt otherwise.
std::optional<std::vector<std::string_view>> loop_literal_names(const Context& c, TSNode name) {
  const Grammar& g = c.grammar();
  TSNode right = loop_iterable(c, name);
  TSNode object;
  std::string_view kept;
  if (!ts_node_is_null(right) && ts_node_symbol(right) == g.attribute && c.reads_attribute(right, &object, &kept) &&
      own_object(c, object, false))
    right = c.facts().constant_attribute(kept);
  if (ts_node_is_null(right) || (ts_node_symbol(right) != g.tuple && ts_node_symbol(right) != g.list))
    return std::nullopt;
  std::vector<std::string_view> names;
  for (uint32_t i = 0; i < ts_node_named_child_count(right); ++i) {
    std::string_view literal;
    if (!c.string_literal(ts_node_named_child(right, i), &literal) || literal.empty() ||
        !std::isalpha(static_cast<unsigned char>(literal.front())) ||
        !std::all_of(literal.begin(), literal.end(),
                     [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; }))
      return std::nullopt;
    names.push_back(literal);
  }
  return names;
}

// Whether `object` is the method's self (or, where `chain` allows, its own
// submodule) and `name` an identifier taking only literal public names
// (loop_literal_names): `for n in ("q", "k", "v"): getattr(self, n)`.
bool names_from_literal_loop(const Context& c, TSNode object, TSNode name, bool chain) {
  return own_object(c, object, chain) && loop_literal_names(c, name).has_value();
}

// What nn.Module itself gives an instance, and the tensor methods that
// cast: `getattr(self, "half")()` makes every parameter fp16. A submodule
// assigned under such a name (`self.half = nn.Linear(...)`) is kept apart
// from it (in `_modules`), so the method is what the name reads.
constexpr std::string_view kModuleAttributes[] = {"T_destination",
                                                  "add_module",
                                                  "apply",
                                                  "bfloat16",
                                                  "buffers",
                                                  "call_super_init",
                                                  "children",
                                                  "compile",
                                                  "cpu",
                                                  "cuda",
                                                  "double",
                                                  "dump_patches",
                                                  "eval",
                                                  "extra_repr",
                                                  "float",
                                                  "forward",
                                                  "get_buffer",
                                                  "get_extra_state",
                                                  "get_parameter",
                                                  "get_submodule",
                                                  "half",
                                                  "ipu",
                                                  "load_state_dict",
                                                  "modules",
                                                  "mtia",
                                                  "named_buffers",
                                                  "named_children",
                                                  "named_modules",
                                                  "named_parameters",
                                                  "parameters",
                                                  "register_backward_hook",
                                                  "register_buffer",
                                                  "register_forward_hook",
                                                  "register_forward_pre_hook",
                                                  "register_full_backward_hook",
                                                  "register_full_backward_pre_hook",
                                                  "register_load_state_dict_post_hook",
                                                  "register_load_state_dict_pre_hook",
                                                  "register_module",
                                                  "register_parameter",
                                                  "register_state_dict_post_hook",
                                                  "register_state_dict_pre_hook",
                                                  "requires_grad_",
                                                  "set_extra_state",
                                                  "set_submodule",
                                                  "share_memory",
                                                  "state_dict",
                                                  "to",
                                                  "to_empty",
                                                  "train",
                                                  "training",
                                                  "type",
                                                  "xpu",
                                                  "zero_grad",
                                                  "chalf",
                                                  "view",
                                                  "view_as",
                                                  "type_as",
                                                  "new_empty",
                                                  "new_zeros",
                                                  "new_ones",
                                                  "new_full",
                                                  "new_tensor"};

// The names `setattr(self, name, ...)` sets: a literal's; each literal
// of the loop over literal names that binds `name` where it stands
// (loop_iterable: `for n in ("q", "k"): setattr(self, n, ...)`); for an f-string of a
// literal start and fields (`f"fc{i}"`), that start and `#`, which a name
// of the start and digits matches (own_name).
std::vector<std::string> set_names(const Context& c, TSNode name) {
  const Grammar& g = c.grammar();
  std::string_view literal;
  if (c.string_literal(name, &literal)) return {std::string(literal)};
  if (ts_node_symbol(name) == g.string) {  // f"fc{i}": the literal start, before the first field
    for (uint32_t i = 0; i < ts_node_named_child_count(name); ++i) {
      TSNode part = ts_node_named_child(name, i);
      if (ts_node_symbol(part) == g.interpolation || ts_node_symbol(part) == g.escape_sequence) return {};
      if (ts_node_symbol(part) == g.string_content)
        return ts_node_named_child_count(part) == 0 ? std::vector<std::string>{std::string(c.text(part)) + "#"}
                                                    : std::vector<std::string>{};
    }
    return {};
  }
  TSNode right = loop_iterable(c, name);
  if (ts_node_is_null(right) || (ts_node_symbol(right) != g.tuple && ts_node_symbol(right) != g.list)) return {};
  std::vector<std::string> names;
  for (uint32_t i = 0; i < ts_node_named_child_count(right); ++i) {
    if (!c.string_literal(ts_node_named_child(right, i), &literal)) return {};
    names.emplace_back(literal);
  }
  return names;
}

// Whether `name` is one of `names` (set_names: a start and `#` matches the
// start and digits).
bool own_name(const std::set<std::string, std::less<>>& names, std::string_view name) {
  if (names.contains(name)) return true;
  for (const std::string& n : names)
    if (n.ends_with('#') && n.size() > 1 && name.starts_with(std::string_view(n).substr(0, n.size() - 1)) &&
        name.size() > n.size() - 1 &&
        std::all_of(name.begin() + static_cast<long>(n.size() - 1), name.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      return true;
  return false;
}

// The names the classes under `root` give their instances themselves:
// `self.<name> = ...` (any binding of it) and setattr(self, ...) of the
// names set_names reads in their methods (`assigned`), and the defs and assignments of their
// bodies (`defined`: methods and class attributes of their own).
void names_given(const Context& c, TSNode root, std::set<std::string, std::less<>>& assigned,
                 std::set<std::string, std::less<>>& defined) {
  const Grammar& g = c.grammar();
  for_each_named_node(root, [&](TSNode node) {
    TSSymbol s = ts_node_symbol(node);
    if (s == g.attribute && binds_name(node)) {
      TSNode object = field(node, g.field_object);
      if (!ts_node_is_null(object) && ts_node_symbol(object) == g.identifier && c.text(object) == "self")
        assigned.emplace(c.text(field(node, g.field_attribute)));
    } else if (s == g.call) {
      TSNode function = field(node, g.field_function);
      TSNode arguments = c.argument_list(node);
      TSNode given = ts_node_is_null(arguments) ? TSNode{} : c.positional_argument(node, 1);
      if (!ts_node_is_null(function) && c.text(function) == "setattr" && !ts_node_is_null(given) &&
          c.text(c.positional_argument(node, 0)) == "self")
        for (std::string& n : set_names(c, given)) assigned.emplace(std::move(n));
    } else if (s == g.class_definition) {
      TSNode body = field(node, g.field_body);
      for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); ++i) {
        TSNode member = ts_node_named_child(body, i);
        if (ts_node_symbol(member) == g.decorated_definition)
          member = ts_node_named_child(member, ts_node_named_child_count(member) - 1);
        if (ts_node_symbol(member) == g.function_definition) {
          defined.emplace(c.text(field(member, g.field_name)));
        } else if (ts_node_named_child_count(member) == 1 &&
                   ts_node_symbol(ts_node_named_child(member, 0)) == g.assignment) {
          TSNode left = field(ts_node_named_child(member, 0), g.field_left);
          if (!ts_node_is_null(left) && ts_node_symbol(left) == g.identifier) defined.emplace(c.text(left));
        }
      }
    }
  });
}

// Whether every literal name `getattr(object, n)` takes in a loop is one
// the object's class gives it: for `self`, a name the enclosing class (or a
// base class the file defines, by name) assigns as `self.<name>` or by
// setattr, but none nn.Module gives (kModuleAttributes), or one its body
// defines; for a submodule (`self.heads`), a name some class of the file
// assigns or defines, or a string key of a dictionary the file writes
// (`nn.ModuleDict({"q": ...})`), and none of kModuleAttributes.
// (`for n in ("fc1", "half"): getattr(self, n)()` calls nn.Module.half.)
bool names_given_by_class(const Context& c, TSNode object, TSNode name) {
  const Grammar& g = c.grammar();
  static const TSSymbol kPair = python_symbol("pair");
  auto names = loop_literal_names(c, name);
  if (!names) return false;
  std::set<std::string, std::less<>> assigned, defined;
  if (own_object(c, object, false)) {
    TSNode owner = enclosing(c, g.class_definition);
    if (ts_node_is_null(owner)) return false;
    // The class and its bases the file defines (by name, as far as they go).
    std::vector<TSNode> classes{owner};
    std::set<std::string, std::less<>> seen{std::string(c.text(field(owner, g.field_name)))};
    for (size_t i = 0; i < classes.size() && i < 16; ++i) {
      names_given(c, classes[i], assigned, defined);
      TSNode bases = ts_node_child_by_field_name(classes[i], "superclasses", 12);
      for (uint32_t b = 0; !ts_node_is_null(bases) && b < ts_node_named_child_count(bases); ++b) {
        std::string_view base = c.text(ts_node_named_child(bases, b));
        if (!c.facts().defines_class(base) || seen.contains(base)) continue;
        seen.emplace(base);
        for_each_named_node(c.tree().root(), [&](TSNode node) {
          if (ts_node_symbol(node) == g.class_definition && c.text(field(node, g.field_name)) == base)
            classes.push_back(node);
        });
      }
    }
    return std::all_of(names->begin(), names->end(), [&](std::string_view n) {
      return defined.contains(n) || (own_name(assigned, n) && !listed(n, kModuleAttributes));
    });
  }
  names_given(c, c.tree().root(), assigned, defined);
  std::set<std::string, std::less<>> keys;
  for_each_named_node(c.tree().root(), [&](TSNode node) {
    std::string_view literal;
    if (ts_node_symbol(node) == kPair && c.string_literal(ts_node_child_by_field_name(node, "key", 3), &literal))
      keys.emplace(literal);
  });
  return std::all_of(names->begin(), names->end(), [&](std::string_view n) {
    return !listed(n, kModuleAttributes) && (defined.contains(n) || own_name(assigned, n) || keys.contains(n));
  });
}

// Whether the value of the current call is only called: called where it
// stands (`getattr(F, n)(x)`), or bound by an assignment to a name bound
// nowhere else in the file and, in the function, only called (`fn =
// getattr(F, n)` then `fn(x)`). Nothing is read from it by attribute, so no
// rule on a name under it is missed.
bool only_called(const Context& c) {
  const Grammar& g = c.grammar();
  auto callee = [&](TSNode node) {
    TSNode parent = ts_node_parent(node);
    return ts_node_symbol(parent) == g.call && ts_node_eq(field(parent, g.field_function), node);
  };
  if (callee(c.node())) return true;
  TSNode left = field(c.parent(), g.field_left);
  if (c.parent_symbol() != g.assignment || !ts_node_eq(field(c.parent(), g.field_right), c.node()) ||
      ts_node_symbol(left) != g.identifier || c.facts().bindings_of(c.text(left)) != 1)
    return false;
  TSNode function = enclosing(c, g.function_definition, 2);
  if (ts_node_is_null(function)) return false;
  bool other_use = false;
  for_each_named_node(function, [&](TSNode node) {
    other_use = other_use || (ts_node_symbol(node) == g.identifier && c.text(node) == c.text(left) &&
                              !ts_node_eq(node, left) && !callee(node));
  });
  return !other_use;
}

// `getattr(F, name)` for `name` from loop_literal_names, F a name the rules
// resolve (`torch.nn.functional`), its value only called (only_called): each
// `F.<name>` passes every rule as the name it is, read alone
// (FileFacts::passes_alone: `getattr(os, n)` over ("system",) does not), and
// is none whose result the rules follow by name (`torch.cuda.current_stream`,
// whose `type(...)()` would make a stream).
bool called_module_names(const Context& c, TSNode object, TSNode name) {
  std::string qualified = c.qualified_name(object);
  auto names = loop_literal_names(c, name);
  if (qualified.empty() || !names || !only_called(c)) return false;
  return std::all_of(names->begin(), names->end(), [&](std::string_view literal) {
    std::string member = qualified + "." + std::string(literal);
    return !result_known_by_name(member) && c.facts().passes_alone(member);
  });
}

// Whether writing `<object>.<name>` is allowed: only a direct, non-dunder
// attribute of the method's own `self`.
bool own_attribute(const Context& c, TSNode object, std::string_view name) {
  const Grammar& g = c.grammar();
  if (is_dunder(name)) return false;
  if (ts_node_symbol(object) == g.identifier) {
    std::string_view root = c.text(object);
    // self.<x> in a method; ctx.<x> in an autograd.Function's static methods.
    return (root == "self" && c.self_is_method_receiver()) || (root == "ctx" && c.inside_ctx_function());
  }
  // self.<sub>...<weight|bias|...>: a tensor attribute of one's own submodule.
  if (!listed(name, kSubmoduleAttributes)) return false;
  TSNode inner;
  std::string_view inner_name;
  while (ts_node_symbol(object) == g.attribute && c.reads_attribute(object, &inner, &inner_name)) {
    if (is_dunder(inner_name)) return false;
    object = inner;
  }
  return ts_node_symbol(object) == g.identifier && c.text(object) == "self" && c.self_is_method_receiver();
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
      if (!ts_node_is_null(object) && !ts_node_is_null(attribute) && !own_attribute(c, object, c.text(attribute)) &&
          !allowed_setting(c, node))
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

// The first field of `format` (a str.format string) that reads a private or
// dunder attribute or a frame's, generator's or traceback's (`{0.__globals__}`,
// `{m._x}`, `{g.gi_frame.f_locals}`, nested in a format spec too); empty
// when none does.
std::string private_format_field(std::string_view format) {
  for (size_t at = format.find('{'); at != std::string_view::npos; at = format.find('{', at + 1)) {
    if (at + 1 < format.size() && format[at + 1] == '{') {
      ++at;
      continue;
    }
    size_t end = format.find_first_of("}!:{", at + 1);
    std::string_view name = format.substr(at + 1, end == std::string_view::npos ? end : end - at - 1);
    for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
      std::string_view part = name.substr(dot + 1, name.find_first_of(".[", dot + 1) - dot - 1);
      if (part.starts_with('_') || part.starts_with("f_") || part.starts_with("gi_") || part.starts_with("cr_") ||
          part.starts_with("ag_") || part.starts_with("tb_"))
        return "{" + std::string(name) + "}";
    }
  }
  return {};
}

// The format string `object` (a str.format method's receiver) stands for:
// the constant a name bound once at the top level holds, else itself.
TSNode named_format(const Context& c, TSNode object) {
  if (!ts_node_is_null(object) && ts_node_symbol(object) == c.grammar().identifier &&
      !bound_locally(c.tree(), object)) {
    TSNode constant = c.facts().string_constant(c.text(object));
    if (!ts_node_is_null(constant)) return constant;
  }
  return object;
}

// The text of a format string (a str.format method's receiver), as Python
// computes it: literals (folded_string), or a string the checker computes
// through pure text functions of them (Context::text_value:
// `textwrap.dedent("...")`, `.strip()`, `.replace(a, b)`, a name bound once
// to such), which is as known as the literal itself; nullopt otherwise.
std::optional<std::string> format_text(const Context& c, TSNode format) {
  if (auto folded = folded_string(c, format)) return folded;
  return c.text_value(format);
}

// The format string a call of str.format or format_map reads, or null when
// the call is none of those: `"...".format(...)`, `NAME.format(...)` with NAME
// bound once to a constant, `str.format("...", ...)`.
TSNode format_string(const Context& c, bool* is_format) {
  const Grammar& g = c.grammar();
  *is_format = false;
  if (c.symbol() != g.call) return TSNode{};
  if (listed(c.callee_name(), kUnboundFormats)) {
    *is_format = true;
    return positional_argument(c, 0);
  }
  TSNode function = field(c.node(), g.field_function);
  if (ts_node_is_null(function) || ts_node_symbol(function) != g.attribute) return TSNode{};
  TSNode attribute = field(function, g.field_attribute);
  if (ts_node_is_null(attribute) || !listed(c.text(attribute), kFormatMethods)) return TSNode{};
  *is_format = true;
  return named_format(c, field(function, g.field_object));
}

// str.format or format_map taken as a value (`map(str.format, [FMT], [x])`,
// `partial(FMT.format)`, `reduce(str.format, [x], FMT)`): the format string
// it will read must be one the checker reads (format_text: a literal, a name
// bound once to one, pure text functions of such; whose fields the string
// rule judges), else it may read any
// attribute (a red-team candidate's computed "{0.__globals__}").
void format_method_as_value(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.attribute) return;
  TSNode attribute = field(c.node(), g.field_attribute), object = field(c.node(), g.field_object);
  if (ts_node_is_null(attribute) || ts_node_is_null(object) || !listed(c.text(attribute), kFormatMethods)) return;
  if (c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node())) return;  // called
  if (listed(c.qualified_name(c.node()), kUnboundFormats) ||
      (ts_node_symbol(object) == g.identifier && c.text(object) == "str" && !c.facts().defines("str"))) {
    out.push_back({c.node(), written(c.text(c.node())) + " as a value"});
    return;
  }
  if (!format_text(c, named_format(c, object))) out.push_back({c.node(), written(c.text(c.node())) + " as a value"});
}

}  // namespace

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
  if (c.string_literal(name, &literal) && !literal.starts_with('_')) return;
  TSNode object = positional_argument(c, 0);
  if (own_submodule_name(c, object, name, true) ||
      (names_from_literal_loop(c, object, name, true) && names_given_by_class(c, object, name)) ||
      called_module_names(c, object, name))
    return;
  out.push_back({name, written(c.text(name))});
}

// operator.attrgetter, operator.methodcaller and string.Formatter are getattr
// by another name; so is a format string whose fields read private or
// dunder attributes, or one the checker cannot read.
void dynamic_getattr_names(const Context& c, std::vector<Finding>& out) {
  const std::string& reference = c.reference_name();
  if (!reference.empty() && name_in(reference, kDynamicGetattrNames)) out.push_back({c.node(), reference});
  // Any string holding a field that reads a private or dunder attribute
  // (`logging.Formatter("{f.__globals__}", style="{")` formats it as
  // str.format does).
  if (std::string_view literal; c.symbol() == c.grammar().string && c.string_literal(c.node(), &literal)) {
    if (std::string field = private_format_field(literal); !field.empty())
      out.push_back({c.node(), "format field " + written(field)});
    return;
  }
  format_method_as_value(c, out);
  bool is_format = false;
  TSNode format = format_string(c, &is_format);
  if (!is_format) return;
  std::optional<std::string> value = format_text(c, format);
  if (!value) {
    std::string shown = ts_node_is_null(format) ? std::string("?") : written(c.text(format));
    out.push_back({c.node(), "format string " + shown + " the checker cannot read"});
  } else if (std::string field = private_format_field(*value); !field.empty()) {
    out.push_back({c.node(), "format field " + written(field)});
  }
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
  if (!ts_node_is_null(name) && !c.string_literal(name, &literal) &&
      !own_submodule_name(c, positional_argument(c, 0), name, false) &&
      !names_from_literal_loop(c, positional_argument(c, 0), name, false))
    out.push_back({name, written(c.text(name))});
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
    if (!own_attribute(c, object, literal)) out.push_back({node, written(c.text(object)) + "." + std::string(literal)});
  }
}

}  // namespace kmem::check
