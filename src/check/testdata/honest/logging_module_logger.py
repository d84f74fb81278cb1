# Honest: a module logger (logging itself; its config and handlers are not).
import logging

import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        logger.debug("ModelNew built")

    def forward(self, x):
        return torch.relu(x)
