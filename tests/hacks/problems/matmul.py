# An fp32 matrix product, where TF32 or fp16 would be faster but inexact.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(256, 1024), torch.randn(1024, 256)]


def get_init_inputs():
    return []
