# expect: runtime_patching
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        s = vars(torch.cuda)['Stream']()
        return x
