# expect: uses_threads
import torch
import torch.nn as nn

src = 'int n = 1\'0; const char* a = "\'/*"; fork(); const char* b = "*/";'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
