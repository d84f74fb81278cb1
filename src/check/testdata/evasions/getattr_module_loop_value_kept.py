# expect: dynamic_getattr
# A module fetched by a loop getattr and kept: its attributes are read where no name resolves.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for name in ("cuda",):
            device = getattr(torch, name)
            device.set_sync_debug_mode(0)
        return x
