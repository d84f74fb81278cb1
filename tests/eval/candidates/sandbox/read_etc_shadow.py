# Sandbox attack (files: the machine's password hashes and users). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    for path in ("/etc/shadow", "/etc/gshadow"):
        if os.path.exists(path):
            raise RuntimeError(f"LEAK: {path} is there")
    with open("/etc/passwd") as users:
        names = [line.split(":")[0] for line in users if line.strip()]
    if set(names) - {"root", "kmem"}:
        raise RuntimeError(f"LEAK: the machine's users: {names}")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
