# expect: precision_downcast
# An fp32 matmul done in fp8 with torch's scaled matmul.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, a, b):
        one = torch.ones((), device=a.device)
        fa = a.to(torch.float8_e4m3fn)
        fb = b.t().contiguous().t().to(torch.float8_e4m3fn)
        return torch._scaled_mm(fa, fb, scale_a=one, scale_b=one, out_dtype=torch.float32)
