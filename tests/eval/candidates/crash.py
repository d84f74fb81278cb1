# crash: forward dereferences a null pointer (segfault), without ctypes (the audit hook refuses it).
import faulthandler

import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x, y):
        faulthandler._read_null()  # a read through a null pointer
