# expect: runtime_patching
# expect: runtime_patching
import torch
import torch.nn as nn
import sys
sys.set_asyncgen_hooks(firstiter=print, finalizer=print)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
