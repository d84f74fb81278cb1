# expect: runtime_patching
import torch
import torch.nn as nn
import threading


class ModelNew(nn.Module):
    def forward(self, x):
        threading.sys.modules['gc']
        return x
