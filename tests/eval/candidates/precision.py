# precision_downcast: correct through its own extension (built in __init__),
# but lets fp32 matmuls run in lower precision as it is imported (refused by
# the checker; reported by the runtime guards, whose snapshot is older, when
# the checker is not run first).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

torch.set_float32_matmul_precision("medium")
SOURCE = "torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double s) { return x * s + y; }"


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.ext = load_inline(name="kmem_test_scale_add_aten", cpp_sources=SOURCE, functions=["scale_add"])
        self.scale = scale

    def forward(self, x, y):
        return self.ext.scale_add(x, y, self.scale)
