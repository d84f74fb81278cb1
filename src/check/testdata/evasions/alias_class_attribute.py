# expect: module_as_value
import torch
import torch.nn as nn

class Holder:
    cu = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        s = Holder.cu.Stream()
        return x
