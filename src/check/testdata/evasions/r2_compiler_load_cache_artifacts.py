# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

_BLOB = bytes([1, 2, 3])
torch.compiler.load_cache_artifacts(_BLOB)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
