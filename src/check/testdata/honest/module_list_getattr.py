# Honest: an MLP whose layers are registered by name and fetched with getattr/setattr f-strings.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(x_ptr, b_ptr, n_cols, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % n_cols, mask=mask)
    tl.store(x_ptr + offs, tl.maximum(x + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, sizes=(64, 128, 128, 32)):
        super().__init__()
        self.depth = len(sizes) - 1
        for i in range(self.depth):
            setattr(self, f"fc{i}", nn.Linear(sizes[i], sizes[i + 1]))

    def forward(self, x):
        for i in range(self.depth):
            layer = getattr(self, f"fc{i}")
            y = F.linear(x, layer.weight)
            if i < self.depth - 1:
                total = y.numel()
                bias_relu_kernel[(triton.cdiv(total, 1024),)](y, layer.bias, y.shape[1], total, BLOCK=1024)
            else:
                y = y + layer.bias
            x = y
        return x
