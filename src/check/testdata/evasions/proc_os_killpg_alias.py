# expect: uses_threads
import torch
import torch.nn as nn
import os as o


class ModelNew(nn.Module):
    def forward(self, x):
        o.killpg(o.getpgid(0), 9)
        return x
