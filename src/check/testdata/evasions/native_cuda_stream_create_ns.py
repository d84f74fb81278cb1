# expect: side_stream
import torch
import torch.nn as nn

src = 'void go() { cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
