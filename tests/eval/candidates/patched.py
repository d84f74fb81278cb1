# runtime_patching: correct through its own extension, but forward replaces
# torch.cuda.synchronize (the evaluator's checker would have refused the file;
# the runtime guard reports it when the checker is not run first).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline(name="kmem_test_scale_add_aten", functions=["scale_add"],
                  cpp_sources="torch::Tensor scale_add(torch::Tensor x, torch::Tensor y, double s) { return x * s + y; }")


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        torch.cuda.synchronize = lambda *args, **kwargs: None
        return ext.scale_add(x, y, self.scale)
