# expect: precision_downcast
# Flushing subnormal numbers to zero is a global precision setting, like TF32:
# the candidate's arithmetic leaves IEEE fp32.
import torch
import torch.nn as nn

torch.set_flush_denormal(True)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
