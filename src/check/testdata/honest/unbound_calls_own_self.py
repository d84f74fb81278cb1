import torch
import torch.nn as nn
import torch.nn.functional as F


class Scaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return grad * w, grad * x


class Base(nn.Module):
    def __init__(self, width):
        nn.Module.__init__(self)
        self.width = width

    def project(self, x):
        return F.relu(x)

    @staticmethod
    def scale(x):
        return x * 0.5

    @classmethod
    def build(cls, width):
        return cls(width)


class ModelNew(Base):
    def __init__(self, width=16):
        Base.__init__(self, width)
        self.W = nn.Parameter(torch.ones(width))

    def forward(self, x):
        Q, K = x, x.clone()
        y = Scaled.apply(Q, self.W) + Base.project(self, K)
        y = Base.scale(y) + torch.Tensor.add(Q, K)
        z = super().project(y)
        other = Base.build(self.width)
        return z + other.project(y)
