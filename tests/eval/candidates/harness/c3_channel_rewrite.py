# Class 3, the report: the result record rewritten on its way out (the
# worker's Channel.send patched) to claim a 40x shorter time, consistently
# with the tally. The orchestrator takes the time the native harness wrote
# into the reference's report slot.
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


import sys

channel_class = sys.modules["kmem_worker.channel"].Channel
real_send = channel_class.send


def send(self, event, **fields):
    if event == "result":
        fields["candidate_ms"] /= 40
        tally = fields["observations"]["timing_tally"]
        for key in ("measured_ms", "fastest_ms", "slowest_ms"):
            tally[key] /= 40
    return real_send(self, event, **fields)


channel_class.send = send


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return ext.scale_add(x, y, self.scale)
