# expect: runtime_patching
import logging

import torch
import torch.nn as nn

logging.getLogger().addHandler(logging.FileHandler("/tmp/out.txt"))


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
