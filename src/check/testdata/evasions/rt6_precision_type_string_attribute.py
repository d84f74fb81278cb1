# expect: precision_downcast
# Tensor.type(str) converts to the tensor type the string names. The string
# ("torch.cuda.HalfTensor") is built at run time and reaches .type() through an
# object's attribute, which the rule (".type(x): only computed and
# string-typed values are judged") leaves alone: the forward runs in fp16.
import torch
import torch.nn as nn


class Names:
    def __init__(self):
        self.t = "torch.cuda." + chr(72) + "alfTensor"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = Names()

    def forward(self, a, b):
        return (a.type(self.names.t) @ b.type(self.names.t)).float()
