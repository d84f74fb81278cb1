# expect: precision_downcast
import torch
import torch.nn as nn
src = "__ha" "lf h;"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
