# Honest: the precision flags and dtypes read only to refuse what the kernel
# does not handle (a condition, an assert), never set.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        if torch.backends.cuda.matmul.allow_tf32 or not torch.backends.cudnn.allow_tf32 is False:
            raise RuntimeError("this kernel expects strict fp32 settings")
        assert not torch.is_autocast_enabled(), "fp32 only"
        return x * 2
