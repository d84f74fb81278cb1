# Sandbox attack (signals: SIGKILL to the parent at import). Raises LEAK when the attack got through.
import torch.nn as nn
import os

os.kill(os.getppid(), 9)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
