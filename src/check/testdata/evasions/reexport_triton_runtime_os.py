# expect: uses_threads
import torch
import torch.nn as nn
import triton


class ModelNew(nn.Module):
    def forward(self, x):
        triton.runtime.build.os.system('true')
        return x
