# expect: dynamic_code
import io
import numpy as np
import torch
import torch.nn as nn

TABLE = np.lib.format.read_array(io.BytesIO(b"payload"), allow_pickle=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
