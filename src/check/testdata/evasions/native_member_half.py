# expect: precision_downcast
import torch
import torch.nn as nn

src = 'torch::Tensor go(torch::Tensor x) { return torch::matmul(x.half(), x.half()).to(torch::kFloat); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
