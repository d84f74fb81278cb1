# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ.pop("CUDA_HOME", None)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
