# expect: introspection
# expect: introspection
import torch
import torch.nn as nn

src = r'''
#include <cuda_runtime.h>
void go(cudaIpcMemHandle_t h){ void* p; cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
