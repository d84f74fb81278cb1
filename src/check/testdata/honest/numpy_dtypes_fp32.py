import numpy as np
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        scale = np.asarray([1.0, 2.0], dtype="f4")
        mask = np.zeros(4, "f4")
        weights = torch.from_numpy(np.array(scale, np.float32))
        return torch.relu(x) * weights.sum() + float(mask.sum())


def describe(config):
    table = {"e": 1, "half": 2}
    return table["e"] + table["half"] + len(config["e"])
