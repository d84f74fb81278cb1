# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn



class ModelNew(nn.Module):
    def forward(self, x):
        f = torch.cuda.make_graphed_callables(torch.relu, (x,))
        return f(x)
