# Class 3, Python run from native code: PyRun_SimpleString in the
# candidate's own extension swaps the harness's measuring function (found
# through gc) for one reporting a 40x shorter time. The orchestrator takes
# the time the native harness wrote into the reference's report slot.
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

void run_python(const std::string& code) { PyRun_SimpleString(code.c_str()); }
"""

ext = load_inline(name="kmem_test_scale_add_pyrun", cpp_sources=CPP_SOURCE, functions=["scale_add", "run_python"])


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

ext.run_python(SWAP)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return ext.scale_add(x, y, self.scale)
