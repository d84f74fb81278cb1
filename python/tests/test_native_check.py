"""What a candidate's built extension may import and the system-call
instructions it may not hold (kmem_worker.native_check), on libraries built
here with cc/c++: the families a kernel needs pass, everything else and the
forbidden members of those families are refused, and raw system calls are
found by instruction, not by byte pattern."""
import glob
import os
import platform
import re
import subprocess
import tempfile
import unittest

from kmem_worker import native_check

HONEST_CPP = r"""
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
static std::mutex lock;
extern "C" int PyLong_FromLong(long);
extern "C" void* PyEval_SaveThread(void);
extern "C" int PyObject_SetAttrString(void*, const char*, void*);
extern "C" float work(int n, const char* name) {
  std::lock_guard<std::mutex> held(lock);
  std::vector<float> v(n + std::thread::hardware_concurrency());
  if (std::strlen(name) > 64) throw std::runtime_error(std::string("long name ") + name);
  std::printf("%d\n", n);
  PyObject_SetAttrString(PyEval_SaveThread(), name, nullptr);
  return std::sqrt(static_cast<float>(v.size())) + std::exp(static_cast<float>(n)) + PyLong_FromLong(n);
}
// 0f 05 (the bytes of `syscall`) inside an immediate is not an instruction.
extern "C" long immediate(void) { return 0x050f050fL; }
"""

FORBIDDEN_C = r"""
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
int PyRun_SimpleString(const char*);
void* PyImport_ImportModule(const char*);
void* PyEval_GetGlobals(void);
void* Py_CompileString(const char*, const char*, int);
int PyObject_DelAttr(void*, void*);
static void* idle(void* arg) { return arg; }
static void tick(union sigval v) { (void)v; }
int spawn(void) { return fork(); }
int start(void) { pthread_t t; return pthread_create(&t, 0, idle, 0); }
int find(void) { return dlsym(RTLD_DEFAULT, "getpid") != 0; }
int protect(void* p) { return mprotect(p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC); }
int later(void) {
  struct sigevent e = {0};
  e.sigev_notify = SIGEV_THREAD;
  e.sigev_notify_function = tick;
  timer_t t;
  struct itimerval every = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &every, 0);
  alarm(1);
  signal(SIGALRM, SIG_IGN);
  return timer_create(CLOCK_MONOTONIC, &e, &t);
}
int python(void) {
  PyImport_ImportModule("gc");
  PyEval_GetGlobals();
  Py_CompileString("1", "x", 0);
  PyObject_DelAttr(0, 0);
  return PyRun_SimpleString("import time");
}
"""

SYSCALL_C = r"""
#if defined(__x86_64__)
long raw(long number) {
  long out;
  __asm__ volatile("syscall" : "=a"(out) : "a"(number) : "rcx", "r11", "memory");
  return out;
}
long legacy(long number) {
  long out;
  __asm__ volatile("int $0x80" : "=a"(out) : "a"(number) : "memory");
  return out;
}
#endif
"""

# Flush-to-zero set through the SSE control register, with no import.
FP_CONTROL_C = r"""
#if defined(__x86_64__)
#include <xmmintrin.h>
void flush_denormals(void) { _mm_setcsr(_mm_getcsr() | 0x8040); }
void round_down(void) {
  unsigned short word = 0x077f;
  __asm__ volatile("fldcw %0" : : "m"(word));
}
#endif
"""


class NativeCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.TemporaryDirectory()
        cls.honest = cls.build("honest.cpp", HONEST_CPP, "c++")
        cls.forbidden = cls.build("forbidden.c", FORBIDDEN_C, "cc")
        cls.syscall = cls.build("syscall.c", SYSCALL_C, "cc")
        cls.fp_control = cls.build("fp_control.c", FP_CONTROL_C, "cc")

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    @classmethod
    def build(cls, name, text, compiler):
        source = os.path.join(cls.folder.name, name)
        with open(source, "w") as out:
            out.write(text)
        library = source + ".so"
        subprocess.run([compiler, "-O1", "-shared", "-fPIC", source, "-o", library, "-pthread", "-ldl", "-lrt"],
                       check=True)
        return library

    def test_an_honest_library_passes(self):
        symbols = native_check.undefined_symbols(self.honest)
        self.assertIn("_ZNSt6thread20hardware_concurrencyEv", symbols)
        self.assertIn("PyObject_SetAttrString", symbols)
        self.assertEqual(native_check.refusals(self.honest), [])

    def test_processes_threads_timers_signals_loading_and_protection_are_refused(self):
        refused = native_check.refused_symbols(native_check.undefined_symbols(self.forbidden))
        for name in ["fork", "pthread_create", "dlsym", "mprotect", "timer_create", "setitimer", "alarm",
                     "signal"]:
            self.assertIn(name, refused)

    def test_python_run_from_native_code_is_refused(self):
        refused = native_check.refused_symbols(native_check.undefined_symbols(self.forbidden))
        for name in ["PyRun_SimpleString", "PyImport_ImportModule", "PyEval_GetGlobals", "Py_CompileString",
                     "PyObject_DelAttr"]:
            self.assertIn(name, refused)

    def test_anything_outside_the_families_is_refused(self):
        self.assertEqual(native_check.refused_symbols({"socket", "open", "fopen", "mmap", "dl_iterate_phdr",
                                                       "cudaStreamCreate", "cudaLaunchHostFunc", "cuModuleLoadData",
                                                       "GOMP_task", "omp_set_num_threads", "memcpy",
                                                       "cudaLaunchKernel", "__cudaRegisterFunction",
                                                       "cublasSgemm_v2", "GOMP_parallel", "GOMP_loop_dynamic_start",
                                                       "exit"}),
                         sorted(["GOMP_task", "cuModuleLoadData", "cudaLaunchHostFunc", "cudaStreamCreate",
                                 "dl_iterate_phdr", "fopen", "mmap", "omp_set_num_threads", "open", "socket"]))

    def test_the_registration_stubs_of_nvcc_objects_are_allowed(self):
        # Every object nvcc compiles registers its fat binary and unregisters
        # it with atexit (found on the H100 in the objects cpp_extension keeps).
        self.assertEqual(native_check.refused_symbols({"atexit", "__cudaRegisterFatBinary",
                                                       "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
                                                       "__cudaRegisterFunction", "__cxa_atexit"}), [])

    def test_openmp_split_entry_points_whose_threads_outlive_the_call_are_refused(self):
        # GOMP_parallel_start without GOMP_parallel_end leaves the team
        # running the function after the extension returns (a thread
        # working between timed calls); the joined forms are allowed.
        split = {"GOMP_parallel_start", "GOMP_parallel_end", "GOMP_parallel_loop_static_start",
                 "GOMP_parallel_loop_dynamic_start", "GOMP_parallel_loop_runtime_start",
                 "GOMP_parallel_sections_start"}
        joined = {"GOMP_parallel", "GOMP_parallel_loop_static", "GOMP_parallel_loop_nonmonotonic_dynamic",
                  "GOMP_parallel_sections", "GOMP_loop_static_start", "GOMP_loop_end", "GOMP_barrier"}
        self.assertEqual(native_check.refused_symbols(split | joined), sorted(split))

    def test_cxx_names_are_judged_by_scope_and_forbidden_names(self):
        allowed = {
            "_ZN2at4_ops10empty_like4callERKNS_6TensorESt8optionalIN3c1010ScalarTypeEES5_INS6_6LayoutEES5_INS6_6DeviceEES5_IbES5_INS6_12MemoryFormatEE",
            "_ZN3c106detail14torchCheckFailEPKcS2_jS2_", "_ZNSt6thread20hardware_concurrencyEv", "_ZTIPKc",
            "_ZN8pybind116detail11type_casterIN2at6TensorEvE4castERKS3_NS_19return_value_policyENS_6handleE",
            "_ZTVN10__cxxabiv117__class_type_infoE", "_Znwm", "_ZdlPvm", "_ZNSo9_M_insertIdEERSoT_"}
        refused = {
            "_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE",
            "_ZNSt6thread4joinEv", "_ZN2at6launchESt8functionIFvvEE", "_ZN2at15set_num_threadsEi",
            "_ZN3c1010ThreadPoolC1EiiSt8functionIFvvEE", "_ZN2at14intraop_launchESt8functionIFvvEE",
            "_ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode", "_Z6helperv",
            "_ZN2at7Context18setAllowTF32CuBLASEb", "_ZN5torch3jit7compileERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
            "_ZN5torch7Library5_implEPKcNS_11CppFunctionENS0_17_RegisterOrVerifyE", "_ZN3c1017RegisterOperatorsD1Ev"}
        self.assertEqual(native_check.refused_symbols(allowed | refused), sorted(refused))

    def test_torch_setters_are_refused_as_a_family(self):
        """Any set*/Set*/unset* of torch's scopes changes process-wide state:
        at::Context's setters (not one is listed by name), the allocators,
        the thread counts, the variable hooks (names from torch 2.11 builds)."""
        setters = {
            "_ZN2at7Context10setQEngineEN3c107QEngineE", "_ZN2at7Context28setDefaultMobileCPUAllocatorEv",
            "_ZN2at7Context30unsetDefaultMobileCPUAllocatorEv", "_ZN2at7Context30setDisplayVmapFallbackWarningsEb",
            "_ZN2at7Context17setBenchmarkCuDNNEb", "_ZN2at7Context26setDeterministicAlgorithmsEbb",
            "_ZN2at7Context25setLinalgPreferredBackendENS_13LinalgBackendE",
            "_ZN2at7Context23setBlasPreferredBackendENS_11BlasBackendE",
            "_ZN2at7Context25setROCmFAPreferredBackendENS_13ROCmFABackendE", "_ZN2at7Context19setUserEnabledCuDNNEb",
            "_ZN2at7Context18setAllowTF32CuBLASEb", "_ZN3c1012SetAllocatorENS_10DeviceTypeEPNS_9AllocatorEh",
            "_ZN3c1015SetCPUAllocatorEPNS_9AllocatorEh", "_ZN2at15set_num_threadsEi", "_ZN2at23set_num_interop_threadsEi",
            "_ZN2at4impl16SetVariableHooksEPNS0_22VariableHooksInterfaceE"}
        self.assertEqual(native_check.refused_symbols(setters), sorted(setters))

    def test_usage_loggers_and_warning_handlers_are_refused(self):
        """Installing a logger or a warning handler hands torch code of the
        candidate's to run later (torch 2.11's WarningUtils, 1.13's Warning)."""
        hooks = {
            "_ZN3c1017SetAPIUsageLoggerESt8functionIFvRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEEE",
            "_ZN3c1024SetPyTorchDDPUsageLoggerESt8functionIFvRKNS_14DDPLoggingDataEEE",
            "_ZN3c1025SetAPIUsageMetadataLoggerESt8functionIFvRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKSt3mapIS6_S6_St4lessIS6_ESaISt4pairIS7_S6_EEEEE",
            "_ZN3c1012WarningUtils19set_warning_handlerEPNS_14WarningHandlerE",
            "_ZN3c1012WarningUtils14set_warnAlwaysEb", "_ZN3c107Warning19set_warning_handlerEPNS_14WarningHandlerE"}
        self.assertEqual(native_check.refused_symbols(hooks), sorted(hooks))

    def test_callbacks_registration_and_switches_are_refused(self):
        """RecordFunction callbacks run on every later operator, a registry
        entry later still; enableRecordFunction switches the profiler's view
        off. A hook on one tensor (Tensor::register_hook, which runs only in
        a backward pass of that tensor) is one object's, as its setters are."""
        hooks = {
            "_ZN2at17addGlobalCallbackENS_22RecordFunctionCallbackE",
            "_ZN2at22addThreadLocalCallbackENS_22RecordFunctionCallbackE", "_ZN2at14removeCallbackEm",
            "_ZN2at14clearCallbacksEv", "_ZN2at20enableRecordFunctionEb", "_ZN3c1031FreeCudaMemoryCallbacksRegistryEv"}
        self.assertEqual(native_check.refused_symbols(hooks), sorted(hooks))
        self.assertEqual(native_check.refused_symbols({"_ZNK2at10TensorBase14_register_hookESt8functionIFS0_RKS0_EE"}),
                         [])

    def test_dispatch_stubs_nvrtc_and_hook_tables_are_refused(self):
        """A DispatchStub object (set_cuda_dispatch_ptr and REGISTER_*_DISPATCH
        import only the object itself) replaces torch's own kernels; the CUDA
        hooks' table holds NVRTC and the driver's module loader, so code built
        at run time (getNVRTC() is inline: getCUDAHooks() is all it imports)."""
        refused = {
            "_ZN2at6native14threshold_stubE", "_ZN2at6native16DispatchStubImpl12get_call_ptrEN3c1010DeviceTypeEPv",
            "_ZN2at6detail12getCUDAHooksEv", "_ZN2at4cuda6detail9lazyNVRTCE",
            "_ZN2at4cuda3jit18jit_pwise_functionEPKcS3_"}
        self.assertEqual(native_check.refused_symbols(refused), sorted(refused))

    def test_caching_allocator_settings_are_refused_but_raw_allocation_is_not(self):
        """Of the CUDA caching allocator's names only raw allocation and the
        guard's recordStream are honest: torch 1.13 imports raw_alloc,
        raw_delete and (CUDAGuardImpl's vtable) recordStream, 2.x the
        allocator object they are reached through (and its settings, inline,
        through it: the binary cannot tell those apart)."""
        refused = {"_ZN3c104cuda20CUDACachingAllocator17setMemoryFractionEdi",
                   "_ZN3c104cuda20CUDACachingAllocator10emptyCacheEv",
                   "_ZN3c104cuda20CUDACachingAllocator20setAllocatorSettingsERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
                   "_ZN3c1016CachingAllocator26AcceleratorAllocatorConfig9parseArgsERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"}
        allowed = {"_ZN3c104cuda20CUDACachingAllocator9raw_allocEm", "_ZN3c104cuda20CUDACachingAllocator10raw_deleteEPv",
                   "_ZN3c104cuda20CUDACachingAllocator12recordStreamERKNS_7DataPtrENS0_10CUDAStreamE",
                   "_ZN3c104cuda20CUDACachingAllocator9allocatorE"}
        self.assertEqual(native_check.refused_symbols(refused | allowed), sorted(refused))

    def test_what_honest_extensions_import_from_torch_stays_allowed(self):
        """Names read from honest extensions built with torch 2.11: CUDAGuard's
        device setters and, through CUDAGuardImpl's vtable, the stream pool and
        setter; NoGradGuard's and InferenceMode's thread-local modes;
        at::parallel_for's thread number; autograd::Function's tracing flag;
        a tensor's own setters; operators; warnings and checks; streams,
        handles and generators read."""
        honest = {
            "_ZN3c104cuda9SetDeviceEab", "_ZN3c104cuda14MaybeSetDeviceEa", "_ZN3c104cuda14ExchangeDeviceEa",
            "_ZN3c104cuda20setCurrentCUDAStreamENS0_10CUDAStreamE", "_ZN3c104cuda17getStreamFromPoolEba",
            "_ZN3c104cuda17getStreamFromPoolEia", "_ZN3c108GradMode11set_enabledEb",
            "_ZN3c1013AutogradState13set_tls_stateES0_", "_ZN2at8internal14set_thread_numEi",
            "_ZN2at23SavedTensorDefaultHooks11set_tracingEb", "_ZN3c1010TensorImpl17set_requires_gradEb",
            "_ZN3c1010TensorImpl17set_autograd_metaESt10unique_ptrINS_21AutogradMetaInterfaceESt14default_deleteIS2_EE",
            "_ZN2at4_ops18set__source_Tensor4callERNS_6TensorERKS2_",
            "_ZN2at4_ops10add_Tensor4callERKNS_6TensorES4_RKN3c106ScalarE", "_ZN2at14RecordFunctionC1ENS_11RecordScopeE",
            "_ZN3c104warnERKNS_7WarningE", "_ZN3c1012WarningUtils14get_warnAlwaysEv",
            "_ZN3c106detail14torchCheckFailEPKcS2_jS2_", "_ZNK2at10TensorBase8data_ptrIfEEPT_v",
            "_ZN3c104cuda20getCurrentCUDAStreamEa", "_ZN2at4cuda24getCurrentCUDABlasHandleEv", "_ZN2at13globalContextEv",
            "_ZN5torch4cuda12is_availableEv", "_ZN2at4cuda6detail23getDefaultCUDAGeneratorEa",
            "_ZN2at17CUDAGeneratorImpl17philox_cuda_stateEm", "_ZN3c104cuda20CUDACachingAllocator9allocatorE"}
        self.assertEqual(native_check.refused_symbols(honest), [])

    def test_torch_entities_are_read_from_demangled_names(self):
        """The family is read from the entity's own name: return types,
        template arguments, parameters, ABI tags and special-name prefixes
        dropped, operators' brackets no template's."""
        self.assertEqual(native_check.torch_entity("float* at::TensorBase::data_ptr<float>() const"),
                         "at::TensorBase::data_ptr")
        self.assertEqual(native_check.torch_entity("vtable for c10::WarningHandler"), "c10::WarningHandler")
        self.assertEqual(native_check.torch_entity("at::native::threshold_stub"), "at::native::threshold_stub")
        self.assertEqual(native_check.torch_entity("torch::autograd::Node::name[abi:cxx11]() const"),
                         "torch::autograd::Node::name")
        self.assertEqual(native_check.torch_entity(
            "c10::operator<<(std::basic_ostream<char, std::char_traits<char> >&, c10::DeviceType)"), "c10::operator")
        self.assertEqual(native_check.torch_entity("void (*c10::SetHandler(void (*)(int)))(int)"), "c10::SetHandler")

    def test_the_fourth_rounds_c_entry_points_are_refused(self):
        """What the round reached from C (processes, signals and timers,
        handlers at exit, threads, shared memory, files, the environment,
        the per-thread default stream) is in no family; `__cxa_atexit` is, but
        the worker leaves by os._exit, which runs no exit handlers."""
        found = {"system", "signal", "alarm", "sigset", "ualarm", "setitimer", "on_exit", "pthread_create", "shm_open",
                 "creat64", "wordexp", "aio_read", "environ", "__environ", "fopen", "fopen64", "write", "read",
                 "cudaLaunchKernel_ptsz"}
        self.assertEqual(native_check.refused_symbols(found | {"__cxa_atexit", "puts"}), sorted(found))

    def test_scopes_are_read_from_mangled_names(self):
        self.assertEqual(native_check.cxx_scope("_ZNK2at10TensorBase5numelEv"), "at")
        self.assertEqual(native_check.cxx_scope("_ZSt4cout"), "std")
        self.assertEqual(native_check.cxx_scope("_ZGVZN3c104testEvE1x"), "c10")
        self.assertEqual(native_check.cxx_scope("_ZTISt9exception"), "std")
        self.assertEqual(native_check.cxx_scope("_ZTIb"), "builtin")
        self.assertEqual(native_check.cxx_scope("_Z3foov"), "foo")

    @unittest.skipUnless(platform.machine() == "x86_64", "x86-64 assembly")
    def test_system_call_instructions_are_found_by_instruction(self):
        found = native_check.forbidden_instructions(self.syscall)
        self.assertEqual([where.split(": ", 1)[1].split()[0] for where in found], ["syscall", "int"])
        self.assertEqual(len(native_check.refusals(self.syscall)), 2)
        self.assertEqual(native_check.forbidden_instructions(self.honest), [])

    @unittest.skipUnless(platform.machine() == "x86_64", "x86-64 assembly")
    def test_loads_of_the_floating_point_control_state_are_found_by_instruction(self):
        found = native_check.forbidden_instructions(self.fp_control)
        self.assertEqual([where.split(": ", 1)[1].split()[0] for where in found], ["ldmxcsr", "fldcw"])
        self.assertEqual(native_check.refused_symbols(native_check.undefined_symbols(self.fp_control)), [])

    def static_runtime_build(self, name, text):
        """`text` compiled to an object and linked with the C++ runtime
        linked statically (as some toolchains do by default): (library, object)."""
        source = os.path.join(self.folder.name, name)
        with open(source, "w") as out:
            out.write(text)
        subprocess.run(["c++", "-O1", "-fPIC", "-c", source, "-o", source + ".o"], check=True)
        subprocess.run(["c++", "-shared", source + ".o", "-o", source + ".so", "-static-libstdc++"], check=True)
        return source + ".so", source + ".o"

    def test_a_statically_linked_cxx_runtime_is_judged_by_the_extensions_own_objects(self):
        library, objects = self.static_runtime_build("static_runtime.cpp", HONEST_CPP)
        if not native_check.static_runtime_imports("c++"):
            self.skipTest("this c++ has no static runtime archives")
        # The runtime's own imports (read, close, locales, ...) are in the library, not in the candidate's code.
        self.assertNotEqual(native_check.refusals(library), [])
        self.assertEqual(native_check.refusals(library, [objects], "c++"), [])
        # What the candidate's own code imports counts, even where the runtime imports it too.
        hidden = HONEST_CPP + r"""
#include <fcntl.h>
#include <unistd.h>
extern "C" int peek(const char* path) { char c; int fd = open(path, O_RDONLY); return (int)read(fd, &c, 1); }
"""
        library, objects = self.static_runtime_build("static_runtime_open.cpp", hidden)
        refused = native_check.refusals(library, [objects], "c++")
        self.assertIn("open", refused)
        self.assertIn("read", refused)

    def test_a_library_that_cannot_be_read_is_an_error_naming_it(self):
        with self.assertRaisesRegex(RuntimeError, "missing.so"):
            native_check.undefined_symbols(os.path.join(self.folder.name, "missing.so"))


HONEST = os.path.join(os.path.dirname(__file__), "..", "..", "src", "check", "testdata", "honest")
HACKS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "hacks")


@unittest.skipUnless(os.environ.get("KMEM_NATIVE_BUILDS") == "1", "builds real extensions: KMEM_NATIVE_BUILDS=1")
class RealBuildsTest(unittest.TestCase):
    """Every honest candidate's load_inline extensions, built for real with
    this machine's torch (CUDA ones where a GPU is present), pass the check;
    minutes per extension, so run on demand (KMEM_NATIVE_BUILDS=1)."""

    def test_honest_extensions_pass(self):
        import torch
        import torch.utils.cpp_extension as cpp_extension
        original = cpp_extension.load_inline
        sources = sorted(glob.glob(os.path.join(HONEST, "*.py")) + glob.glob(os.path.join(HACKS, "*", "honest_*.py")))
        built = []
        with tempfile.TemporaryDirectory() as root:
            for path in sources:
                with open(path) as source:
                    text = source.read()
                needs_cuda = re.search(r"cuda_sources|cublas|cuda_runtime|at::cuda|c10::cuda|<<<", text)
                if "load_inline" not in text or (needs_cuda and not torch.cuda.is_available()):
                    continue

                def load_inline(name, cpp_sources, cuda_sources=None, *args, **kwargs):
                    folder = os.path.join(root, f"{len(built)}_{name}")
                    os.makedirs(folder)
                    kwargs["build_directory"] = folder
                    module = original(name, cpp_sources, cuda_sources, *args, **kwargs)
                    built.append((os.path.basename(path), module.__file__))
                    return module

                with self.subTest(candidate=os.path.basename(path)):
                    cpp_extension.load_inline = load_inline
                    try:
                        exec(compile(text, path, "exec"), {"__name__": "candidate"})
                    finally:
                        cpp_extension.load_inline = original
            for candidate, library in built:
                with self.subTest(candidate=candidate, library=os.path.basename(library)):
                    self.assertEqual(native_check.refusals(library), [])
        self.assertGreater(len(built), 0)


if __name__ == "__main__":
    unittest.main()
