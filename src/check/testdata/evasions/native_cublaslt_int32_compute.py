# expect: precision_downcast
# cuBLASLt with the integer compute type and COL32 int8 layouts.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = r"""
#include <torch/extension.h>
#include <cublasLt.h>
void describe(cublasLtMatmulDesc_t* desc, cublasLtMatrixLayout_t* layout, int rows, int cols) {
    cublasLtMatmulDescCreate(desc, CUBLAS_COMPUTE_32I, CUDA_R_32I);
    cublasLtMatrixLayoutCreate(layout, CUDA_R_8I, rows, cols, 32 * rows);
    cublasLtOrder_t order = CUBLASLT_ORDER_COL32;
    cublasLtMatrixLayoutSetAttribute(*layout, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order));
}
"""

ext = load_inline(name="lt_i8", cpp_sources=src, functions=[], extra_ldflags=["-lcublasLt"])


class ModelNew(nn.Module):
    def forward(self, x):
        return x
