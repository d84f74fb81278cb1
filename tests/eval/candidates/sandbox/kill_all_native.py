# Sandbox attack (signals: kill(-1, SIGKILL) through libc in forward). Raises LEAK when the attack got through.
import torch.nn as nn
import ctypes

LIBC = ctypes.CDLL(None)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        LIBC.kill(-1, 9)
        return self.scale * x + y
