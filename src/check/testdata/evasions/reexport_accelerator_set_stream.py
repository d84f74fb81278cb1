# expect: side_stream
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        torch.accelerator.set_stream(torch.cuda.current_stream())
        return x
