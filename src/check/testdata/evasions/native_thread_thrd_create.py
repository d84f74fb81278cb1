# expect: uses_threads
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""

#include <torch/extension.h>
#include <threads.h>
static int work(void*) { return 0; }
torch::Tensor go(torch::Tensor x) {
    thrd_t t;
    thrd_create(&t, work, nullptr);
    thrd_detach(t);
    return x;
}

"""
module = load_inline(name="m", cpp_sources=source, functions=["go"])


class ModelNew(nn.Module):
    def forward(self, x):
        return module.go(x)
