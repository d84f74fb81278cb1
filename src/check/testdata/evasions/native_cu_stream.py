# expect: side_stream
import torch
import torch.nn as nn
src = "CUstream s; void go() { cuStreamCreate(&s, 0); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
