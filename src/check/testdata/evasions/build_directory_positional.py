# expect: dynamic_code
# The build folder given by position (after the sources and the flag lists).
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

ext = load_inline("relu_ext", "torch::Tensor relu(torch::Tensor x) { return x.clamp_min(0); }", [], [], ["relu"],
                  None, None, None, None, "/tmp/torch_extensions/relu_ext")


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
