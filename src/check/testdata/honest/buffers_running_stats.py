# Honest: a BatchNorm in training mode updating its own buffers, kernel in Triton.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_apply_kernel(x_ptr, mean_ptr, rstd_ptr, w_ptr, b_ptr, y_ptr, C, HW, total, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < total
    c = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=m)
    y = (x - tl.load(mean_ptr + c, mask=m)) * tl.load(rstd_ptr + c, mask=m)
    y = y * tl.load(w_ptr + c, mask=m) + tl.load(b_ptr + c, mask=m)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, momentum: float = 0.1, eps: float = 1e-5):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features, momentum=momentum, eps=eps)
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def _update(self, mean, var, n):
        m = self.bn.momentum
        self.bn.running_mean.mul_(1 - m).add_(mean, alpha=m)
        self.bn.running_var.mul_(1 - m).add_(var * n / max(n - 1, 1), alpha=m)
        self.bn.num_batches_tracked += 1
        self.calls += 1

    def forward(self, x):
        N, C, H, W = x.shape
        if self.training:
            var, mean = torch.var_mean(x, dim=(0, 2, 3), unbiased=False)
            self._update(mean, var, N * H * W)
        else:
            mean, var = self.bn.running_mean, self.bn.running_var
        rstd = torch.rsqrt(var + self.bn.eps)
        y = torch.empty_like(x)
        total = x.numel()
        bn_apply_kernel[(triton.cdiv(total, 1024),)](x, mean.contiguous(), rstd.contiguous(), self.bn.weight,
                                                     self.bn.bias, y, C, H * W, total, BLOCK=1024)
        return y
