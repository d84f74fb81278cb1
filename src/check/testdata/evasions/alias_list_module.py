# expect: module_as_value
import torch
import torch.nn as nn
import threading

class ModelNew(nn.Module):
    def forward(self, x):
        mods = [threading]
        mods[0].Thread(target=print).start()
        return x
