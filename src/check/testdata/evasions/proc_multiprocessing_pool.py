# expect: uses_threads
import torch
import torch.nn as nn
from multiprocessing.pool import ThreadPool


class ModelNew(nn.Module):
    def forward(self, x):
        ThreadPool(2)
        return x
