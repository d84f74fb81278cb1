# expect: dynamic_setattr
# A loop variable read after the loop (its `else`) holds an earlier binding
# when the loop ran no time: only the loop around the call gives its names.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        name = "forward"
        for name in ():
            pass
        else:
            setattr(self, name, nn.Identity())

    def forward(self, x):
        return x
