# Sandbox attack (signals: SIGKILL to the parent's process group at import). Raises LEAK when the attack got through.
import torch.nn as nn
import os

os.killpg(os.getpgid(os.getppid()), 9)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
