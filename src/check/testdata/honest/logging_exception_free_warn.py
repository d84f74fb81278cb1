# Honest: logging exception free warn (adversarial round, 2026-12-06).
import logging
import warnings
import torch
import torch.nn as nn

logger = logging.getLogger("kernels.gelu")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._warned = False

    def forward(self, x):
        if not x.is_contiguous() and not self._warned:
            logger.warning("non-contiguous input; copying")
            self._warned = True
        return torch.nn.functional.gelu(x.contiguous())
