# expect: precision_downcast
import torch
import torch.nn as nn

m = torch.backends.cuda.matmul
m.allow_tf32 = True


class ModelNew(nn.Module):
    def forward(self, x):
        return x
