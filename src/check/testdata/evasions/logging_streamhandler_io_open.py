# expect: dynamic_code
import logging
import torch
import torch.nn as nn

handler = logging.StreamHandler(logging.io.open("/tmp/evaluator_cache.txt", "a"))
logging.getLogger().addHandler(handler)


class ModelNew(nn.Module):
    def forward(self, x):
        logging.getLogger().warning("hi")
        return torch.relu(x)
