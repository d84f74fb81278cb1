# An object array's pickle read through numpy's format module: the pickle
# names builtins.exec (the audit hook's pickle.find_class refuses it).
import io

import numpy
import torch.nn as nn


class Payload:
    def __reduce__(self):
        return (exec, ("import sys",))


buffer = io.BytesIO()
numpy.save(buffer, numpy.array([Payload()], dtype=object), allow_pickle=True)
buffer.seek(0)
numpy.lib.format.read_array(buffer, allow_pickle=True)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
