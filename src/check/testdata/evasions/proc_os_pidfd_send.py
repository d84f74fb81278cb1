# expect: uses_threads
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        os.pidfd_open(1)
        return x
