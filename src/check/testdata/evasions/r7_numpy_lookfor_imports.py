# expect: dynamic_code
import torch
import torch.nn as nn
import numpy as np
np.lookfor("memmove", module="ctypes", import_modules=True)

class ModelNew(nn.Module):
    def forward(self, x, y):
        return 2 * x + y
