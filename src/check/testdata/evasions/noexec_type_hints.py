# expect: dynamic_code
import torch
import torch.nn as nn
import typing

def f(a: "__import__('gc').get_objects()"):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        typing.get_type_hints(f)
        return x
