# expect: dynamic_code
import torch
import torch.nn as nn
import marshal

class ModelNew(nn.Module):
    def forward(self, x):
        marshal.loads(b'')
        return x
