# Sandbox attack (files: folders made outside the job, under /home and beside the build). Raises LEAK when the attack got through.
import torch.nn as nn
import os


def look():
    for name in ("KMEM_SANDBOX_TEST_HOME_SECRET", "KMEM_SANDBOX_TEST_TREE_SECRET"):
        path = os.environ.get(name, "")
        if path and os.path.exists(os.path.dirname(path)):
            raise RuntimeError(f"LEAK: {os.path.dirname(path)} is there")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
