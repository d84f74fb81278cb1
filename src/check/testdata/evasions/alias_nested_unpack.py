# expect: uses_threads
import torch
import torch.nn as nn
import threading


class ModelNew(nn.Module):
    def forward(self, x):
        (a, (b, T)) = (1, (2, threading.Thread))
        T(target=print).start()
        return x
