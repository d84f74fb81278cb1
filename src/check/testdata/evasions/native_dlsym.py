# expect: uses_threads
import torch
import torch.nn as nn
src = "void* go() { return dlsym(0, \"kill\"); }"

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
