# expect: dynamic_code
import torch
import torch.nn as nn
from torch.utils import model_zoo


class ModelNew(nn.Module):
    def forward(self, x):
        model_zoo.load_url("file:///tmp/w.pt")
        return torch.relu(x)
