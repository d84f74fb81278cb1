# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>
#include <vector>
using namespace std;
torch::Tensor go(torch::Tensor x) {
    int thread = 0;
    vector<thread> pool;
    pool.emplace_back([x]() mutable { x.mul_(2); });
    for (auto& t : pool) t.detach();
    return x + thread;
}
"""
module = load_inline(name="vec_thread", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
