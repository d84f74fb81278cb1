// The allow-list of Python a native source may touch (native_python.h): a
// scan of its identifiers outside literals, and of each PYBIND11_MODULE's
// body for the uses of its module.
#include "native_python.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "native_source.h"
#include "rule_support.h"

namespace kmem::check {
namespace {

// pybind11's names a binding needs (after `pybind11::` or `py::`): the class
// builders, constructors, argument and policy descriptors, the GIL guards,
// a tuple made of results and None (`py::arg("b") = py::none()`). None is the
// type of an object handed in from Python (`py::tuple`, `py::list`,
// `py::object`, `py::module_`: an item or attribute of one could be called;
// a list built in C++ is refused with them, std::vector gives the same),
// nor reads or calls an object the binding did not make.
constexpr std::string_view kBindingNames[] = {"arg",
                                              "arg_v",
                                              "call_guard",
                                              "class_",
                                              "const_",
                                              "enum_",
                                              "gil_scoped_acquire",
                                              "gil_scoped_release",
                                              "init",
                                              "keep_alive",
                                              "kw_only",
                                              "make_tuple",
                                              "none",
                                              "overload_cast",
                                              "pos_only",
                                              "return_value_policy"};
// Of these, the names whose members may be named too (enumerators).
constexpr std::string_view kBindingScopes[] = {"return_value_policy"};
// Headers that bind C++ to Python a source may include: pybind11's core and
// STL casters and torch's header of both (torch/extension.h includes them).
// Others bring casters that turn Python callables into C++ ones
// (pybind11/functional.h, and torch's JIT headers that include it), embed
// the interpreter (pybind11/embed.h) or declare the C-API (Python.h).
constexpr std::string_view kBindingHeaders[] = {"pybind11/pybind11.h", "pybind11/stl.h", "torch/python.h",
                                                "torch/csrc/utils/pybind.h"};
// Members of pybind11's objects that reach other objects: an attribute
// (`attr`, and `doc`, whose accessor type reads any attribute), the type
// (`get_type`), a module's import; on the module of a PYBIND11_MODULE,
// `doc` sets its docstring and is allowed there.
constexpr std::string_view kObjectMembers[] = {"attr", "doc", "get_type", "import"};
// Names of pybind11's object interface and of the C-API's that read, call
// or change a Python object, whatever precedes them.
constexpr std::string_view kAttributeWords[] = {"getattr", "setattr", "hasattr", "delattr"};

// Whether the line holding `at` is a preprocessor directive.
bool in_directive(std::string_view text, size_t at) {
  std::string_view head = line_before(text, at);
  size_t first = head.find_first_not_of(" \t");
  return first != std::string_view::npos && head[first] == '#';
}

// A name of Python's C-API or of CPython's and torch's Python objects.
bool names_python_object(std::string_view word, bool member) {
  if (word == "PyTorch") return false;  // the word, in a macro's text
  if (word.size() > 2 && word.starts_with("Py") &&
      (std::isupper(static_cast<unsigned char>(word[2])) || word[2] == '_'))
    return true;
  if (word.starts_with("_Py") || word.starts_with("pyobj")) return true;
  // torch's Python objects and state: THPVariable_Wrap, getTHPDtype (THP
  // after a word's start or a lower-case letter, before a capital: not
  // WIDTHPAD), PythonDispatcherTLS, SafePyObject, c10::impl::GPUTrace (the
  // interpreter behind the CUDA trace hooks).
  for (size_t at = word.find("THP"); at != std::string_view::npos; at = word.find("THP", at + 1))
    if ((at == 0 || word[at - 1] == '_' || std::islower(static_cast<unsigned char>(word[at - 1]))) &&
        at + 3 < word.size() && std::isupper(static_cast<unsigned char>(word[at + 3])))
      return true;
  for (std::string_view part : {"PyObject", "PyInterpreter", "Python", "GPUTrace"})
    if (word.find(part) != std::string_view::npos) return true;
  return member && (word.starts_with("ob_") || word.starts_with("tp_"));
}

// What a use of `pybind11` or `py` at token `t` names that is not allowed;
// empty when allowed.
std::string pybind11_use(std::string_view text, const Identifier& t) {
  size_t end = t.at + t.text.size();
  if (text.substr(end).starts_with("::")) {
    size_t name_end = end + 2;
    while (name_end < text.size() && (identifier_char(text[name_end]) || text.substr(name_end).starts_with("::")))
      name_end += text.substr(name_end).starts_with("::") ? 2 : 1;
    std::string_view name = text.substr(end + 2, name_end - end - 2);
    std::string_view first = name.substr(0, name.find("::"));
    bool whole = first.size() == name.size();
    if (listed(first, kBindingNames) && (whole || listed(first, kBindingScopes))) return {};
    return std::string(t.text) + "::" + std::string(name);
  }
  std::string_view before = word_before(text, t.at);
  if (in_directive(text, t.at)) {  // an #include's header is judged by included_header
    std::string_view head = line_before(text, t.at);
    size_t word = head.find_first_not_of(" \t", head.find('#') + 1);
    if (word != std::string_view::npos && head.substr(word).starts_with("include")) return {};
    return "#define naming " + std::string(t.text);
  }
  if (before == "namespace" && word_before(text, static_cast<size_t>(before.data() - text.data())) == "using")
    return "using namespace " + std::string(t.text);
  // `namespace py = pybind11;` (expanded where used); `py` as a variable.
  if (t.text == "py" || previous_char(text, t.at) == '=') return {};
  return std::string(t.text) + " named other than as pybind11::NAME";
}

// The end of the balanced `<...>` that ends just before `at` going back,
// i.e. where it starts; npos when `at` does not follow a `>`.
size_t template_arguments_start(std::string_view text, size_t at) {
  while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1]))) --at;
  if (at == 0 || text[at - 1] != '>') return std::string_view::npos;
  int depth = 0;
  for (size_t i = at; i > 0; --i) {
    if (text[i - 1] == '>') ++depth;
    if (text[i - 1] == '<' && --depth == 0) return i - 1;
  }
  return std::string_view::npos;
}

// Whether the expression at `at` begins a statement, so that its value is
// handed to nothing (`m.def(...);`, not `bind(m.def(...))`).
bool starts_statement(std::string_view text, size_t at) {
  char before = previous_char(text, at);
  return before == '{' || before == ';' || before == '}';
}

// The class or enum builder whose first argument is the module variable
// `var` at `at` (`class_` of `class_<T>(m, "T")`), made by a statement of
// its own; empty when there is none.
std::string_view type_builder(std::string_view text, size_t at, std::string_view var) {
  if (previous_char(text, at) != '(' || (next_char(text, at + var.size()) != ',')) return {};
  size_t paren = text.rfind('(', at);
  size_t open = template_arguments_start(text, paren);
  if (open == std::string_view::npos) return {};
  std::string_view builder = word_before(text, open);
  if (builder != "class_" && builder != "enum_") return {};
  size_t start = builder.data() - text.data();  // of its qualified name (`pybind11::class_`)
  while (start >= 2 && text.substr(start - 2, 2) == "::") {
    start -= 2;
    while (start > 0 && identifier_char(text[start - 1])) --start;
  }
  return starts_statement(text, start) ? builder : std::string_view();
}

// A PYBIND11_MODULE's module variable and body (`{` to its `}`), read from
// the text after the macro's name.
struct ModuleBlock {
  std::string_view var;
  size_t body = 0, body_end = 0;
};

std::optional<ModuleBlock> module_block(std::string_view text, size_t macro_end) {
  size_t open = macro_end;
  while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
  if (open >= text.size() || text[open] != '(') return std::nullopt;
  size_t close = text.find(')', open);
  size_t comma = text.find(',', open);
  if (close == std::string_view::npos || comma == std::string_view::npos || comma > close) return std::nullopt;
  ModuleBlock block;
  block.var = trimmed(text.substr(comma + 1, close - comma - 1));
  block.body = text.find('{', close);
  if (block.body == std::string_view::npos) block.body = text.size();
  block.body_end = block.body;
  for (int depth = 0; block.body_end < text.size(); ++block.body_end) {
    if (text[block.body_end] == '{') ++depth;
    if (text[block.body_end] == '}' && --depth == 0) break;
  }
  return block;
}

// The first use of a PYBIND11_MODULE's module in its body other than to
// define names, each by a statement of its own: `m.def(...)`, `m.doc()`,
// `class_<T>(m, ...)` (their results, the module or a class object, handed
// to nothing); or a macro the source defines used in the body (it could
// name the module: `#define M m`). `text` is from blank_literals.
std::string module_use(std::string_view text, const ModuleBlock& block) {
  std::string_view inside = text.substr(block.body, block.body_end - block.body);
  std::string_view var = block.var;
  std::vector<std::string_view> macros;
  for (std::string_view defined : directives(text, "define")) {
    size_t end = 0;
    while (end < defined.size() && identifier_char(defined[end])) ++end;
    macros.push_back(defined.substr(0, end));
  }
  for (const Identifier& t : identifiers(inside)) {
    if (listed(t.text, macros)) return "the macro '" + std::string(t.text) + "' inside PYBIND11_MODULE";
    if (t.text != var || is_member(inside, t.at)) continue;
    size_t end = t.at + var.size();
    std::string_view rest = inside.substr(end);
    size_t dot = rest.find_first_not_of(" \t\n");
    if (dot != std::string_view::npos && rest[dot] == '.') {
      size_t name = rest.find_first_not_of(" \t\n", dot + 1);
      size_t name_end = name;
      while (name_end < rest.size() && identifier_char(rest[name_end])) ++name_end;
      std::string_view member = name == std::string_view::npos ? "" : rest.substr(name, name_end - name);
      if ((member == "def" || member == "doc") && next_char(rest, name_end) == '(' && starts_statement(inside, t.at))
        continue;
    }
    // pybind11's, not a template of the source's own given the module.
    if (std::string_view builder = type_builder(inside, t.at, var); !builder.empty() && !redefines(text, builder))
      continue;
    return "the module '" + std::string(var) + "' used other than to define names";
  }
  return {};
}

// The first header binding C++ to Python that a binding does not need, as
// `#include <...>`, in any directive that names a file (`#include`,
// `#include_next`, `#import`, however the path is spelled); empty when none.
std::string included_header(std::string_view text) {
  for (size_t line = 0; line < text.size();) {
    size_t end = std::min(text.find('\n', line), text.size());
    std::string_view content = text.substr(line, end - line);
    line = end + 1;
    size_t hash = content.find_first_not_of(" \t");
    size_t open = content.find_first_of("<\"");
    if (hash == std::string_view::npos || content[hash] != '#' || open == std::string_view::npos) continue;
    size_t close = content.find_first_of(">\"", open + 1);
    std::string_view header = content.substr(open + 1, close == std::string_view::npos ? close : close - open - 1);
    std::string lower(header);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    bool binds = lower.find("pybind") != std::string::npos || lower.find("python") != std::string::npos;
    if (binds && !listed(header, kBindingHeaders)) return "#include <" + std::string(header) + ">";
  }
  return {};
}

}  // namespace

std::string python_reach(std::string_view source) {
  if (std::string found = included_header(source); !found.empty()) return found;
  const std::string code = blank_literals(source);
  std::string_view text = code;
  std::vector<ModuleBlock> blocks;
  for (const Identifier& t : identifiers(text)) {
    if (t.text != "PYBIND11_MODULE") continue;
    // A macro standing for it (`#define MOD PYBIND11_MODULE`) would hide its module's uses.
    if (in_directive(text, t.at)) return "PYBIND11_MODULE in a directive";
    auto block = module_block(text, t.at + t.text.size());
    if (!block) return "PYBIND11_MODULE without its arguments";
    if (std::string found = module_use(text, *block); !found.empty()) return found;
    blocks.push_back(*block);
  }
  auto of_module = [&](const Identifier& t) {  // `m.doc()` on a PYBIND11_MODULE's module
    std::string_view object = word_before(text, text.rfind('.', t.at));
    return std::any_of(blocks.begin(), blocks.end(), [&](const ModuleBlock& b) { return b.var == object; });
  };
  for (const Identifier& t : identifiers(text)) {
    bool member = is_member(text, t.at);
    if (names_python_object(t.text, member)) return std::string(member ? "." : "") + std::string(t.text);
    if (!member && (t.text == "pybind11" || t.text == "py")) {
      if (std::string found = pybind11_use(text, t); !found.empty()) return found;
      continue;
    }
    bool object_member = listed(t.text, kObjectMembers) || t.text.starts_with("ob_") || t.text.starts_with("tp_");
    // A macro naming one (`#define FIELD attr`) is used as a member under another name.
    if ((object_member || listed(t.text, kAttributeWords)) && in_directive(text, t.at))
      return "#define naming " + std::string(t.text);
    if (member && object_member && !(t.text == "doc" && of_module(t))) return std::string(".").append(t.text);
    if (member && t.text == "ptr" && next_char(text, t.at + t.text.size()) == '(') return ".ptr()";
    if (!member && listed(t.text, kAttributeWords)) return std::string(t.text);
    if (t.text.starts_with("PYBIND11_") && t.text != "PYBIND11_MODULE") return std::string(t.text);
  }
  return {};
}

}  // namespace kmem::check
