# expect: seed_manipulation
import torch
import torch.nn as nn

src = 'void go() { auto g = at::cuda::detail::getDefaultCUDAGenerator(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
