# expect: introspection
# expect: introspection
import torch
import torch.nn as nn
import sys
_guard = sys.getprofile() or sys.gettrace()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
