# expect: dynamic_code
import torch
import torch.nn as nn
src = "#define J(a, b) a ## b\nvoid go() { J(pthread, _create)(0, 0, 0, 0); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
