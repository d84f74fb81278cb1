# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn
import os
os.environ["TORCH_EXTENSIONS_DIR"] = "/tmp/kext"
from torch.utils.cpp_extension import load_inline
ext = load_inline(name="alloc", cpp_sources="extern \"C\" { void* a(long s, int d, void* st){return 0;} void f(void* p, long s, int d, void* st){} }", functions=[])
_A = torch.cuda.memory.CUDAPluggableAllocator("/tmp/kext/alloc/alloc.so", "a", "f")
torch.cuda.memory.change_current_allocator(_A)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
