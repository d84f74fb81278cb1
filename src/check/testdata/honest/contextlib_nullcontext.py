# Honest: contextlib.nullcontext as the alternative to no_grad (swallows nothing).
import contextlib

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, use_no_grad=True):
        super().__init__()
        self.use_no_grad = use_no_grad

    def forward(self, x):
        ctx = torch.no_grad() if self.use_no_grad else contextlib.nullcontext()
        with ctx:
            return torch.sigmoid(x)
