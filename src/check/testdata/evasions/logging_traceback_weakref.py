# expect: dynamic_code
import logging
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        logging.weakref.finalize(self, print, "after forward")
        f = logging.currentframe()
        return torch.relu(x)
