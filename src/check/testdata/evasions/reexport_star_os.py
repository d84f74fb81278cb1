# expect: forbidden_import
import torch
import torch.nn as nn
from os import *

class ModelNew(nn.Module):
    def forward(self, x):
        system('true')
        return x
