# expect: dynamic_code
# load_inline handed to functools.partial with its options by position, out of the call's sight.
import functools

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

build = functools.partial(load_inline, "relu_ext", "torch::Tensor relu(torch::Tensor x) { return x.clamp_min(0); }",
                          [], [], ["relu"], None, None, None, None, "/tmp/torch_extensions/relu_ext")
ext = build()


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
