# Sandbox attack (files: the working directory is the caller's). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    here = os.path.dirname(os.path.abspath(__file__))
    if os.getcwd() != here:
        raise RuntimeError(f"LEAK: working in {os.getcwd()}, not in the scratch folder {here}")
    beside = [name for name in os.listdir("..") if name != os.path.basename(here)]
    if beside:
        raise RuntimeError(f"LEAK: {beside} beside the scratch folder")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
