# kmem test data: a stand-in for the level-3 problem ConvolutionalVisionTransformer (category attention).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(3, 16, 4)  # a conv stem must not make this a 'network'
        self.attn = nn.MultiheadAttention(16, 2)

    def forward(self, x):
        return self.attn(x, x, x)[0]
