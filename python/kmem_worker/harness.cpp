// kmem's native harness: the warm-up and timed calls of a model, run in C++
// so that no Python of the candidate's can reach what is measured or how.
// python/kmem_worker/native_harness.py builds it once per machine and torch
// version (cached by a hash of this source and the toolchain) and loads it
// before any candidate code runs.
//
// Regions: memory shared between the trusted reference worker, which
// creates one (the stage a call's inputs are copied into, the out-slot every
// timed call's outputs are copied into, the report), and the candidate's worker,
// which maps it by its handle: a CUDA IPC handle of a device allocation of
// its own (driver API), or a file mapped with MAP_SHARED.
//
// Staging: the input sets of every warm-up and timed call stay in the
// reference's own memory, never mapped by the candidate's process. Before
// each call the candidate's harness asks for that call's set through a
// control block (host memory both map, futex words); the reference's Stager
// copies the set into the stage and answers. A set is staged only in its
// turn (timed sets one after another, each once), so a candidate that asks
// for sets itself to read them ahead of their calls (and compute their
// outputs outside the clock) takes the turn of its harness, which is then
// refused: the reference reports it. The Stager also finds a call that
// changed its inputs (the stage against the set, before the next), decides
// which timed calls are judged (a reservoir over the out-slot), and times
// each judged call on its own clock, from the answer that staged its inputs
// to the end of its copy of the call's output: a right output takes at
// least that long, whatever code runs in the candidate's process; the
// orchestrator checks the time the harness reports against it
// (src/eval/timing_check.h).
//
// Harness: holds the call sets (tensors made here from the regions, never
// Python objects until their call), the cache flush buffer, the CUDA events
// and the tally of every call timed. measure() runs a whole measurement:
// per call the set's tensors are wrapped, the cache flushed, the device
// synchronised, the clock started, model(*set) called through the C API,
// the device synchronised, the clock stopped; the output is checked by exact
// type (a plain tensor, or a tuple/list/torch named tuple of them) and device,
// unpacked without any Python attribute lookup and, for a timed call,
// copied into the out-slot with Python dispatch keys excluded and taken by
// the Stager at once (an ask with no set), before anything is released. Between calls only the launch counter and the
// host probe given at construction (kmem's own functions) run in Python. After every measurement the harness writes
// what it measured (the median, its tally of every call, ...) into the reference's report slot: the orchestrator takes
// the candidate's time from there, not from the candidate's own record.
#include <ATen/ATen.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/autograd/python_variable.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

// ---- the CUDA driver, opened at first use ----------------------------------

constexpr size_t kIpcHandleBytes = 64;  // CU_IPC_HANDLE_SIZE
struct IpcHandle {
  char bytes[kIpcHandleBytes];
};

struct Driver {
  int (*ctx_synchronize)();
  int (*ctx_get_current)(void**);
  int (*ctx_set_current)(void*);
  int (*stream_synchronize)(void*);
  int (*event_create)(void**, unsigned);
  int (*event_record)(void*, void*);
  int (*event_synchronize)(void*);
  int (*event_elapsed)(float*, void*, void*);
  int (*mem_alloc)(unsigned long long*, size_t);
  int (*mem_free)(unsigned long long);
  int (*ipc_get)(IpcHandle*, unsigned long long);
  int (*ipc_open)(unsigned long long*, IpcHandle, unsigned);
  int (*ipc_close)(unsigned long long);
};

template <typename F>
void bind(void* library, F& slot, const char* name, const char* fallback = nullptr) {
  void* found = dlsym(library, name);
  if (found == nullptr && fallback != nullptr) found = dlsym(library, fallback);
  if (found == nullptr) throw std::runtime_error(std::string("kmem harness: libcuda.so.1 lacks ") + name);
  slot = reinterpret_cast<F>(found);
}

const Driver& driver() {
  static const Driver loaded = [] {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
      throw std::runtime_error(std::string("kmem harness: cannot open libcuda.so.1: ") + dlerror());
    Driver d{};
    bind(library, d.ctx_synchronize, "cuCtxSynchronize");
    bind(library, d.ctx_get_current, "cuCtxGetCurrent");
    bind(library, d.ctx_set_current, "cuCtxSetCurrent");
    bind(library, d.stream_synchronize, "cuStreamSynchronize");
    bind(library, d.event_create, "cuEventCreate");
    bind(library, d.event_record, "cuEventRecord");
    bind(library, d.event_synchronize, "cuEventSynchronize");
    bind(library, d.event_elapsed, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    bind(library, d.mem_alloc, "cuMemAlloc_v2", "cuMemAlloc");
    bind(library, d.mem_free, "cuMemFree_v2", "cuMemFree");
    bind(library, d.ipc_get, "cuIpcGetMemHandle");
    bind(library, d.ipc_open, "cuIpcOpenMemHandle_v2", "cuIpcOpenMemHandle");
    bind(library, d.ipc_close, "cuIpcCloseMemHandle");
    return d;
  }();
  return loaded;
}

// The driver's CUDA_ERROR_OUT_OF_MEMORY, raised as Python's MemoryError
// (pybind11 turns a std::bad_alloc into one), so that the error record's kind
// is out_of_memory (failures.py) and the orchestrator runs the job again alone.
constexpr int kCudaErrorOutOfMemory = 2;

class DeviceOutOfMemory : public std::bad_alloc {
 public:
  explicit DeviceOutOfMemory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

void check(int status, const char* what) {
  if (status == 0) return;
  std::string message =
      std::string("kmem harness: ") + what + " failed with CUDA driver error " + std::to_string(status);
  if (status == kCudaErrorOutOfMemory) throw DeviceOutOfMemory(message + " (out of memory)");
  throw std::runtime_error(message);
}

void require_context() {
  void* context = nullptr;
  check(driver().ctx_get_current(&context), "cuCtxGetCurrent");
  if (context == nullptr) throw std::runtime_error("kmem harness: no current CUDA context");
}

double clock_ms(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double now_ms() { return clock_ms(CLOCK_MONOTONIC); }

// The CPU time every thread of the process but the calling one has used (the
// kernel's accounting, out of any code's reach; threads that have exited
// included).
double other_threads_cpu_ms() { return clock_ms(CLOCK_PROCESS_CPUTIME_ID) - clock_ms(CLOCK_THREAD_CPUTIME_ID); }

uint64_t random_word() {
  uint64_t word = 0;
  if (getrandom(&word, sizeof word, 0) != static_cast<ssize_t>(sizeof word))
    throw std::runtime_error("kmem harness: getrandom failed");
  return word;
}

// Python's dispatch keys (torch dispatch modes, tensor subclasses) left out
// of the harness's own tensor work.
c10::DispatchKeySet python_keys() {
  return c10::DispatchKeySet(
      {c10::DispatchKey::Python, c10::DispatchKey::PythonTLSSnapshot, c10::DispatchKey::PythonDispatcher});
}

// ---- an output's classes ----------------------------------------------------

// Metadata of torch 2.x's TensorImpl that calls out (a backend's meta; the
// symbolic sizes' nodes), asked for where this torch has it: the harness
// builds against every torch it runs with (the template's dependent calls
// are left out of the build where a torch lacks them).
template <typename Impl, typename = void>
struct HasBackendMeta : std::false_type {};
template <typename Impl>
struct HasBackendMeta<Impl, std::void_t<decltype(std::declval<Impl&>().get_backend_meta())>> : std::true_type {};
template <typename Impl, typename = void>
struct HasSymbolicSizes : std::false_type {};
template <typename Impl>
struct HasSymbolicSizes<Impl, std::void_t<decltype(std::declval<const Impl&>().has_symbolic_sizes_strides())>>
    : std::true_type {};

template <typename Impl>
const char* torch_2_refusal(Impl* impl) {
  if constexpr (HasSymbolicSizes<Impl>::value) {
    if (impl->has_symbolic_sizes_strides()) return "has symbolic sizes";
  }
  if constexpr (HasBackendMeta<Impl>::value) {
    if (impl->get_backend_meta() != nullptr) return "carries a backend's metadata";
  }
  return "";
}

// The classes torch makes a plain dense tensor of, known by their virtual
// tables, and the deleters of its allocators' memory, sampled from tensors
// made here before any candidate code runs. An output whose TensorImpl,
// storage or autograd metadata is of another class (a C++ subclass of the
// candidate's, made in its extension) would run the candidate's code in
// the virtual calls the harness's own work makes after the clock (numel,
// sizes, detach's shallow copy, requires_grad, a storage's
// release_resources when its reference count, set wrong, reaches zero), and
// so would memory whose deleter is the candidate's: red-team candidates ran
// their whole kernel there (37x through a TensorImpl, 63x through a
// StorageImpl). So would metadata that calls out (Python dispatch, symbolic
// sizes, dimension names, a backend's meta). Reading a virtual table or a
// deleter pointer calls nothing.
class TorchOwnClasses {
 public:
  TorchOwnClasses() = default;
  // Sampled on the CPU and on `device`.
  explicit TorchOwnClasses(const c10::Device& device) {
    c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
    at::AutoGradMode grad(true);
    at::Tensor plain = at::empty({2});
    tensor_impl_ = vtable_of(plain.unsafeGetTensorImpl());
    storage_impl_ = vtable_of(plain.storage().unsafeGetStorageImpl());
    for (const at::Tensor& t : {plain, at::empty({2}, at::TensorOptions().device(device))})
      deleters_.push_back(t.storage().data_ptr().get_deleter());
    at::Tensor leaf = at::empty({2}).requires_grad_(true);
    at::Tensor computed = leaf * 2;
    for (const at::Tensor& t : {leaf, computed, leaf.view({2}), computed.view({2}), plain.view({2})})
      if (const c10::AutogradMetaInterface* meta = t.unsafeGetTensorImpl()->autograd_meta())
        autograd_metas_.push_back(vtable_of(meta));
  }

  // Why `value` is no plain tensor of torch's own classes ("" when it is),
  // found without calling anything of it.
  std::string refusal(const at::Tensor& value) const {
    c10::TensorImpl* impl = value.unsafeGetTensorImpl();
    if (vtable_of(impl) != tensor_impl_) return "is a tensor of a TensorImpl class of its own";
    if (const c10::AutogradMetaInterface* meta = impl->autograd_meta();
        meta != nullptr && !contains(autograd_metas_, vtable_of(meta)))
      return "carries autograd metadata of a class of its own";
    if (impl->key_set().has(c10::DispatchKey::Python)) return "dispatches to Python";
    if (impl->has_named_tensor_meta()) return "carries dimension names";
    if (const char* why = torch_2_refusal(impl); *why != '\0') return why;
    if (!impl->has_storage()) return "has no storage";
    const c10::StorageImpl* storage = impl->unsafe_storage().unsafeGetStorageImpl();
    if (storage == nullptr || vtable_of(storage) != storage_impl_) return "lies in a storage of a class of its own";
    return "";
  }

  // Whether `value` (of torch's own classes) lies in memory one of torch's
  // allocators made, whose release runs none of the candidate's code.
  bool allocated_by_torch(const at::Tensor& value) const {
    const c10::StorageImpl* storage = value.unsafeGetTensorImpl()->unsafe_storage().unsafeGetStorageImpl();
    return contains(deleters_, storage->data_ptr().get_deleter());
  }

 private:
  static const void* vtable_of(const void* object) { return *static_cast<const void* const*>(object); }
  template <typename T>
  static bool contains(const std::vector<T>& list, T item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  }

  const void* tensor_impl_ = nullptr;
  const void* storage_impl_ = nullptr;
  std::vector<c10::DeleterFnPtr> deleters_;  // the CPU's and the device's allocators'
  std::vector<const void*> autograd_metas_;  // AutogradMeta's and DifferentiableViewMeta's, as sampled
};

// ---- the staging handshake -------------------------------------------------

// The words of the staging handshake, at the start of a host region both
// processes map (the candidate's process can write them too: the Stager
// trusts none of them).
struct ControlWords {
  uint32_t request;  // bumped by the harness for each set it asks for (a futex word: a wake-up only)
  uint32_t pad0[15];
  int64_t set;     // the set asked for
  uint64_t token;  // the ask's token, drawn by the harness from getrandom: a new one is a new ask
  int64_t pad1[6];
  uint32_t served;    // bumped by the Stager for each answer (a futex word: a wake-up only)
  uint32_t refused;   // whether the last answer was a refusal (the set was not staged)
  uint64_t answered;  // the token of the ask last answered: the harness goes on when it is its own
};
constexpr int64_t kControlBytes = 4096;
// The set word of the last ask of a measurement: nothing to stage, the last
// timed call's output to take.
constexpr int64_t kNoSet = -1;

template <typename T>
T load_word(const T* word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
template <typename T>
void store_word(T* word, T value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

// Waits up to `ms` while *word == expected (shared futex: the two processes
// map the same file; a wait that futexes cannot serve ends at its timeout).
void futex_wait(uint32_t* word, uint32_t expected, long ms) {
  timespec timeout{ms / 1000, (ms % 1000) * 1000000L};
  syscall(SYS_futex, word, FUTEX_WAIT, expected, &timeout, nullptr, 0);
}
void futex_wake(uint32_t* word) { syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0); }

// ---- regions ---------------------------------------------------------------

// One block of shared memory: created (owner) or opened by its handle.
class Region {
 public:
  enum class Kind { device_owned, device_opened, file };

  // A device allocation of `bytes` (CUDA) or a file of `bytes` at `path` (CPU).
  static std::shared_ptr<Region> create(const std::string& device, int64_t bytes, const std::string& path) {
    auto region = std::shared_ptr<Region>(new Region());
    region->bytes_ = std::max<int64_t>(bytes, 1);
    if (device == "cuda") {
      require_context();
      unsigned long long pointer = 0;
      check(driver().mem_alloc(&pointer, static_cast<size_t>(region->bytes_)), "cuMemAlloc");
      region->kind_ = Kind::device_owned;
      region->base_ = reinterpret_cast<void*>(pointer);
      IpcHandle handle{};
      check(driver().ipc_get(&handle, pointer), "cuIpcGetMemHandle");
      region->handle_.assign(handle.bytes, kIpcHandleBytes);
    } else {
      int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (fd < 0) throw std::runtime_error("kmem harness: cannot create " + path + ": " + std::strerror(errno));
      region->map_file(fd, path);
      region->handle_ = path;
    }
    return region;
  }

  // The region another process created, by its handle (IPC handle bytes on
  // CUDA, a path on the CPU; the file is unlinked once mapped).
  static std::shared_ptr<Region> open(const std::string& device, const std::string& handle, int64_t bytes) {
    auto region = std::shared_ptr<Region>(new Region());
    region->bytes_ = std::max<int64_t>(bytes, 1);
    if (device == "cuda") {
      if (handle.size() != kIpcHandleBytes) throw std::runtime_error("kmem harness: an IPC handle of the wrong size");
      require_context();
      IpcHandle ipc{};
      std::memcpy(ipc.bytes, handle.data(), kIpcHandleBytes);
      unsigned long long pointer = 0;
      check(driver().ipc_open(&pointer, ipc, 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */), "cuIpcOpenMemHandle");
      region->kind_ = Kind::device_opened;
      region->base_ = reinterpret_cast<void*>(pointer);
    } else {
      int fd = ::open(handle.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) throw std::runtime_error("kmem harness: cannot open " + handle + ": " + std::strerror(errno));
      region->map_file(fd, "");
      ::unlink(handle.c_str());
    }
    return region;
  }

  ~Region() {
    if (base_ == nullptr) return;
    switch (kind_) {
      case Kind::device_owned: driver().mem_free(reinterpret_cast<unsigned long long>(base_)); break;
      case Kind::device_opened: driver().ipc_close(reinterpret_cast<unsigned long long>(base_)); break;
      case Kind::file: munmap(base_, static_cast<size_t>(bytes_)); break;
    }
  }

  // A tensor over bytes [offset, ...) of the region; it keeps the region mapped.
  static at::Tensor tensor(const std::shared_ptr<Region>& region, int64_t offset, at::ScalarType dtype,
                           const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
    int64_t extent = 1;
    for (size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] == 0) extent = 0;
    if (extent != 0) {
      extent = 1;
      for (size_t i = 0; i < sizes.size(); ++i) extent += (sizes[i] - 1) * strides.at(i);
    }
    int64_t end = offset + extent * static_cast<int64_t>(c10::elementSize(dtype));
    if (offset < 0 || end > region->bytes_ || sizes.size() != strides.size())
      throw std::runtime_error("kmem harness: a tensor outside its region");
    auto options = at::TensorOptions().dtype(dtype).device(region->device());
    std::shared_ptr<Region> keep = region;
    return at::from_blob(
        static_cast<char*>(region->base_) + offset, sizes, strides, [keep](void*) {}, options);
  }

  py::bytes handle() const { return py::bytes(handle_); }
  int64_t bytes() const { return bytes_; }
  // The staging handshake's words of a host region of kControlBytes.
  ControlWords* control_words() const {
    if (kind_ != Kind::file || bytes_ < kControlBytes) throw std::runtime_error("kmem harness: no control region");
    return static_cast<ControlWords*>(base_);
  }

 private:
  Region() = default;

  void map_file(int fd, const std::string& created) {
    if (!created.empty() && ftruncate(fd, bytes_) != 0) {
      ::close(fd);
      throw std::runtime_error("kmem harness: cannot size " + created);
    }
    void* mapped = mmap(nullptr, static_cast<size_t>(bytes_), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (mapped == MAP_FAILED)
      throw std::runtime_error(std::string("kmem harness: mmap failed: ") + std::strerror(errno));
    touch_every_page(mapped, bytes_);
    kind_ = Kind::file;
    base_ = mapped;
  }

  // Both sides read a byte of every page at load: a page first read
  // inside a timed call costs a fault there, which the reference's own sets
  // never pay. Softsign on 1 MiB inputs, CPU: 1.7 ms a call on pages new to
  // the mapping, 0.2 ms once touched (docs/measurement.md). MAP_POPULATE does
  // not do it for shared memory on every kernel (measured: no gain here).
  static void touch_every_page(const void* base, int64_t bytes) {
    const long page = sysconf(_SC_PAGESIZE);
    const volatile char* bytes_at = static_cast<const volatile char*>(base);
    for (int64_t offset = 0; offset < bytes; offset += page) (void)bytes_at[offset];
  }

  c10::Device device() const { return kind_ == Kind::file ? c10::Device(c10::kCPU) : c10::Device(c10::kCUDA, 0); }

  Kind kind_ = Kind::file;
  void* base_ = nullptr;
  int64_t bytes_ = 0;
  std::string handle_;
};

at::ScalarType scalar_type(py::handle dtype) {
  if (!THPDtype_Check(dtype.ptr())) throw std::runtime_error("kmem harness: a dtype expected");
  return reinterpret_cast<THPDtype*>(dtype.ptr())->scalar_type;
}

// One argument of a call: a tensor (made here) or any other value.
struct Argument {
  bool is_tensor = false;
  at::Tensor tensor;
  py::object value;
};

using CallSet = std::vector<Argument>;

// A layout entry, as the trusted side describes it:
// ("tensor", region, offset, dtype, sizes, strides) | ("value", object) | a torch.Tensor.
Argument argument(const py::handle& entry, const std::vector<std::shared_ptr<Region>>& regions) {
  Argument made;
  if (THPVariable_Check(entry.ptr())) {
    made.is_tensor = true;
    made.tensor = THPVariable_Unpack(entry.ptr());
    return made;
  }
  auto fields = py::reinterpret_borrow<py::tuple>(entry);
  std::string kind = fields[0].cast<std::string>();
  if (kind == "value") {
    made.value = py::reinterpret_borrow<py::object>(fields[1]);
    return made;
  }
  if (kind != "tensor" || fields.size() != 6) throw std::runtime_error("kmem harness: a layout entry of no known kind");
  size_t region = fields[1].cast<size_t>();
  if (region >= regions.size()) throw std::runtime_error("kmem harness: a layout entry names no region");
  made.is_tensor = true;
  made.tensor = Region::tensor(regions[region], fields[2].cast<int64_t>(), scalar_type(fields[3]),
                               fields[4].cast<std::vector<int64_t>>(), fields[5].cast<std::vector<int64_t>>());
  return made;
}

std::vector<CallSet> call_sets(const py::list& layout, const std::vector<std::shared_ptr<Region>>& regions) {
  std::vector<CallSet> sets;
  for (const auto& call : layout) {
    CallSet set;
    for (const auto& entry : py::reinterpret_borrow<py::list>(call)) set.push_back(argument(entry, regions));
    sets.push_back(std::move(set));
  }
  return sets;
}

// ---- the stager (the reference's side) -------------------------------------

// Copies the call sets, held in the reference's own memory (`sets`: bytes,
// `count` sets of `per_set` bytes each), one at a time into the stage (the
// first `per_set` bytes of `shared`) when the candidate's harness asks for
// one through `control`, on a thread of its own. The turn: a warm-up set
// (below `warm`) at any time; a timed set only the one after the last timed
// set staged, each once: a set asked for out of turn is refused and counted.
// Whoever asks (the candidate's code can write the control block too), a
// timed set staged for anyone but the harness makes the harness's own ask
// for it come out of turn.
class Stager {
 public:
  Stager(at::Tensor sets, int64_t per_set, int64_t warm, std::shared_ptr<Region> shared,
         std::shared_ptr<Region> control, at::Tensor judged, int64_t slot_bytes)
      : sets_(std::move(sets)),
        judged_(std::move(judged)),
        per_set_(per_set),
        warm_(warm),
        slot_bytes_(slot_bytes),
        shared_(std::move(shared)),
        control_(std::move(control)),
        words_(control_->control_words()) {
    slots_ = slot_bytes_ > 0 ? judged_.numel() / slot_bytes_ : 0;
    slot_sets_.assign(static_cast<size_t>(slots_), -1);
    slot_ms_.assign(static_cast<size_t>(slots_), -1.0);
    if (slots_ > 0) out_slot_ = Region::tensor(shared_, per_set, at::kByte, {slot_bytes_}, {1});
    count_ = per_set_ > 0 ? sets_.numel() / per_set_ : 0;
    if (per_set_ <= 0 || count_ <= warm_ || warm_ < 1 || sets_.scalar_type() != at::kByte || !sets_.is_contiguous())
      throw std::runtime_error("kmem harness: a stager needs byte sets, warm-up sets and timed ones");
    stage_ = Region::tensor(shared_, 0, at::kByte, {per_set_}, {1});
    cursor_ = warm_ - 1;
    answered_ = load_word(&words_->token);
    if (sets_.is_cuda()) check(driver().ctx_get_current(&context_), "cuCtxGetCurrent");
    thread_ = std::thread([this] { run(); });
  }
  ~Stager() { stop(); }

  // Stops serving and reports: {"staged": sets copied, "out_of_turn":
  // requests refused, "first_out_of_turn": the first set refused (-1),
  // "changed": whether a call changed its staged inputs, "judged": [(slot,
  // set)] of the judged outputs taken into the reference's memory, the set
  // the Stager's own (the one it staged for that call), "judged_fastest_ms":
  // the shortest time of a judged call on its clock (its inputs staged to
  // its output taken; 0 when none), "output_bytes": the bytes of one call's
  // outputs}.
  py::dict finish() {
    stop();
    py::list judged;
    for (int64_t k = 0; k < slots_; ++k)
      if (slot_sets_[static_cast<size_t>(k)] >= 0) judged.append(py::make_tuple(k, slot_sets_[static_cast<size_t>(k)]));
    py::dict report;
    report["judged"] = judged;
    report["staged"] = staged_count_;
    report["out_of_turn"] = out_of_turn_;
    report["first_out_of_turn"] = first_out_of_turn_;
    report["changed"] = changed_;
    report["error"] = error_;
    double fastest = 0.0;
    for (double ms : slot_ms_)
      if (ms >= 0 && (fastest == 0.0 || ms < fastest)) fastest = ms;
    report["judged_fastest_ms"] = fastest;
    report["output_bytes"] = slot_bytes_;
    return report;
  }

 private:
  void stop() {
    if (!thread_.joinable()) return;
    stopping_.store(true);
    futex_wake(&words_->request);
    thread_.join();
    if (error_.empty()) check_unchanged();
  }

  void run() {
    try {
      if (context_ != nullptr) check(driver().ctx_set_current(context_), "cuCtxSetCurrent");
      c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
      // An ask is a token not answered yet, whatever the request word says
      // (the candidate can write it: a word set back would hide an ask from
      // a check of the word alone). The word and its timeout only wake us.
      while (!stopping_.load()) {
        futex_wait(&words_->request, load_word(&words_->request), 5);  // the timeout bounds a missed wake
        uint64_t token = load_word(&words_->token);
        if (token == answered_) continue;
        answered_ = token;
        serve(token, load_word(&words_->set));
      }
    } catch (const std::exception& e) {
      error_ = e.what();
      changed_ = true;  // nothing more is known of the inputs
    }
  }

  bool in_turn(int64_t set) const {
    if (set < 0 || set >= count_) return false;
    return set < warm_ || set == cursor_ + 1;
  }

  void serve(uint64_t token, int64_t set) {
    take_output();  // first: the output as the ask found it, and the call's time
    check_unchanged();
    if (set == kNoSet) return answer(token, false);
    bool allowed = in_turn(set);
    if (allowed) {
      if (set >= warm_) cursor_ = set;
      if (context_ != nullptr) {
        stage_.copy_(sets_.narrow(0, set * per_set_, per_set_));
        synchronize_copy();
      } else {  // not ATen's copy: its thread pool is not to be used from this thread of a forked worker
        std::memcpy(stage_.data_ptr(), set_bytes(set), static_cast<size_t>(per_set_));
      }
      staged_ = set;
      unchecked_ = true;
      staged_count_ += 1;
    } else {
      if (out_of_turn_ == 0) first_out_of_turn_ = set;
      out_of_turn_ += 1;
      staged_ = -1;  // the stage holds what it held; nothing to compare it with
    }
    // A timed call may start once answered, not sooner: its set was nowhere the candidate could read.
    timed_since_ = allowed && set >= warm_ ? now_ms() : -1;
    answer(token, !allowed);
  }

  void answer(uint64_t token, bool refused) {
    store_word<uint32_t>(&words_->refused, refused ? 1 : 0);
    store_word(&words_->answered, token);
    store_word<uint32_t>(&words_->served, load_word(&words_->served) + 1);
    futex_wake(&words_->served);
  }

  // The output of the call on the timed set last staged, which the harness
  // copied into the shared out-slot: at the first ask after that call (no
  // code of the candidate's runs between the copy and the ask), the
  // reservoir (decided here, from getrandom: the candidate never learns
  // which calls are judged) keeps it or not in a judged slot of the
  // reference's own memory, with the set from the Stager's own record. A
  // candidate's own ask during a call takes that call's out-slot early: what
  // it holds then is what the candidate made inside the clock. A judged
  // call's time on this clock ends once the copy is done (the candidate's
  // code may write the out-slot while it is copied).
  void take_output() {
    if (slots_ == 0 || staged_ < warm_ || taken_ == staged_) return;
    taken_ = staged_;
    int64_t seen = ++outputs_seen_;
    int64_t slot = seen <= slots_ ? seen - 1 : static_cast<int64_t>(random_word() % static_cast<uint64_t>(seen));
    if (slot >= slots_) return;
    if (context_ != nullptr) {
      judged_.narrow(0, slot * slot_bytes_, slot_bytes_).copy_(out_slot_);
      synchronize_copy();
    } else {
      std::memcpy(static_cast<char*>(judged_.data_ptr()) + slot * slot_bytes_, out_slot_.data_ptr(),
                  static_cast<size_t>(slot_bytes_));
    }
    slot_sets_[static_cast<size_t>(slot)] = staged_;
    slot_ms_[static_cast<size_t>(slot)] = timed_since_ >= 0 ? now_ms() - timed_since_ : -1;
  }

  // The stage against the set last copied into it: a call that changed it
  // changed its inputs.
  void check_unchanged() {
    if (staged_ < 0 || changed_ || !unchecked_) return;
    unchecked_ = false;  // once per staging: after the call's own ask, what changes the stage changes no call
    if (context_ != nullptr) {
      synchronize_copy();
      if (!at::equal(stage_, sets_.narrow(0, staged_ * per_set_, per_set_))) changed_ = true;
    } else if (std::memcmp(stage_.data_ptr(), set_bytes(staged_), static_cast<size_t>(per_set_)) != 0) {
      changed_ = true;
    }
  }

  const void* set_bytes(int64_t set) const { return static_cast<const char*>(sets_.data_ptr()) + set * per_set_; }

  void synchronize_copy() {
    if (context_ != nullptr) check(driver().stream_synchronize(nullptr), "cuStreamSynchronize");
  }

  at::Tensor sets_, judged_, stage_, out_slot_;
  int64_t per_set_, warm_, slot_bytes_, slots_ = 0, count_ = 0, taken_ = -1, outputs_seen_ = 0;
  std::vector<int64_t> slot_sets_;  // per judged slot, the set of the call it holds (-1: none)
  std::vector<double> slot_ms_;     // per judged slot, its call's time on this clock (-1: none)
  double timed_since_ = -1;         // when the timed call under way was staged (-1: none)
  std::shared_ptr<Region> shared_, control_;
  ControlWords* words_;
  void* context_ = nullptr;
  uint64_t answered_ = 0;
  int64_t cursor_ = 0, staged_ = -1, staged_count_ = 0, out_of_turn_ = 0, first_out_of_turn_ = -1;
  bool changed_ = false, unchecked_ = false;
  std::string error_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// ---- the harness -----------------------------------------------------------

struct Settings {
  double warmup_s, timed_ms;
  int64_t max_timed_calls;
  double max_timed_s, host_bound_share, window_s;
  int64_t patient_windows;
  double steady_ratio;
};

class Harness {
 public:
  // `launches`: a callable giving the running count of the candidate's own
  // launches, or None; `probe`: the host's speed probe (milliseconds);
  // `named_tuples`: torch's named tuple types; `strict`: check every output
  // (candidates) or take it as it comes (the trusted reference).
  Harness(const std::string& device, int64_t flush_bytes, py::object launches, py::object probe, py::tuple named_tuples,
          py::tuple settings, bool strict)
      : cuda_(device == "cuda"), launches_(std::move(launches)), probe_(std::move(probe)), strict_(strict) {
    for (const auto& type : named_tuples) named_tuples_.push_back(type.ptr());
    named_tuple_refs_ = named_tuples;
    settings_ = Settings{settings[0].cast<double>(),  settings[1].cast<double>(), settings[2].cast<int64_t>(),
                         settings[3].cast<double>(),  settings[4].cast<double>(), settings[5].cast<double>(),
                         settings[6].cast<int64_t>(), settings[7].cast<double>()};
    c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
    auto options =
        at::TensorOptions().dtype(at::kFloat).device(cuda_ ? c10::Device(c10::kCUDA, 0) : c10::Device(c10::kCPU));
    flush_ = at::empty({std::max<int64_t>(flush_bytes / 4, 1)}, options);
    if (cuda_) {
      require_context();
      check(driver().event_create(&start_, 0), "cuEventCreate");
      check(driver().event_create(&end_, 0), "cuEventCreate");
    }
    own_classes_ = TorchOwnClasses(flush_.device());
  }

  // The call sets: the first `warm_sets` serve the warm-up calls in turn, each
  // later one a single timed call. `regions`: [(handle, bytes)] opened here;
  // `layout`: per call, its arguments (see argument()), every set's tensors
  // over the stage; `out_slot`: the layout entries of the out-slot every
  // timed call's outputs are copied into (the Stager judges from there);
  // `devices`: the reference's output device types; `control`: the
  // staging handshake's host region (path, bytes), or None when the sets
  // lie in the regions themselves (tests).
  void load(const std::string& device, py::list regions, py::list layout, int64_t warm_sets, py::list out_slot,
            py::object report, py::list devices, py::object control) {
    std::vector<std::shared_ptr<Region>> opened;
    for (const auto& entry : regions) {
      auto fields = py::reinterpret_borrow<py::tuple>(entry);
      opened.push_back(Region::open(device, fields[0].cast<std::string>(), fields[1].cast<int64_t>()));
    }
    control_.reset();
    words_ = nullptr;
    if (!control.is_none()) {
      auto fields = py::reinterpret_borrow<py::tuple>(control);
      control_ = Region::open("cpu", fields[0].cast<std::string>(), fields[1].cast<int64_t>());
      words_ = control_->control_words();
    }
    py::list out_slot_layout;
    out_slot_layout.append(out_slot);
    use(call_sets(layout, opened), warm_sets, call_sets(out_slot_layout, opened).front(), devices);
    report_ = report.is_none() ? at::Tensor() : argument(report, opened).tensor;
  }

  // The same with the sets given as tensors (the reference's own timing).
  void load_local(py::list layout, int64_t warm_sets) { use(call_sets(layout, {}), warm_sets, {}, py::list()); }

  // A measurement: see timing.py for the rules. Returns (result or None,
  // (calls, measured_ms, fastest_ms, slowest_ms) of this measurement,
  // {"warmup": n, "timed": n} calls without a launch, fastest probe seen).
  py::tuple measure(py::object model, int64_t warmup, int64_t iters, py::object fastest_probe, bool patient) {
    // No automatic garbage collection while measuring: a collection started
    // by an allocation of the harness's would run the candidate's finalizers
    // (a generator in a reference cycle) outside its calls. Collected cycles
    // wait until the measurement ends.
    struct NoCollection {
      int was_enabled = PyGC_Disable();
      ~NoCollection() {
        if (was_enabled) PyGC_Enable();
      }
    } no_collection;
    if (!fastest_probe.is_none()) learn(fastest_probe.cast<double>());
    if (sets_.empty() || warm_sets_ < 1) throw std::runtime_error("kmem harness: no call sets loaded");
    // Problems with large inputs have fewer timed sets than iters
    // (callsets.set_count): a set per timed call, never one seen before.
    iters = std::max<int64_t>(1, std::min<int64_t>(iters, static_cast<int64_t>(sets_.size()) - warm_sets_));
    Tally tally;
    int64_t missing_warm = 0, missing_timed = 0;
    int64_t warm = warmup + static_cast<int64_t>(random_word() % static_cast<uint64_t>(warmup + 1));
    std::vector<double> shares;
    double started = now_ms();
    int64_t w = 0;
    while (static_cast<int64_t>(shares.size()) < warm || now_ms() - started < settings_.warmup_s * 1e3) {
      Outcome outcome = call(model, w++ % warm_sets_, tally, -1);
      missing_warm += outcome.missing;
      shares.push_back(outcome.ms > 0 ? outcome.returned_ms / outcome.ms : 1.0);
    }
    bool host_bound = !cuda_ || median(shares) >= settings_.host_bound_share;
    // Every timed set serves one timed call, once: staging refuses a set
    // asked for again, so a set read ahead by anyone but the harness is
    // found when the harness asks for it. A patient round of a host-bound
    // model (one that may give up) leaves the last round `iters` sets: it
    // ends where only those are left.
    const int64_t reserve = patient && host_bound ? iters : 0;
    const int64_t round_end = std::max<int64_t>(warm_sets_, static_cast<int64_t>(sets_.size()) - reserve);
    std::vector<double> kept, unsteady;
    int64_t windows = 0;
    double since = now_ms();
    double before = host_bound ? sample() : 0.0;
    bool gave_up = false;
    while (true) {
      std::vector<double> window;
      double window_since = now_ms();
      bool out_of_sets = false;
      while (true) {
        if (next_ >= round_end) {
          out_of_sets = true;
          break;
        }
        int64_t index = next_++;
        Outcome outcome = call(model, index, tally, index);
        missing_timed += outcome.missing;
        window.push_back(outcome.ms);
        std::vector<double> both = kept;
        both.insert(both.end(), window.begin(), window.end());
        if (!host_bound || now_ms() - window_since >= settings_.window_s * 1e3 || enough(both, iters)) break;
      }
      double after = host_bound ? sample() : 0.0;
      bool steady =
          !host_bound || (before <= fastest_ * settings_.steady_ratio && after <= fastest_ * settings_.steady_ratio);
      (steady ? kept : unsteady).insert((steady ? kept : unsteady).end(), window.begin(), window.end());
      before = after;
      windows += 1;
      double elapsed = (now_ms() - since) / 1e3;
      if (out_of_sets || enough(kept, iters) ||
          (elapsed >= settings_.max_timed_s && static_cast<int64_t>(kept.size() + unsteady.size()) >= iters))
        break;
      if (patient && host_bound && kept.empty() && windows >= settings_.patient_windows) {
        gave_up = true;
        break;
      }
    }
    stage(kNoSet);  // the Stager takes the last timed call's output before the candidate's code runs again
    bool steady = static_cast<int64_t>(kept.size()) >= iters;
    total_.calls += tally.calls;
    total_.measured_ms += tally.measured_ms;
    if (tally.calls > 0) {
      total_.fastest_ms =
          total_.calls == tally.calls ? tally.fastest_ms : std::min(total_.fastest_ms, tally.fastest_ms);
      total_.slowest_ms = std::max(total_.slowest_ms, tally.slowest_ms);
    }
    missing_warm_ += missing_warm;
    missing_timed_ += missing_timed;
    py::dict missing;
    missing["warmup"] = missing_warm;
    missing["timed"] = missing_timed;
    py::tuple counted = py::make_tuple(tally.calls, tally.measured_ms, tally.fastest_ms, tally.slowest_ms);
    py::object fastest = fastest_ > 0 ? py::object(py::float_(fastest_)) : py::object(py::none());
    if (gave_up || (patient && !steady)) {
      write_report(std::nan(""), host_bound, false);
      return py::make_tuple(py::none(), counted, missing, fastest);
    }
    std::vector<double> all = kept;
    if (!steady) all.insert(all.end(), unsteady.begin(), unsteady.end());
    if (all.empty()) throw std::runtime_error("kmem harness: no timed call (too few call sets)");
    double ms = median(all);
    write_report(ms, host_bound, steady);
    py::tuple result = py::make_tuple(ms, same_storage_, host_bound, steady);
    return py::make_tuple(result, counted, missing, fastest);
  }

  // Timed calls made so far (sets used after the warm-up sets).
  int64_t timed_calls() const { return timed_seen_; }

  // Drops the call sets and slots (their regions are unmapped once unused).
  void unload() {
    previous_.clear();
    control_.reset();
    words_ = nullptr;
    sets_.clear();
    out_slot_.clear();
    report_ = at::Tensor();
  }

 private:
  struct Tally {
    int64_t calls = 0;
    double measured_ms = 0, fastest_ms = 0, slowest_ms = 0;
  };
  struct Outcome {
    double ms, returned_ms;
    int64_t missing;
  };

  void use(std::vector<CallSet> sets, int64_t warm_sets, CallSet out_slot, py::list devices) {
    if (warm_sets < 1 || warm_sets >= static_cast<int64_t>(sets.size()))
      throw std::runtime_error("kmem harness: warm-up sets must leave sets for timed calls");
    sets_ = std::move(sets);
    warm_sets_ = warm_sets;
    next_ = warm_sets;
    timed_seen_ = 0;
    out_slot_ = std::move(out_slot);
    devices_.clear();
    for (const auto& device : devices) devices_.push_back(device.cast<std::string>());
    previous_.clear();
    same_storage_ = false;
  }

  // The report slot: [measured (1/0), median ms, calls, measured ms, fastest
  // ms, slowest ms, same storage, host-bound, steady, warm-up calls without a
  // launch, timed calls without a launch, background CPU ms, timed calls it
  // was watched over], every measurement so far counted.
  void write_report(double ms, bool host_bound, bool steady) {
    if (!report_.defined()) return;
    c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
    std::vector<double> values = {std::isnan(ms) ? 0.0 : 1.0,
                                  std::isnan(ms) ? 0.0 : ms,
                                  static_cast<double>(total_.calls),
                                  total_.measured_ms,
                                  total_.fastest_ms,
                                  total_.slowest_ms,
                                  same_storage_ ? 1.0 : 0.0,
                                  host_bound ? 1.0 : 0.0,
                                  steady ? 1.0 : 0.0,
                                  static_cast<double>(missing_warm_),
                                  static_cast<double>(missing_timed_),
                                  background_ms_,
                                  static_cast<double>(watched_calls_)};
    at::Tensor source = at::tensor(values, at::TensorOptions().dtype(at::kDouble));
    report_.narrow(0, 0, static_cast<int64_t>(values.size())).copy_(source);
    synchronize();
  }

  void learn(double ms) {
    if (ms > 0 && (fastest_ <= 0 || ms < fastest_)) fastest_ = ms;
  }

  double sample() {
    double ms = probe_().cast<double>();
    learn(ms);
    return ms;
  }

  bool enough(const std::vector<double>& times, int64_t iters) const {
    double total = 0;
    for (double t : times) total += t;
    int64_t n = static_cast<int64_t>(times.size());
    return n >= iters && (total >= settings_.timed_ms || n >= settings_.max_timed_calls);
  }

  static double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t n = values.size();
    if (n == 0) return 0;
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  int64_t launches_now() {
    if (launches_.is_none()) return 0;
    return launches_().cast<int64_t>();
  }

  void synchronize() {
    if (cuda_) check(driver().ctx_synchronize(), "cuCtxSynchronize");
  }

  // Asks the reference to stage set `number` and waits for its answer (a
  // refusal is the reference's to report; the call then runs on what the
  // stage holds). No code of the candidate's runs meanwhile.
  void stage(int64_t number) {
    if (words_ == nullptr) return;
    // A token no one knows until the Stager has answered this very ask: the
    // candidate's code cannot run before the answer, so it cannot have made
    // the answer look given (the words are as writable to it as to us).
    uint64_t token = 0;
    while (token == 0 || token == load_word(&words_->answered)) token = random_word();
    store_word(&words_->set, number);
    store_word(&words_->token, token);
    store_word<uint32_t>(&words_->request, load_word(&words_->request) + 1);
    futex_wake(&words_->request);
    double asked = now_ms();
    for (uint32_t served = load_word(&words_->served); load_word(&words_->answered) != token;
         served = load_word(&words_->served)) {
      double waited = now_ms() - asked;
      if (waited > kStagingTimeoutMs)
        throw std::runtime_error("kmem harness: the reference staged no inputs within " +
                                 std::to_string(static_cast<int>(kStagingTimeoutMs / 1000)) + " s");
      if (waited > kStagingSpinMs) futex_wait(&words_->served, served, 1);  // a small set is staged sooner
    }
  }

  // One call on set `number` (`index`: the set's number for a timed call, -1 for warm-up).
  Outcome call(const py::object& model, int64_t number, Tally& tally, int64_t index) {
    // Work done for a timed call between the staging of its inputs and its
    // clock is done outside the clock: here only the harness's thread works
    // (the reference's Stager copies the inputs, the flush below is this
    // thread's), so any CPU time other threads use meanwhile is the
    // candidate's (a thread of its own that outlived an earlier call, a
    // pool it fed). The orchestrator judges the sum (background_work).
    // kmem's launch count (Python) is read before that window: inside it
    // runs only this file's code.
    int64_t before = launches_now();
    const bool watched = strict_ && index >= 0;
    const double others_before = watched ? other_threads_cpu_ms() : 0.0;
    stage(number);
    const CallSet& set = sets_[number];
    py::tuple args(set.size());
    for (size_t i = 0; i < set.size(); ++i)
      args[i] = set[i].is_tensor ? py::reinterpret_steal<py::object>(THPVariable_Wrap(set[i].tensor)) : set[i].value;
    if (cuda_) {
      c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
      flush_.fill_(1.0);
    } else {
      std::fill_n(flush_.data_ptr<float>(), flush_.numel(), 1.0f);  // on this thread: torch's pool stays idle
    }
    synchronize();
    if (watched) {
      // Not clamped at 0: the other threads' time only grows, so a negative
      // window is the two clocks' rounding, which the sum then cancels.
      background_ms_ += other_threads_cpu_ms() - others_before;
      watched_calls_ += 1;
    }
    if (cuda_) check(driver().event_record(start_, nullptr), "cuEventRecord");
    double begin = now_ms();
    PyObject* returned = PyObject_Call(model.ptr(), args.ptr(), nullptr);
    double returned_ms = now_ms() - begin;
    PyGC_Disable();  // again, had the call turned collection back on
    if (returned == nullptr) throw py::error_already_set();
    py::object output = py::reinterpret_steal<py::object>(returned);
    double ms = returned_ms;
    if (cuda_) {
      float elapsed = 0.f;
      synchronize();
      check(driver().event_record(end_, nullptr), "cuEventRecord");
      check(driver().event_synchronize(end_), "cuEventSynchronize");
      check(driver().event_elapsed(&elapsed, start_, end_), "cuEventElapsedTime");
      ms = elapsed;
    }
    if (tally.calls == 0 || ms < tally.fastest_ms) tally.fastest_ms = ms;
    if (tally.calls == 0 || ms > tally.slowest_ms) tally.slowest_ms = ms;
    tally.calls += 1;
    tally.measured_ms += ms;
    int64_t missing = 0;
    if (strict_) {
      // No code of the candidate's may run between the clock and the copy of
      // a judged output: the output is unpacked and checked without Python
      // and copied if judged before anything that may run its finalizers
      // (releasing the previous outputs frees their autograd contexts; an
      // allocation may start a garbage collection; kmem's launch count is
      // Python).
      std::vector<PyObject*> objects;
      std::vector<at::Tensor> values = checked(output, set, objects);
      if (index >= 0) {
        copy_to_out_slot(values);
        // The Stager takes it now, before anything is released: freeing an
        // output (its autograd graph, a view's base) may run the candidate's
        // code, which could write the out-slot (a held-out candidate's
        // generator finalizer did, 87x).
        stage(kNoSet);
      }
      check_no_attributes(objects);
      // The previous call's outputs are kept alive until now, so an honest
      // output cannot be given their freed memory.
      // Outputs that are (views of) the call's inputs are left out: every
      // call's inputs lie in the one stage (a problem may return a view of
      // its input); a cached result written there changes the inputs, which
      // the Stager finds.
      std::vector<at::Tensor> own;
      for (const auto& v : values)
        if (!std::any_of(set.begin(), set.end(), [&](const Argument& input) {
              return input.is_tensor && input.tensor.storage().is_alias_of(v.storage());
            }))
          own.push_back(v);
      for (const auto& v : own)
        for (const auto& p : previous_)
          if (v.numel() > 0 && p.numel() > 0 && v.storage().data() == p.storage().data()) same_storage_ = true;
      previous_ = own;
      missing = launches_now() == before ? 1 : 0;
    } else {
      missing = launches_now() == before ? 1 : 0;
    }
    args = py::tuple();
    return Outcome{ms, returned_ms, missing};
  }

  // The output as plain tensors, checked by exact type and device, in memory
  // torch allocated (or the call's inputs') and carrying no attributes: an
  // output over foreign memory (numpy, DLPack, an array interface) or with
  // objects attached keeps Python objects of the candidate's whose release
  // runs its code after the clock. Raises OutputRejected-like errors the
  // Python side turns into their stages.
  std::vector<at::Tensor> checked(const py::object& output, const CallSet& set, std::vector<PyObject*>& objects) {
    PyObject* value = output.ptr();
    std::vector<PyObject*> items;
    PyTypeObject* type = Py_TYPE(value);
    if (THPVariable_CheckExact(value)) {
      items.push_back(value);
    } else if (type == &PyTuple_Type || type == &PyList_Type ||
               std::find(named_tuples_.begin(), named_tuples_.end(), reinterpret_cast<PyObject*>(type)) !=
                   named_tuples_.end()) {
      Py_ssize_t n = type == &PyList_Type ? PyList_GET_SIZE(value) : PyTuple_GET_SIZE(value);
      for (Py_ssize_t i = 0; i < n; ++i)
        items.push_back(type == &PyList_Type ? PyList_GET_ITEM(value, i) : PyTuple_GET_ITEM(value, i));
    } else {
      throw OutputError("output_type", "the output of a timed call is no plain torch.Tensor (or tuple/list of them)");
    }
    std::vector<at::Tensor> values;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!THPVariable_CheckExact(items[i]))
        throw OutputError("output_type", "output " + std::to_string(i) + " of a timed call is no plain torch.Tensor");
      values.push_back(THPVariable_Unpack(items[i]));
      const at::Tensor& value = values.back();
      if (std::string why = own_classes_.refusal(value); !why.empty())
        throw OutputError("output_type", "output " + std::to_string(i) + " of a timed call " + why);
      bool inputs_memory = std::any_of(set.begin(), set.end(), [&](const auto& input) {
        return input.is_tensor && input.tensor.storage().is_alias_of(value.storage());
      });
      if (value.numel() > 0 && !inputs_memory && !own_classes_.allocated_by_torch(value))
        throw OutputError("output_type", "output " + std::to_string(i) +
                                             " of a timed call lies in memory torch did not allocate (numpy, DLPack, "
                                             "an array interface, a deleter of its own)");
    }
    for (size_t i = 0; i < values.size() && i < devices_.size(); ++i) {
      std::string type_name = values[i].device().is_cuda() ? "cuda" : values[i].device().is_cpu() ? "cpu" : "other";
      if (type_name != devices_[i])
        throw OutputError("output_device", "output " + std::to_string(i) + " is on " + type_name +
                                               ", the reference's on " + devices_[i]);
    }
    objects = items;
    return values;
  }

  // No attributes on the outputs' objects (checked after the judged copy:
  // reading the dictionary may create one, and an allocation may start a
  // garbage collection that runs the candidate's finalizers).
  void check_no_attributes(const std::vector<PyObject*>& objects) {
    for (size_t i = 0; i < objects.size(); ++i) {
      PyObject* attributes = PyObject_GenericGetDict(objects[i], nullptr);
      if (attributes == nullptr) {
        PyErr_Clear();
        continue;
      }
      Py_ssize_t count = PyDict_Size(attributes);
      Py_DECREF(attributes);
      if (count > 0)
        throw OutputError("output_type", "output " + std::to_string(i) + " of a timed call carries attributes");
    }
  }

  // Every timed call's outputs into the out-slot, for the reference's
  // Stager to judge or not (its reservoir, decided at the next ask: the
  // candidate's code runs no more before it).
  void copy_to_out_slot(const std::vector<at::Tensor>& values) {
    ++timed_seen_;
    if (out_slot_.empty()) return;
    c10::impl::ExcludeDispatchKeyGuard guard(python_keys());
    // Straight to the device's copy kernel: no autograd, no view made of the
    // output (a detach would be, whose view chain reads the output's base, a
    // tensor of any class), no reference to its storage taken and dropped.
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    CallSet& target = out_slot_;
    bool fits = target.size() == values.size();
    for (size_t i = 0; fits && i < values.size(); ++i)
      fits = target[i].tensor.sizes() == values[i].sizes() && target[i].tensor.scalar_type() == values[i].scalar_type();
    for (size_t i = 0; i < target.size(); ++i) {
      at::Tensor& t = target[i].tensor;
      if (fits) t.copy_(values[i]);
      else if (t.is_floating_point() || t.is_complex()) t.fill_(std::nan(""));
      else t.fill_(-1);
    }
    synchronize();
  }

 public:
  // An output refused by its check, with the candidate's error stage.
  struct OutputError : std::runtime_error {
    OutputError(std::string stage_name, const std::string& message)
        : std::runtime_error(message), stage(std::move(stage_name)) {}
    std::string stage;
  };

 private:
  static constexpr double kStagingTimeoutMs = 120e3, kStagingSpinMs = 0.2;

  bool cuda_;
  std::shared_ptr<Region> control_;
  ControlWords* words_ = nullptr;
  py::object launches_, probe_;
  bool strict_;
  std::vector<PyObject*> named_tuples_;
  py::tuple named_tuple_refs_;
  Settings settings_{};
  at::Tensor flush_;
  void *start_ = nullptr, *end_ = nullptr;
  std::vector<CallSet> sets_;
  CallSet out_slot_;  // the outputs' copy of every timed call, for the Stager
  at::Tensor report_;
  Tally total_;
  int64_t missing_warm_ = 0, missing_timed_ = 0;
  double background_ms_ = 0;  // other threads' CPU time between timed calls' staging and clock
  int64_t watched_calls_ = 0;
  std::vector<std::string> devices_;
  int64_t warm_sets_ = 0, next_ = 0, timed_seen_ = 0;
  std::vector<at::Tensor> previous_;  // the last call's outputs
  bool same_storage_ = false;
  TorchOwnClasses own_classes_;  // sampled when the harness is made, before any candidate code (strict)
  double fastest_ = 0;
};

}  // namespace

PYBIND11_MODULE(kmem_harness, m) {
  m.doc() = "kmem's native harness: shared regions, staged call sets and the measurement loop (harness.cpp).";
  static py::exception<Harness::OutputError> output_error(m, "OutputError");
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised) std::rethrow_exception(raised);
    } catch (const Harness::OutputError& error) {
      PyObject* instance = PyObject_CallFunction(output_error.ptr(), "ss", error.stage.c_str(), error.what());
      if (instance != nullptr) {
        PyErr_SetObject(output_error.ptr(), instance);
        Py_DECREF(instance);
      }
    }
  });
  py::class_<Region, std::shared_ptr<Region>>(m, "Region")
      .def_static("create", &Region::create, py::arg("device"), py::arg("bytes"), py::arg("path") = "")
      .def_property_readonly("handle", &Region::handle)
      .def_property_readonly("bytes", &Region::bytes)
      .def("tensor", [](const std::shared_ptr<Region>& self, int64_t offset, py::object dtype,
                        std::vector<int64_t> sizes, std::vector<int64_t> strides) {
        return py::reinterpret_steal<py::object>(
            THPVariable_Wrap(Region::tensor(self, offset, scalar_type(dtype), sizes, strides)));
      });
  py::class_<Stager>(m, "Stager")
      .def(py::init([](py::handle sets, int64_t per_set, int64_t warm, std::shared_ptr<Region> shared,
                       std::shared_ptr<Region> control, py::handle judged, int64_t slot_bytes) {
        if (!THPVariable_Check(sets.ptr()) || !THPVariable_Check(judged.ptr()))
          throw std::runtime_error("kmem harness: the sets and the judged outputs' memory are tensors");
        return new Stager(THPVariable_Unpack(sets.ptr()), per_set, warm, std::move(shared), std::move(control),
                          THPVariable_Unpack(judged.ptr()), slot_bytes);
      }))
      .def("finish", &Stager::finish);
  py::class_<Harness>(m, "Harness")
      .def(py::init<const std::string&, int64_t, py::object, py::object, py::tuple, py::tuple, bool>())
      .def("load", &Harness::load)
      .def("load_local", &Harness::load_local)
      .def("measure", &Harness::measure)
      .def("timed_calls", &Harness::timed_calls)
      .def("unload", &Harness::unload);
}
