# expect: introspection
import torch
import torch.nn as nn

PATH = "/dev/shm/" + "cache".strip()
CACHE = torch.IntStorage.from_file(PATH, True, 1024)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
