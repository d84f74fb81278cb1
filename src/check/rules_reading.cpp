// Rules on reading what is not the candidate's own: other objects through
// gc, inspect, ctypes and frames, files by a path the checker cannot read
// (/proc among them), and the random number generators' state.
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

// Native calls and types that read files by path (/proc among them).
constexpr std::string_view kFileReadCalls[] = {"fopen",  "fopen64", "freopen", "freopen64", "open",  "open64",
                                               "openat", "openat2", "opendir", "readlink",  "chdir", "fchdir"};
constexpr std::string_view kFileReadStrings[] = {"std::ifstream", "std::fstream", "ifstream", "fstream",
                                                 // Another process's device memory, by handle.
                                                 "cudaIpcOpenMemHandle", "cuIpcOpenMemHandle", "cudaIpcOpenEventHandle",
                                                 "cuIpcOpenEventHandle"};

// Functions that open a file by its path (first argument).
constexpr std::string_view kFileOpeners[] = {
    "open", "os.fwalk", "os.chdir", "contextlib.chdir", "os.fchdir", "torch.UntypedStorage.from_file",
    "torch.TypedStorage.from_file", "torch.FloatStorage.from_file", "torch.ByteStorage.from_file", "os.open",
    "torch.from_file", "numpy.fromfile", "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromregex", "numpy.memmap",
    "numpy.DataSource", "numpy.lib.npyio", "numpy.lib.format", "os.listdir", "os.scandir", "os.walk", "os.readlink",
    "os.stat", "os.lstat", "os.fdopen", "io.open", "io.FileIO", "codecs.open", "pathlib.Path", "pathlib.PosixPath",
    "pathlib.PurePath", "pathlib.PurePosixPath", "fileinput.input", "linecache.getline", "linecache.getlines",
    // More of numpy's and torch's readers and writers by path (red-team round 5),
    // and warnings' formatter, which reads the line it is told of.
    "numpy.rec.fromfile", "numpy.core.records.fromfile", "numpy.core.fromfile", "numpy.core.memmap", "numpy.recfromtxt",
    "numpy.recfromcsv", "numpy.load", "numpy.save", "numpy.savetxt", "torch.utils.file_baton.FileBaton", "os.setxattr"};
// Memory by address, unchecked: numpy's as_strided reads and writes past any
// array's end, and an object's array interface hands numpy or torch any
// pointer. Either reaches every byte of the process (the harness's sets,
// slots and report included).
constexpr std::string_view kRawMemoryNames[] = {"numpy.lib.stride_tricks.as_strided", "numpy.lib.stride_tricks",
                                                "numpy.lib.array_utils", "numpy.core.multiarray",
                                                "numpy._core.multiarray"};
constexpr std::string_view kRawMemoryInterfaces[] = {"__array_interface__", "__cuda_array_interface__",
                                                     "__array_struct__", "__dlpack__", "__dlpack_device__"};

constexpr std::string_view kIntrospectionNames[] = {
    "gc",
    // warnings' formatters read the line of the file they are told of.
    "warnings.formatwarning", "warnings.showwarning", "warnings.warn_explicit", "logging.currentframe",
    "torch.cuda.memory_snapshot", "torch.cuda.memory.memory_snapshot", "os.read", "os.readv", "os.pread", "os.preadv",
    "os.lseek", "sys.getprofile", "sys.gettrace", "inspect", "ctypes", "_ctypes", "cffi", "traceback", "tracemalloc",
    "dis", "mmap", "sys._getframe", "sys._current_frames", "sys.settrace", "sys.setprofile", "sys.exc_info",
    "sys.getrefcount", "sys.setrecursionlimit", "sys.addaudithook", "os.sys", "sys.monitoring", "sys.remote_exec",
    "sys.call_tracing", "numpy.ctypeslib", "torch.cuda.cudart", "sys.last_traceback", "sys.last_value", "sys.last_type",
    "sys.last_exc", "sys.exception",
    // Readers of files by path, under names of their own (red-team round 6).
    "torch.utils.show_pickle", "numpy.ma.mrecords"};
constexpr std::string_view kIntrospectionAttributes[] = {
    "f_back", "f_locals", "f_globals", "f_builtins", "f_code", "tb_frame", "gi_frame", "cr_frame", "ag_frame",
    "__globals__", "__code__", "__closure__", "__subclasses__", "__bases__", "__base__", "__mro__", "__self__",
    "__func__",
    // Code objects, whence functions of any bytecode (`type(f)(g.gi_code.replace(...), {})`).
    "gi_code", "cr_code", "ag_code",
    // ctypes reached through an object (numpy's `.ctypes` bridge) and its
    // objects over raw addresses or other objects' memory.
    "ctypes", "from_address", "from_buffer", "from_buffer_copy", "in_dll",
    // Files mapped as storages, whatever storage type spells them.
    "from_file", "_new_with_file", "_set_from_file"};
constexpr std::string_view kIntrospectionPaths[] = {"/proc", "/dev", "/sys"};

constexpr std::string_view kSeedNames[] = {"torch.manual_seed",
                                           "numpy.random.get_bit_generator",
                                           "numpy.random.set_bit_generator",
                                           "numpy.random.bit_generator",
                                           "numpy.random.PCG64",
                                           "numpy.random.PCG64DXSM",
                                           "numpy.random.MT19937",
                                           "numpy.random.Philox",
                                           "numpy.random.SFC64",
                                           "numpy.random.SeedSequence",
                                           "torch.seed",
                                           "torch.initial_seed",
                                           "torch.get_rng_state",
                                           "torch.set_rng_state",
                                           "torch.random",
                                           "torch.default_generator",
                                           "torch.cuda.manual_seed",
                                           "torch.cuda.manual_seed_all",
                                           "torch.cuda.seed",
                                           "torch.cuda.seed_all",
                                           "torch.cuda.initial_seed",
                                           "torch.cuda.get_rng_state",
                                           "torch.cuda.get_rng_state_all",
                                           "torch.cuda.set_rng_state",
                                           "torch.cuda.set_rng_state_all",
                                           "torch.cuda.random",
                                           "torch.cuda.default_generators",
                                           "torch.Generator",
                                           "torch.cuda.Generator",
                                           "torch.cuda.graphs",
                                           "torch.cuda.graph_pool_handle",
                                           "random.seed",
                                           "random.getstate",
                                           "random.setstate",
                                           "numpy.random.seed",
                                           "numpy.random.get_state",
                                           "numpy.random.set_state",
                                           "numpy.random.mtrand",
                                           "torch.utils.checkpoint.get_device_states",
                                           "torch.utils.checkpoint.set_device_states"};

// Native access to torch's generators and their state.
constexpr std::string_view kSeedStrings[] = {
    "getDefaultCUDAGenerator", "getDefaultCPUGenerator",   "defaultGenerator",
    "philox_cuda_state",       "set_current_seed",         "torch::manual_seed",
    "at::manual_seed",         "torch::cuda::manual_seed", "torch::cuda::manual_seed_all",
    "createCUDAGenerator"};

// A `# type:` comment is evaluated by torch.jit.script with the function's
// globals: a name in it that is private or dunder (`x.__globals__`), or one
// of the attributes above, reads what the code never shows.
void type_comment_reads(const Context& c, std::vector<Finding>& out) {
  static const TSSymbol kComment = python_symbol("comment");
  if (c.symbol() != kComment) return;
  std::string_view text = c.text(c.node());
  text.remove_prefix(std::min(text.find_first_not_of("# \t"), text.size()));
  if (!text.starts_with("type:")) return;
  for (size_t i = 0; i < text.size();) {
    if (!std::isalpha(static_cast<unsigned char>(text[i])) && text[i] != '_') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    std::string_view name = text.substr(i, end - i);
    if (name.starts_with('_') || listed(name, kIntrospectionAttributes)) {
      out.push_back({c.node(), "type comment reading " + std::string(name)});
      return;
    }
    i = end;
  }
}

}  // namespace

void introspection(const Context& c, std::vector<Finding>& out) {
  match_names(c, kIntrospectionNames, out);
  match_names(c, kRawMemoryNames, out);
  match_attributes(c, kIntrospectionAttributes, out);
  // An array interface read, defined or named (`__array_interface__ = {...}`,
  // a property of that name, `setattr(T, "__cuda_array_interface__", d)`).
  match_attributes(c, kRawMemoryInterfaces, out);
  // A `data_ptr` of one's own: Triton takes any object with one as a pointer,
  // so it reads and writes the address it returns.
  if (std::string_view defined = defined_name(c); listed(defined, kRawMemoryInterfaces) || defined == "data_ptr")
    out.push_back({c.node(), std::string(defined)});
  if (std::string_view literal;
      c.symbol() == c.grammar().string && c.string_literal(c.node(), &literal) && listed(literal, kRawMemoryInterfaces))
    out.push_back({c.node(), std::string(literal)});
  // as_strided of anything but a tensor (torch's checks its storage's bounds).
  if (TSNode object; c.symbol() == c.grammar().call) {
    std::string_view method;
    if (c.reads_attribute(field(c.node(), c.grammar().field_function), &object, &method) && method == "as_strided" &&
        c.qualified_name(object).starts_with("numpy"))
      out.push_back({c.node(), "numpy as_strided"});
  }
  match_paths(c, kIntrospectionPaths, out);
  type_comment_reads(c, out);
  // Native code opening files by path, or reading a Python object's dunder
  // (`fn.attr("__globals__")` through pybind11).
  if (const std::string& text = c.native_text(); !text.empty()) {
    if (std::string_view dunder = quoted_dunder(text); !dunder.empty())
      out.push_back({c.node(), "\"" + std::string(dunder) + "\" in native code"});
    match_strings(c, kFileReadStrings, out);
    for (std::string_view call : kFileReadCalls)
      if (has_call(text, call)) out.push_back({c.node(), std::string(call)});
  }
  // A file opened by a path the checker cannot read (`"/pr" + x`, a
  // variable, a format): it may be /proc.
  if (c.symbol() != c.grammar().call || !listed(c.callee_name(), kFileOpeners)) return;
  TSNode path = positional_argument(c, 0);
  if (ts_node_is_null(path)) path = c.unpacked_argument(c.node());
  if (!ts_node_is_null(path) && !folded_string(c, path)) out.push_back({path, written(c.text(path))});
}

namespace {

// torch.get_device_module given anything but a literal device name
// (`torch.get_device_module(DEV)`, a keyword, unpacked arguments), or taken
// as a value: the module it gives is one no rule names, whose manual_seed,
// get_rng_state or Stream no list catches. What the current node hands it;
// empty when none.
std::string unnamed_device_module(const Context& c) {
  constexpr std::string_view kDeviceModule = "torch.get_device_module";
  const Grammar& g = c.grammar();
  if (c.symbol() != g.call) {
    const std::string& reference = c.reference_name();
    bool called = c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node());
    return reference == kDeviceModule && !called ? reference + " as a value" : std::string();
  }
  if (c.callee_name() != kDeviceModule) return {};
  TSNode arguments = c.argument_list(c.node());
  for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (std::string_view literal; i > 0 || !c.string_literal(a, &literal))
      return std::string(kDeviceModule) + "(" + written(c.text(a)) + ")";
  }
  return {};
}

}  // namespace

void seed_manipulation(const Context& c, std::vector<Finding>& out) {
  if (std::string module = unnamed_device_module(c); !module.empty()) out.push_back({c.node(), module});
  match_names(c, kSeedNames, out);
  match_strings(c, kSeedStrings, out);
}

}  // namespace kmem::check
