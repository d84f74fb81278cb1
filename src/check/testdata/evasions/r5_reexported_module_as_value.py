# expect: module_as_value
# A module torch's own submodules import under their own name, passed as a value (red-team round 3, 2026-12-07).
import torch
import torch.nn as nn

TARGETS = [torch.nn.modules.linear.torch, torch.nn.modules.pooling.F]


class ModelNew(nn.Module):
    def forward(self, x):
        return x
