# crash: forward ends the process with os._exit before any result.
import os

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        os._exit(0)
