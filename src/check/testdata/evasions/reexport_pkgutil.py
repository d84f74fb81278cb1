# expect: dynamic_code
import torch
import torch.nn as nn
import pkgutil

class ModelNew(nn.Module):
    def forward(self, x):
        f = pkgutil.resolve_name('os:system')
        return x
