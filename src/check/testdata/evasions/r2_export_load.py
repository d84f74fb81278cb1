# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn
import os
_ep = torch.export.load(os.path.join(os.getcwd(), "m.pt2"))


class ModelNew(nn.Module):
    def forward(self, x):
        return x
