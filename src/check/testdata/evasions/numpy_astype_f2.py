# expect: precision_downcast
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        y = x.cpu().numpy().astype('f2')
        return x
