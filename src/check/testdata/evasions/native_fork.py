# expect: uses_threads
import torch
import torch.nn as nn
src = "int go() { return fork (); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
