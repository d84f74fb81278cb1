# expect: dynamic_code
import torch
import torch.nn as nn
import io


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.serialization.load(io.BytesIO(b''))
