# expect: dynamic_code
import logging

import torch
import torch.nn as nn

logging.os.environ["KMEM_X"] = "1"


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
