// Rules on changing what the evaluator relies on: patching builtins,
// modules, the import system or torch's dispatch, defining the runtime's
// timing functions in native code, and writing files (its cache among them).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "grammar.h"
#include "native_source.h"
#include "rule_matchers.h"
#include "rule_support.h"

namespace kmem::check_internal {
namespace {

// Native calls that write, move or remove files (the evaluator's cache among them).
constexpr std::string_view kFileWriteCalls[] = {"fopen", "freopen", "creat", "rename", "unlink",
                                                "truncate", "ftruncate", "open", "openat", "symlink",
                                                "link", "mkstemp", "write", "pwrite", "dup2", "dup3"};
constexpr std::string_view kFileWriteStrings[] = {"std::ofstream", "std::fstream", "ofstream", "fstream"};

// Native functions a candidate must not define: they would stand in for the
// timer's or the runtime's own (symbol interposition).
constexpr std::string_view kInterposedFunctions[] = {
    "cudaEventElapsedTime", "cudaEventRecord", "cudaEventSynchronize", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cuEventElapsedTime", "cuEventRecord", "cudaLaunchKernel",
    "clock_gettime", "gettimeofday", "cudaEventQuery", "cuEventSynchronize"};

constexpr std::string_view kPatchingNames[] = {
    "builtins", "__builtin__", "__builtins__", "importlib", "sys.modules", "sys.meta_path",
    "unittest.mock", "mock", "torch.library", "torch.overrides", "torch.utils._python_dispatch",
    "vars", "globals", "kmem_worker", "functools.update_wrapper", "os.sys", "sys.modules",
    "locals", "__loader__", "__spec__", "sys.path", "sys.path_hooks", "sys.path_importer_cache",
    "time.clock_settime*", "time.tzset", "sys.setswitchinterval", "sys.setdlopenflags"};
constexpr std::string_view kPatchingAttributes[] = {"__dict__", "__setattr__", "__delattr__",
                                                    "__getattribute__", "__builtins__",
                                                    "__torch_function__", "__torch_dispatch__"};
// What writes, moves or removes files (the evaluator's cache among them).
constexpr std::string_view kFileWriteNames[] = {
    "os.remove", "os.unlink", "os.rename", "os.renames", "os.replace", "os.rmdir", "os.removedirs",
    "os.truncate", "os.ftruncate", "os.write", "os.pwrite", "os.writev", "os.pwritev", "os.dup",
    "os.dup2", "os.close", "os.closerange", "os.fdopen", "os.link", "os.symlink", "os.chmod",
    "os.chown", "os.lchown", "os.utime", "os.mkfifo", "os.mknod", "os.sendfile", "os.copy_file_range",
    "os.splice", "os.memfd_create", "os.putenv", "torch.save", "numpy.save", "numpy.savez",
    "numpy.savez_compressed", "numpy.savetxt", "numpy.memmap", "os.open", "torch.jit.save",
    "torch.onnx", "torch.export.save"};
// Methods that write files.
constexpr std::string_view kFileWriteMethods[] = {"tofile", "export_chrome_trace", "export_stacks",
                                                  "export_memory_timeline"};

// Whether the current call opens a file for writing: `open(path, mode)`
// with a mode that is not a plain literal reading only.
bool opens_for_writing(const Context& c) {
  if (c.callee_name() != "open") return false;
  const Grammar& g = c.grammar();
  TSNode mode = positional_argument(c, 1);
  TSNode arguments = c.argument_list(c.node());
  uint32_t n = ts_node_is_null(arguments) ? 0 : ts_node_named_child_count(arguments);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    if (ts_node_symbol(a) == g.keyword_argument && c.text(field(a, g.field_name)) == "mode")
      mode = field(a, g.field_value);
  }
  if (ts_node_is_null(mode)) return !ts_node_is_null(c.unpacked_argument(c.node()));
  std::string_view literal;
  return !c.string_literal(mode, &literal) || literal.find_first_of("wax+") != std::string_view::npos;
}

}  // namespace

void runtime_patching(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPatchingNames, out);
  match_names(c, kFileWriteNames, out);
  match_attributes(c, kPatchingAttributes, out);
  const Grammar& g = c.grammar();
  // functools.wraps(f, updated=..., assigned=...) copies attributes like update_wrapper.
  if (c.symbol() == g.keyword_argument) {
    std::string_view key = c.text(field(c.node(), g.field_name));
    if (key == "updated" || key == "assigned") out.push_back({c.node(), std::string(key) + "="});
  }
  if (c.symbol() == g.call && opens_for_writing(c)) out.push_back({c.node(), "open(..., mode)"});
  TSNode object;
  std::string_view method;
  if (c.symbol() == g.call && c.reads_attribute(field(c.node(), g.field_function), &object, &method) &&
      listed(method, kFileWriteMethods))
    out.push_back({c.node(), "." + std::string(method) + "()"});
  // A class of one's own that intercepts torch calls.
  std::string_view defined = defined_name(c);
  if (listed(defined, kPatchingAttributes)) out.push_back({c.node(), std::string(defined)});
  // Native code writing files.
  const std::string& text = c.native_text();
  if (text.empty()) return;
  match_strings(c, kFileWriteStrings, out);
  for (std::string_view call : kFileWriteCalls)
    if (has_call(text, call)) out.push_back({c.node(), std::string(call)});
  for (std::string_view function : kInterposedFunctions)
    if (has_definition(text, function)) out.push_back({c.node(), "defines " + std::string(function)});
}

}  // namespace kmem::check_internal
