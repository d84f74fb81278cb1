# expect: dynamic_setattr
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for n in ('matmul',):
            setattr(torch, n, None)
        return x
