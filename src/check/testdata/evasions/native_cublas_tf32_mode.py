# expect: precision_downcast
import torch
import torch.nn as nn

src = 'void go(cublasHandle_t h) { cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
