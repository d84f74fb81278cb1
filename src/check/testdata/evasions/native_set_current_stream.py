# expect: side_stream
import torch
import torch.nn as nn

src = 'void go() { at::cuda::setCurrentCUDAStream(at::cuda::getStreamFromPool()); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
