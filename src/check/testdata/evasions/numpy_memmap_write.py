# expect: runtime_patching
import torch
import torch.nn as nn
import numpy as np


class ModelNew(nn.Module):
    def forward(self, x):
        m = np.memmap('/tmp/m', mode='w+', shape=(4,))
        return x
