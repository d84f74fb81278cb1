# expect: runtime_patching
import torch
import torch.nn as nn
import copy


class ModelNew(nn.Module):
    def forward(self, x):
        copy.sys.modules.clear()
        return x
