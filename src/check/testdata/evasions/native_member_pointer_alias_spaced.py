# expect: private_attribute
# The explicit instantiation's member pointer spelled through an alias from
# the global namespace, with blanks around `&` and `::`: access is still not
# checked there, so a private member of torch's global context is handed out
# and written, with no call an import would show (fifth adversarial round).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
template <typename Tag, typename Tag::type M> struct Rob { friend typename Tag::type get(Tag) { return M; } };
struct Prec { typedef at::Float32MatmulPrecision at::Context::*type; friend type get(Prec); };
struct Bench { typedef bool at::Context::*type; friend type get(Bench); };
struct Det { typedef bool at::Context::*type; friend type get(Det); };
using Ctx = ::at::Context;
template struct Rob<Prec, & Ctx :: float32_matmul_precision>;
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    at::globalContext().*get(Prec()) = at::Float32MatmulPrecision::MEDIUM;
    return at::matmul(a, b);
}
"""
module = load_inline(name="rob_template_context", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
