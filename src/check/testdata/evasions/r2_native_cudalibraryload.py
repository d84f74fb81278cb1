# expect: dynamic_code
# expect: dynamic_code
import torch
import torch.nn as nn

src = r'''
#include <cuda_runtime.h>
void go(const void* img){ cudaLibrary_t lib; cudaLibraryLoadData(&lib, img, 0,0,0,0,0,0); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
