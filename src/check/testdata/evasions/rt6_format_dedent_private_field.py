# expect: dynamic_getattr
# A format string through textwrap.dedent is read as its literal: a field
# reading a dunder attribute is still refused.
import textwrap

import torch.nn as nn

FMT = textwrap.dedent("""
    {0.__class__}
""")
TEXT = FMT.format(nn)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
