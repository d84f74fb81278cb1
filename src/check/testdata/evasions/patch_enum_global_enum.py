# expect: runtime_patching
import torch
import torch.nn as nn
import enum


class ModelNew(nn.Module):
    def forward(self, x):
        enum.global_enum(None)
        return x
