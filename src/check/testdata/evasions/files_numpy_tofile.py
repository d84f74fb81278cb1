# expect: runtime_patching
import torch
import torch.nn as nn
import numpy as np


class ModelNew(nn.Module):
    def forward(self, x):
        np.save('/tmp/x.npy', x.cpu().numpy())
        return x
