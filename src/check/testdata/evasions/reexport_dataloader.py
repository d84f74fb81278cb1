# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

class ModelNew(nn.Module):
    def forward(self, x):
        dl = DataLoader([x], num_workers=2)
        return x
