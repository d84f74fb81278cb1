# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.jit.save(torch.jit.script(nn.Linear(1, 1)), '/tmp/m.pt')
        return x
