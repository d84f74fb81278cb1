# expect: dynamic_code
import torch
import torch.nn as nn
import code

class ModelNew(nn.Module):
    def forward(self, x):
        code.InteractiveInterpreter().runsource('import gc')
        return x
