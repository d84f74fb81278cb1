# kmem test data: a small stand-in problem file.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x
