# Honest: contextlib contextmanager (adversarial round, 2026-12-06).
import contextlib
from contextlib import nullcontext
import torch
import torch.nn as nn


@contextlib.contextmanager
def no_grad_if(flag):
    with (torch.no_grad() if flag else nullcontext()):
        yield


class ModelNew(nn.Module):
    def forward(self, x):
        with no_grad_if(True), contextlib.closing(iter([])) if False else nullcontext():
            return torch.relu(x)
