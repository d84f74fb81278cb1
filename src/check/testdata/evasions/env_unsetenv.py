# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.unsetenv("CUDA_HOME")


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
