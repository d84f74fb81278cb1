# expect: precision_downcast
# A 4-bit float dtype named through torch.
import torch
import torch.nn as nn

PACKED = torch.float4_e2m1fn_x2


class ModelNew(nn.Module):
    def forward(self, x):
        return x.view(torch.uint8).view(PACKED).view(torch.uint8).view(torch.float32)
