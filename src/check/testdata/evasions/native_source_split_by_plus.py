# expect: precision_downcast
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

SRC = "#include <torch/extension.h>\n__global__ void k(float* y){ __ha" + "lf h = __float2ha" + "lf(y[0]); y[0] = __ha" + "lf2float(h); }\n" + "torch::Tensor f(torch::Tensor x){ k<<<1,1>>>(x.data_ptr<float>()); return x; }"
mod = load_inline(name="split_plus", cpp_sources="torch::Tensor f(torch::Tensor x);", cuda_sources=SRC, functions=["f"])


class ModelNew(nn.Module):
    def forward(self, x):
        return mod.f(x)
