# expect: runtime_patching
import torch
import torch.nn as nn

src = 'extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) { *ms = 0.001f; return cudaSuccess; }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
