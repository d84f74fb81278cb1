# expect: runtime_patching
import torch
import torch.nn as nn
import numpy as np
a = np.zeros(4)
a.dump("/tmp/out.pkl")

class ModelNew(nn.Module):
    def forward(self, x, y):
        return 2 * x + y
