# expect: foreign_attribute_assignment
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.cuda.Event.elapsed_time = lambda s, e: 0.001
        return x
