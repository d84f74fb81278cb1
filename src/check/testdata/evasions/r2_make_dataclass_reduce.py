# expect: private_attribute
# expect: dynamic_code
import torch
import torch.nn as nn
import dataclasses
K = dataclasses.make_dataclass("K", [], namespace={"__reduce__": lambda s: (print, ("x",))})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
