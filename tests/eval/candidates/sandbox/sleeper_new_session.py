# Sandbox attack (processes: a sleeper in a session of its own). Raises LEAK when the attack got through.
import torch.nn as nn
import subprocess

subprocess.Popen(["sleep", "4242"], start_new_session=True)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
