# expect: dynamic_getattr
import torch
import torch.nn as nn

"{m.__dict__}".format_map({"m": torch})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
