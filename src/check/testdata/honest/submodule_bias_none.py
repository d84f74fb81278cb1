# Honest: the bias is folded into a fused kernel, so the submodule's own bias is dropped.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_bias_sigmoid_kernel(y_ptr, b_ptr, C, HW, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    c = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=m) + tl.load(b_ptr + c, mask=m)
    tl.store(y_ptr + offs, 1.0 / (1.0 + tl.exp(-y)), mask=m)


class ModelNew(nn.Module):
    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k)
        self.fused_bias = nn.Parameter(self.conv.bias.detach().clone())
        self.conv.bias = None
        self.conv.weight.requires_grad = True

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C, H, W = y.shape
        total = y.numel()
        add_bias_sigmoid_kernel[(triton.cdiv(total, 1024),)](y, self.fused_bias, C, H * W, total, BLOCK=1024)
        return y
