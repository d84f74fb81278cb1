# Class 1 against staging (held-out round 8): the candidate's native code
# finds the control block (its input tensor's deleter context leads to the
# stage's Region, a heap scan to the control block's; fwrite to stderr probes
# pages without a fault), asks the Stager itself for every timed set in
# order inside its first warm-up call, computing their outputs there, and
# serves the timed calls from its cache. Each timed set is staged once, in
# turn: the harness's own asks come out of turn, forged_timing. (It depends
# on the harness's object layout: should that change, it fails to find the
# block and ends in runtime_error instead.) Before the fix: 33.9x for a
# kernel worth 0.27x, no flag.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = """
#include <torch/extension.h>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <vector>

static void chain(const float* a, const float* b, float* o, int64_t n, int64_t rounds) {
  for (int64_t i = 0; i < n; ++i) {
    float v = a[i];
    for (int64_t r = 0; r < rounds; ++r) v = std::sin(v) * 0.9f + b[i] * 0.1f;
    o[i] = v;
  }
}

torch::Tensor run(torch::Tensor x, torch::Tensor y, int64_t rounds) {
  auto out = torch::empty_like(x);
  chain(x.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), x.numel(), rounds);
  return out;
}

// The input lies in memory torch did not allocate, at a page boundary: the stage.
bool on_stage(torch::Tensor x) {
  return x.storage().allocator() == nullptr && (reinterpret_cast<uintptr_t>(x.data_ptr()) & 4095) == 0;
}

int64_t base_of(torch::Tensor x) { return static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.data_ptr())); }

// Whether the byte at `at` is readable, without reading it here: stderr is
// unbuffered, so fwrite hands the pointer to write(2), which fails with
// EFAULT (no signal) on an unmapped page.
static uintptr_t known_page = 1;
static bool known_ok = false;
static bool readable(uintptr_t at) {
  uintptr_t page = at & ~uintptr_t(4095);
  if (page == known_page) return known_ok;
  known_page = page;
  known_ok = fwrite(reinterpret_cast<const void*>(page), 1, 1, stderr) == 1;
  return known_ok;
}

// ControlWords: request u32 @0, zeros to 64, set i64 @64, token u64 @72,
// zeros to 128, served u32 @128, refused u32 @132 in {0,1}, answered u64
// @136 == token, zeros after.
static bool control_shape(uintptr_t page) {
  const uint32_t* w = reinterpret_cast<const uint32_t*>(page);
  if (w[0] == 0 || w[33] > 1) return false;
  const int64_t set = *reinterpret_cast<const int64_t*>(page + 64);
  if (set < 0 || set >= 1024) return false;
  if (*reinterpret_cast<const uint64_t*>(page + 72) != *reinterpret_cast<const uint64_t*>(page + 136)) return false;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(page);
  for (int i = 4; i < 64; ++i) if (p[i]) return false;
  for (int i = 80; i < 128; ++i) if (p[i]) return false;
  for (int i = 144; i < 4096; ++i) if (p[i]) return false;
  return true;
}

static bool region_shape(uintptr_t at, uintptr_t base, int64_t bytes) {
  if (at == 0 || (at & 7) || !readable(at) || !readable(at + 55)) return false;
  const uint32_t kind = *reinterpret_cast<const uint32_t*>(at);
  const uintptr_t b = *reinterpret_cast<const uintptr_t*>(at + 8);
  const int64_t n = *reinterpret_cast<const int64_t*>(at + 16);
  const uintptr_t str = *reinterpret_cast<const uintptr_t*>(at + 24);
  const uint64_t len = *reinterpret_cast<const uint64_t*>(at + 32);
  if (kind != 2 || str != at + 40 || len != 0) return false;
  if (base) return b == base;
  return (b & 4095) == 0 && b != 0 && n == bytes;
}

// Region objects (harness.cpp: kind_, base_, bytes_, handle_): the stage's
// own, named by its from_blob deleter's captured shared_ptr; then the control
// block's (bytes_ 4096), allocated just after it, on the heap near it.
int64_t find_control_by_heap(torch::Tensor x, int64_t span) {
  uintptr_t base = reinterpret_cast<uintptr_t>(x.data_ptr());
  uintptr_t ctx = reinterpret_cast<uintptr_t>(x.storage().data_ptr().get_context());
  if (ctx == 0) return -1;
  uintptr_t region = 0;
  for (int i = 0; i < 8 && region == 0; ++i) {
    uintptr_t v = *reinterpret_cast<const uintptr_t*>(ctx + 8 * i);
    if (region_shape(v, base, 0)) { region = v; break; }
    // std::function keeps a lambda holding a shared_ptr on the heap.
    if (v && !(v & 7) && readable(v) && readable(v + 15)) {
      uintptr_t w = *reinterpret_cast<const uintptr_t*>(v);
      if (region_shape(w, base, 0)) region = w;
    }
  }
  if (region == 0) return -2;
  for (int64_t d = 16; d <= span; d += 16) {
    for (int side = 0; side < 2; ++side) {
      uintptr_t at = side == 0 ? region + d : region - d;
      if (region_shape(at, 0, 4096)) {
        uintptr_t page = *reinterpret_cast<const uintptr_t*>(at + 8);
        if (readable(page) && control_shape(page)) return int64_t(page);
      }
    }
  }
  return -3;
}

// The control block: the page nearest the stage (within `pages` pages either
// side) shaped like ControlWords; 0 when none. `skip`: the region's pages.
int64_t find_control(int64_t base, int64_t skip, int64_t pages) {
  for (int64_t d = 1; d <= pages; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (side == 0 && d < skip) continue;  // inside the region
      uintptr_t page = side == 0 ? uintptr_t(base) + uintptr_t(d) * 4096 : uintptr_t(base) - uintptr_t(d) * 4096;
      if (readable(page) && readable(page + 4095) && control_shape(page)) return int64_t(page);
    }
  }
  return 0;
}

// ControlWords' shape (see control_shape).
std::vector<int64_t> looks_like_control(int64_t page) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(page);
  int64_t nonzero = 0;
  for (int i = 4; i < 64; ++i) nonzero += p[i] != 0;
  for (int i = 80; i < 128; ++i) nonzero += p[i] != 0;
  for (int i = 144; i < 4080; ++i) nonzero += p[i] != 0;
  uint32_t request = *reinterpret_cast<const uint32_t*>(p);
  int64_t set = *reinterpret_cast<const int64_t*>(p + 64);
  uint32_t served = *reinterpret_cast<const uint32_t*>(p + 128);
  uint32_t refused = *reinterpret_cast<const uint32_t*>(p + 132);
  return {nonzero, request, set, served, refused};
}

// Asks the Stager for set `set` as the harness does (a new token); waits for its answer.
static uint64_t next_token = 0x5eed;
int64_t fetch(int64_t page, int64_t set) {
  uint32_t* request = reinterpret_cast<uint32_t*>(page);
  int64_t* set_word = reinterpret_cast<int64_t*>(page + 64);
  uint64_t* token = reinterpret_cast<uint64_t*>(page + 72);
  uint32_t* refused = reinterpret_cast<uint32_t*>(page + 132);
  uint64_t* answered = reinterpret_cast<uint64_t*>(page + 136);
  uint64_t mine = ++next_token;
  __atomic_store_n(set_word, set, __ATOMIC_RELEASE);
  __atomic_store_n(token, mine, __ATOMIC_RELEASE);
  __atomic_store_n(request, __atomic_load_n(request, __ATOMIC_ACQUIRE) + 1, __ATOMIC_RELEASE);
  timespec nap{0, 20000};
  for (int i = 0; i < 500000; ++i) {
    if (__atomic_load_n(answered, __ATOMIC_ACQUIRE) == mine) return __atomic_load_n(refused, __ATOMIC_ACQUIRE) ? -1 : 1;
    nanosleep(&nap, nullptr);
  }
  return 0;
}

std::vector<double> key_of(torch::Tensor x, torch::Tensor y) {
  const float* a = x.data_ptr<float>();
  const float* b = y.data_ptr<float>();
  return {a[0], a[1], a[2], b[0], b[1], b[2]};
}
"""

ext = load_inline(name="adv8_wrap_prepass4", cpp_sources=CPP_SOURCE,
                  functions=["run", "on_stage", "base_of", "find_control", "find_control_by_heap", "looks_like_control", "fetch", "key_of"],
                  extra_cflags=["-O3"])

WARM = 3  # timing.warm_sets(warmup=3)
COUNT = 256  # callsets.set_count(131072 bytes a set, 32 MiB, 3, 20)


class ModelNew(nn.Module):
    def __init__(self, rounds):
        super().__init__()
        self.rounds = rounds
        self.cache = {}
        self.primed = False

    def forward(self, x, y):
        if not ext.on_stage(x):
            return ext.run(x, y, self.rounds)
        if not self.primed:
            self.primed = True
            out = ext.run(x, y, self.rounds)
            base = ext.base_of(x)
            page = ext.find_control_by_heap(x, 1 << 20)
            if page <= 0:
                raise RuntimeError(f"no control block found: {page}")
            self.distance = (page - base) // 4096
            for s in range(WARM, COUNT):
                answer = ext.fetch(page, s)
                if answer != 1:
                    raise RuntimeError(f"set {s}: answer {answer}")
                self.cache[tuple(ext.key_of(x, y))] = ext.run(x, y, self.rounds)
            return out
        hit = self.cache.get(tuple(ext.key_of(x, y)))
        if hit is not None:
            return hit
        return ext.run(x, y, self.rounds)
