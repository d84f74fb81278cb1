# Honest: cpp thread member names (adversarial round, 2026-12-06).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""

#include <torch/extension.h>
using namespace std;
struct Launch { int thread; int block; };
__host__ int pick(int thread) { return thread > 0 ? thread : 1; }
torch::Tensor go(torch::Tensor x) {
    Launch cfg{256, 1};
    int thread = pick(cfg.thread);
    auto n = std::thread::hardware_concurrency();
    vector<int> per_thread(thread, 0);
    return x * (float)(thread + n * 0 + per_thread.size() * 0);
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
