# Class 3, the clock: the harness's measuring function swapped in the closure
# cell of measure_in_rounds (found through gc) for one that reports a 40x
# shorter median and tally. The orchestrator takes the time the native
# harness wrote into the reference's report slot: the record disagrees.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP_SOURCE = """
#include <torch/extension.h>

torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double scale) {
  auto out = torch::empty_like(x);
  auto xs = x.contiguous();
  auto ys = y.contiguous();
  const float* a = xs.data_ptr<float>();
  const float* b = ys.data_ptr<float>();
  float* o = out.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) o[i] = static_cast<float>(scale) * a[i] + b[i];
  return out;
}
"""

ext = load_inline(name="kmem_test_scale_add", cpp_sources=CPP_SOURCE, functions=["scale_add"])


SWAP = """
import gc
import types

def shrink(real):
    def measure(model, warmup, iters, fastest, patient):
        result, tally, missing, probe = real(model, warmup, iters, fastest, patient)
        if result is not None:
            result = (result[0] / 40,) + tuple(result[1:])
        tally = (tally[0], tally[1] / 40, tally[2] / 40, tally[3] / 40)
        return result, tally, missing, probe
    return measure

for f in gc.get_objects():
    code = f.__code__ if type(f) is types.FunctionType else None
    if code is not None and code.co_name == "measure_in_rounds" and "measure" in code.co_freevars:
        cell = f.__closure__[code.co_freevars.index("measure")]
        cell.cell_contents = shrink(cell.cell_contents)
"""

exec(SWAP)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return ext.scale_add(x, y, self.scale)
