# expect: runtime_patching
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        os.open('/root/.cache/kmem/times.json', os.O_WRONLY | os.O_TRUNC)
        return x
