# Honest patterns near the rules that the checker must not reject: TF32 turned off, a lock, a
# thread count in native code, a helper named compile, ctx attributes, a submodule by f-string,
# a half-precision input converted to fp32.
import torch
import torch.nn as nn
import threading
from torch.utils.cpp_extension import load_inline

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
torch.backends.cudnn.benchmark = True
_lock = threading.Lock()

src = """
#include <torch/extension.h>
#include <thread>
// uses no __half anywhere
int workers() { return std::thread::hardware_concurrency(); }
torch::Tensor add(torch::Tensor a) { return a + 1; }
"""

def compile(src):
    return load_inline(name="x", cpp_sources=src, functions=["add"])

class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.scale = 2.0
        ctx.save_for_backward(x)
        return x

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc0 = nn.Linear(4, 4)
        self.linear = nn.Linear(4, 4)
        self.linear.bias = None
        self.ext = compile(src)

    def forward(self, x):
        for i in range(1):
            layer = getattr(self, f"fc{i}")
        if x.dtype == torch.half:
            x = x.float()
        x = x.to(torch.float32)
        return self.ext.add(F.apply(x))
