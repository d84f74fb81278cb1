# Honest: fp32 and integer structured numpy types, type strings of several
# fields, einsum subscripts and exponent formats (none of them half).
import numpy as np
import torch
import torch.nn as nn

PAIRS = np.zeros(4, dtype=[("x", "f4"), ("idx", "(2,)i8")])
ROW = np.dtype("f4, i8")


class ModelNew(nn.Module):
    def forward(self, x, w):
        y = torch.einsum("be,ef->bf", x, w)
        outer = torch.einsum("i,j->ij", x[0], w[0])
        scale = float("{:.2e}".format(y.abs().max().item()))
        return y * scale + outer.sum() * 0 + float(format(PAIRS["x"].sum(), ".3e")) * len(ROW.names)
