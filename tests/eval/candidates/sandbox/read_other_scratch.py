# Sandbox attack (files: other jobs' scratch folders and logs read). Raises LEAK when the attack got through.
import torch.nn as nn
import os



def cache_dir():
    """The cache folder as the scratch folder's place shows it: CACHE/work/run-*/c<k>/candidate.py."""
    here = os.path.abspath(__file__)
    for _ in range(4):
        here = os.path.dirname(here)
    return here


def look():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seen = [name for name in os.listdir(here) if name != os.path.basename(os.path.dirname(os.path.abspath(__file__)))]
    if seen:
        raise RuntimeError(f"LEAK: saw {seen}")


look()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
