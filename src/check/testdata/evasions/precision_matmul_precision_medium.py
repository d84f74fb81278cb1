# expect: precision_downcast
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.backends.cuda.matmul.fp32_precision = 'tf32'
        return x
