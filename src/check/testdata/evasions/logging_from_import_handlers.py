# expect: introspection
from logging import StreamHandler, currentframe, captureWarnings
import torch
import torch.nn as nn

captureWarnings(True)


class ModelNew(nn.Module):
    def forward(self, x):
        fr = currentframe()
        return torch.relu(x) + 0 * fr.f_lineno
