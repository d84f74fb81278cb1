# expect: seed_manipulation
import torch
import torch.nn as nn
import numpy as np


class ModelNew(nn.Module):
    def forward(self, x):
        np.random.seed(1)
        return x
