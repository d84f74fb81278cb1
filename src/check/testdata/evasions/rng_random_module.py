# expect: seed_manipulation
import torch
import torch.nn as nn
import random


class ModelNew(nn.Module):
    def forward(self, x):
        random.seed(0)
        return x
