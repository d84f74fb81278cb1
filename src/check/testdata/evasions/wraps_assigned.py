# expect: runtime_patching
import torch
import torch.nn as nn
import functools

class Fake:
    elapsed_time = 0


class ModelNew(nn.Module):
    def forward(self, x):
        functools.wraps(Fake, assigned=('elapsed_time',))(torch.cuda.Event)
        return x
