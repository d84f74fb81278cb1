# expect: dynamic_code
import torch
import torch.nn as nn
import collections.abc
import os

collections.abc.MutableMapping.update(os.environ, {"LD_PRELOAD": "/tmp/x.so"})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
