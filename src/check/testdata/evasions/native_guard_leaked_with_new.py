# expect: runtime_patching
# inference mode outside a guard: new c10::InferenceMode (fifth adversarial round).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    new c10::InferenceMode(true);
    return at::matmul(a, b);
}
"""
module = load_inline(name="leaked_inference_mode", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
