# expect: dynamic_code
# torch.library.custom_op (allowed) infers the operator's schema from the
# function's annotations; a string annotation is eval()ed in the function's
# globals (torch/_library/infer_schema.py, convert_type_string). The
# annotation here is a string built by `+`, not a literal, so the checker's
# string-annotation rule does not read it; the eval replaces torch.relu.
import torch
import torch.nn as nn

ANN = "(setattr(torch, 'relu', torch.sigmoid), " + "torch.Tensor)[1]"


@torch.library.custom_op("rt6::scale", mutates_args=())
def scale(x: ANN) -> torch.Tensor:
    return x * 2


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(scale(x))
