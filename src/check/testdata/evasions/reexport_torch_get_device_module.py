# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        s = torch.get_device_module('cuda').Stream()
        return x
