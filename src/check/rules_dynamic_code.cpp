// Rules on code the checker cannot see: exec/eval/compile and their kin,
// deserialisers, environment variables, build flags and build folders that
// change what the compiler runs or links or what is loaded, token pasting,
// includes and assembler directives that pull in code, and source Python
// reads other than the checker.
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

constexpr std::string_view kDynamicCodeNames[] = {"exec",
                                                  "logging.config",
                                                  "triton.runtime.driver",
                                                  "triton.compile",
                                                  "triton.compiler.compile",
                                                  "torch.compiler.load_cache_artifacts",
                                                  "torch.export.load",
                                                  "torch.cuda.memory.CUDAPluggableAllocator",
                                                  "torch.cuda.CUDAPluggableAllocator",
                                                  "torch.cuda.memory.change_current_allocator",
                                                  "torch.cuda.change_current_allocator",
                                                  "eval",
                                                  "compile",
                                                  "__import__",
                                                  "runpy",
                                                  "pickle",
                                                  "marshal",
                                                  "timeit",
                                                  "code",
                                                  "codeop",
                                                  "pkgutil",
                                                  "types",
                                                  "shelve",
                                                  "dill",
                                                  "cloudpickle",
                                                  "torch.load",
                                                  "torch.jit.load",
                                                  "torch.package",
                                                  "breakpoint",
                                                  "help",
                                                  "cProfile",
                                                  "profile",
                                                  "pdb",
                                                  "bdb",
                                                  "doctest",
                                                  "trace",
                                                  "zipimport",
                                                  "torch.hub",
                                                  "torch.utils.benchmark",
                                                  "torch.jit.CompilationUnit",
                                                  "torch.ops.load_library",
                                                  "torch.classes.load_library",
                                                  "torch.utils.cpp_extension.load",
                                                  "numpy.load",
                                                  "typing.get_type_hints",
                                                  "typing.ForwardRef",
                                                  "typing.evaluate_forward_ref",
                                                  "typing_extensions.get_type_hints",
                                                  "typing_extensions.ForwardRef",
                                                  "typing_extensions.evaluate_forward_ref",
                                                  "triton.language.inline_asm_elementwise",
                                                  "triton.language.core.inline_asm_elementwise",
                                                  "sys.breakpointhook",
                                                  "numpy.f2py",
                                                  "numpy.distutils",
                                                  "numpy.testing.extbuild",
                                                  "triton.runtime.build",
                                                  "torch.serialization",
                                                  "torch.fx",
                                                  "functools.singledispatch",
                                                  "functools.singledispatchmethod"};
// Python run, compiled or imported from native code through pybind11, and
// the ways to the interpreter's builtins (whence `__import__`); the C-API's
// own families are kNativeCodePrefixes. The built library's imports are
// refused too (docs/evaluator.md, Native code), but the builtins are reached
// through calls every pybind11 binding imports, so only the source shows them.
constexpr std::string_view kNativePythonCalls[] = {"pybind11::exec",
                                                   "pybind11::eval",
                                                   "pybind11::eval_file",
                                                   "pybind11::globals",
                                                   "pybind11::module_::import",
                                                   "pybind11::module::import",
                                                   "pybind11::module_::import_",
                                                   "py::exec",
                                                   "py::eval",
                                                   "py::eval_file",
                                                   "py::globals",
                                                   "py::module_::import",
                                                   "py::module::import",
                                                   "__import__",
                                                   "__builtins__"};
// Families of the C-API and of CUDA's that run, load or reach code or the
// interpreter's state by prefix (`PyFrame_GetVarString`, `PyEval_EvalCodeEx`,
// `PyEval_GetFrameBuiltins`, `cuModuleLoadData`, `nvrtcCompileProgram`), and
// the process environment written from C (`setenv("LD_PRELOAD=...")`).
constexpr std::string_view kNativeCodePrefixes[] = {"PyRun_",
                                                    "PyEval_Eval",
                                                    "PyEval_Get",
                                                    "PyEval_Set",
                                                    "PyFrame_",
                                                    "PyThreadState_GetFrame",
                                                    "PyImport_",
                                                    "PyCode_",
                                                    "PyFunction_",
                                                    "PyMarshal_",
                                                    "PySys_",
                                                    "Py_CompileString",
                                                    "Py_AddPendingCall",
                                                    "PyObject_CallMethod",
                                                    "PyObject_SetAttr",
                                                    "PyObject_GenericSetAttr",
                                                    "PyObject_GenericGetDict",
                                                    "PyObject_DelAttr",
                                                    "PyDict_SetItem",
                                                    "PyModule_GetDict",
                                                    "PyType_Modified",
                                                    "cuModuleLoad",
                                                    "cuLibraryLoad",
                                                    "cudaLibraryLoad",
                                                    "cuLinkCreate",
                                                    "cuLinkAdd",
                                                    "nvrtc",
                                                    "nvJitLink",
                                                    "cuGetProcAddress",
                                                    "cudaGetDriverEntryPoint",
                                                    "setenv",
                                                    "putenv",
                                                    "unsetenv",
                                                    "clearenv",
                                                    "PyThreadState_Set",
                                                    "_PyThreadState_Set"};
// Assembler directives that pull a file or raw bytes into the binary.
constexpr std::string_view kHiddenCodeDirectives[] = {".incbin", ".include", ".byte ",         ".byte\t",
                                                      ".quad ",  ".ascii",   ".section .text", ".globl"};
// Dunder methods that run code where the checker cannot see it called
// (copy, pickle, deepcopy of the output).
constexpr std::string_view kDynamicCodeDunders[] = {"__reduce__",   "__reduce_ex__", "__setstate__",
                                                    "__getstate__", "__deepcopy__",  "__copy__"};

// Environment variables a candidate may set (build and allocator settings);
// any other may change what the compiler runs or links (CXX, NVCC_PREPEND_FLAGS,
// LD_PRELOAD, PATH, CUDA_HOME), except the precision ones, precision_downcast.
constexpr std::string_view kEnvironmentAllowed[] = {"TORCH_CUDA_ARCH_LIST",
                                                    "MAX_JOBS",
                                                    "CUDA_LAUNCH_BLOCKING",
                                                    "TORCH_USE_CUDA_DSA",
                                                    "CUBLAS_WORKSPACE_CONFIG",
                                                    "PYTORCH_CUDA_ALLOC_CONF",
                                                    "TORCH_EXTENSIONS_DIR",
                                                    "OMP_NUM_THREADS",
                                                    "TORCH_SHOW_CPP_STACKTRACES",
                                                    "PYTORCH_NO_CUDA_MEMORY_CACHING",
                                                    "CUDA_MODULE_LOADING",
                                                    "TRITON_PRINT_AUTOTUNING",
                                                    "TRITON_CACHE_DIR",
                                                    "CUDA_VISIBLE_DEVICES",
                                                    "MKL_NUM_THREADS",
                                                    "CUDA_DEVICE_MAX_CONNECTIONS"};

// Compiler and linker flags of cpp_extension a candidate may pass (any
// other may load or define code the checker cannot see: -Wl,..., -include,
// -fplugin, a library path, `-DNAME=value` with a value not a number).
constexpr std::string_view kBuildFlags[] = {"-O0",
                                            "-O1",
                                            "-O2",
                                            "-O3",
                                            "-Ofast",
                                            "-g",
                                            "-lineinfo",
                                            "--use_fast_math",
                                            "-use_fast_math",
                                            "--expt-relaxed-constexpr",
                                            "--expt-extended-lambda",
                                            "-std=c++14",
                                            "-std=c++17",
                                            "-std=c++20",
                                            "-fopenmp",
                                            "-march=native",
                                            "-mtune=native",
                                            "-ffast-math",
                                            "-funroll-loops",
                                            "-w",
                                            "-Xptxas",
                                            "-v",
                                            "-Xptxas=-v",
                                            "-Xptxas=-O3",
                                            "--ptxas-options=-v",
                                            "-Xcompiler",
                                            "-fPIC",
                                            "-lcublas",
                                            "-lcublasLt",
                                            "-lcudnn",
                                            "-lcufft",
                                            "-lcusparse",
                                            "-lcusolver",
                                            "-lcurand",
                                            "-lcudart",
                                            "-lcuda",
                                            "-lm",
                                            "-lgomp",
                                            "-fno-strict-aliasing",
                                            "--restrict",
                                            "-restrict",
                                            "-DNDEBUG",
                                            "--extended-lambda",
                                            "-Wall",
                                            "-Wextra",
                                            "-res-usage",
                                            "--resource-usage",
                                            "--extra-device-vectorization",
                                            "-fno-math-errno",
                                            "-O",
                                            "-DNDEBUG=1"};
// Flags whose name starts with one of these (architectures, register caps, warnings).
constexpr std::string_view kBuildFlagPrefixes[] = {"-arch=",
                                                   "-gencode",
                                                   "--gpu-architecture=",
                                                   "-maxrregcount=",
                                                   "--maxrregcount=",
                                                   "-Wno-",
                                                   "arch=",
                                                   "-code=",
                                                   "--generate-code=",
                                                   "--ptxas-options=",
                                                   "-Xptxas=",
                                                   "-L/usr/",
                                                   "-std=",
                                                   "--std=",
                                                   "-U__CUDA_NO_",
                                                   "-I/usr/",
                                                   "-ftz=",
                                                   "--ftz=",
                                                   "-prec-div=",
                                                   "--prec-div=",
                                                   "-prec-sqrt=",
                                                   "--prec-sqrt=",
                                                   "-fmad=",
                                                   "--fmad=",
                                                   "-DTORCH_EXTENSION_NAME="};
constexpr std::string_view kBuildFlagArguments[] = {"extra_cflags", "extra_cuda_cflags", "extra_ldflags",
                                                    "extra_include_paths"};

// A cpp_extension flag argument (extra_cflags=[...]) holding anything but
// literal flags of kBuildFlags.
void unknown_build_flags(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode key = field(c.node(), g.field_name);
  TSNode value = field(c.node(), g.field_value);
  if (ts_node_is_null(key) || ts_node_is_null(value) || !listed(c.text(key), kBuildFlagArguments)) return;
  // The flags: list or tuple literals, joined by `+`, or names bound once to such.
  std::vector<TSNode> flags, pending{value};
  while (!pending.empty()) {
    TSNode part = pending.back();
    pending.pop_back();
    if (ts_node_is_null(part)) continue;
    TSSymbol s = ts_node_symbol(part);
    TSNode constant = s == g.identifier ? c.facts().constant_value(c.text(part)) : TSNode{};
    if (s == g.list || s == g.tuple) {
      for (uint32_t i = 0; i < ts_node_named_child_count(part); ++i) flags.push_back(ts_node_named_child(part, i));
    } else if (s == g.binary_operator && c.text(ts_node_child_by_field_name(part, "operator", 8)) == "+") {
      pending.push_back(field(part, g.field_left));
      pending.push_back(field(part, g.field_right));
    } else if (!ts_node_is_null(constant) && pending.size() + flags.size() < 256) {
      pending.push_back(constant);
    } else {
      out.push_back({part, std::string(c.text(key)) + "=" + written(c.text(part))});
    }
  }
  // Include paths are directories, not flags.
  if (c.text(key) == "extra_include_paths") {
    std::string_view literal;
    for (TSNode flag : flags)
      if (!c.string_literal(flag, &literal) || !literal.starts_with('/')) out.push_back({flag, written(c.text(flag))});
    return;
  }
  for (TSNode flag : flags) {
    std::string_view literal;
    bool known = c.string_literal(flag, &literal) &&
                 (listed(literal, kBuildFlags) ||
                  std::any_of(std::begin(kBuildFlagPrefixes), std::end(kBuildFlagPrefixes),
                              [literal](std::string_view p) { return literal.starts_with(p); }) ||
                  (literal.starts_with("-D") && literal.find('=') == std::string_view::npos) ||
                  (literal.starts_with("-D") &&
                   literal.find_first_not_of("0123456789.", literal.find('=') + 1) == std::string_view::npos));
    if (!known) out.push_back({flag, written(c.text(flag))});
  }
}

// A build folder chosen by the candidate: `build_directory=` given anything
// but None (the evaluator keys each build's folder by its sources; a folder
// of one's own, another build's included, escapes that), anywhere it is
// written (`functools.partial(load_inline, build_directory=...)` too); and
// load_inline's options where no keyword shows them: unpacked (`**options`),
// by position past the sources (the fourth, `functions` or `sycl_sources` as
// torch's version places them, only as a list of literals), or load_inline
// itself handed to other code (`partial(load_inline, "n", src, ...)`).
void chosen_build_directory(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  constexpr std::string_view kLoadInline = "torch.utils.cpp_extension.load_inline";
  if (c.symbol() == g.keyword_argument) {
    TSNode value = field(c.node(), g.field_value);
    if (c.text(field(c.node(), g.field_name)) == "build_directory" && !ts_node_is_null(value) &&
        ts_node_symbol(value) != g.none)
      out.push_back({c.node(), "build_directory=" + written(c.text(value))});
    return;
  }
  if (c.reference_name() == kLoadInline) {
    TSNode parent = c.parent();
    bool called = c.parent_symbol() == g.call && ts_node_eq(field(parent, g.field_function), c.node());
    bool aliased = c.parent_symbol() == g.assignment && ts_node_eq(field(parent, g.field_right), c.node()) &&
                   ts_node_symbol(field(parent, g.field_left)) == g.identifier;
    if (!called && !aliased) out.push_back({c.node(), "load_inline as a value"});
  }
  if (c.symbol() != g.call || c.callee_name() != kLoadInline) return;
  if (TSNode unpacked = c.unpacked_argument(c.node()); !ts_node_is_null(unpacked))
    out.push_back({unpacked, "load_inline(" + written(c.text(unpacked)) + ")"});
  auto literal_list = [&](TSNode list) {
    if (ts_node_symbol(list) != g.list && ts_node_symbol(list) != g.tuple) return false;
    std::string_view literal;
    for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i)
      if (!c.string_literal(ts_node_named_child(list, i), &literal)) return false;
    return true;
  };
  if (TSNode fourth = positional_argument(c, 3); !ts_node_is_null(fourth) && !literal_list(fourth))
    out.push_back({fourth, "load_inline option by position"});
  for (uint32_t index = 4; !ts_node_is_null(positional_argument(c, index)); ++index)
    out.push_back({positional_argument(c, index), "load_inline option by position"});
}

// Whether an annotation's text names a type: dotted names, subscripts of
// them and `|`, `,`, spaces, quotes (`"torch.Tensor"`, `"list[ModelNew] | None"`),
// no call and no dunder.
bool names_a_type(std::string_view text) {
  for (char ch : text)
    if (!std::isalnum(static_cast<unsigned char>(ch)) &&
        std::string_view("_.[], |'\"").find(ch) == std::string_view::npos)
      return false;
  return text.find("__") == std::string_view::npos;
}

}  // namespace

// Names CPython would read differently from the checker: it folds non-ASCII
// identifiers to NFKC (`ｇｃ` is gc), the rules match names as written.
void non_ascii_name(const Context& c, std::vector<Finding>& out) {
  // \N{NAME} in a string: Python reads the named character, the checker cannot.
  if (c.symbol() == c.grammar().escape_sequence && c.text(c.node()).starts_with("\\N")) {
    out.push_back({c.node(), "named escape " + written(c.text(c.node()))});
    return;
  }
  if (c.symbol() != c.grammar().identifier) return;
  std::string_view name = c.text(c.node());
  if (std::any_of(name.begin(), name.end(), [](char ch) { return (ch & 0x80) != 0; }))
    out.push_back({c.node(), "non-ASCII name '" + written(name) + "'"});
}

// Modules a library imports under its own name (`enum` imports builtins as
// `bltns`, `re` imports `enum`), reached as its attributes: `re.enum.bltns.exec`
// is the builtin exec whatever the name says.
constexpr std::string_view kReachableModules[] = {
    "builtins", "bltns",  "__builtins__", "six",        "sys",       "gc",      "inspect", "ctypes",  "importlib",
    "types",    "enum",   "re",           "subprocess", "threading", "copyreg", "pickle",  "marshal", "code",
    "os",       "typing", "functools",    "operator",   "string",    "io",      "atexit",  "weakref", "traceback"};
// Submodules that are a package's own (`os.path`), not a module it imported.
constexpr std::string_view kOwnSubmodules[] = {"os.path", "collections.abc", "importlib.util", "typing.re"};

// The part of a qualified name after its head that names a module reached
// through another module; empty when none does.
static std::string_view module_through_module(std::string_view qualified) {
  size_t head = qualified.find('.');
  if (head == std::string_view::npos) return {};
  std::string_view root = qualified.substr(0, head);
  if (root == "torch" || root == "numpy" || root == "triton") return {};
  for (size_t start = head + 1; start != 0; start = qualified.find('.', start) + 1) {
    std::string_view part = qualified.substr(start, qualified.find('.', start) - start);
    std::string_view prefix = qualified.substr(0, qualified.find('.', start));
    if (listed(part, kReachableModules) && !listed(prefix, kOwnSubmodules)) return part;
  }
  return {};
}

// Whether `node` is source text the checker reads whole (Context::source_value
// computes it: literals, f-strings, names bound once, `+`, `%`, `.format`,
// `.join`, `.replace`, `.strip`, `textwrap.dedent`). A source built at run
// time (`bytes([...]).decode()`) would escape every rule on native code.
static bool readable_source(const Context& c, TSNode node) { return c.source_value(node).has_value(); }

// load_inline's C++ and CUDA sources, where given.
static void unreadable_native_sources(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.call || c.callee_name() != "torch.utils.cpp_extension.load_inline") return;
  TSNode arguments = c.argument_list(c.node());
  for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) != g.keyword_argument) continue;
    std::string_view key = c.text(field(a, g.field_name));
    TSNode value = field(a, g.field_value);
    if ((key == "cpp_sources" || key == "cuda_sources") && ts_node_symbol(value) != g.none &&
        !readable_source(c, value))
      out.push_back({value, std::string(key) + " built at run time"});
  }
  for (uint32_t index : {1u, 2u})
    if (TSNode value = positional_argument(c, index); !ts_node_is_null(value) && !readable_source(c, value))
      out.push_back({value, "native source built at run time"});
}

void dynamic_code(const Context& c, std::vector<Finding>& out) {
  unreadable_native_sources(c, out);
  if (std::string_view through = module_through_module(c.reference_name()); !through.empty())
    out.push_back({c.node(), c.reference_name() + " (" + std::string(through) + " through another module)"});
  for (const auto& [at, key] : environment_writes(c))
    if (!listed(key, kEnvironmentAllowed) && !listed(key, kEnvironmentPrecision))
      out.push_back({at, "os.environ[" + written(key) + "]"});
  match_names(c, kDynamicCodeNames, out);
  chosen_build_directory(c, out);
  const Grammar& g = c.grammar();
  if (c.symbol() == g.keyword_argument) return unknown_build_flags(c, out);
  // type(name, bases, namespace) makes a class whose members no def shows.
  if (c.symbol() == g.call && c.callee_name() == "type" && !ts_node_is_null(positional_argument(c, 1)))
    out.push_back({c.node(), "type(name, bases, namespace)"});
  std::string_view defined = defined_name(c);
  if (listed(defined, kDynamicCodeDunders)) out.push_back({c.node(), std::string(defined)});
  match_strings(c, kNativePythonCalls, out);
  if (const std::string& native = c.native_text(); !native.empty()) {
    for (std::string_view prefix : kNativeCodePrefixes)
      if (std::string_view found = identifier_with_prefix(native, prefix); !found.empty())
        out.push_back({c.node(), std::string(found)});
  }
  // An annotation given as a string is evaluated by whatever reads the
  // annotations (typing, functools, dataclasses, ...): a type's name, never
  // code (`"(exec(...), int)[1]"`).
  static const TSSymbol kAnnotation = python_symbol("type");
  if (std::string_view literal; c.symbol() == g.string && c.parent_symbol() == kAnnotation &&
                                (!c.string_literal(c.node(), &literal) || !names_a_type(literal)))
    out.push_back({c.node(), "annotation " + written(c.text(c.node()))});
  // A macro that pastes tokens (`a ## b`) makes identifiers no text shows.
  if (c.symbol() != g.string && c.symbol() != g.concatenated_string) return;
  if (c.symbol() == g.string && c.parent_symbol() == g.concatenated_string) return;
  if (pastes_tokens(python_string_value(c.tree(), c.node()))) out.push_back({c.node(), "## token pasting"});
  // Code the text does not show: includes by path or macro, assembler
  // directives that pull in files or raw bytes.
  const std::string& text = c.native_text();
  for (std::string_view operand : directives(text, "include")) {
    std::string_view path = operand.substr(std::min<size_t>(1, operand.size()));
    if ((!operand.starts_with('<') && !operand.starts_with('"')) || path.starts_with('/') ||
        path.find("..") != std::string_view::npos)
      out.push_back({c.node(), "#include " + written(operand)});
  }
  for (std::string_view directive : kHiddenCodeDirectives)
    if (text.find(directive) != std::string::npos) out.push_back({c.node(), std::string(directive)});
}

}  // namespace kmem::check
