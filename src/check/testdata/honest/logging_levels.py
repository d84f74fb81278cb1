# Honest: logging levels (adversarial round, 2026-12-06).
import logging
import torch
import torch.nn as nn

log = logging.getLogger(__name__)
log.setLevel(logging.WARNING)
log.addHandler(logging.NullHandler())


class ModelNew(nn.Module):
    def forward(self, x):
        if log.isEnabledFor(logging.DEBUG):
            log.debug("shape %s", tuple(x.shape))
        return torch.relu(x)
