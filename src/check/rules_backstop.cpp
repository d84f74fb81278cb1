// The backstops, allow-lists reported only where no specific rule did:
// imports outside the allowed modules, private and dunder attributes, and
// modules passed around as values.
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

// The modules a candidate may import (and everything under them), except
// private parts (`torch._C`): see docs/verdicts.md. Any other import, a star
// import and a relative import are `forbidden_import`.
constexpr std::string_view kAllowedImports[] = {
    "torch",     "triton",    "math",       "cmath",       "typing",      "typing_extensions",
    "functools", "itertools", "operator",   "collections", "dataclasses", "enum",
    "abc",       "numbers",   "__future__", "os",          "sys",         "time",
    "threading", "numpy",     "warnings",   "re",          "string",      "copy",
    "hashlib",   "textwrap",  "random",     "einops",      "logging",     "contextlib"};
// torch's private helpers that honest kernels use as nn's own modules do
// (a conv's reset_parameters, its size arguments): pure functions of their
// arguments, imported or read by these names.
constexpr std::string_view kAllowedPrivateHelpers[] = {"torch.nn.init._calculate_fan_in_and_fan_out",
                                                       "torch.nn.init._calculate_correct_fan",
                                                       "torch.nn.modules.utils._single",
                                                       "torch.nn.modules.utils._pair",
                                                       "torch.nn.modules.utils._triple",
                                                       "torch.nn.modules.utils._quadruple",
                                                       "torch.nn.modules.utils._ntuple",
                                                       "torch.nn.modules.utils._reverse_repeat_tuple"};
// Dunder attributes a candidate may read: `super().__init__`, `torch.__version__`.
constexpr std::string_view kAllowedDunders[] = {"__init__", "__version__", "__name__", "__call__"};
// Dunders a candidate may read as variables (`if __name__ == "__main__"`),
// besides those it may define: strings and flags of its own module or class,
// through which no object is reached (`__class__`, `__annotations__`,
// `__build_class__` are refused).
constexpr std::string_view kAllowedDunderVariables[] = {"__name__",   "__doc__",      "__file__",   "__debug__",
                                                        "__module__", "__qualname__", "__package__"};
// Dunders a candidate may define: construction, context managers (their
// return judged by try_fallback), containers, comparisons and arithmetic.
constexpr std::string_view kAllowedDunderDefinitions[] = {
    "__init__", "__call__", "__repr__", "__str__", "__enter__", "__exit__", "__post_init__", "__len__", "__getitem__",
    "__setitem__", "__iter__", "__next__", "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__hash__", "__bool__", "__add__", "__sub__", "__mul__", "__truediv__", "__matmul__", "__neg__", "__radd__",
    "__rmul__", "__all__", "__slots__", "__version__", "__constants__", "__doc__", "__aenter__", "__aexit__",
    // A module's metadata strings.
    "__author__", "__license__", "__copyright__", "__email__", "__credits__", "__maintainer__", "__status__",
    "__date__", "__docformat__"};

// Functions that make a class (`namedtuple`, the functional Enum, make_dataclass):
// their `module=` and `qualname=` set its `__module__` and `__qualname__`,
// as a class body's assignments to those dunders would.
constexpr std::string_view kClassFactories[] = {"collections.namedtuple", "typing.NamedTuple",
                                                "typing_extensions.NamedTuple", "dataclasses.make_dataclass", "enum"};
constexpr std::string_view kClassFactoryDunders[] = {"module", "qualname"};

}  // namespace

// Imports outside the allowed modules (kAllowedImports), of private parts,
// star and relative imports.
void forbidden_import(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.import_statement && c.symbol() != g.import_from_statement) return;
  if (c.symbol() == g.import_from_statement) {
    TSNode module = field(c.node(), g.field_module_name);
    if (!ts_node_is_null(module) && ts_node_symbol(module) != g.dotted_name) {
      out.push_back({module, "relative import " + written(c.text(module))});
      return;
    }
  }
  for (const ImportedName& name : c.imported_names()) {
    std::string_view qualified = name.qualified;
    if (qualified.ends_with(".*")) {
      out.push_back({name.at, "from " + std::string(qualified.substr(0, qualified.size() - 2)) + " import *"});
      continue;
    }
    std::string_view top = qualified.substr(0, qualified.find('.'));
    bool private_part = false;
    for (size_t at = 0; at < qualified.size();) {
      size_t end = std::min(qualified.find('.', at), qualified.size());
      std::string_view part = qualified.substr(at, end - at);
      private_part = private_part || (part.starts_with('_') && part != "__future__");
      at = end + 1;
    }
    if (!listed(top, kAllowedImports) || (private_part && !listed(qualified, kAllowedPrivateHelpers)))
      out.push_back({name.at, std::string(qualified)});
  }
}

// Whether `object.name` is `self.__class__` read only for its name
// (`self.__class__.__name__` in a message): a string, nothing to reach
// through.
static bool own_class_name(const Context& c, TSNode object, std::string_view name) {
  const Grammar& g = c.grammar();
  if (name != "__class__" || ts_node_symbol(object) != g.identifier || c.text(object) != "self" ||
      !c.self_is_method_receiver() || c.parent_symbol() != g.attribute ||
      !ts_node_eq(field(c.parent(), g.field_object), c.node()))
    return false;
  return c.text(field(c.parent(), g.field_attribute)) == "__name__";
}

// Private (`x._y`) and dunder attributes, except one's own private ones
// (`self._cache`, `ctx._saved`) and the few dunders in kAllowedDunders;
// dunders defined in a class body or at the top level other than those of
// kAllowedDunderDefinitions (`__module__ = "torch"`, `__del__`, `__set_name__`).
void private_attribute(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  std::string_view defined = defined_name(c);
  if (is_dunder(defined) && !listed(defined, kAllowedDunderDefinitions))
    out.push_back({c.node(), std::string(defined)});
  // A dunder named as a variable (`__class__` in a method, `__annotations__`
  // of a class body) reaches what its scope keeps there.
  if (std::string_view variable = dunder_variable(c); !variable.empty() && !listed(variable, kAllowedDunderVariables) &&
                                                      !listed(variable, kAllowedDunders) &&
                                                      !listed(variable, kAllowedDunderDefinitions)) {
    out.push_back({c.node(), std::string(variable)});
    return;
  }
  // `case object(__globals__=g)` reads the attribute as `x.__globals__` does.
  if (TSNode keyword = keyword_pattern_name(c); !ts_node_is_null(keyword)) {
    std::string_view name = c.text(keyword);
    if (name.starts_with('_') && !listed(name, kAllowedDunders)) out.push_back({keyword, std::string(name)});
    return;
  }
  // A dunder named by a string or a keyword (`{"__reduce__": f}` given to a
  // metaclass, `make_dataclass(namespace=...)`, `dict(__del__=f)`): defined
  // or read as the attribute would be, out of the rules' sight.
  if (std::string_view literal; c.symbol() == g.string && c.string_literal(c.node(), &literal) && is_dunder(literal) &&
                                !listed(literal, kAllowedDunders) && !listed(literal, kAllowedDunderDefinitions) &&
                                literal != "__main__") {
    out.push_back({c.node(), std::string(literal)});
    return;
  }
  // `namedtuple("T", "x", module="torch")`, or the same keyword out of sight
  // (`**options`): the class's `__module__`/`__qualname__` set by a keyword.
  // Keywords given to functools.partial are its function's
  // (`partial(namedtuple, module="torch")`).
  std::string factory = c.symbol() == g.call ? keywords_function(c) : std::string();
  if (c.symbol() == g.call && name_in(factory, kClassFactories)) {
    TSNode arguments = c.argument_list(c.node());
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
      TSNode a = ts_node_named_child(arguments, i);
      std::string_view key = ts_node_symbol(a) == g.keyword_argument ? c.text(field(a, g.field_name)) : "";
      if (listed(key, kClassFactoryDunders))
        out.push_back({a, factory + "(" + std::string(key) + "=...): __" + std::string(key) + "__"});
      else if (ts_node_symbol(a) == g.dictionary_splat) out.push_back({a, factory + "(" + written(c.text(a)) + ")"});
    }
    return;
  }
  if (c.symbol() == g.keyword_argument) {
    TSNode key = field(c.node(), g.field_name);
    std::string_view name = ts_node_is_null(key) ? std::string_view() : c.text(key);
    if (is_dunder(name) && !listed(name, kAllowedDunders)) out.push_back({c.node(), std::string(name)});
    return;
  }
  if (c.symbol() != g.attribute) return;
  TSNode object = field(c.node(), g.field_object);
  TSNode attribute = field(c.node(), g.field_attribute);
  if (ts_node_is_null(object) || ts_node_is_null(attribute)) return;
  std::string_view name = c.text(attribute);
  if (!name.starts_with('_')) return;
  if (is_dunder(name)) {
    if (!listed(name, kAllowedDunders) && !own_class_name(c, object, name))
      out.push_back({attribute, std::string(name)});
    return;
  }
  if (ts_node_symbol(object) == g.identifier) {
    std::string_view root = c.text(object);
    if ((root == "self" && c.self_is_method_receiver()) || (root == "ctx" && c.inside_ctx_function()) || root == "cls")
      return;
  }
  if (listed(c.qualified_name(c.node()), kAllowedPrivateHelpers)) return;
  out.push_back({attribute, std::string(name)});
}

// A module used as a value (put in a container, passed to a call, returned)
// rather than through its attributes: whatever receives it is out of the
// checker's sight. Plain aliases (`c = torch.cuda`, walrus, defaults,
// `a, b = x, y`) are resolved instead.
void module_as_value(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  // An import binding a name that is also bound to something else.
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& name : c.imported_names()) {
      std::string_view local = ts_node_is_null(name.alias) ? std::string_view(name.qualified) : c.text(name.alias);
      if (ts_node_is_null(name.alias))
        local =
            c.symbol() == g.import_statement ? local.substr(0, local.find('.')) : local.substr(local.rfind('.') + 1);
      if (c.facts().bound_ambiguously(local)) out.push_back({name.at, name.qualified});
    }
    return;
  }
  const std::string& reference = c.reference_name();
  if (reference.empty() || !c.facts().is_module(reference)) return;
  TSSymbol parent = c.parent_symbol();
  TSNode node = c.node();
  if (parent == g.import_statement || parent == g.import_from_statement) return;
  // Places that bind a name rather than use a value.
  static const TSSymbol kBinding[] = {python_symbol("parameters"),
                                      python_symbol("lambda_parameters"),
                                      python_symbol("global_statement"),
                                      python_symbol("nonlocal_statement"),
                                      g.typed_parameter,
                                      g.as_pattern_target,
                                      g.pattern_list,
                                      g.tuple_pattern};
  if (std::find(std::begin(kBinding), std::end(kBinding), parent) != std::end(kBinding)) return;
  if ((parent == g.for_statement || parent == g.for_in_clause) && ts_node_eq(field(c.parent(), g.field_left), node))
    return;
  // An alias is a plain name outside class bodies: `self.c = torch.cuda` or
  // `c = torch.cuda` in a class body makes the module an attribute of
  // something, read later as `self.c.Stream` where no name resolves.
  // Chained assignments (`self.c = d = torch.cuda`) write every target;
  // a star target (`*c, = ...`) makes a list; a name bound elsewhere to
  // another module or name (`c = torch.cuda` here, `c = os` there) leaves
  // which one `c.Stream` reads to the run.
  auto plain_alias = [&](uint32_t assignment_up) {
    for (uint32_t up = assignment_up; ts_node_symbol(c.ancestor(up)) == g.assignment; ++up) {
      TSNode left = field(c.ancestor(up), g.field_left);
      if (ts_node_is_null(left) || ts_node_symbol(c.ancestor(up + 3)) == g.class_definition) return false;
      std::vector<TSNode> stack{left};
      while (!stack.empty()) {
        TSNode target = stack.back();
        stack.pop_back();
        TSSymbol s = ts_node_symbol(target);
        if (s == g.list_splat_pattern || s == g.list_splat) return false;
        if (g.is_target_group(s)) {
          for (uint32_t i = 0; i < ts_node_named_child_count(target); ++i)
            stack.push_back(ts_node_named_child(target, i));
        } else if (s != g.identifier || c.facts().bound_ambiguously(c.text(target))) {
          return false;
        }
      }
    }
    return true;
  };
  if (parent == g.assignment && ts_node_eq(field(c.parent(), g.field_right), node)) {
    if (plain_alias(1)) return;
    out.push_back({node, reference});
    return;
  }
  if ((parent == g.assignment && ts_node_eq(field(c.parent(), g.field_left), node)) ||
      (parent == g.named_expression && ts_node_eq(field(c.parent(), g.field_value), node)) ||
      ((parent == g.default_parameter || parent == g.typed_default_parameter) &&
       ts_node_eq(field(c.parent(), g.field_value), node)))
    return;
  // a, b = torch.cuda, 1
  if (parent == g.expression_list && ts_node_symbol(c.ancestor(2)) == g.assignment && plain_alias(2)) return;
  // getattr(torch, ...) and its kin: the rules on those calls judge them.
  if (parent == g.argument_list) {
    TSNode function = field(c.ancestor(2), g.field_function);
    std::string_view callee = ts_node_is_null(function) ? std::string_view{} : c.text(function);
    if (callee == "getattr" || callee == "setattr" || callee == "delattr" || callee == "hasattr") return;
  }
  out.push_back({node, reference});
}

}  // namespace kmem::check
