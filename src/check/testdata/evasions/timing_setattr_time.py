# expect: foreign_attribute_assignment
import torch
import torch.nn as nn
import time


class ModelNew(nn.Module):
    def forward(self, x):
        setattr(time, 'perf_counter', lambda: 0.0)
        return x
