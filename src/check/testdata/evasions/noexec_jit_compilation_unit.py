# expect: dynamic_code
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        cu = torch.jit.CompilationUnit('def f(x):\n    return x')
        return x
