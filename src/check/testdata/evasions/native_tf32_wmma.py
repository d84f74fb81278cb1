# expect: precision_downcast
import torch
import torch.nn as nn

src = '#include <mma.h>\nusing namespace nvcuda;\n__global__ void k() { wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a; }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
