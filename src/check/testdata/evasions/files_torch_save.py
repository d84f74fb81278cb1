# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.save(x, '/tmp/x.pt')
        return x
