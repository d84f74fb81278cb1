# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn

_f = torch.compile(torch.relu, options={"triton.cudagraphs": True})


class ModelNew(nn.Module):
    def forward(self, x):
        return _f(x)
