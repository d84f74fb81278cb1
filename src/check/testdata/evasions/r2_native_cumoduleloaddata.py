# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <cuda.h>
void go(const char* img){ CUmodule m; cuModuleLoadData(&m, img); CUfunction f; cuModuleGetFunction(&f, m, "k"); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
