// Rules on changing what the evaluator relies on: patching builtins,
// modules, the import system or torch's dispatch (a class passed as `self`
// to a method that writes to its self among them), defining the runtime's
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

namespace kmem::check {
namespace {

// Native calls that write, move or remove files (the evaluator's cache among them).
constexpr std::string_view kFileWriteCalls[] = {"fopen",     "freopen", "creat",  "rename",  "unlink", "truncate",
                                                "ftruncate", "open",    "openat", "symlink", "link",   "mkstemp",
                                                "write",     "pwrite",  "dup2",   "dup3"};
constexpr std::string_view kFileWriteStrings[] = {"std::ofstream", "std::fstream", "ofstream", "fstream"};

// Native functions a candidate must not define: they would stand in for the
// timer's or the runtime's own (symbol interposition).
constexpr std::string_view kInterposedFunctions[] = {
    "cudaEventElapsedTime",  "cudaEventRecord",    "cudaEventSynchronize", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cuEventElapsedTime", "cuEventRecord",        "cudaLaunchKernel",
    "clock_gettime",         "gettimeofday",       "cudaEventQuery",       "cuEventSynchronize"};

constexpr std::string_view kPatchingNames[] = {"builtins",
                                               "__builtin__",
                                               "__builtins__",
                                               "importlib",
                                               "sys.modules",
                                               "sys.meta_path",
                                               "unittest.mock",
                                               "mock",
                                               "torch.library",
                                               "torch.overrides",
                                               "torch.utils._python_dispatch",
                                               "vars",
                                               "globals",
                                               "kmem_worker",
                                               "functools.update_wrapper",
                                               "os.sys",
                                               "sys.modules",
                                               "locals",
                                               "__loader__",
                                               "__spec__",
                                               "sys.path",
                                               "sys.path_hooks",
                                               "sys.path_importer_cache",
                                               "time.clock_settime*",
                                               "time.tzset",
                                               "sys.setswitchinterval",
                                               "sys.setdlopenflags",
                                               "torch.nn.modules.module.register_module_*",
                                               "torch.nn.modules.module._global_*",
                                               "copy.dispatch_table",
                                               "copyreg",
                                               "enum.global_enum",
                                               "enum.global_enum_repr",
                                               "enum.global_str",
                                               "enum.global_flag_repr",
                                               "logging.setLoggerClass",
                                               "logging.setLogRecordFactory",
                                               "logging.captureWarnings",
                                               "torch.utils.flop_counter",
                                               "torch.utils.module_tracker",
                                               "torch.profiler",
                                               "torch.autograd.profiler",
                                               "torch.monitor",
                                               "torch.fx.experimental.proxy_tensor",
                                               "numpy.seterrcall",
                                               "sys.set_asyncgen_hooks",
                                               "sys.unraisablehook",
                                               "sys.excepthook",
                                               "sys.displayhook",
                                               "sys.breakpointhook",
                                               "sys.addaudithook",
                                               "logging.Logger.manager",
                                               "logging.Manager"};
// Of torch.library, what defines a new operator of one's own (a name that
// must not exist yet, so no torch operator is replaced):
// `@torch.library.custom_op("mylib::op", mutates_args=())`.
constexpr std::string_view kPatchingAllowed[] = {"torch.library.custom_op", "torch.library.triton_op",
                                                 "torch.library.wrap_triton"};
constexpr std::string_view kPatchingAttributes[] = {
    "__dict__",           "__setattr__",        "__delattr__",    "__getattribute__",    "__builtins__",
    "__torch_function__", "__torch_dispatch__", "setLoggerClass", "setLogRecordFactory", "captureWarnings"};
// Operator registration from C++ (`TORCH_LIBRARY_IMPL(aten, CUDA, m) {
// m.impl("relu", f); }` replaces torch's own kernels, the reference's and
// the harness's too); a candidate's kernels are bound with pybind11.
constexpr std::string_view kNativeRegistrations[] = {"TORCH_LIBRARY",          "TORCH_LIBRARY_IMPL",
                                                     "TORCH_LIBRARY_FRAGMENT", "torch::Library",
                                                     "c10::RegisterOperators", "torch::RegisterOperators"};
// torch's dispatcher reached from C++: operators looked up by name and
// called boxed or below some of their dispatch keys (`c10::Dispatcher::singleton()
// .findSchemaOrThrow("aten::mm", "").typed<...>()`, `at::_ops::mm::redispatch`),
// the JIT's operator registry, and guards that switch dispatch keys off:
// whatever torch dispatches to (the reference's kernels, the harness's
// hooks) is then the candidate's to choose. Kernels call at:: functions.
constexpr std::string_view kNativeDispatch[] = {"c10::Dispatcher",
                                                "Dispatcher::singleton",
                                                "OperatorHandle",
                                                "TypedOperatorHandle",
                                                "findSchemaOrThrow",
                                                "findSchema",
                                                "callBoxed",
                                                "redispatch",
                                                "redispatchBoxed",
                                                "callWithDispatchKey",
                                                "getAllOperators",
                                                "getAllOperatorsFor",
                                                "findOperatorFor",
                                                "getOperatorForLiteral",
                                                "ExcludeDispatchKeyGuard",
                                                "IncludeDispatchKeyGuard",
                                                "AutoDispatchBelowAutograd",
                                                "AutoDispatchBelowADInplaceOrView",
                                                "AutoDispatchSkipFunctionalize",
                                                "tls_set_dispatch_key_excluded",
                                                "tls_set_dispatch_key_included",
                                                "_force_tls_local_dispatch_key_set"};
// What writes, moves or removes files (the evaluator's cache among them).
constexpr std::string_view kFileWriteNames[] = {
    "os.remove", "os.chdir", "os.fchdir", "contextlib.chdir", "os.unlink", "os.rename", "os.renames", "os.replace",
    "os.rmdir", "os.removedirs", "os.truncate", "os.ftruncate", "os.write", "os.pwrite", "os.writev", "os.pwritev",
    "os.dup", "os.dup2", "os.close", "os.closerange", "os.fdopen", "os.link", "os.symlink", "os.chmod", "os.chown",
    "os.lchown", "os.utime", "os.mkfifo", "os.mknod", "os.sendfile", "os.copy_file_range", "os.splice",
    "os.memfd_create", "os.putenv", "torch.save", "numpy.save", "numpy.savez", "numpy.savez_compressed",
    "numpy.savetxt", "numpy.memmap", "os.open", "torch.jit.save", "torch.onnx", "torch.export.save",
    "logging.FileHandler", "logging.handlers", "logging.basicConfig", "triton.runtime.cache",
    // Writes through a descriptor, and hipify's copies of folders
    // (red-team round 6).
    "os.posix_fallocate", "os.fchmod", "os.fchown", "os.lockf", "os.set_blocking", "os.set_inheritable",
    "torch.utils.hipify"};
// Methods that write files.
constexpr std::string_view kFileWriteMethods[] = {"tofile", "dump", "export_chrome_trace", "export_stacks",
                                                  "export_memory_timeline"};

// Whether the current call opens a file for writing: `open(path, mode)`
// with a mode that is not a plain literal reading only.
bool opens_for_writing(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.callee_name() != "open" && keywords_function(c) != "open") return false;
  // open reached through functools.partial (`partial(open, mode="w")`, or a
  // call of such a partial, whose arguments are shifted): its mode is not
  // where a call of open has it, so it is taken as writing.
  if (c.text(field(c.node(), g.field_function)) != "open") return true;
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

// Whether `node` is a class rather than an instance: a class of the file, a
// module's attribute whose name is capitalised (`torch.Tensor`, `nn.Module`,
// also through an alias), `type(x)`, or the builtins `object` and `type`.
bool class_expression(const Context& c, TSNode node) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(node)) return false;
  if (ts_node_symbol(node) == g.call) {
    TSNode function = field(node, g.field_function);
    return !ts_node_is_null(function) && c.qualified_name(function) == "type";
  }
  if (ts_node_symbol(node) == g.identifier && c.facts().defines_class(c.text(node))) return true;
  std::string name = c.qualified_name(node);
  std::string_view last = std::string_view(name).substr(name.rfind('.') + 1);
  return name == "object" || name == "type" ||
         (name.find('.') != std::string::npos && !last.empty() &&
          std::isupper(static_cast<unsigned char>(last.front())));
}

// Whether `object.method` is a method of the file's own classes taking
// `self`, read through its class (`Helper.put`, `type(self).put`).
bool own_method_through_class(const Context& c, TSNode object, std::string_view method) {
  const Grammar& g = c.grammar();
  if (!c.facts().is_instance_method(method)) return false;
  if (ts_node_symbol(object) == g.call) return class_expression(c, object);
  return ts_node_symbol(object) == g.identifier && c.facts().defines_class(c.text(object)) &&
         !c.facts().is_static_method(c.text(object), method);
}

// Whether the current node is evaluated in a class body itself (not inside
// one of its functions), where a method's name is a plain function.
bool in_class_body(const Context& c) {
  const Grammar& g = c.grammar();
  for (uint32_t up = 1;; ++up) {
    TSNode scope = c.ancestor(up);
    TSSymbol symbol = ts_node_symbol(scope);
    if (symbol == g.class_definition) return true;
    if (symbol == g.function_definition || symbol == g.lambda || symbol == g.module ||
        ts_node_eq(scope, c.ancestor(up + 1)))
      return false;
  }
}

// A method taking `self` used by its bare name in a class body, where it is a
// plain function whose first argument can be anything (`put(torch.Tensor, v)`
// runs `self.detach = v` on torch.Tensor; `helpers = [put]` keeps it for
// later). Its own definition, an alias in the class (`__call__ = forward`)
// and `property(get, set)` keep it a method.
bool method_as_plain_function(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.identifier || !c.facts().is_instance_method(c.text(c.node()))) return false;
  TSSymbol parent = c.parent_symbol();
  auto is_field = [&](TSFieldId id) { return ts_node_eq(field(c.parent(), id), c.node()); };
  if ((parent == g.function_definition && is_field(g.field_name)) ||
      (parent == g.attribute && is_field(g.field_attribute)) ||
      (parent == g.keyword_argument && is_field(g.field_name)))
    return false;
  // `@x.setter` over a property `x` of the class: the property's own accessor.
  if (parent == g.attribute && is_field(g.field_object) && ts_node_symbol(c.ancestor(2)) == g.decorator &&
      c.facts().property_accessor(c.tree(), c.parent(), c.ancestor(5)))
    return false;
  if (parent == g.assignment && is_field(g.field_right)) {
    TSNode left = field(c.parent(), g.field_left);
    if (!ts_node_is_null(left) && ts_node_symbol(left) == g.identifier) return false;
  }
  if (parent == g.argument_list) {  // property(get, set), unless `property` is the file's own
    TSNode callee = field(c.ancestor(2), g.field_function);
    if (!ts_node_is_null(callee) && ts_node_symbol(callee) == g.identifier && c.text(callee) == "property" &&
        c.facts().builtin_unchanged("property"))
      return false;
  }
  return in_class_body(c);
}

// A method called through its class with something other than the caller's
// own `self` as its self (`Helper.put(torch.Tensor, v)`: the method's
// `self.detach = v` then writes to torch.Tensor), a class passed as self to
// any class's method, and a method of one's own class taken uncalled
// through the class (`put = Helper.put`), whose later self is out of sight.
void class_as_self(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (method_as_plain_function(c)) out.push_back({c.node(), std::string(c.text(c.node())) + " as a plain function"});
  if (c.symbol() == g.call) {
    TSNode object;
    std::string_view method;
    if (!c.reads_attribute(field(c.node(), g.field_function), &object, &method)) return;
    TSNode self = positional_argument(c, 0);
    bool own_self = !ts_node_is_null(self) && ts_node_symbol(self) == g.identifier && c.text(self) == "self" &&
                    c.self_is_method_receiver();
    if ((own_method_through_class(c, object, method) && !own_self) ||
        (class_expression(c, object) && class_expression(c, self)))
      out.push_back({c.node(), written(c.text(object)) + "." + std::string(method) + "(" +
                                   (ts_node_is_null(self) ? std::string("...") : written(c.text(self))) + ", ...)"});
    return;
  }
  if (c.symbol() != g.attribute) return;
  TSNode object = field(c.node(), g.field_object);
  TSNode attribute = field(c.node(), g.field_attribute);
  if (ts_node_is_null(object) || ts_node_is_null(attribute)) return;
  if (c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node())) return;
  if (own_method_through_class(c, object, c.text(attribute))) out.push_back({c.node(), written(c.text(c.node()))});
}

// The name a setattr or delattr call with a literal name writes
// (`sys.excepthook` of `setattr(sys, "excepthook", f)`); empty otherwise.
std::string setattr_target(const Context& c) {
  if (!is_setattr_call(c)) return {};
  std::string object = c.qualified_name(positional_argument(c, 0));
  std::string_view name;
  TSNode literal = positional_argument(c, 1);
  if (object.empty() || ts_node_is_null(literal) || !c.string_literal(literal, &name)) return {};
  return object + "." + std::string(name);
}

// cuDNN switched off (`torch.backends.cudnn.enabled = False`, through an
// alias, by setattr or delattr, as a loop's target): torch's convolutions
// and RNNs then run other code than the reference's. Only True may be written.
void cudnn_switched_off(const Context& c, std::vector<Finding>& out) {
  constexpr std::string_view kSwitch[] = {"torch.backends.cudnn.enabled"};
  const Grammar& g = c.grammar();
  auto not_true = [&](TSNode value) { return ts_node_is_null(value) || ts_node_symbol(value) != g.true_; };
  if (c.symbol() == g.call) {
    if (std::string target = setattr_target(c);
        name_in(target, kSwitch) && (c.callee_name() == "delattr" || not_true(positional_argument(c, 2))))
      out.push_back({c.node(), target});
    return;
  }
  if (c.symbol() != g.attribute || !name_in(c.reference_name(), kSwitch) || !is_target(c)) return;
  bool assigned = c.parent_symbol() == g.assignment && ts_node_eq(field(c.parent(), g.field_left), c.node());
  if (!assigned || not_true(field(c.parent(), g.field_right))) out.push_back({c.node(), c.reference_name()});
}

// Families of names kNativeDispatch's entries belong to, by part: any guard
// or state of dispatch keys and modes (`ForceDispatchKeyGuard`,
// `TorchDispatchModeTLS`), an operator's handle (`at::_ops::mm::typed_handle`),
// and the global context's setters of torch's process-wide settings
// (`at::globalContext().setUserEnabledCuDNN(false)`, `setAllowTF32CuBLAS`).
constexpr std::string_view kNativeDispatchParts[] = {"DispatchKey", "DispatchMode", "typed_handle",
                                                     // The device guards' machinery and the process's tables
                                                     // behind torch's allocators and warnings: what a guard
                                                     // restores, changed for good (`getDeviceGuardImpl(..)
                                                     // ->exchangeStream(s)`, `allocator_array[CPU] = a`).
                                                     "GuardImpl", "guard_impl", "exchangeStream", "allocator_array",
                                                     "allocator_priority", "WarningHandler", "warning_handler",
                                                     "WarnAlways"};
constexpr std::string_view kContextSetterPrefixes[] = {
    "setUserEnabled", "setBenchmark",     "setDeterministic", "setAllow",           "setFloat32",
    "setSDP",         "setFlushDenormal", "setBlasPreferred", "setLinalgPreferred", "setROCm"};

// Whether `name` is a scoped guard's or mode's type (`NoGradGuard`,
// `c10::InferenceMode`, `AutoGradMode`): one that sets torch's state for as
// long as it lives and restores it when destroyed. (A type of one's own
// named `...Mode`, an enum say, is none.)
bool guard_type(std::string_view name) {
  return name.ends_with("Guard") || name.ends_with("GradMode") || name == "InferenceMode";
}

// The first guard `text` (native source) makes outlive every call: with
// `new` (never deleted, never restoring), or as a `static` or
// `thread_local` object (made when the library loads, restored at exit);
// "new NoGradGuard"; empty when none. Scoped guards are local objects.
std::string leaked_guard(std::string_view text) {
  std::vector<Identifier> words = identifiers(text);
  for (size_t i = 0; i < words.size(); ++i) {
    std::string_view how = words[i].text;
    if (how != "new" && how != "static" && how != "thread_local") continue;
    size_t last = i + 1;  // the type: a chain of names joined by `::` (and `const`)
    while (last + 1 < words.size()) {
      size_t gap = words[last].at + words[last].text.size();
      std::string_view between = trimmed(text.substr(gap, words[last + 1].at - gap));
      if (between != "::" && words[last].text != "const") break;
      ++last;
    }
    if (last < words.size() && guard_type(words[last].text))
      return std::string(how) + " " + std::string(words[last].text);
  }
  return {};
}

// The first identifier of `text` (native source) in those families; empty when none.
std::string_view dispatch_or_context_setting(std::string_view text) {
  for (const Identifier& word : identifiers(text)) {
    for (std::string_view part : kNativeDispatchParts)
      if (word.text.find(part) != std::string_view::npos) return word.text;
    for (std::string_view prefix : kContextSetterPrefixes)
      if (word.text.starts_with(prefix)) return word.text;
  }
  return {};
}

// functools.wraps(f) updates its target's __dict__ from f's (and sets its
// name, module and doc): as a decorator of the candidate's own def, or called
// at once on a function or lambda of its own, it writes only those; called
// on anything else, or kept as a value to be called later, it writes
// whatever its target is (a red-team candidate replaced torch.relu with
// `functools.wraps(Patch())(torch.nn.modules.linear.torch)`).
void wrapped_target(const Context& c, std::vector<Finding>& out) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.call || c.qualified_name(field(c.node(), g.field_function)) != "functools.wraps") return;
  if (c.parent_symbol() == g.decorator) return;
  TSNode outer = c.parent();
  if (ts_node_symbol(outer) != g.call || !ts_node_eq(field(outer, g.field_function), c.node())) {
    out.push_back({c.node(), "functools.wraps(...) kept as a value"});
    return;
  }
  TSNode target = c.positional_argument(outer, 0);
  bool own =
      !ts_node_is_null(target) && (ts_node_symbol(target) == g.lambda ||
                                   (ts_node_symbol(target) == g.identifier && c.facts().defines(c.text(target))));
  if (!own)
    out.push_back({outer, "functools.wraps(...)(" + written(ts_node_is_null(target) ? "" : c.text(target)) + ")"});
}

}  // namespace

namespace {

// Functions that make folders, and the keywords that name the folder.
constexpr std::string_view kFolderMakers[] = {"os.makedirs", "os.mkdir"};
constexpr std::string_view kFolderKeywords[] = {"name", "path"};

// Whether `path` is one the checker reads: literals (folded_string), a
// name bound once at the top level to such, `os.path.join` of such and
// `os.path.expanduser` of a literal (`~/.cache/...`).
bool known_path(const Context& c, TSNode path, int depth = 0) {
  const Grammar& g = c.grammar();
  if (ts_node_is_null(path) || depth > 16) return false;
  if (folded_string(c, path)) return true;
  if (ts_node_symbol(path) == g.identifier && !bound_locally(c.tree(), path))
    return known_path(c, c.facts().bound_once(c.text(path)), depth + 1);
  if (ts_node_symbol(path) != g.call) return false;
  std::string callee = c.qualified_name(field(path, g.field_function));
  TSNode arguments = c.argument_list(path);
  if (ts_node_is_null(arguments) || ts_node_named_child_count(arguments) == 0) return false;
  std::string_view literal;
  if (callee == "os.path.expanduser")
    return ts_node_named_child_count(arguments) == 1 && c.string_literal(ts_node_named_child(arguments, 0), &literal);
  if (callee != "os.path.join") return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(arguments); ++i)
    if (!known_path(c, ts_node_named_child(arguments, i), depth + 1)) return false;
  return true;
}

// A folder made where the checker cannot read (red-team round 6): by
// os.makedirs or os.mkdir at a path that is not known_path (`"/tmp/" +
// name`), relative to a descriptor (`dir_fd=`),
// with arguments unpacked, or the function taken as a value. What the
// current node makes so; empty when nothing.
std::string folder_made_out_of_sight(const Context& c) {
  const Grammar& g = c.grammar();
  if (c.symbol() != g.call) {
    const std::string& reference = c.reference_name();
    bool called = c.parent_symbol() == g.call && ts_node_eq(field(c.parent(), g.field_function), c.node());
    return !reference.empty() && listed(reference, kFolderMakers) && !called ? reference + " as a value"
                                                                             : std::string();
  }
  if (!listed(c.callee_name(), kFolderMakers)) return {};
  TSNode path = positional_argument(c, 0);
  TSNode arguments = c.argument_list(c.node());
  for (uint32_t i = 0; !ts_node_is_null(arguments) && i < ts_node_named_child_count(arguments); ++i) {
    TSNode a = ts_node_named_child(arguments, i);
    std::string_view key = ts_node_symbol(a) == g.keyword_argument ? c.text(field(a, g.field_name)) : "";
    if (key == "dir_fd" || ts_node_symbol(a) == g.dictionary_splat || ts_node_symbol(a) == g.list_splat)
      return c.callee_name() + "(" + written(c.text(a)) + ")";
    if (listed(key, kFolderKeywords)) path = field(a, g.field_value);
  }
  if (!known_path(c, path))
    return c.callee_name() + "(" + (ts_node_is_null(path) ? std::string("?") : written(c.text(path))) + ")";
  return {};
}

}  // namespace

void runtime_patching(const Context& c, std::vector<Finding>& out) {
  match_names(c, kPatchingNames, out, kPatchingAllowed);
  match_names(c, kFileWriteNames, out);
  match_attributes(c, kPatchingAttributes, out);
  const Grammar& g = c.grammar();
  // functools.wraps(f, updated=..., assigned=...) copies attributes like update_wrapper.
  if (c.symbol() == g.keyword_argument) {
    std::string_view key = c.text(field(c.node(), g.field_name));
    if (key == "updated" || key == "assigned") out.push_back({c.node(), std::string(key) + "="});
  }
  if (c.symbol() == g.call && opens_for_writing(c)) out.push_back({c.node(), "open(..., mode)"});
  if (std::string made = folder_made_out_of_sight(c); !made.empty()) out.push_back({c.node(), made});
  wrapped_target(c, out);
  // setattr(sys, "excepthook", f) writes the name as `sys.excepthook = f` does.
  if (std::string target = setattr_target(c); name_in(target, kPatchingNames)) out.push_back({c.node(), target});
  cudnn_switched_off(c, out);
  class_as_self(c, out);
  // A file-writing method, called or taken as a value (`w = data.tofile;
  // w(path)` writes as the call does).
  TSNode object;
  std::string_view method;
  if (c.symbol() == g.attribute && c.reads_attribute(c.node(), &object, &method) && listed(method, kFileWriteMethods))
    out.push_back({c.node(), "." + std::string(method)});
  // A class of one's own that intercepts torch calls.
  std::string_view defined = defined_name(c);
  if (listed(defined, kPatchingAttributes)) out.push_back({c.node(), std::string(defined)});
  // Native code writing files.
  const std::string& text = c.native_text();
  if (text.empty()) return;
  match_strings(c, kFileWriteStrings, out);
  match_strings(c, kNativeRegistrations, out);
  match_strings(c, kNativeDispatch, out);
  if (std::string_view found = dispatch_or_context_setting(text); !found.empty())
    out.push_back({c.node(), std::string(found)});
  if (std::string guard = leaked_guard(text); !guard.empty()) out.push_back({c.node(), guard});
  for (std::string_view call : kFileWriteCalls)
    if (has_call(text, call)) out.push_back({c.node(), std::string(call)});
  for (std::string_view function : kInterposedFunctions)
    if (has_definition(text, function)) out.push_back({c.node(), "defines " + std::string(function)});
}

}  // namespace kmem::check
