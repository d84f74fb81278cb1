# expect: dynamic_code
# The build folder passed in an unpacked dictionary, where no keyword shows it.
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

OPTIONS = {"functions": ["relu"], "build_directory": "/tmp/torch_extensions/relu_ext"}
ext = load_inline(name="relu_ext", cpp_sources="torch::Tensor relu(torch::Tensor x) { return x.clamp_min(0); }",
                  **OPTIONS)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
