# expect: dynamic_code
import torch
import torch.nn as nn
import timeit

class ModelNew(nn.Module):
    def forward(self, x):
        timeit.timeit('import gc', number=1)
        return x
