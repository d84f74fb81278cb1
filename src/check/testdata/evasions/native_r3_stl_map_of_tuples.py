# expect: dynamic_code
# Third adversarial round: Tuples of callables carried in through an STL caster (std::map).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = r"""
#include <torch/extension.h>
#include <map>
#include <string>
torch::Tensor fwd(torch::Tensor a, torch::Tensor b, std::map<std::string, pybind11::tuple> hooks) {
    return hooks["mm"][0](a, b).cast<torch::Tensor>();
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("fwd", &fwd, "fwd");
}
"""

mod = load_inline(name="a13_stl_map_of_tuples", cpp_sources=cpp_src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b, {"mm": (torch.matmul,)})
