# Sandbox attack (files: the home folders, root's dotfiles). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    for path in ("/root/.bashrc", "/root/.profile", os.path.expanduser("~/.bashrc")):
        if os.path.exists(path):
            raise RuntimeError(f"LEAK: {path} is there")
    # A folder of the worker's own code may lie under one (it is bound there
    # alone); dotfiles of a home folder may not show.
    homes = ["/root"] + [os.path.join("/home", n) for n in (os.listdir("/home") if os.path.isdir("/home") else [])]
    for home in homes:
        dotfiles = [n for n in os.listdir(home) if n.startswith(".")] if os.path.isdir(home) else []
        if dotfiles:
            raise RuntimeError(f"LEAK: {home} holds {dotfiles}")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
