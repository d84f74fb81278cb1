# expect: precision_downcast
# expect: precision_downcast
import torch
import torch.nn as nn

src = r'''
#include <cutlass/gemm/device/gemm.h>
using G = cutlass::gemm::device::Gemm<float, cutlass::layout::RowMajor, float, cutlass::layout::RowMajor, float, cutlass::layout::RowMajor, float, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80>;
'''


class ModelNew(nn.Module):
    def forward(self, x):
        return x
