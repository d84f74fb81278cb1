# expect: private_attribute
import torch
import torch.nn as nn
import random


class ModelNew(nn.Module):
    def forward(self, x):
        random._os.system('true')
        return x
