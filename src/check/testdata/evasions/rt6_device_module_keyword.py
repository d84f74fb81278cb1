# expect: seed_manipulation
# torch.get_device_module's device by keyword: no name the rules can read.
import torch
import torch.nn as nn

torch.get_device_module(device="cuda").manual_seed(0)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
