# expect: side_stream
import torch
import torch.nn as nn

src = 'void go(cudaGraphExec_t g) { cudaGraphLaunch(g, 0); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
