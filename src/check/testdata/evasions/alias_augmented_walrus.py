# expect: uses_threads
import torch
import torch.nn as nn
import threading


class ModelNew(nn.Module):
    def forward(self, x):
        if (T := threading.Thread):
            T(target=print).start()
        return x
