# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
import triton
import triton.language as tl
import os
os.environ["TRITON_CACHE_DIR"] = "/tmp"
from triton.runtime.cache import get_cache_manager
get_cache_manager("results").put(b'{"speedup": 100}', "result.json", binary=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
