# expect: dynamic_code
# load_inline told to build in a shared folder computed at run time, where a
# library built earlier (by this or another candidate) is loaded as it is.
import os

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SHARED = os.path.join(os.path.dirname(os.getcwd()), "shared_builds", "relu")
os.makedirs(SHARED, exist_ok=True)

ext = load_inline(name="relu_ext", cpp_sources="torch::Tensor relu(torch::Tensor x) { return x.clamp_min(0); }",
                  functions=["relu"], build_directory=SHARED)


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu(x)
