# expect: uses_threads
import torch
import torch.nn as nn
import threading


class ModelNew(nn.Module):
    def forward(self, x):
        threading.Thread.start
        return x
