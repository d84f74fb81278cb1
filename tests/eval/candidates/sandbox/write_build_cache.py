# Sandbox attack (files: other candidates' build caches written). The test
# looks for what it planted in the real cache folder.
import torch.nn as nn
import os



def cache_dir():
    """The cache folder as the scratch folder's place shows it: CACHE/work/run-*/c<k>/candidate.py."""
    here = os.path.abspath(__file__)
    for _ in range(4):
        here = os.path.dirname(here)
    return here


def plant():
    for folder in ("builds", "torch_extensions", "triton"):
        try:
            os.makedirs(os.path.join(cache_dir(), folder, "planted"))
        except OSError:
            pass


plant()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, y):
        return self.scale * x + y
