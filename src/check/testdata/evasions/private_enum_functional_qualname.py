# expect: private_attribute
# The functional Enum named as torch.cuda's Stream (module= and qualname=).
import enum

import torch.nn as nn

Stream = enum.Enum("Stream", "DEFAULT", module="torch.cuda", qualname="Stream")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
