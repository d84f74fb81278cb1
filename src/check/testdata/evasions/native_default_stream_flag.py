# expect: side_stream
import torch
import torch.nn as nn
flags = ["--default-stream", "per-thread"]

class ModelNew(nn.Module):
    def forward(self, x):
        pass
        return x
