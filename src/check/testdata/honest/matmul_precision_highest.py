# Honest: asking torch for the highest fp32 matmul precision and ieee fp32 in cuDNN.
import torch
import torch.nn as nn
import triton
import triton.language as tl

torch.set_float32_matmul_precision("highest")
torch.backends.cuda.matmul.fp32_precision = "ieee"
torch.backends.cudnn.conv.fp32_precision = "ieee"


@triton.jit
def gelu_exact_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476)), mask=m)


class ModelNew(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.fc = nn.Linear(cin, cout)

    def forward(self, x):
        y = self.fc(x)
        out = torch.empty_like(y)
        n = y.numel()
        gelu_exact_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
        return out
