# expect: unreadable_source
import torch
import torch.nn as nn

src = 'void go() { \N{LATIN SMALL LETTER F}ork(); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
