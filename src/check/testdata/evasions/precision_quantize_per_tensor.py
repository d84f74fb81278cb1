# expect: precision_downcast
import torch
import torch.nn as nn


def squeeze(x):
    return torch.quantize_per_tensor(x, 0.01, 0, torch.qint8).dequantize()


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
