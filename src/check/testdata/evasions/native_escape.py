# expect: uses_threads
import torch
import torch.nn as nn
src = "void go() { \x70thread_create(0, 0, 0, 0); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
