# expect: introspection
import torch
import torch.nn as nn
import numpy as np
import os


class ModelNew(nn.Module):
    def forward(self, x):
        maps = np.fromregex(os.sep.join(["", "pr" + "oc", "self", "maps"]), r"(\w+)-", [("start", "S16")])
        return x + len(maps)
