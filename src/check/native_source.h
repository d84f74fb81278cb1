// What a Python string literal holds once Python has read it, and the C++/CUDA
// source inside it as the compiler would see its tokens: adjacent literals
// joined, escapes decoded, comments dropped, `##` pasting and line splices
// undone. The checker's rules match native identifiers on this text, so
// that "pthr" "ead_create", "\x70thread_create" or a comment naming __half
// read as the compiler reads them.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "syntax_tree.h"

namespace kmem::check {

// The value of a `string` or `concatenated_string` node: escapes decoded,
// parts joined; an interpolation ({x} of an f-string) reads as one space.
std::string python_string_value(const SyntaxTree& tree, TSNode node);
// The same, with each f-string field's value given by `field` (nullopt when
// any field has none).
std::optional<std::string> python_string_value(const SyntaxTree& tree, TSNode node,
                                               const std::function<std::optional<std::string>(TSNode)>& field);

// `source` without C/C++ comments and line splices, with `a ## b` pasted to
// `ab`, blanks around `::` removed ("std :: thread" -> "std::thread") and
// namespace aliases expanded ("namespace s = std; s::thread" -> "std::thread").
std::string native_tokens(std::string_view source);

// Whether `text` (from native_tokens) holds `name` as a whole identifier
// (or qualified name: "std::thread"), not followed by `::` and one of
// `unless_member` ("std::thread::hardware_concurrency" is no thread).
bool has_identifier(std::string_view text, std::string_view name, std::string_view unless_member = {});

// Whether `text` holds the identifier `name` other than as the right side
// of `==` or `!=` (`x.scalar_type() != at::kHalf` reads a type, uses none).
bool has_uncompared_identifier(std::string_view text, std::string_view name);

// The operands of the preprocessor directives `name` ("include", "define")
// in `text` (from native_tokens): what follows `#  name` on its line.
std::vector<std::string_view> directives(std::string_view text, std::string_view name);

// Whether `value` (a string's value) defines a macro that pastes tokens
// (`##` or its digraph `%:%:`), making identifiers no text shows.
bool pastes_tokens(std::string_view value);

// Whether `text` calls `name`: the identifier followed by '('.
bool has_call(std::string_view text, std::string_view name);

// Whether `text` names `name` as a whole identifier other than as a member
// (`x.name`, `p->name`).
bool has_free_identifier(std::string_view text, std::string_view name);

// Whether `text` defines a function `name`: a type, the name, a parameter
// list and a body.
bool has_definition(std::string_view text, std::string_view name);

// Whether `text` calls a member function `name` (`x.half()`).
bool has_member_call(std::string_view text, std::string_view name);

// Whether `text` uses CUDA's `half` as a type (`const half* x`, `<half>`),
// not as a variable (`int half = n / 2`).
bool has_half_type(std::string_view text);

// Whether `text` uses `name` as a type: an object made (`thread t(f)`,
// `thread(f)`, `thread{f}`), a qualified name (`::thread`), a template
// argument (`vector<thread>`, `remove_reference_t<thread&>`), a cast
// (`(thread)(f)`) or the type named under another name (`#define`, `using`,
// `typedef`); not a variable (`int thread = ...; if (thread < n) y[thread] =
// ...`), a member, or a header (`#include <thread>`).
bool has_type_use(std::string_view text, std::string_view name);

// Whether `text` holds a using-directive (`using namespace std;`, however
// spaced, of any namespace: a macro may name std).
bool has_using_directive(std::string_view text);

// Whether `text` gives `name` a meaning of its own: a variable, macro or
// function of that name (`const auto CUBLAS_DEFAULT_MATH = ...`, `#define`,
// `#undef`, `NAME(x)`), so that the name no longer means the library's value.
bool redefines(std::string_view text, std::string_view name);

// Whether a use of the function `name` in `text` passes, as its argument
// `index` (from 0) of `arity`, anything but the identifiers `allowed` joined
// by `|` (`cublasSetMathMode(h, CUBLAS_DEFAULT_MATH)` passes; `(cublasMath_t)3`,
// `decltype(m)(3)` or a macro do not), uses it other than by calling it (its
// address taken, a macro naming it), calls it with another count of
// arguments, or redefines one of `allowed` (redefines). An argument that is
// one of `restored` (restored_values) passes.
bool has_unlisted_argument(std::string_view text, std::string_view name, size_t index, size_t arity,
                           std::span<const std::string_view> allowed, std::span<const std::string_view> restored = {});

// The variables of `text` that only give back a value saved from `getter`
// after `setter` set one of `kept` (`cublasMath_t mode; cublasGetMathMode(h,
// &mode); cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); ...;
// cublasSetMathMode(h, mode);`): declared `type name;`, written only as
// `getter(h, &name)`, otherwise only passed last to `setter(h, name)`, each
// such call coming after a getter call saving it and a `setter` call with
// one of `kept` between the two. Literals are not read (blank_literals).
std::vector<std::string_view> restored_values(std::string_view text, std::string_view type, std::string_view getter,
                                              std::string_view setter, std::span<const std::string_view> kept);

// Whether `text` names the type `type` other than to declare one of
// `declared` (`cublasMath_t mode;`).
bool has_type_besides_declarations(std::string_view text, std::string_view type,
                                   std::span<const std::string_view> declared);

// Scanning helpers for text from native_tokens, shared by the rules that read it.
bool identifier_char(char c);
// The first non-blank character before `at` (0 at the start), and from `at` on (0 at the end).
char previous_char(std::string_view text, size_t at);
char next_char(std::string_view text, size_t at);
// Whether the identifier at `at` is a member (`x.name`, `p->name`, blanks
// before it allowed).
bool is_member(std::string_view text, size_t at);
// The text of `at`'s line before `at` (`#define T ` of `#define T thread`).
std::string_view line_before(std::string_view text, size_t at);
// The identifier that ends just before `at`, blanks between allowed (`const`
// of `const half* x`); empty when something else precedes.
std::string_view word_before(std::string_view text, size_t at);
// `text` without the blanks around it (a call's argument).
std::string_view trimmed(std::string_view text);
// The identifiers of `code` (native source, its literals blanked by
// blank_literals where they must not count), in order, each with where it starts.
struct Identifier {
  std::string_view text;
  size_t at;
};
std::vector<Identifier> identifiers(std::string_view code);

// `text` with what its string and character literals hold (raw strings of
// every prefix included) blanked, quotes and line breaks kept, offsets
// unchanged: no literal reads as code, or hides any (the `}` of `m.doc() =
// "}"`, a `"cublasSetMathMode("` before a call's argument).
std::string blank_literals(std::string_view text);

// `text` (native tokens) with the string literals that are prose blanked
// as blank_literals does (a `TORCH_CHECK` message naming `__half` is no
// type): those of inline assembly (`asm volatile("cvt.rn.f16.f32 ...")`,
// `__asm__(...)`: PTX is code) and of directives (a macro's string may be
// handed to asm) are kept. Where `asm` is named other than as a statement
// (in a directive, a macro wrapping or renaming it), nothing is blanked.
std::string blank_prose_literals(std::string_view text);

// `text` with C escape sequences read as the compiler reads them inside its
// string literals (inline assembly is one): `\x73` and octal escapes as
// their character, `\n`, `\t` and the other letter escapes as a line break
// or blank, `\\` and quotes as themselves; so `"\nsyscall"` or
// `"\x73yscall"` read as the instruction the assembler sees.
std::string c_escapes_decoded(std::string_view text);

// The first identifier in `text` that starts with `prefix` (`PyFrame_` finds
// `PyFrame_GetVarString`); empty when none does.
std::string_view identifier_with_prefix(std::string_view text, std::string_view prefix);

// The first of `types` that a PTX instruction `opcode` in `text` names
// among its dotted parts (`s8` of `mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`,
// `wmma.mma.sync...` included); empty when none does.
std::string_view ptx_instruction_type(std::string_view text, std::string_view opcode,
                                      std::span<const std::string_view> types);

// The first dunder name written as a C string in `text` (`fn.attr("__globals__")`);
// empty when there is none.
std::string_view quoted_dunder(std::string_view text);

// Whether `text` calls the function `name`, takes its address (`&fork`),
// names it in a `#define` or passes it to a macro (`CALL(fork)`), to call it
// under another name.
bool has_function_use(std::string_view text, std::string_view name);

}  // namespace kmem::check
