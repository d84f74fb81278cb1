# kmem test data: a stand-in for the level-3 problem NetVladWithGhostClusters (category matmul).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 32)

    def forward(self, x):
        return torch.matmul(self.proj(x), x.t())
