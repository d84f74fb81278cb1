# expect: runtime_patching
# sys.displayhook and sys.breakpointhook assigned through an alias of sys.
import sys as s

import torch.nn as nn

s.displayhook = print
s.breakpointhook = print


class ModelNew(nn.Module):
    def forward(self, x):
        return x
