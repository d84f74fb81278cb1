# Sandbox attack (files: the cache folder listed). Raises LEAK when the attack got through.
import torch.nn as nn
import os



def cache_dir():
    """The cache folder as the scratch folder's place shows it: CACHE/work/run-*/c<k>/candidate.py."""
    here = os.path.abspath(__file__)
    for _ in range(4):
        here = os.path.dirname(here)
    return here


def look():
    seen = [name for name in os.listdir(cache_dir()) if name != "work"]
    if seen:
        raise RuntimeError(f"LEAK: saw {seen}")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
