# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        m = torch.get_device_module()
        s = m.Stream()
        return x
