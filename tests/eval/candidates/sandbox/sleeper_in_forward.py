# Sandbox attack (processes: a sleeper started by every call). Raises LEAK when the attack got through.
import torch.nn as nn
import subprocess

def start():
    try:
        subprocess.Popen(["sleep", "4243"], start_new_session=True)
    except OSError:
        pass


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        start()
        return self.scale * x + y
