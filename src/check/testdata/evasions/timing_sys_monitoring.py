# expect: introspection
import torch
import torch.nn as nn
import sys


class ModelNew(nn.Module):
    def forward(self, x):
        sys.monitoring.use_tool_id(3, 'x')
        return x
