# expect: private_attribute
# A namedtuple planted as torch's own class: module= sets its __module__.
import collections

import torch
import torch.nn as nn

Size = collections.namedtuple("Size", ["rows", "cols"], module="torch")


class ModelNew(nn.Module):
    def forward(self, x):
        return x.reshape(Size(x.shape[0], -1))
