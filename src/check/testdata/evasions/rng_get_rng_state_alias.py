# expect: seed_manipulation
import torch
import torch.nn as nn

g = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        st = g.get_rng_state()
        return x
