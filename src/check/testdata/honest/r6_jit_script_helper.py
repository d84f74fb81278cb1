import torch
import torch.nn as nn


@torch.jit.script
def fused_bias_gelu(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    y = x + b
    return y * 0.5 * (1.0 + torch.erf(y * 0.7071067811865476))


class ModelNew(nn.Module):
    def __init__(self, features=256):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(features))

    def forward(self, x):
        return fused_bias_gelu(x, self.bias)
