# expect: side_stream
import torch
import torch.nn as nn

class Meta(type):
    def __call__(cls, *a):
        return torch.cuda.Stream()
class S(metaclass=Meta):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        return x
