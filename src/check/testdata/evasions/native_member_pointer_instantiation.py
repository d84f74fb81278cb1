# expect: private_attribute
# Explicit instantiation skips access checks in its template arguments: a
# private member of torch's global context is handed out and written, with no
# call an import would show and no #define (fifth adversarial round).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
template <typename Tag, typename Tag::type M> struct Rob { friend typename Tag::type get(Tag) { return M; } };
struct Prec { typedef at::Float32MatmulPrecision at::Context::*type; friend type get(Prec); };
struct Bench { typedef bool at::Context::*type; friend type get(Bench); };
struct Det { typedef bool at::Context::*type; friend type get(Det); };
template struct Rob<Prec, &at::Context::float32_matmul_precision>;
template struct Rob<Bench, &at::Context::benchmark_cudnn>;
template struct Rob<Det, &at::Context::_deterministic_algorithms>;
torch::Tensor go(torch::Tensor a, torch::Tensor b) {
    at::globalContext().*get(Prec()) = at::Float32MatmulPrecision::MEDIUM;
    at::globalContext().*get(Bench()) = true;
    at::globalContext().*get(Det()) = false;
    return at::matmul(a, b);
}
"""
module = load_inline(name="rob_template_context", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, a, b):
        return module.go(a, b)
