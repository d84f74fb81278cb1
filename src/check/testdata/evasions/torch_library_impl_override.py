# expect: runtime_patching
import torch
import torch.nn as nn


@torch.library.custom_op("mylib::relu", mutates_args=())
def relu(x: torch.Tensor) -> torch.Tensor:
    return torch.relu(x)


torch.library.impl("aten::copy_", "CUDA")(lambda self, src, non_blocking=False: self)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu(x)
