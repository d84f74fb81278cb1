# expect: dynamic_code
import torch
import torch.nn as nn
import os

for os.environ["LD_PRELOAD"] in ["/tmp/x.so"]:
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
