# expect: side_stream
import torch
import torch.nn as nn

src = 'void go() { auto s = at::cuda::getStreamFromPool(true); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
