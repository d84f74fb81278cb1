# expect: introspection
# expect: introspection
import torch
import torch.nn as nn



class ModelNew(nn.Module):
    def forward(self, x):
        blocks = [s["address"] for s in torch.cuda.memory_snapshot()]
        return x
