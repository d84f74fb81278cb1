# expect: uses_threads
# expect: uses_threads
import torch
import torch.nn as nn

src = r'''
#include <cuda_runtime.h>
void CUDART_CB cb(void*){}
void go(cudaStream_t s){ cudaLaunchHostFunc_ptsz(s, cb, 0); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
