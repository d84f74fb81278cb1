# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        x.cpu().numpy().tofile('/tmp/x.bin')
        return x
