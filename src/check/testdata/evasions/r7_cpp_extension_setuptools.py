# expect: dynamic_code
import torch
import torch.nn as nn
import torch.utils.cpp_extension
torch.utils.cpp_extension.setuptools.sandbox.run_setup("/tmp/setup.py", ["build"])

class ModelNew(nn.Module):
    def forward(self, x, y):
        return 2 * x + y
