# expect: side_stream
import torch
import torch.nn as nn
src = "void go() { k<<<1, 1, 0, cudaStreamPerThread>>>(); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
