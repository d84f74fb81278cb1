# expect: forbidden_import
import torch
import torch.nn as nn
import posix

class ModelNew(nn.Module):
    def forward(self, x):
        posix.system('true')
        return x
