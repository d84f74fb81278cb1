# Held-out class 4, timed calls unlike the trials, by sampling: right in every
# trial, wrong in one call of seven after them. With 8 judged of its hundreds
# of timed calls it escaped about a third of the time; where judging is cheap
# (this problem) every timed call the input sets allow is judged.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale
        self.calls = 0

    def forward(self, x, y):
        self.calls += 1
        out = self.scale * x + y
        if self.calls > 5 and self.calls % 7 == 0:
            out[0, 0] += 1.0
        return out
