# expect: dynamic_code
import torch
import torch.nn as nn
import os

e = os.environ
e["NVCC_PREPEND_FLAGS"] = "-include /tmp/x.h"


class ModelNew(nn.Module):
    def forward(self, x):
        return x
