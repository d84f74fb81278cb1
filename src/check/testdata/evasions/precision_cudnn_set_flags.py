# expect: precision_downcast
import torch
import torch.nn as nn

torch.backends.cudnn.set_flags(True, False, False, True)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
