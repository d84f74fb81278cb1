# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <cstdlib>
__attribute__((constructor)) static void init(){ setenv("CUDA_MODULE_LOADING", "EAGER", 1); putenv((char*)"LD_PRELOAD=/tmp/x.so"); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
