# expect: runtime_patching
# sys.unraisablehook set through the module's __dict__.
import sys

import torch.nn as nn

sys.__dict__["unraisablehook"] = lambda unraisable: None


class ModelNew(nn.Module):
    def forward(self, x):
        return x
