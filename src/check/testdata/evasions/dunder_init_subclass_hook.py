# expect: private_attribute
import torch
import torch.nn as nn

class Base:
    def __init_subclass__(cls):
        torch.cuda.synchronize()


class ModelNew(nn.Module):
    def forward(self, x):
        return x
