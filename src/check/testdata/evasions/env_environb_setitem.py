# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environb[b"LD_PRELOAD"] = b"/tmp/hook.so"


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
