# expect: side_stream
# expect: side_stream
import torch
import torch.nn as nn

src = r'''
#include <c10/cuda/CUDAStream.h>
void go(){ auto s = c10::cuda::CUDAStream::unpack3(5, 0, c10::DeviceType::CUDA); c10::cuda::CUDAStreamGuard g(s); }
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
