// Helpers shared by the rule families (rules_*.cpp): matching qualified
// names against name lists, reading string expressions, call arguments,
// environment writes and definitions. Name lists hold qualified names
// (aliases are resolved first): an entry matches itself and everything under
// it ("gc" matches "gc.get_objects"); an entry ending in '*' matches any name
// that starts with it ("os.spawn*" matches "os.spawnv").
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context.h"
#include "rules.h"

namespace kmem::check {

using Names = std::span<const std::string_view>;

// Environment variables that reduce precision: precision_downcast when
// written, never dynamic_code.
inline constexpr std::string_view kEnvironmentPrecision[] = {
    "NVIDIA_TF32_OVERRIDE", "TRITON_F32_DEFAULT", "TORCH_ALLOW_TF32_CUBLAS_OVERRIDE", "TORCH_CUDNN_V8_API_DISABLED"};

// Whether `name` is an entry of `list` or under one, as written.
bool name_in_exactly(std::string_view name, Names list);
// The part of `name` that matches `list`: the whole name, or the part from
// a re-exported module on (`torch.cuda.Stream` of
// `torch.nn.functional.torch.cuda.Stream`); empty when none matches.
std::string_view matching_part(std::string_view name, Names list);
bool name_in(std::string_view name, Names list);
bool is_dunder(std::string_view name);
// Whether `name` is exactly an entry of `list`.
bool listed(std::string_view name, Names list);

// Whether the current node is the target of `= False`.
bool assigned_false(const Context& c);
// Whether the current node is only compared with (`x.dtype == torch.half`).
bool only_compared(const Context& c);

// Imports and references of the names in `list`, except those whose
// matching part is `allowed` (an entry of it or a name under one).
void match_names(const Context& c, Names list, std::vector<Finding>& out, Names allowed = {});
// The attribute a class pattern's keyword reads (`__globals__` of
// `case object(__globals__=g)`) when the current node is that keyword
// pattern; a null node otherwise. Class patterns read any attribute.
TSNode keyword_pattern_name(const Context& c);
// Attribute accesses `x.<name>` (and class patterns' keywords, which read
// the same attribute) for the names in `list`, whatever x is.
void match_attributes(const Context& c, Names list, std::vector<Finding>& out);
// String literals (e.g. CUDA sources) naming one of the identifiers in `list`.
void match_strings(const Context& c, Names list, std::vector<Finding>& out);
// The value of a string expression made of literals only (a literal, an
// implicit or `+` concatenation, os.path.join or "sep".join of such).
std::optional<std::string> folded_string(const Context& c, TSNode node, int depth = 0);
// String expressions naming one of the paths in `list`.
void match_paths(const Context& c, Names list, std::vector<Finding>& out);

// The qualified name of the function whose keywords the current call's
// keyword arguments are: its callee's, or for functools.partial and
// partialmethod the function they bind (Context::partial_target), so that a
// rule on a function's keywords judges `partial(f, key=...)` as `f(key=...)`.
std::string keywords_function(const Context& c);

// The n-th positional argument of the current call (0-based), or null.
TSNode positional_argument(const Context& c, uint32_t index);
// Whether the current node is written to: an assignment's, augmented
// assignment's or loop's target (`for os.environ["X"] in ...`, in a
// comprehension too), alone or inside a tuple or list of targets, or deleted.
bool is_target(const Context& c);
// The builtin `name` used as a value rather than called.
bool uncalled_builtin(const Context& c, std::string_view name);
bool is_setattr_call(const Context& c);
// The variables the current node writes into or removes from the process
// environment (os.environ or os.environb: subscript writes and deletes,
// update, setdefault, pop, popitem, clear, `|=`, rebinding, os.putenv,
// os.unsetenv), each with where; a variable named by anything but a plain
// (or bytes) literal reads as "?".
std::vector<std::pair<TSNode, std::string>> environment_writes(const Context& c);
// The name a definition in a class body or at the top level gives.
std::string_view defined_name(const Context& c);

// The dunder the current node names as a variable rather than as an
// attribute (`__annotations__[k] = int` in a class body, `__class__` in a
// method); empty otherwise.
std::string_view dunder_variable(const Context& c);

// A setting a candidate may write (rules_precision.cpp): a precision flag
// set to False, a flag that changes no result set to a boolean, cuDNN left on.
bool allowed_setting(const Context& c, TSNode target);

}  // namespace kmem::check
