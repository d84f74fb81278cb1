# expect: introspection
import torch
import torch.nn as nn
import os

os.chdir(os.sep + "pr" + "oc")


class ModelNew(nn.Module):
    def forward(self, x):
        return x
