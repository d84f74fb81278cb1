// What a rule may know when it looks at one node: the file's import bindings
// (so that aliases resolve to qualified names), whether it defines ModelNew,
// where `self` is the method's receiver, the node's ancestors, and the
// checker's verdict on a name read alone.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "grammar.h"
#include "syntax_tree.h"

namespace kmem::check {

class Context;

// Facts about the whole file, gathered from its nodes before the rules run.
// Whether the identifier `identifier` is bound where it stands rather than
// read: an assignment's, loop's, `with`'s or pattern's target (through groups
// of targets), a walrus, an import's name, a `global`/`nonlocal`/`del` name.
// Parameters are not (names_parameter).
bool binds_name(TSNode identifier);
// Whether the identifier `identifier` names a function's or lambda's parameter.
bool names_parameter(TSNode identifier);
// Whether a name read at `identifier` is local to an enclosing function,
// lambda or comprehension: one of its parameters (`def build(src): ...
// load_inline(cpp_sources=src)`, `*src`, `**src` included) or a
// comprehension's target. There it never reads the top-level binding of
// that name (FileFacts::bound_once and its kin), whatever that holds. A
// default value (`def f(src=src)`) is read outside its function.
bool bound_locally(const SyntaxTree& tree, TSNode identifier);
// The function, lambda or comprehension to which the name at `identifier`
// is local (bound_locally); a null node when none. `*parameter` is the
// index among the function's parameters of a plain parameter of that name
// (not `*src` or `**src`), -1 otherwise.
TSNode local_scope(const SyntaxTree& tree, TSNode identifier, int* parameter);

// Whether a qualified name read alone (`torch.nn.functional.relu`) passes
// every rule: the checker's verdict on `import <its root>` and the name, as a
// file of their own. The checker gives it (check.cpp says how deep such files
// may nest), so that a rule asking it never calls the checker itself.
using NameVerdict = std::function<bool(std::string_view qualified)>;

class FileFacts {
 public:
  // `nodes`: the tree's nodes, flattened; `passes_alone`: the checker's
  // verdict on names (passes_alone below).
  FileFacts(const SyntaxTree& tree, std::span<const FlatNode> nodes, NameVerdict passes_alone);

  // The qualified name a local name is bound to by an import or by a plain
  // alias assignment (`c = torch.cuda`); empty when none.
  std::string_view binding(std::string_view local) const;
  bool defines_model_new() const { return defines_model_new_; }
  // Whether `self`, seen at nodes[index], is the first parameter of the
  // innermost function binding `self`, that function being a method of a
  // class (not a static or class method) that does not rebind `self`.
  bool self_is_method_receiver(uint32_t index) const { return self_receiver_[index]; }
  // Whether nodes[index] is inside a function whose first parameter is `ctx`
  // (an autograd.Function's forward, backward or setup_context).
  bool inside_ctx_function(uint32_t index) const { return ctx_parameter_[index]; }
  // Whether the module defines `name` at its top level (def, class or
  // assignment), so that a builtin of that name is not meant there.
  bool defines(std::string_view name) const;
  // Whether `name` is bound by aliases or imports to different names
  // (`c = torch.cuda` and `c = os`): which one it holds is decided at run time.
  bool bound_ambiguously(std::string_view name) const;
  // The value of a name bound once in the file, by an assignment at the top
  // level (`FLAGS = ["-O3"]`), and used only where that value cannot change
  // (no `FLAGS.append`, no call gets it); a null node otherwise.
  TSNode constant_value(std::string_view name) const;
  // The string a name is bound to once in the file, by an assignment of a
  // string expression at the top level (`FORMAT = "{0}"`): a string cannot
  // change, however the name is used. A null node otherwise.
  TSNode string_constant(std::string_view name) const;
  // The value a name is bound to by its only binding in the file, an
  // assignment at the top level, whatever the value and its uses; a null
  // node otherwise.
  TSNode bound_once(std::string_view name) const;
  // How many bindings (binds_name) bind `name`, anywhere in the file
  // (function parameters are not counted).
  int bindings_of(std::string_view name) const;
  // The identifiers that bind `name` (binds_name), anywhere in the file, in
  // the order they stand.
  std::span<const TSNode> binding_sites(std::string_view name) const;
  // Whether `qualified` names a module: one the file imports with `import`,
  // or a well-known module (torch.cuda, os, ...).
  bool is_module(std::string_view qualified) const;
  // Whether the file defines a class named `name` (anywhere).
  bool defines_class(std::string_view name) const { return classes_.contains(name); }
  // Whether `method` is, in some class of the file, a method taking `self`
  // first (not a static or class method): called through a class, its first
  // argument is the instance it writes to.
  bool is_instance_method(std::string_view method) const { return instance_methods_.contains(method); }
  // Whether class `name` of the file makes `method` a static or class method.
  bool is_static_method(std::string_view name, std::string_view method) const;
  // The list or tuple literal a method's `self.<name> = [...]` keeps, when
  // nothing else can change or shadow what `self.<name>` holds: no other
  // write to any `.<name>` (augmented, a loop's target, del), every other
  // read of one only iterated (`for n in self.names`), no variable, def,
  // class or keyword of that name, no string holding it (`setattr(self,
  // "names", ...)`) and no setattr or delattr by a name that is not a
  // literal; a null node otherwise. Computed once per name.
  TSNode constant_attribute(std::string_view name) const;
  // Whether `qualified`, read alone, passes every rule (NameVerdict).
  bool passes_alone(std::string_view qualified) const { return passes_alone_(qualified); }
  // Whether `expression` is an accessor (`x.setter`, `.getter`,
  // `.deleter`) of a property `x` that class `owner` defines (`@property def
  // x`), `x` bound nowhere else and `property` the builtin.
  bool property_accessor(const SyntaxTree& tree, TSNode expression, TSNode owner) const;

  // Whether the builtin `name` keeps its meaning: no import, alias, binding
  // or top-level definition of the file gives the name another.
  bool builtin_unchanged(std::string_view name) const;

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> bindings_;
  std::vector<uint32_t> self_rebinds_;            // start bytes, ascending
  std::vector<bool> self_receiver_;               // per node: self_is_method_receiver
  std::vector<bool> ctx_parameter_;               // per node: inside_ctx_function
  std::set<std::string, std::less<>> defined_;    // top-level names
  std::set<std::string, std::less<>> ambiguous_;  // names bound to different qualified names
  std::unordered_map<std::string, TSNode, Hash, std::equal_to<>> top_values_;  // NAME = value at the top
  std::unordered_map<std::string, int, Hash, std::equal_to<>> assignments_;    // bindings per name
  std::unordered_map<std::string, std::vector<TSNode>, Hash, std::equal_to<>> binding_sites_;  // per name
  std::unordered_set<std::string_view> escaped_;  // names used where their value may change (views into the source)
  std::set<std::string, std::less<>> modules_;    // imported with `import`
  std::set<std::string, std::less<>> classes_;    // class names defined
  std::set<std::string, std::less<>> instance_methods_;  // methods taking self, of any class
  std::set<std::string, std::less<>> static_methods_;    // "Class.method" of static and class methods
  // Binds the identifiers of `target` to what the same places of `value`
  // name (`a, b = torch.cuda, os`), as a plain alias assignment does.
  void bind_pairs(const class Context& top, TSNode target, TSNode value);
  // Binds `name` to `qualified`; a name bound before to another name is ambiguous.
  void bind(std::string name, std::string qualified);
  bool defines_model_new_ = false;
  const SyntaxTree& tree_;
  std::span<const FlatNode> nodes_;
  NameVerdict passes_alone_;
  mutable std::unordered_map<std::string, TSNode, Hash, std::equal_to<>> constant_attributes_;  // found so far

  // constant_attribute, computed.
  TSNode kept_attribute(std::string_view name) const;
  // Whether `self` is rebound (assigned, a loop target...) in [begin, end).
  bool rebinds_self_within(uint32_t begin, uint32_t end) const;
  // Whether the function nodes[i] is a plain instance method (directly in a
  // class body, not a static or class method, decorated by nothing but
  // binding_decorators) that does not rebind `self`.
  bool is_method(const SyntaxTree& tree, std::span<const FlatNode> nodes, uint32_t i) const;
  // Whether every decorator of `decorated`, a definition in class `owner`,
  // keeps it a method bound to the instance (kBindingDecorators in
  // context.cpp: `torch.no_grad()`, `property`, `@x.setter` of a property
  // `x` of `owner`); an alias of staticmethod, a decorator of the file's
  // own or `functools.partial` may make `self` anything.
  bool binding_decorators(const SyntaxTree& tree, TSNode decorated, TSNode owner) const;
  // The class whose body directly holds the function nodes[i] (through a
  // decorator), or a null node; whether it is a static or class method.
  static TSNode enclosing_class(const SyntaxTree& tree, std::span<const FlatNode> nodes, uint32_t i, bool* is_static);
};

// An imported name as written in an import statement, fully qualified.
struct ImportedName {
  TSNode at;
  TSNode alias;           // the `S` of `Stream as S`; a null node when there is none
  std::string qualified;  // "torch.cuda.Stream" for `from torch.cuda import Stream as S`
};

class Context {
 public:
  // The current node is nodes[index] (`nodes`: the tree, flattened).
  Context(const SyntaxTree& tree, const FileFacts& facts, std::span<const FlatNode> nodes, uint32_t index)
      : grammar_(python_grammar()), tree_(tree), facts_(facts), nodes_(nodes), index_(index) {}

  const Grammar& grammar() const { return grammar_; }
  const FileFacts& facts() const { return facts_; }
  std::string_view text(TSNode node) const { return tree_.text(node); }
  TSNode node() const { return nodes_[index_].node; }
  TSSymbol symbol() const { return nodes_[index_].symbol; }  // the current node's type
  // The parent of the current node, or a null node at the root.
  TSNode parent() const { return index_ == 0 ? TSNode{} : nodes_[nodes_[index_].parent].node; }
  TSSymbol parent_symbol() const { return index_ == 0 ? 0 : nodes_[nodes_[index_].parent].symbol; }

  // "threading.Thread" for `th.Thread` after `import threading as th`; bare
  // builtins resolve to their own name; `getattr(x, "a")` reads as `x.a`
  // ("torch.cuda.Stream" for `getattr(torch.cuda, "Stream")`); empty when
  // `expr` is no resolvable dotted name.
  std::string qualified_name(TSNode expr) const;
  // The names the current node imports when it is an import statement;
  // empty otherwise. Computed once per node.
  const std::vector<ImportedName>& imported_names() const;
  // The qualified name of the current node when it is a whole name reference
  // (an identifier, attribute chain or literal getattr not part of a longer
  // chain nor of an import); empty otherwise. Computed once per node.
  const std::string& reference_name() const;
  // The qualified name of the function the current node calls when it is a
  // call; empty otherwise. Computed once per node.
  const std::string& callee_name() const;

  // Whether `node` is a plain string literal (no interpolation, no escape
  // sequence, not concatenated); its content goes to `content`.
  bool string_literal(TSNode node, std::string_view* content) const;

  // The function a call of functools.partial or partialmethod makes a
  // partial object of (its first argument, past `partial` itself:
  // `partial(partial, f)` is f's), qualified; empty when none resolves. Its
  // keywords are that function's, and so are those of calls of the result
  // (qualified_name reads `partial(f, ...)` as f).
  std::string partial_target(TSNode call) const;

  // The argument list of `call`, or a null node (`f(x for x in y)` has a
  // generator instead).
  TSNode argument_list(TSNode call) const;
  // The n-th positional argument (0-based) of `call`, or a null node;
  // unpacked arguments (*a, **k) are not counted.
  TSNode positional_argument(TSNode call, uint32_t index) const;
  // The first unpacked argument (*a or **k) of `call`, or a null node.
  TSNode unpacked_argument(TSNode call) const;

  // Whether `self`, seen at the current node, is the method's receiver
  // (FileFacts::self_is_method_receiver).
  bool self_is_method_receiver() const { return facts_.self_is_method_receiver(index_); }
  bool inside_ctx_function() const { return facts_.inside_ctx_function(index_); }
  // Whether `node` reads an attribute by a name known here (`obj.name` or a
  // literal getattr); its parts go to `object` and `name`.
  bool reads_attribute(TSNode node, TSNode* object, std::string_view* name) const {
    return attribute_read(node, object, name);
  }
  // The ancestor `levels` up from the current node (the root at most).
  TSNode ancestor(uint32_t levels) const {
    uint32_t at = index_;
    for (uint32_t i = 0; i < levels && at != 0; ++i) at = nodes_[at].parent;
    return nodes_[at].node;
  }
  const SyntaxTree& tree() const { return tree_; }
  // The native source the current string node holds, as the compiler reads
  // its tokens (native_source.h); empty for other nodes and for a string
  // that is part of a concatenation (read whole at the concatenation).
  // Computed once per node, for all the rules that look at it.
  const std::string& native_text() const;
  // The value Python gives a native source expression: literals and
  // f-strings, names bound once, integers, `+`, `%`, `.format(...)`,
  // `"sep".join([...])`, `.strip()`, `.replace(a, b)`, `textwrap.dedent(...)`
  // of such; nullopt for anything else (a source built at run time). A list
  // or tuple of sources is their values joined by newlines, as
  // cpp_extension joins them.
  std::optional<std::string> source_value(TSNode node) const;
  // The same for an expression that must be one string (a name, a dtype
  // code): nullopt for a list, a tuple or a number.
  std::optional<std::string> text_value(TSNode node) const;

  // A value Python computes from an expression the checker reads
  // (evaluate): a string, a decimal integer, or a list or tuple of such.
  struct Value {
    enum Kind { kText, kNumber, kList, kTuple } kind = kText;
    std::string text;          // a string's or number's text
    std::vector<Value> items;  // a list's or tuple's
    bool scalar() const { return kind == kText || kind == kNumber; }
  };
  // What Python computes for `node`, typed: only strings and numbers are
  // substituted into strings (`%`, `.format`, f-string fields), as their
  // text, since Python substitutes a list's or tuple's repr, which the
  // checker does not write; `+` joins strings to strings and lists to lists;
  // a name bound once at the top level reads its value there (a list only
  // where nothing can change it: FileFacts::constant_value), but where the
  // name is local (bound_locally). nullopt for anything else.
  std::optional<Value> evaluate(TSNode node, int depth = 0) const;
  // What the calls of `function` pass its parameter `parameter` (its index
  // among the parameters, as local_scope gives it) named `name`, by
  // position or keyword, or its default where a call passes nothing, when
  // every use of the function is visible: defined at the top level,
  // decorated by nothing but functools' caches, used only as the function
  // of calls by its name (called nowhere else, never passed on, nothing
  // unpacked into a call, no other binding or definition of its name), the
  // parameter never rebound in it. nullopt otherwise.
  std::optional<std::vector<TSNode>> argument_nodes(TSNode function, int parameter, std::string_view name) const;

 private:
  const Grammar& grammar_;
  const SyntaxTree& tree_;
  const FileFacts& facts_;
  std::span<const FlatNode> nodes_;
  uint32_t index_;

  // The one value every call passes parameter `parameter` named `name` of
  // `function` (argument_nodes, evaluated); nullopt when calls pass it
  // different values, or any the checker cannot compute, or none calls it.
  std::optional<Value> argument_value(TSNode function, int parameter, std::string_view name, int depth) const;
  // Whether `node` reads an attribute by a name known here: `obj.name`, or
  // `getattr(obj, "name")` (the builtin, a plain literal name, nothing
  // unpacked); its parts go to `object` and `name`.
  bool attribute_read(TSNode node, TSNode* object, std::string_view* name) const;
  // The qualified name a call's result is known by: the module of
  // `torch.get_device_module("cuda")`, the class of `type(r)` or
  // `r.__class__` for results of known calls (a `__class__` read is taken off
  // `attributes`, the chain's names from the last one back); empty otherwise.
  std::string call_result_name(TSNode call, std::vector<std::string_view>& attributes) const;

  mutable bool reference_done_ = false;
  mutable bool callee_done_ = false;
  mutable bool imports_done_ = false;
  mutable bool native_done_ = false;
  mutable std::string native_;
  mutable std::string reference_;
  mutable std::string callee_;
  mutable std::vector<ImportedName> imports_;
};

// Whether the rules know the result of calling `callee` by name (the module
// `torch.get_device_module("cuda")` returns, the class of
// `torch.cuda.current_stream()`'s result: Context::qualified_name).
bool result_known_by_name(std::string_view callee);

// The target `m.conv1` as written, without whitespace, shortened when long
// (on a UTF-8 character boundary).
std::string written(std::string_view text);

// The longest prefix of `text` of at most `max` bytes that does not end
// inside a UTF-8 character.
std::string_view utf8_prefix(std::string_view text, size_t max);

}  // namespace kmem::check
