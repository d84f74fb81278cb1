# expect: dynamic_setattr
# The loop variable rebound inside the loop's body (a walrus in a
# comprehension binds the function's name) before the call.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        for name in ("q", "k"):
            [(name := "training") for _ in (1,)]
            setattr(self, name, nn.Identity())

    def forward(self, x):
        return x
