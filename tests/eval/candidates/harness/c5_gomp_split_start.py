# Class 5, a native thread working between calls: libgomp's split entry
# GOMP_parallel_start (GCC before 4.9) without its GOMP_parallel_end leaves
# the team running the function after the extension returns. The native
# allow-list takes OpenMP's joined forms only: forbidden_native_call before
# the library loads. (From a held-out round: the counter moved between calls.)
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = """
#include <torch/extension.h>
#include <atomic>
#include <time.h>

extern "C" void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads);

static std::atomic<long> ticks{0};

static void worker(void*) {
  for (long i = 0; i < 4000000000L; ++i) ticks.fetch_add(1, std::memory_order_relaxed);
}

int64_t start() {
  GOMP_parallel_start(worker, nullptr, 2);
  return 1;
}

int64_t count() { return ticks.load(); }

torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double scale) {
  auto out = torch::empty_like(x);
  const float* a = x.data_ptr<float>();
  const float* b = y.data_ptr<float>();
  float* o = out.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) o[i] = static_cast<float>(scale) * a[i] + b[i];
  return out;
}
"""

ext = load_inline(name="c5_gomp_split_start", cpp_sources=CPP_SOURCE, functions=["start", "count", "scale_add"],
                  extra_cflags=["-fopenmp"], extra_ldflags=["-lgomp"])


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.calls = 0
        self.seen = []
        ext.start()

    def forward(self, x, y):
        self.calls += 1
        self.seen.append(ext.count())
        out = ext.scale_add(x, y, self.scale)
        self.seen.append(ext.count())
        if self.calls == 5:
            raise RuntimeError("background ticks at entry/exit of calls 1-5: " + str(self.seen))
        return out
