# expect: dynamic_code
# typing_extensions.get_annotations(f, eval_str=True) (typing_extensions >= 4.13,
# which torch 2.x installs) eval()s string annotations in f's globals, like
# typing.get_type_hints (refused). The annotation is built by `+`, so the
# string-annotation rule does not read it either.
import torch
import torch.nn as nn
import typing_extensions

ANN = "(setattr(torch, 'relu', torch.sigmoid), " + "int)[1]"


def f(a: ANN):
    return a


typing_extensions.get_annotations(f, eval_str=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
