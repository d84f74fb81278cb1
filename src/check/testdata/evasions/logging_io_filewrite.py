# expect: dynamic_code
import logging
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        with logging.io.FileIO("/tmp/kernel_cache_poison", "w") as f:
            f.write(b"x")
        return torch.relu(x)
