# Honest: an optional bias defaulting to None (py::arg("bias") = py::none()).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <optional>

__global__ void add_bias_kernel(float* y, const float* b, int rows, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) y[i] += b[i % cols];
}

torch::Tensor linear_forward(torch::Tensor x, torch::Tensor w, std::optional<torch::Tensor> bias) {
    c10::InferenceMode guard;
    TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, "x must be float32");
    auto y = at::matmul(x, w.t()).contiguous();
    if (bias.has_value()) {
        int rows = y.size(0), cols = y.size(1);
        int total = rows * cols;
        add_bias_kernel<<<(total + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            y.data_ptr<float>(), bias->data_ptr<float>(), rows, cols);
    }
    return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("linear_forward", &linear_forward, "linear", py::arg("x"), py::arg("w"), py::arg("bias") = py::none());
}
"""

ext = load_inline(name="linear_bias_ext", cpp_sources="", cuda_sources=src, verbose=False)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=bias)

    def forward(self, x):
        return ext.linear_forward(x, self.linear.weight, self.linear.bias)
