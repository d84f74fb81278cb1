# Sandbox attack (processes: double fork and setsid leave a sleeper). Raises LEAK when the attack got through.
import torch.nn as nn
import os

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "4241"])
    os._exit(0)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
