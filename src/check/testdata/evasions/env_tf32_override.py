# expect: precision_downcast
import torch
import torch.nn as nn
import os

os.environ['NVIDIA_TF32_OVERRIDE'] = '1'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
