# kmem test data: a stand-in for the level-3 problem LeNet5 (category network).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU())

    def forward(self, x):
        return self.features(x)
