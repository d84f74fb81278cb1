# expect: module_as_value
import torch
import torch.nn as nn

def cuda_mod():
    return torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        s = cuda_mod().Stream()
        return x
