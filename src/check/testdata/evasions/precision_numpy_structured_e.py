# expect: precision_downcast
# A structured numpy type whose field is half precision ("e"), the values rounded through it.
import numpy as np
import torch
import torch.nn as nn

ROUND = np.dtype([("v", "e")])


class ModelNew(nn.Module):
    def forward(self, x):
        h = np.asarray(x.cpu().numpy()).astype(ROUND)
        return torch.from_numpy(h["v"].astype(np.float32)).to(x.device)
