# expect: introspection
import torch
import torch.nn as nn

src = '#include <fstream>\nvoid go() { std::ifstream f("/pr" "oc/self/maps"); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
