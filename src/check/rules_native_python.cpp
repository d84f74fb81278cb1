// dynamic_code's allow-list for native sources (native_python.h): what of
// Python the C++/CUDA given to load_inline may touch, judged on the sources
// as the compiler gets them: composed ones at the call, plain literals where
// they stand; characters the checker could read other than compilers do;
// and the ways around C++'s access control (keywords redefined by the
// preprocessor, member pointers where access is not checked).
#include <cctype>

#include "grammar.h"
#include "native_python.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

constexpr std::string_view kLoadInline = "torch.utils.cpp_extension.load_inline";

// Whether the current node is a string given as is to load_inline, whose
// value the call's own native text leaves out (Context::native_text).
bool is_literal_source(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.string && c.symbol() != g.concatenated_string) return false;
  if (c.symbol() == g.string && c.parent_symbol() == g.concatenated_string) return false;
  TSNode call;
  if (c.parent_symbol() == g.argument_list) {  // load_inline(name, cpp_sources, cuda_sources, sycl_sources, ...)
    call = c.ancestor(2);
    bool source = false;
    for (uint32_t i = 1; i <= 3; ++i) source = source || ts_node_eq(c.positional_argument(call, i), c.node());
    if (!source) return false;
  } else if (c.parent_symbol() == g.keyword_argument && ts_node_symbol(c.ancestor(2)) == g.argument_list) {
    std::string_view key = c.text(ts_node_child_by_field_name(c.parent(), "name", 4));
    if (key != "cpp_sources" && key != "cuda_sources" && key != "sycl_sources") return false;
    call = c.ancestor(3);
  } else {
    return false;
  }
  return ts_node_symbol(call) == g.call &&
         c.qualified_name(ts_node_child_by_field_name(call, "function", 8)) == kLoadInline;
}

// Whether the current node is where a load_inline's native sources are
// read: the call (its composed sources) or a literal given to it as is.
bool holds_native_source(const Context& c) {
  return (c.symbol() == c.grammar().call && c.callee_name() == kLoadInline) || is_literal_source(c);
}

// The first character of `text` that compilers read other than the checker
// does (a line splice over a form feed or vertical tab, a lone carriage
// return ending a line, a NUL), named; empty when none. Honest sources hold
// none of them. (Trigraphs are read by no standard a build may ask for.)
std::string_view unreadable_character(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
      case '\f': return "a form feed";
      case '\v': return "a vertical tab";
      case '\0': return "a NUL";
      case '\r':
        if (i + 1 >= text.size() || text[i + 1] != '\n') return "a lone carriage return";
        break;
      default: break;
    }
  }
  return {};
}

// C++'s keywords (and the alternative tokens), which no program may #define
// or #undef once it includes a standard header.
constexpr std::string_view kKeywords[] = {
    "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
    "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
    "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
    "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
    "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
    "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
    "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
    "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
    "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
    "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
    "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
    "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
    "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
    "xor_eq"};

// The first keyword `text` (native_tokens) #defines or #undefs, empty when
// none: `#define private public` lifts the access control of every header
// included after it, so torch's private state (the global context's
// settings, an allocator's fields) is written with no call an import would
// show.
std::string_view redefined_keyword(std::string_view text) {
  for (std::string_view directive : {"define", "undef"}) {
    for (std::string_view operand : directives(text, directive)) {
      std::vector<Identifier> words = identifiers(operand);
      if (!words.empty() && words.front().at == 0 && listed(words.front().text, kKeywords)) return words.front().text;
    }
  }
  return {};
}

// The first pointer to a member (`&at::Context::benchmark_cudnn`) that a
// template declaration's head in `text` (native_tokens) names, from
// `template` to the `;` or `{` that ends it; empty when none. In the
// arguments of an explicit instantiation or specialization, access is not
// checked: `template struct Rob<Tag, &at::Context::field>;` hands out a
// private member of torch's global state, to be written with no call an
// import would show.
std::string member_pointer_in_template_head(std::string_view text) {
  for (const Identifier& word : identifiers(text)) {
    if (word.text != "template") continue;
    size_t end = std::min(text.find_first_of(";{", word.at), text.size());
    for (size_t amp = text.find('&', word.at); amp < end; amp = text.find('&', amp + 1)) {
      if ((amp + 1 < text.size() && text[amp + 1] == '&') || (amp > 0 && text[amp - 1] == '&')) continue;  // `&&`
      size_t stop = amp + 1;
      while (stop < end &&
             (identifier_char(text[stop]) || text[stop] == ':' || std::isspace(static_cast<unsigned char>(text[stop]))))
        ++stop;
      std::string_view named = trimmed(text.substr(amp + 1, stop - amp - 1));
      if (named.find("::") != std::string_view::npos && named.find_first_not_of(":") != std::string_view::npos)
        return std::string(named);
    }
  }
  return {};
}

}  // namespace

void native_keyword_macro(const Context& c, std::vector<Finding>& out) {
  if (!holds_native_source(c)) return;
  if (std::string_view keyword = redefined_keyword(c.native_text()); !keyword.empty())
    out.push_back({c.node(), "#define " + std::string(keyword) + " in native code"});
  if (std::string member = member_pointer_in_template_head(c.native_text()); !member.empty())
    out.push_back({c.node(), "&" + member + " in a template's head in native code (no access check there)"});
}

void native_python(const Context& c, std::vector<Finding>& out) {
  if (!holds_native_source(c)) return;
  if (std::string_view odd = unreadable_character(c.native_text()); !odd.empty())
    out.push_back({c.node(), "native source holding " + std::string(odd) + ", which compilers read otherwise"});
  if (std::string found = python_reach(c.native_text()); !found.empty())
    out.push_back({c.node(), "Python reached from native code: " + found});
}

}  // namespace kmem::check
