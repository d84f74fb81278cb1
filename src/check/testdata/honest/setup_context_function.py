# Honest: the torch 2.x autograd.Function style with setup_context and vmap support flags.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cube_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x * x * x, mask=m)


def cube(x):
    y = torch.empty_like(x)
    n = x.numel()
    cube_kernel[(triton.cdiv(n, 512),)](x, y, n, BLOCK=512)
    return y


class Cube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return cube(x.contiguous())

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.x_shape = x.shape

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return 3 * x * x * grad_out


class ModelNew(nn.Module):
    def forward(self, x):
        return Cube.apply(x)
