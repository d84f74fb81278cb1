# expect: dynamic_code
import logging
import logging.config

import torch
import torch.nn as nn

logging.config.dictConfig({"version": 1, "handlers": {"h": {"()": "os.system", "command": "true"}}})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
