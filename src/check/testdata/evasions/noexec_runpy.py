# expect: dynamic_code
import torch
import torch.nn as nn
import runpy

class ModelNew(nn.Module):
    def forward(self, x):
        runpy.run_path('/tmp/x.py')
        return x
