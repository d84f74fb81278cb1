# expect: introspection
import torch
import torch.nn as nn


def probe(fn):
    match fn:
        case object(__closure__=(cell, *_)):
            return cell


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
