# expect: runtime_patching
# The switch written by setattr on the module.
import torch
import torch.nn as nn

setattr(torch.backends.cudnn, "enabled", False)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
