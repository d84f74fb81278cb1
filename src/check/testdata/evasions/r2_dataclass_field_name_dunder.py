# expect: private_attribute
# expect: private_attribute
import torch
import torch.nn as nn
import dataclasses
K = dataclasses.make_dataclass("K", [("__del__", object, dataclasses.field(default=print))])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
