# expect: dynamic_code
# As custom_op_annotation_eval, with the annotation written as two adjacent
# string literals (an implicit concatenation): the annotation rule only reads
# a lone string literal.
import torch
import torch.nn as nn


@torch.library.custom_op("rt6::scale2", mutates_args=())
def scale(x: "(setattr(torch, 'relu', torch.sigmoid), " "torch.Tensor)[1]") -> torch.Tensor:
    return x * 2


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(scale(x))
