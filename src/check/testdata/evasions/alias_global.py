# expect: side_stream
import torch
import torch.nn as nn

def setup():
    global C
    C = torch.cuda


class ModelNew(nn.Module):
    def forward(self, x):
        s = C.Stream()
        return x
