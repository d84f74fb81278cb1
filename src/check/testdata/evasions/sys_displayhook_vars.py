# expect: runtime_patching
# sys.displayhook set through vars(sys).
import sys

import torch.nn as nn

vars(sys)["displayhook"] = print


class ModelNew(nn.Module):
    def forward(self, x):
        return x
