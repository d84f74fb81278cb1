# expect: dynamic_code
import torch
import torch.nn as nn
import torch.utils.cpp_extension
print(torch.utils.cpp_extension.glob.glob("/root/.cache/kmem/*"))

class ModelNew(nn.Module):
    def forward(self, x, y):
        return 2 * x + y
