# expect: seed_manipulation
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        st = torch.cuda.default_generators[0].get_state()
        return x
