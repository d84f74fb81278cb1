# expect: runtime_patching
import torch
import torch.nn as nn
from functools import update_wrapper as uw


class ModelNew(nn.Module):
    def forward(self, x):
        uw(torch.cuda.Event, print)
        return x
