# expect: private_attribute
# expect: private_attribute
import torch
import torch.nn as nn
import dataclasses
K = dataclasses.make_dataclass("K", [("a", int)], namespace={"__del__": lambda s: None, "__init_subclass__": classmethod(lambda c: None)})


class ModelNew(nn.Module):
    def forward(self, x):
        return x
