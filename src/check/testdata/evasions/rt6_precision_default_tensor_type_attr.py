# expect: precision_downcast
# torch.set_default_tensor_type (deprecated, still public) with a
# run-time-built "torch.cuda.HalfTensor": every tensor made afterwards with the
# default dtype (the candidate's, and the harness's and reference's factory
# calls in this process) is fp16. Neither the function nor the computed
# argument is refused.
import torch
import torch.nn as nn


class Names:
    def __init__(self):
        self.t = "torch.cuda." + chr(72) + "alfTensor"


torch.set_default_tensor_type(Names().t)


class ModelNew(nn.Module):
    def forward(self, x):
        w = torch.ones(x.shape[-1], device=x.device)
        return x * w
