# expect: runtime_patching
# A folder made at a path computed at run time.
import os

import torch.nn as nn

NAME = bytes([114, 117, 110, 115]).decode()
os.makedirs(os.path.join("/tmp", NAME), exist_ok=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
