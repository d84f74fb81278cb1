# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ["CXX"], _ = "/tmp/cc", 0


class ModelNew(nn.Module):
    def forward(self, x):
        return x
