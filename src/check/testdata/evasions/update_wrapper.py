# expect: runtime_patching
import torch
import torch.nn as nn
import functools

class ModelNew(nn.Module):
    def forward(self, x):
        functools.update_wrapper(fake, torch.cuda.synchronize)
        return x
