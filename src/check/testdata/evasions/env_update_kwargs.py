# expect: dynamic_code
import torch
import torch.nn as nn
import os

os.environ.update(CUDA_HOME='/tmp/fake_cuda')


class ModelNew(nn.Module):
    def forward(self, x):
        return x
