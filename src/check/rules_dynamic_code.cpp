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
#include "stdlib_modules.h"

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
                                                  "torch.utils.model_zoo",
                                                  "numpy.lib.npyio",
                                                  "numpy.lib.format",
                                                  "torch.utils.benchmark",
                                                  "torch.jit.CompilationUnit",
                                                  "torch.ops.load_library",
                                                  "torch.ops.import_module",
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
                                                  "numpy.testing",
                                                  "numpy.lookfor",
                                                  "numpy.info",
                                                  "numpy.source",
                                                  "numpy.lib.utils",
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
// TorchScript compiled or loaded from native code (`torch::jit::compile("def
// f(x): ...")`): Python-like code in a string, which no rule reads (the
// precision rules skip a native source's prose literals).
constexpr std::string_view kNativeScriptNames[] = {"torch::jit",      "jit::compile",     "jit::load",
                                                   "CompilationUnit", "import_ir_module", "parseIR"};
// Assembler directives that pull a file or raw bytes into the binary, or
// put them where code runs (`.section .text` and `.pushsection .text` are
// matched with their operand). Read with C escapes decoded.
constexpr std::string_view kHiddenCodeDirectives[] = {
    ".incbin",  ".include",     ".byte",    ".2byte",   ".4byte", ".8byte", ".short",  ".hword", ".word",
    ".int",     ".long",        ".quad",    ".octa",    ".ascii", ".asciz", ".string", ".inst",  ".globl",
    ".section", ".pushsection", ".uleb128", ".sleb128", ".fill",  ".value", ".skip",   ".space", ".zero",
    ".dc",      ".dc.a",        ".dc.b",    ".dc.d",    ".dc.l",  ".dc.s",  ".dc.w",   ".dc.x",  ".ds"};
// Readers of annotations that evaluate the string ones when told to
// (`eval_str=True`), as typing.get_type_hints does: only called, with
// eval_str absent or a literal False.
constexpr std::string_view kAnnotationReaders[] = {"typing_extensions.get_annotations", "inspect.get_annotations",
                                                   "annotationlib.get_annotations"};
// Dunder variables holding a scope's annotations, which dataclasses paste
// into code they exec and typing evaluates (`__annotations__[KEY] = int` in
// a class body: a key computed at run time is code no rule reads).
constexpr std::string_view kAnnotationVariables[] = {"__annotations__", "__annotate__", "__conditional_annotations__"};
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
// cpp_extension writes every flag, the extension's name and the include
// paths unquoted into build.ninja, whose commands /bin/sh runs: a flag is
// read as the blank-separated flags it makes, each judged alone, and may
// hold only kFlagCharacters (no `;`, `$`, quote, `@` response file, ...).
constexpr std::string_view kBuildFlags[] = {
    "-O0", "-O1", "-O2", "-O3", "-Ofast", "-O", "-g", "-lineinfo", "--generate-line-info", "--use_fast_math",
    "-use_fast_math", "--expt-relaxed-constexpr", "--expt-extended-lambda", "--extended-lambda", "-fopenmp",
    "-march=native", "-mtune=native", "-ffast-math", "-funroll-loops", "-funroll-all-loops", "-ftree-vectorize",
    "-fno-tree-vectorize", "-fomit-frame-pointer", "-fno-trapping-math", "-ffp-contract=fast", "-ffp-contract=on",
    "-ffp-contract=off",
    // Instruction sets and the targets that imply them.
    "-msse3", "-mssse3", "-msse4.1", "-msse4.2", "-mpopcnt", "-mavx", "-mavx2", "-mfma", "-mf16c", "-mbmi", "-mbmi2",
    "-mlzcnt", "-mavx512f", "-mavx512bw", "-mavx512cd", "-mavx512dq", "-mavx512vl", "-mavx512vnni", "-mavx512bf16",
    "-mavx512fp16", "-mprefer-vector-width=256", "-mprefer-vector-width=512", "-march=x86-64", "-march=x86-64-v2",
    "-march=x86-64-v3", "-march=x86-64-v4", "-march=haswell", "-march=skylake-avx512", "-march=icelake-server",
    "-march=sapphirerapids", "-march=znver2", "-march=znver3", "-march=znver4", "-mtune=generic",
    "-fno-strict-aliasing", "-fno-math-errno", "-fPIC", "-w", "-v", "-Wall", "-Wextra", "--restrict", "-restrict",
    "-res-usage", "--resource-usage", "--extra-device-vectorization", "-lcublas", "-lcublasLt", "-lcudnn", "-lcufft",
    "-lcusparse", "-lcusolver", "-lcurand", "-lcudart", "-lcuda", "-lm", "-lgomp", "-m64",
    // nvcc's diagnostics shown by number.
    "--display-error-number", "-err-no"};
// Characters a flag may hold (blanks split it into flags).
constexpr std::string_view kFlagCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-=,.+:/[]";
// ptxas's options a candidate may pass (`-Xptxas -O3,-v`): reports,
// optimisation, caching and register settings; none reads or writes a file.
constexpr std::string_view kPtxasOptions[] = {"-v",
                                              "--verbose",
                                              "-O0",
                                              "-O1",
                                              "-O2",
                                              "-O3",
                                              "-warn-spills",
                                              "-warn-lmem-usage",
                                              "--warn-on-spills",
                                              "--warn-on-local-memory-usage",
                                              "--warn-on-double-precision-use",
                                              "--allow-expensive-optimizations",
                                              "-lineinfo",
                                              "--generate-line-info",
                                              "--suppress-stack-size-warning"};
constexpr std::string_view kPtxasOptionPrefixes[] = {"-dlcm=",
                                                     "-dscm=",
                                                     "--def-load-cache=",
                                                     "--def-store-cache=",
                                                     "--allow-expensive-optimizations=",
                                                     "-maxrregcount=",
                                                     "--maxrregcount=",
                                                     "-fmad=",
                                                     "--fmad="};
// Options of the CUDA front end a candidate may pass (`-Xcudafe
// --diag_suppress=177`): which diagnostics it shows, by number or name; a
// bare number continues a list (`--diag_suppress=177,550`).
constexpr std::string_view kCudafeOptions[] = {"--display_error_number", "--no_display_error_number"};
constexpr std::string_view kCudafeDiagnosticOptions[] = {
    "--diag_suppress=", "--diag_warning=", "--diag_remark=", "--diag_error="};
constexpr std::string_view kUnsafeLoadArguments[] = {"allow_pickle", "is_standalone"};
constexpr std::string_view kBuildFlagArguments[] = {"extra_cflags", "extra_cuda_cflags", "extra_ldflags",
                                                    "extra_include_paths"};

bool only_characters(std::string_view text, std::string_view allowed) {
  return text.find_first_not_of(allowed) == std::string_view::npos;
}
bool is_identifier(std::string_view text) {
  return !text.empty() && !std::isdigit(static_cast<unsigned char>(text.front())) &&
         only_characters(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
}
bool is_number(std::string_view text) { return !text.empty() && only_characters(text, "0123456789"); }

// Whether `path` is absolute and made of plain names: flag characters but
// `,:=[]`, no `.`, `..` or empty part (a trailing `/` aside).
bool plain_absolute_path(std::string_view path) {
  if (!path.starts_with('/') || !only_characters(path, kFlagCharacters) ||
      path.find_first_of(",:=[]") != std::string_view::npos)
    return false;
  for (size_t at = 1; at <= path.size();) {
    size_t end = std::min(path.find('/', at), path.size());
    std::string_view part = path.substr(at, end - at);
    if ((part.empty() && end != path.size()) || part == "." || part == "..") return false;
    at = end + 1;
  }
  return true;
}

// A folder whose files a build may read: an absolute path of plain names (no
// `.`, `..` or empty part) under the system's and CUDA's headers. Any other
// folder (`/`, `/proc`, `/root`, `/tmp`, one relative to the evaluator's
// folder) lets `#include <proc/self/environ>` read what the compiler reports
// back, or code the checker never saw.
bool allowed_include_folder(std::string_view path) {
  if (!plain_absolute_path(path)) return false;
  std::string_view cuda = "/usr/local/cuda";
  if (path.starts_with(cuda)) {
    std::string_view rest = path.substr(cuda.size());
    std::string_view version = rest.substr(0, rest.find('/'));
    return version.empty() || (version.starts_with('-') && only_characters(version.substr(1), "0123456789."));
  }
  for (std::string_view root : {"/usr/include", "/usr/local/include"})
    if (path == root || (path.starts_with(root) && path[root.size()] == '/')) return true;
  return false;
}

// A folder to look for the allowed libraries in: plain names under /usr.
bool allowed_library_folder(std::string_view path) { return path.starts_with("/usr/") && plain_absolute_path(path); }

bool ptxas_options(std::string_view list) {
  for (size_t at = 0; at <= list.size();) {
    size_t end = std::min(list.find(',', at), list.size());
    std::string_view option = list.substr(at, end - at);
    bool known =
        listed(option, kPtxasOptions) || std::any_of(std::begin(kPtxasOptionPrefixes), std::end(kPtxasOptionPrefixes),
                                                     [option](std::string_view p) { return option.starts_with(p); });
    if (!known) return false;
    at = end + 1;
  }
  return true;
}
// -Xcudafe's value: CUDA front-end options, comma-separated (kCudafeOptions,
// kCudafeDiagnosticOptions with a diagnostic's number or name, or a number).
bool cudafe_options(std::string_view list) {
  for (size_t at = 0; at <= list.size();) {
    size_t end = std::min(list.find(',', at), list.size());
    std::string_view option = list.substr(at, end - at);
    bool known = listed(option, kCudafeOptions) || is_number(option) ||
                 std::any_of(std::begin(kCudafeDiagnosticOptions), std::end(kCudafeDiagnosticOptions),
                             [option](std::string_view p) {
                               return option.starts_with(p) && option.size() > p.size() &&
                                      only_characters(option.substr(p.size()), "abcdefghijklmnopqrstuvwxyz0123456789_");
                             });
    if (!known) return false;
    at = end + 1;
  }
  return true;
}
bool architectures(std::string_view list) {
  return !list.empty() && only_characters(list, "abcdefghijklmnopqrstuvwxyz0123456789_,-");
}
bool generated_code(std::string_view value) {  // arch=compute_90,code=[sm_90,compute_90]
  return value.starts_with("arch=") && only_characters(value, "abcdefghijklmnopqrstuvwxyz0123456789_,=[]");
}
bool allowed_flag(std::string_view flag);
bool host_flags(std::string_view list) {  // -Xcompiler's value: host compiler flags, comma-separated
  for (size_t at = 0; at <= list.size();) {
    size_t end = std::min(list.find(',', at), list.size());
    if (!allowed_flag(list.substr(at, end - at))) return false;
    at = end + 1;
  }
  return true;
}

// Options whose value is the flag after them (`-Xptxas -O3,-v`,
// `-maxrregcount 64`, `-arch sm_90`) or follows `=`, and what it may be.
struct ValuedOption {
  std::string_view option;
  bool (*value)(std::string_view);
};
constexpr ValuedOption kValuedOptions[] = {{"-Xptxas", ptxas_options},
                                           {"--ptxas-options", ptxas_options},
                                           {"-Xcompiler", host_flags},
                                           {"--compiler-options", host_flags},
                                           {"-maxrregcount", is_number},
                                           {"--maxrregcount", is_number},
                                           {"-arch", architectures},
                                           {"--gpu-architecture", architectures},
                                           {"-code", architectures},
                                           {"--gpu-code", architectures},
                                           {"-gencode", generated_code},
                                           {"--generate-code", generated_code},
                                           {"-Xcudafe", cudafe_options},
                                           {"--threads", is_number},
                                           {"-t", is_number}};
// Flags `PREFIX<value>` and what the value may be.
constexpr std::pair<std::string_view, std::string_view> kFlagValues[] = {
    {"-Wno-", "abcdefghijklmnopqrstuvwxyz0123456789-_="},
    {"-U__CUDA_NO_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"},
    {"-ftz=", "truefals"},
    {"--ftz=", "truefals"},
    {"-prec-div=", "truefals"},
    {"--prec-div=", "truefals"},
    {"-prec-sqrt=", "truefals"},
    {"--prec-sqrt=", "truefals"},
    {"-fmad=", "truefals"},
    {"--fmad=", "truefals"},
    {"--diag-suppress=", "abcdefghijklmnopqrstuvwxyz0123456789_,"},
    {"-diag-suppress=", "abcdefghijklmnopqrstuvwxyz0123456789_,"},
    {"--diag-warn=", "abcdefghijklmnopqrstuvwxyz0123456789_,"},
    {"-diag-warn=", "abcdefghijklmnopqrstuvwxyz0123456789_,"}};

const ValuedOption* valued_option(std::string_view flag) {
  for (const ValuedOption& option : kValuedOptions)
    if (flag == option.option) return &option;
  return nullptr;
}

// Language standards a build may ask for: C++17 on (torch's headers need
// it), where trigraphs are no more: an older strict standard (-std=c++14)
// would read `??/` as a backslash, which the checker does not.
constexpr std::string_view kLanguageStandards[] = {"c++17",   "c++1z",   "c++20",   "c++2a",   "c++23",   "c++2b",
                                                   "gnu++17", "gnu++1z", "gnu++20", "gnu++2a", "gnu++23", "gnu++2b"};

// Whether one flag (no blank in it) is allowed by itself.
bool allowed_flag(std::string_view flag) {
  if (flag.empty()) return true;
  if (!only_characters(flag, kFlagCharacters)) return false;
  if (listed(flag, kBuildFlags)) return true;
  for (std::string_view prefix : {"-std=", "--std="})
    if (flag.starts_with(prefix)) return listed(flag.substr(prefix.size()), kLanguageStandards);
  for (const ValuedOption& option : kValuedOptions)
    if (flag.starts_with(option.option) && flag.size() > option.option.size() && flag[option.option.size()] == '=')
      return option.value(flag.substr(option.option.size() + 1));
  for (const auto& [prefix, characters] : kFlagValues)
    if (flag.starts_with(prefix))
      return flag.size() > prefix.size() && only_characters(flag.substr(prefix.size()), characters);
  if (flag.starts_with("arch=")) return generated_code(flag);  // the value of a -gencode before it
  if (flag.starts_with("-I")) return allowed_include_folder(flag.substr(2));
  if (flag.starts_with("-L")) return allowed_library_folder(flag.substr(2));
  if (flag.starts_with("-D")) {  // -DNAME, -DNAME=<number>
    std::string_view definition = flag.substr(2);
    size_t equals = definition.find('=');
    if (equals == std::string_view::npos) return is_identifier(definition);
    std::string_view name = definition.substr(0, equals), value = definition.substr(equals + 1);
    if (name == "TORCH_EXTENSION_NAME") return is_identifier(value);
    return is_identifier(name) && !value.empty() && only_characters(value, "0123456789.");
  }
  return false;
}

// Whether `value` is known to be an integer: a field of
// `torch.cuda.get_device_capability()` (`major, minor = torch.cuda.get_device_capability()`
// at the top level, the names bound nowhere else; `CAP[0]` of `CAP = ...()`;
// `torch.cuda.get_device_capability()[1]`).
bool capability_number(const Context& c, TSNode value) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript"), kInteger = python_symbol("integer"),
                        kStatement = python_symbol("expression_statement");
  auto capability_call = [&](TSNode call) {
    return !ts_node_is_null(call) && ts_node_symbol(call) == g.call &&
           c.qualified_name(field(call, g.field_function)) == "torch.cuda.get_device_capability" &&
           ts_node_is_null(c.unpacked_argument(call));
  };
  auto top_level = [&](TSNode assignment) {
    TSNode statement = ts_node_parent(assignment);
    return ts_node_symbol(statement) == kStatement && ts_node_symbol(ts_node_parent(statement)) == g.module;
  };
  if (ts_node_is_null(value)) return false;
  if (ts_node_symbol(value) == kSubscript) {
    TSNode object = ts_node_child_by_field_name(value, "value", 5);
    TSNode index = ts_node_child_by_field_name(value, "subscript", 9);
    if (ts_node_is_null(index) || ts_node_symbol(index) != kInteger || (c.text(index) != "0" && c.text(index) != "1"))
      return false;
    if (capability_call(object)) return true;
    if (ts_node_is_null(object) || ts_node_symbol(object) != g.identifier || bound_locally(c.tree(), object))
      return false;
    TSNode bound = c.facts().bound_once(c.text(object));
    return capability_call(bound) && top_level(ts_node_parent(bound));
  }
  if (ts_node_symbol(value) != g.identifier || bound_locally(c.tree(), value) ||
      c.facts().bindings_of(c.text(value)) != 1)
    return false;
  // The one binding: `major, minor = torch.cuda.get_device_capability()` at the top level.
  std::string_view name = c.text(value);
  TSNode root = c.tree().root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode statement = ts_node_named_child(root, i);
    if (ts_node_symbol(statement) != kStatement || ts_node_named_child_count(statement) != 1) continue;
    TSNode assignment = ts_node_named_child(statement, 0);
    if (ts_node_symbol(assignment) != g.assignment) continue;
    TSNode left = field(assignment, g.field_left);
    if (ts_node_is_null(left) || (ts_node_symbol(left) != g.pattern_list && ts_node_symbol(left) != g.tuple_pattern) ||
        ts_node_named_child_count(left) != 2)
      continue;
    for (uint32_t j = 0; j < 2; ++j) {
      TSNode target = ts_node_named_child(left, j);
      if (ts_node_symbol(target) == g.identifier && c.text(target) == name)
        return capability_call(field(assignment, g.field_right));
    }
  }
  return false;
}

// The text of one flag expression: a string the checker computes
// (Context::text_value), or an f-string whose fields are such or numbers
// from torch.cuda.get_device_capability() (written as 0: digits alike).
std::optional<std::string> flag_text(const Context& c, TSNode node) {
  if (auto text = c.text_value(node)) return text;
  const Grammar& g = c.grammar();
  if (ts_node_symbol(node) != g.string) return std::nullopt;
  std::string_view prefix = c.text(node).substr(0, c.text(node).find_first_of("\"'"));
  if (prefix.find_first_of("bB") != std::string_view::npos) return std::nullopt;
  return python_string_value(c.tree(), node, [&](TSNode field_node) -> std::optional<std::string> {
    if (ts_node_named_child_count(field_node) != 1) return std::nullopt;
    TSNode expression = ts_node_named_child(field_node, 0);
    if (capability_number(c, expression)) return std::string("0");
    auto value = c.evaluate(expression);
    if (!value || !value->scalar()) return std::nullopt;
    return value->text;
  });
}

// One flag as written (a list's item) and what it holds.
struct FlagItem {
  TSNode at;
  std::string text;
};
using FlagSequence = std::vector<FlagItem>;

// The sequences of flags a flag argument may hold: list or tuple literals
// of flag expressions (flag_text), joined by `+`, a conditional expression's
// two branches (`["-O3"] + (["--use_fast_math"] if FAST else [])`, an item
// `"-DA" if A else "-DB"`), names bound once at the top level to such and
// used nowhere their value may change (FileFacts::constant_value), not
// local (bound_locally). At most 64 sequences; what it cannot read goes to
// `unknown`.
std::vector<FlagSequence> flag_sequences(const Context& c, TSNode node, std::vector<TSNode>& unknown, int depth = 0) {
  const Grammar& g = c.grammar();
  static const TSSymbol kConditional = python_symbol("conditional_expression");
  constexpr size_t kMost = 64;
  if (ts_node_is_null(node) || depth > 32) {
    unknown.push_back(node);
    return {};
  }
  TSSymbol s = ts_node_symbol(node);
  auto product = [&](std::vector<FlagSequence> left, const std::vector<FlagSequence>& right) {
    std::vector<FlagSequence> out;
    for (const FlagSequence& a : left)
      for (const FlagSequence& b : right) {
        if (out.size() >= kMost) {
          unknown.push_back(node);
          return out;
        }
        FlagSequence joined = a;
        joined.insert(joined.end(), b.begin(), b.end());
        out.push_back(std::move(joined));
      }
    return out;
  };
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return flag_sequences(c, ts_node_named_child(node, 0), unknown, depth + 1);
  if (s == kConditional && ts_node_named_child_count(node) == 3) {
    std::vector<FlagSequence> out = flag_sequences(c, ts_node_named_child(node, 0), unknown, depth + 1);
    for (FlagSequence& sequence : flag_sequences(c, ts_node_named_child(node, 2), unknown, depth + 1))
      out.push_back(std::move(sequence));
    if (out.size() > kMost) unknown.push_back(node);
    return out;
  }
  if (s == g.list || s == g.tuple) {
    std::vector<FlagSequence> out{{}};
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
      TSNode item = ts_node_named_child(node, i);
      std::vector<FlagSequence> choices;
      if (ts_node_symbol(item) == kConditional && ts_node_named_child_count(item) == 3) {
        for (uint32_t branch : {0u, 2u}) {
          TSNode chosen = ts_node_named_child(item, branch);
          if (auto text = flag_text(c, chosen)) choices.push_back({{chosen, *text}});
          else unknown.push_back(chosen);
        }
      } else if (auto text = flag_text(c, item)) {
        choices.push_back({{item, *text}});
      } else {
        unknown.push_back(item);
      }
      out = product(std::move(out), choices);
    }
    return out;
  }
  if (s == g.binary_operator && c.text(ts_node_child_by_field_name(node, "operator", 8)) == "+")
    return product(flag_sequences(c, field(node, g.field_left), unknown, depth + 1),
                   flag_sequences(c, field(node, g.field_right), unknown, depth + 1));
  if (s == g.identifier && !bound_locally(c.tree(), node)) {
    TSNode constant = c.facts().constant_value(c.text(node));
    if (!ts_node_is_null(constant)) return flag_sequences(c, constant, unknown, depth + 1);
  }
  unknown.push_back(node);
  return {};
}

// A cpp_extension flag argument (extra_cflags=[...]) holding anything but
// the flags above, or an include path outside the allowed folders.
void unknown_build_flags(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  TSNode key = field(c.node(), g.field_name);
  TSNode value = field(c.node(), g.field_value);
  if (ts_node_is_null(key) || ts_node_is_null(value) || !listed(c.text(key), kBuildFlagArguments)) return;
  std::vector<TSNode> unknown;
  std::vector<FlagSequence> sequences = flag_sequences(c, value, unknown);
  for (TSNode part : unknown)
    out.push_back({ts_node_is_null(part) ? value : part,
                   std::string(c.text(key)) + "=" + written(c.text(ts_node_is_null(part) ? value : part))});
  if (!unknown.empty()) return;
  std::vector<TSNode> refused;
  auto refuse = [&](TSNode at) {
    if (std::none_of(refused.begin(), refused.end(), [at](TSNode r) { return ts_node_eq(r, at); })) {
      refused.push_back(at);
      out.push_back({at, written(c.text(at))});
    }
  };
  // Include paths are folders, one an item.
  if (c.text(key) == "extra_include_paths") {
    for (const FlagSequence& sequence : sequences)
      for (const FlagItem& item : sequence)
        if (!allowed_include_folder(item.text)) refuse(item.at);
    return;
  }
  // The flags as the shell gets them: the items joined by blanks, split at blanks.
  for (const FlagSequence& sequence : sequences) {
    std::vector<std::pair<std::string_view, TSNode>> flags;
    for (const FlagItem& item : sequence) {
      std::string_view text = item.text;
      if (!only_characters(text, std::string(kFlagCharacters) + " \t")) refuse(item.at);
      for (size_t at = text.find_first_not_of(" \t"); at != std::string_view::npos;
           at = text.find_first_not_of(" \t", at)) {
        size_t end = std::min(text.find_first_of(" \t", at), text.size());
        flags.emplace_back(text.substr(at, end - at), item.at);
        at = end;
      }
    }
    for (size_t i = 0; i < flags.size(); ++i) {
      if (const ValuedOption* option = valued_option(flags[i].first)) {
        if (i + 1 == flags.size() || !option->value(flags[i + 1].first))
          refuse(flags[std::min(i + 1, flags.size() - 1)].second);
        ++i;
      } else if (!allowed_flag(flags[i].first)) {
        refuse(flags[i].second);
      }
    }
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
  // The fourth (`functions` or `sycl_sources`) is judged as `functions` (generated_bindings).
  for (uint32_t index = 4; !ts_node_is_null(positional_argument(c, index)); ++index)
    out.push_back({positional_argument(c, index), "load_inline option by position"});
}

// Whether `node` is known to make an identifier (`first`: one that starts
// as an identifier does) or, with `first` false, characters of one: a
// string the checker computes; `+` of such; an f-string of such; a hex
// digest (`hashlib.sha1(...).hexdigest()`, a slice of one) or a number of
// torch.cuda.get_device_capability() after the start (`"ext_" +
// hashlib.sha1(SRC.encode()).hexdigest()[:8]`).
bool identifier_expression(const Context& c, TSNode node, bool first, int depth = 0) {
  const Grammar& g = c.grammar();
  static const TSSymbol kSubscript = python_symbol("subscript");
  if (ts_node_is_null(node) || depth > 32) return false;
  if (auto text = c.text_value(node))
    return first ? is_identifier(*text)
                 : only_characters(*text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
  TSSymbol s = ts_node_symbol(node);
  if (s == g.parenthesized_expression && ts_node_named_child_count(node) == 1)
    return identifier_expression(c, ts_node_named_child(node, 0), first, depth + 1);
  if (s == g.identifier && !bound_locally(c.tree(), node))
    return identifier_expression(c, c.facts().bound_once(c.text(node)), first, depth + 1);
  if (s == g.binary_operator && c.text(ts_node_child_by_field_name(node, "operator", 8)) == "+")
    return identifier_expression(c, field(node, g.field_left), first, depth + 1) &&
           identifier_expression(c, field(node, g.field_right), false, depth + 1);
  if (first) return false;
  if (capability_number(c, node)) return true;
  while (ts_node_symbol(node) == kSubscript) node = ts_node_child_by_field_name(node, "value", 5);
  TSNode object;
  std::string_view method;
  if (ts_node_is_null(node) || ts_node_symbol(node) != g.call ||
      !c.reads_attribute(field(node, g.field_function), &object, &method) || method != "hexdigest" ||
      ts_node_is_null(object) || ts_node_symbol(object) != g.call)
    return false;
  return c.qualified_name(field(object, g.field_function)).starts_with("hashlib.");
}

// Names the module cpp_extension generates for `functions` is written with:
// `PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("NAME",
// torch::wrap_pybind_function(NAME), "DOC"); }`, appended to the C++ sources.
constexpr std::string_view kGeneratedModuleNames[] = {
    "m", "def", "torch", "wrap_pybind_function", "PYBIND11_MODULE", "TORCH_EXTENSION_NAME"};

// The argument of the call `c` given by keyword `key` or at position `index`.
TSNode call_argument(const Context& c, std::string_view key, uint32_t index) {
  const Grammar& g = c.grammar();
  TSNode arguments = c.argument_list(c.node());
  for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) == g.keyword_argument && c.text(field(a, g.field_name)) == key)
      return field(a, g.field_value);
  }
  return positional_argument(c, index);
}

// Names that become a class's members or an object's attributes: a
// mapping or list given to a class factory (make_dataclass's `namespace`
// and `fields`, the functional Enum's `names`), a metaclass called with a
// namespace, the dict a log record is made from (logging.makeLogRecord,
// makeRecord's `extra`), a `**` of a dict display (`SimpleNamespace(**{K:
// v})`). Each name must be one the checker reads, a string literal (which
// the dunder rules then judge), else a dunder is named by a key built at
// run time, out of every rule's sight: red-team candidates defined
// `__array_interface__` through each (numpy then reads and writes memory
// by address).
constexpr std::string_view kMetaclasses[] = {"type", "abc.ABCMeta", "enum.EnumMeta", "enum.EnumType"};
constexpr uint32_t kKeywordOnly = ~0u;
struct MemberNamesArgument {
  std::string_view callee;  // qualified, or ".method" for a method of any object
  std::string_view keyword;
  uint32_t position;   // kKeywordOnly: by keyword only
  bool class_factory;  // no `**` into the call at all: any keyword may be the argument
};
constexpr MemberNamesArgument kMemberNamesArguments[] = {
    {"dataclasses.make_dataclass", "namespace", kKeywordOnly, true},
    {"dataclasses.make_dataclass", "fields", 1, true},
    {"enum.Enum", "names", 1, true},
    {"enum.IntEnum", "names", 1, true},
    {"enum.Flag", "names", 1, true},
    {"enum.IntFlag", "names", 1, true},
    {"enum.StrEnum", "names", 1, true},
    {"logging.makeLogRecord", "dict", 0, false},
    {".makeRecord", "extra", 8, false}};

// Whether the member names `value` gives are all string literals: None, a
// string, a list or tuple of strings or of tuples starting with one ((name,
// value) pairs, a dataclass field's (name, type[, default])), a dict
// display with string keys and no `**` unpacking.
bool readable_member_names(const Context& c, TSNode value) {
  const Grammar& g = c.grammar();
  static const TSSymbol kDictionary = python_symbol("dictionary"), kPair = python_symbol("pair");
  std::string_view literal;
  auto name = [&](TSNode node) {
    if (!ts_node_is_null(node) && (ts_node_symbol(node) == g.tuple || ts_node_symbol(node) == g.list) &&
        ts_node_named_child_count(node) >= 1)  // (name, value) or a field's (name, type[, default])
      node = ts_node_named_child(node, 0);
    return !ts_node_is_null(node) && c.string_literal(node, &literal);
  };
  TSSymbol s = ts_node_symbol(value);
  if (s == g.none || s == g.string) return s == g.none || c.string_literal(value, &literal);
  if (s != g.list && s != g.tuple && s != kDictionary) return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(value); ++i) {
    TSNode item = ts_node_named_child(value, i);
    if (s == kDictionary ? ts_node_symbol(item) != kPair || !name(ts_node_child_by_field_name(item, "key", 3))
                         : !name(item))
      return false;
  }
  return true;
}

void unreadable_member_names(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  static const TSSymbol kDictionary = python_symbol("dictionary");
  if (c.symbol() == g.dictionary_splat) {
    TSNode mapping = ts_node_named_child(c.node(), 0);
    if (!ts_node_is_null(mapping) && ts_node_symbol(mapping) == kDictionary && !readable_member_names(c, mapping))
      out.push_back({c.node(), "attributes named by " + written(c.text(mapping))});
    return;
  }
  if (c.symbol() != g.call) return;
  const std::string& callee = c.callee_name();
  // type(name, bases, namespace), ABCMeta(...), type(x)(...): a class whose members no def shows.
  TSNode function = field(c.node(), g.field_function), object;
  bool metaclass_of_value = ts_node_symbol(function) == g.call && c.text(field(function, g.field_function)) == "type";
  if ((listed(callee, kMetaclasses) || metaclass_of_value) && !ts_node_is_null(positional_argument(c, 1))) {
    out.push_back({c.node(), (callee.empty() ? "type(x)" : callee) + "(name, bases, namespace)"});
    return;
  }
  std::string_view method;
  std::string called = c.reads_attribute(function, &object, &method) ? "." + std::string(method) : std::string();
  TSNode arguments = c.argument_list(c.node());
  auto splats_a_mapping = [&] {
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i)
      if (ts_node_symbol(ts_node_named_child(arguments, i)) == g.dictionary_splat) return true;
    return false;
  };
  for (const MemberNamesArgument& argument : kMemberNamesArguments) {
    if (argument.callee != callee && argument.callee != called) continue;
    if (argument.class_factory && splats_a_mapping())
      return out.push_back({c.node(), std::string(argument.callee) + "(**...): members out of sight"});
    TSNode names = call_argument(c, argument.keyword, argument.position);
    if (!ts_node_is_null(names) && !readable_member_names(c, names))
      out.push_back({names, std::string(argument.callee) + ": members named by " + written(c.text(names))});
  }
}

// What cpp_extension writes unquoted into generated code and the build:
// load_inline's `name` (`-DTORCH_EXTENSION_NAME={name}` in build.ninja,
// whose commands the shell runs) must be an identifier the checker
// computes; `functions` (keyword or the fourth argument) a list or tuple of
// literal identifiers (none of the generated module's names: `"m"` is the
// module), or a dict of literal identifiers to plain literal docstrings
// holding no `"`, `\\` or line break (each name and docstring is pasted raw
// into `m.def("NAME", ..., "DOC")`), or a name bound once to such; and the
// sources may not `#define` a function's name or a name of that generated
// module (`m`, `def`, `torch`, ...), which would rewrite it where the
// native rules never read it.
void generated_bindings(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  static const TSSymbol kDictionary = python_symbol("dictionary"), kPair = python_symbol("pair");
  if (c.symbol() != g.call || c.callee_name() != "torch.utils.cpp_extension.load_inline") return;
  if (TSNode name = call_argument(c, "name", 0); !ts_node_is_null(name) && !identifier_expression(c, name, true))
    out.push_back({name, "load_inline name " + written(c.text(name))});
  TSNode functions = call_argument(c, "functions", 3);
  if (ts_node_is_null(functions) || ts_node_symbol(functions) == g.none) return;
  std::vector<std::string_view> names;
  bool known = true;
  auto identifier_literal = [&](TSNode node) {
    std::string_view literal;
    // `functions=["m"]` would hand the generated module itself to `wrap_pybind_function`.
    if (ts_node_is_null(node) || !c.string_literal(node, &literal) || !is_identifier(literal) ||
        listed(literal, kGeneratedModuleNames))
      return false;
    names.push_back(literal);
    return true;
  };
  TSNode value = functions;
  if (ts_node_symbol(value) == g.identifier && !bound_locally(c.tree(), value)) {
    TSNode constant = c.facts().constant_value(c.text(value));
    if (!ts_node_is_null(constant)) value = constant;
  }
  TSSymbol s = ts_node_symbol(value);
  if (s == g.string) {
    known = identifier_literal(value);
  } else if (s == g.list || s == g.tuple) {
    for (uint32_t i = 0; known && i < ts_node_named_child_count(value); ++i)
      known = identifier_literal(ts_node_named_child(value, i));
  } else if (s == kDictionary) {
    for (uint32_t i = 0; known && i < ts_node_named_child_count(value); ++i) {
      TSNode pair = ts_node_named_child(value, i);
      std::string_view doc;
      known = ts_node_symbol(pair) == kPair && identifier_literal(ts_node_child_by_field_name(pair, "key", 3)) &&
              c.string_literal(ts_node_child_by_field_name(pair, "value", 5), &doc) &&
              std::none_of(doc.begin(), doc.end(), [](char ch) {
                return ch == '"' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
              });
    }
  } else {
    known = false;
  }
  if (!known) {
    out.push_back({functions, "functions=" + written(c.text(functions))});
    return;
  }
  // Macros renaming what the generated module is written with.
  for (auto [key, index] : {std::pair<std::string_view, uint32_t>{"cpp_sources", 1}, {"cuda_sources", 2}}) {
    TSNode source = call_argument(c, key, index);
    auto text = ts_node_is_null(source) ? std::nullopt : c.source_value(source);
    if (!text) continue;
    std::string tokens = native_tokens(*text);
    for (size_t at = tokens.find("%:"); at != std::string::npos; at = tokens.find("%:", at)) tokens.replace(at, 2, "#");
    for (std::string_view operand : directives(tokens, "define")) {
      size_t end = 0;
      while (end < operand.size() && identifier_char(operand[end])) ++end;
      std::string_view macro = operand.substr(0, end);
      if (listed(macro, kGeneratedModuleNames) || std::find(names.begin(), names.end(), macro) != names.end())
        out.push_back({source, "#define " + std::string(macro) + " in the module load_inline generates"});
    }
  }
}

// Whether `text` holds the assembler directive `name` (any case) as one:
// where an assembler statement starts (the text's or a line's start, after
// `"`, `;`, `:`, `{`, `}` or a C escape `\n`/`\t`/`\r`, blanks between),
// followed by no character of a name (`include_paths()` in prose is none).
// `.section` counts only with a `.text` operand.
bool assembler_directive(std::string_view text, std::string_view name) {
  auto name_char = [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '$';
  };
  auto lower = [](char ch) { return static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); };
  for (size_t at = 0; at + name.size() <= text.size(); ++at) {
    if (lower(text[at]) != name[0] || !std::equal(name.begin(), name.end(), text.begin() + static_cast<long>(at),
                                                  [&](char a, char b) { return a == lower(b); }))
      continue;
    size_t end = at + name.size();
    if (end < text.size() && name_char(text[end])) continue;
    size_t before = at;
    // Blanks: a space and any control character but a line break (a tab,
    // and the \v, \f, \a, \b of an assembly string, C escapes decoded).
    auto blank = [](char ch) {
      return ch == ' ' || (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\r');
    };
    while (before > 0 && blank(text[before - 1])) --before;
    bool starts = before == 0 || std::string_view("\n\r\";:{}").find(text[before - 1]) != std::string_view::npos ||
                  (before >= 2 && text[before - 2] == '\\' &&
                   std::string_view("ntr").find(text[before - 1]) != std::string_view::npos);
    if (!starts) continue;
    if (name != ".section" && name != ".pushsection") return true;
    size_t operand = text.find_first_not_of(" \t\\\"", end);
    if (operand != std::string_view::npos && text.substr(operand).starts_with(".text")) return true;
  }
  return false;
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

// Whether `value`, bound to a name an annotation reads, may be text, which
// whatever reads the annotation evaluates (torch.library.custom_op's schema
// inference, typing): a string, an operator but `|` (a union), a call but of
// typing's makers (`TypeVar("T")`), a subscript of such, or a name or
// member whose bindings may be (text_bound_name, text_bound_member);
// containers and the rest when they hold a string.
bool may_be_text(const Context& c, TSNode value, int depth);

// Whether the binding at `target` (an identifier or attribute bound there)
// may give text: an assignment of a value that may be (may_be_text), or a
// binding whose value is unknown (a loop's or with's target, a walrus, `+=`,
// unpacking, a pattern). Imports, `global` and `del` bind no value.
bool binds_text(const Context& c, TSNode target, int depth) {
  static const TSSymbol kNoValue[] = {python_symbol("dotted_name"), python_symbol("aliased_import"),
                                      python_symbol("global_statement"), python_symbol("nonlocal_statement"),
                                      python_symbol("delete_statement")};
  const Grammar& g = c.grammar();
  TSNode parent = ts_node_parent(target);
  if (std::ranges::find(kNoValue, ts_node_symbol(parent)) != std::end(kNoValue)) return false;
  if (ts_node_symbol(parent) != g.assignment || !ts_node_eq(field(parent, g.field_left), target)) return true;
  TSNode value = field(parent, g.field_right);  // `a = b = v`: v
  while (!ts_node_is_null(value) && ts_node_symbol(value) == g.assignment) value = field(value, g.field_right);
  return !ts_node_is_null(value) && may_be_text(c, value, depth + 1);
}

// Whether a name an annotation reads (`ANN` of `x: ANN`) may stand for
// text: a binding of it in the file may give text (binds_text), or it is
// local to a function (a parameter's value is the caller's).
bool text_bound_name(const Context& c, TSNode name, int depth) {
  if (depth > 8) return true;
  int parameter = -1;
  if (!ts_node_is_null(local_scope(c.tree(), name, &parameter))) return true;
  std::span<const TSNode> sites = c.facts().binding_sites(c.text(name));
  return std::any_of(sites.begin(), sites.end(), [&](TSNode site) { return binds_text(c, site, depth); });
}

// Whether a member an annotation reads of an object no module the rules
// resolve (`Cfg.ANN`, `self.ann`) may be text: assigned so in a class body
// (`ANN = "..." + "..."`), written as any object's attribute so
// (`self.ann = ...`), or set by setattr under its literal name.
bool text_bound_member(const Context& c, TSNode member, int depth) {
  const Grammar& g = c.grammar();
  if (depth > 8) return true;
  std::string_view name = c.text(member);
  for (TSNode site : c.facts().binding_sites(name))
    if (ts_node_symbol(ts_node_parent(ts_node_parent(ts_node_parent(ts_node_parent(site))))) == g.class_definition &&
        binds_text(c, site, depth))
      return true;
  bool text = false;
  std::vector<TSNode> stack{c.tree().root()};
  while (!stack.empty() && !text) {
    TSNode node = stack.back();
    stack.pop_back();
    TSSymbol s = ts_node_symbol(node);
    std::string_view literal;
    if (s == g.attribute && c.text(field(node, g.field_attribute)) == name && binds_name(node))
      text = binds_text(c, node, depth);
    else if (s == g.call && c.text(field(node, g.field_function)) == "setattr" &&
             c.string_literal(c.positional_argument(node, 1), &literal) && literal == name)
      text = true;
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) stack.push_back(ts_node_named_child(node, i));
  }
  return text;
}

// Whether the callee of `call` makes types, never text (`typing.TypeVar`).
bool type_maker(const Context& c, TSNode call) {
  std::string callee = c.qualified_name(field(call, c.grammar().field_function));
  return callee.starts_with("typing.") || callee.starts_with("typing_extensions.");
}

bool may_be_text(const Context& c, TSNode value, int depth) {
  static const TSSymbol kSubscript = python_symbol("subscript");
  const Grammar& g = c.grammar();
  if (depth > 8) return true;
  TSSymbol s = ts_node_symbol(value);
  if (s == g.string || s == g.concatenated_string) return true;
  if (s == g.parenthesized_expression && ts_node_named_child_count(value) == 1)
    return may_be_text(c, ts_node_named_child(value, 0), depth + 1);
  if (s == g.binary_operator) {
    TSNode op = ts_node_child_by_field_name(value, "operator", 8);
    return ts_node_is_null(op) || c.text(op) != "|" || may_be_text(c, field(value, g.field_left), depth + 1) ||
           may_be_text(c, field(value, g.field_right), depth + 1);
  }
  if (s == g.call) return !type_maker(c, value);
  if (s == kSubscript) return may_be_text(c, field(value, g.field_value), depth + 1);
  if (s == g.identifier) return text_bound_name(c, value, depth + 1);
  if (s == g.attribute)
    return c.qualified_name(value).empty() && (text_bound_member(c, field(value, g.field_attribute), depth + 1) ||
                                               may_be_text(c, field(value, g.field_object), depth + 1));
  bool holds_string = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(value) && !holds_string; ++i)
    holds_string = may_be_text(c, ts_node_named_child(value, i), depth + 1);
  return holds_string;
}

// The first part of the annotation `annotation` (a `type` node) that makes
// it text some reader evaluates (typing.get_type_hints, dataclasses,
// torch.library.custom_op's schema inference: `eval` in the function's
// globals): a string but a plain literal naming a type (names_a_type),
// adjacent literals, an operator but `|`, a call but typing's, or a name
// that may stand for text (text_bound_name: `ANN = "..." + "..."`). A null
// node when none.
TSNode annotation_code(const Context& c, TSNode annotation) {
  const Grammar& g = c.grammar();
  std::vector<TSNode> stack{annotation};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    TSSymbol s = ts_node_symbol(node);
    std::string_view literal;
    if (s == g.concatenated_string || (s == g.string && (!c.string_literal(node, &literal) || !names_a_type(literal))))
      return node;
    if (s == g.string) continue;
    if (s == g.binary_operator) {
      TSNode op = ts_node_child_by_field_name(node, "operator", 8);
      if (ts_node_is_null(op) || c.text(op) != "|") return node;
    }
    if ((s == g.call && !type_maker(c, node)) || (s == g.identifier && text_bound_name(c, node, 0))) return node;
    if (s == g.attribute) {  // a module's member (`torch.Tensor`) is no text of the file's
      if (!c.qualified_name(node).empty()) continue;
      if (text_bound_member(c, field(node, g.field_attribute), 0)) return node;
      stack.push_back(field(node, g.field_object));
      continue;
    }
    if (s == g.lambda) continue;  // its body runs only when called, as code the rules read
    for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) stack.push_back(ts_node_named_child(node, i));
  }
  return TSNode{};
}

// A reader of annotations (kAnnotationReaders) told to evaluate strings
// (`eval_str=` anything but a literal False, or keywords unpacked into it),
// or taken as a value (`partial(get_annotations, eval_str=True)`), whose
// calls are out of sight: what the current node hands it; empty when none.
std::string evaluating_annotation_reader(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.symbol() == g.call && listed(c.callee_name(), kAnnotationReaders)) {
    TSNode arguments = c.argument_list(c.node());
    for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
      TSNode a = ts_node_named_child(arguments, i);
      if (ts_node_symbol(a) == g.dictionary_splat ||
          (ts_node_symbol(a) == g.keyword_argument && c.text(field(a, g.field_name)) == "eval_str" &&
           ts_node_symbol(field(a, g.field_value)) != g.false_))
        return c.callee_name() + "(" + written(c.text(a)) + ")";
    }
    return {};
  }
  const std::string& reference = c.reference_name();
  if (reference.empty() || !listed(reference, kAnnotationReaders)) return {};
  bool called = c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node());
  return called ? std::string() : reference + " as a value";
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
// The submodules of torch, numpy and triton that share a name with a module
// of the standard library.
constexpr std::string_view kOwnLibrarySubmodules[] = {
    "torch.types",  "torch.random", "torch.signal",         "torch.cuda.random",     "numpy.random",
    "numpy.typing", "numpy.math",   "triton.language.math", "triton.language.random"};

// The part of a qualified name after its head that names a module reached
// through another module; empty when none does. Through torch, numpy and
// triton (allowed whole) any module of the standard library they imported
// is refused where something is read through it
// (`torch.utils.cpp_extension.glob.glob`, `numpy.testing.os`); a last part
// alone is a function as often as a module (`numpy.array`, `torch.select`).
static std::string_view module_through_module(std::string_view qualified) {
  size_t head = qualified.find('.');
  if (head == std::string_view::npos) return {};
  std::string_view root = qualified.substr(0, head);
  bool library = root == "torch" || root == "numpy" || root == "triton";
  for (size_t start = head + 1; start != 0; start = qualified.find('.', start) + 1) {
    size_t end = qualified.find('.', start);
    std::string_view part = qualified.substr(start, end - start);
    std::string_view prefix = qualified.substr(0, end);
    if (library) {
      if (end != std::string_view::npos && listed(part, kStandardLibraryModules) &&
          !listed(prefix, kOwnLibrarySubmodules))
        return part;
    } else if (listed(part, kReachableModules) && !listed(prefix, kOwnSubmodules)) {
      return part;
    }
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

// What a candidate may take from torch.utils.cpp_extension: load_inline and
// what describes the toolchain it builds with. The module's other names are
// the modules and tools it uses itself (setuptools' sandbox runs a setup
// file, hipify rewrites folders, glob lists them), out of the rules' sight.
constexpr std::string_view kCppExtensionNames[] = {"load_inline",
                                                   "CUDA_HOME",
                                                   "ROCM_HOME",
                                                   "include_paths",
                                                   "library_paths",
                                                   "is_ninja_available",
                                                   "verify_ninja_availability"};

static void cpp_extension_outside_load_inline(const Context& c, std::vector<Finding>& out) {
  constexpr std::string_view kModule = "torch.utils.cpp_extension.";
  std::vector<std::string_view> names;
  const Grammar& g = c.grammar();
  if (c.symbol() == g.import_statement || c.symbol() == g.import_from_statement) {
    for (const ImportedName& imported : c.imported_names())
      if (std::string_view q = imported.qualified; q.starts_with(kModule)) names.push_back(q);
  } else if (std::string_view reference = c.reference_name(); reference.starts_with(kModule)) {
    names.push_back(reference);
  }
  for (std::string_view qualified : names) {
    std::string_view name = qualified.substr(kModule.size());
    name = name.substr(0, name.find('.'));
    if (!listed(name, kCppExtensionNames))
      out.push_back({c.node(), std::string(qualified) + " (torch.utils.cpp_extension gives load_inline only)"});
  }
}

void dynamic_code(const Context& c, std::vector<Finding>& out) {
  unreadable_native_sources(c, out);
  cpp_extension_outside_load_inline(c, out);
  if (std::string_view through = module_through_module(c.reference_name()); !through.empty())
    out.push_back({c.node(), c.reference_name() + " (" + std::string(through) + " through another module)"});
  for (const auto& [at, key] : environment_writes(c))
    if (!listed(key, kEnvironmentAllowed) && !listed(key, kEnvironmentPrecision))
      out.push_back({at, "os.environ[" + written(key) + "]"});
  match_names(c, kDynamicCodeNames, out);
  chosen_build_directory(c, out);
  generated_bindings(c, out);
  const Grammar& g = c.grammar();
  if (c.symbol() == g.keyword_argument) {
    // Loaders told to unpickle (numpy's allow_pickle: a pickle runs the
    // callables it names), builds whose product kmem never loads or checks
    // (load_inline's is_standalone): anything but a literal False.
    TSNode key = field(c.node(), g.field_name), value = field(c.node(), g.field_value);
    if (!ts_node_is_null(key) && !ts_node_is_null(value) && listed(c.text(key), kUnsafeLoadArguments) &&
        ts_node_symbol(value) != g.false_)
      out.push_back({c.node(), std::string(c.text(key)) + "=" + written(c.text(value))});
    return unknown_build_flags(c, out);
  }
  unreadable_member_names(c, out);
  if (std::string reader = evaluating_annotation_reader(c); !reader.empty()) out.push_back({c.node(), reader});
  if (std::string_view variable = dunder_variable(c); listed(variable, kAnnotationVariables))
    out.push_back({c.node(), std::string(variable)});
  std::string_view defined = defined_name(c);
  if (listed(defined, kDynamicCodeDunders)) out.push_back({c.node(), std::string(defined)});
  match_strings(c, kNativePythonCalls, out);
  if (const std::string& native = c.native_text(); !native.empty()) {
    for (std::string_view prefix : kNativeCodePrefixes)
      if (std::string_view found = identifier_with_prefix(native, prefix); !found.empty())
        out.push_back({c.node(), std::string(found)});
    for (std::string_view name : kNativeScriptNames)
      if (has_identifier(native, name)) out.push_back({c.node(), std::string(name)});
  }
  // An annotation that is text is evaluated by whatever reads the
  // annotations (typing, functools, dataclasses, torch.library.custom_op):
  // a type's name, never code (`"(exec(...), int)[1]"`, nor the same
  // concatenated or bound to a name: annotation_code).
  static const TSSymbol kAnnotation = python_symbol("type");
  if (c.symbol() == kAnnotation)
    if (TSNode code = annotation_code(c, c.node()); !ts_node_is_null(code))
      out.push_back({code, "annotation " + written(c.text(code))});
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
  const std::string assembly = c_escapes_decoded(text);
  for (std::string_view directive : kHiddenCodeDirectives)
    if (assembler_directive(assembly, directive)) out.push_back({c.node(), std::string(directive)});
}

}  // namespace kmem::check
