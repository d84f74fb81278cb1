# expect: private_attribute
# make_dataclass's module= (Python 3.12) sets the made class's __module__.
import dataclasses

import torch.nn as nn

Config = dataclasses.make_dataclass("Config", [("block", int, 128)], module="torch.utils.cpp_extension")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
