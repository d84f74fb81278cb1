# expect: runtime_patching
import torch
import torch.nn as nn
import typing


class ModelNew(nn.Module):
    def forward(self, x):
        typing.sys.modules['time'].perf_counter
        return x
