# expect: runtime_patching
# sys.addaudithook itself replaced by setattr (any audit hook added later is dropped).
import sys

import torch.nn as nn

setattr(sys, "addaudithook", lambda hook: None)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
