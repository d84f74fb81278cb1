# expect: dynamic_code
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        os.environ['PYTHONBREAKPOINT'] = 'os.system'
        breakpoint('true')
        return x
