# expect: foreign_attribute_assignment
import torch
import torch.nn as nn
import time

t = time
t.perf_counter = lambda: 0.0


class ModelNew(nn.Module):
    def forward(self, x):
        return x
