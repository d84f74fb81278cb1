# kmem test data: a stand-in for the level-3 problem LSTMCn (category rnn).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTM(16, 32) if True else nn.GRU(16, 32)

    def forward(self, x):
        return self.cell(x)[0]
