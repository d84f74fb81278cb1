# expect: private_attribute
# The same keyword handed over in an unpacked dictionary, where no keyword shows.
from collections import namedtuple

import torch
import torch.nn as nn

OPTIONS = {"defaults": (None,), "module": "torch.nn.functional"}
Result = namedtuple("Result", ["out"], **OPTIONS)


class ModelNew(nn.Module):
    def forward(self, x):
        return Result(torch.relu(x)).out
