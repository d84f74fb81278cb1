# expect: precision_downcast
# half as a template argument beside a pointer or another argument (red-team round 5, 2026-12-07).
import torch
import torch.nn as nn

src = 'void go(torch::Tensor t) { std::vector<half*> rows; std::pair<float, half> p; }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
