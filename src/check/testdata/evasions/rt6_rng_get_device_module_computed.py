# expect: seed_manipulation
# torch.get_device_module("cuda") is read as torch.cuda, but with any other
# argument (a torch.device, a tensor's device type) the module it returns is
# not followed: its manual_seed / get_rng_state / Stream / CUDAGraph are all
# reachable without a refusal. Here: reseed and read the CUDA RNG state, and
# run work on a side stream.
import torch
import torch.nn as nn

DEV = torch.device("cuda")
cuda = torch.get_device_module(DEV)
cuda.manual_seed(0)
STATE = cuda.get_rng_state()


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = torch.get_device_module(DEV).Stream()

    def forward(self, x):
        with torch.get_device_module(x.device).stream(self.side):
            y = x * 2.0
        return y
