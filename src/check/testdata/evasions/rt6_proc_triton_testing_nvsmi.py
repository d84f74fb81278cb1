# expect: uses_threads
# triton.testing.nvsmi runs `nvidia-smi` with subprocess.check_output (a child
# process); triton.testing.set_gpu_clock runs nvidia-smi to lock the GPU's
# clocks (`-lgc`/`-lmc`), which changes the timing of everything after it.
import torch
import torch.nn as nn
import triton.testing

CLOCKS = triton.testing.nvsmi(["clocks.max.sm"])


class ModelNew(nn.Module):
    def forward(self, x):
        return x * 1.0
