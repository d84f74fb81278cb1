# Sandbox attack (files: the home folders, root's dotfiles). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    for path in ("/root/.bashrc", "/root/.profile", os.path.expanduser("~/.bashrc")):
        if os.path.exists(path):
            raise RuntimeError(f"LEAK: {path} is there")
    for folder in ("/root", "/home"):
        if os.path.isdir(folder) and os.listdir(folder):
            raise RuntimeError(f"LEAK: {folder} holds {os.listdir(folder)}")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
