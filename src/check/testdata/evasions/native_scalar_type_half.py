# expect: precision_downcast
import torch
import torch.nn as nn

src = 'torch::Tensor go(torch::Tensor x) { return x.to(c10::ScalarType::Half); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
