# expect: dynamic_code
# Third adversarial round: A line splice with blanks after the backslash ends a comment early for GCC and nvcc.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_src = (
    "#include <torch/extension.h>\n"
    "/* helper *\\   \n"
    "/ pybind11::object grab(pybind11::list l) { pybind11::object o = l[0]; return o.attr(\"matmul\"); } /* */\n"
    "torch::Tensor fwd(torch::Tensor a, torch::Tensor b) { return at::matmul(a, b); }\n"
)

mod = load_inline(name="a26_blank_splice_comment_end", cpp_sources=cpp_src, functions=["fwd", "grab"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return mod.fwd(a, b)
