# expect: runtime_patching
import torch
import torch.nn as nn
import os


class ModelNew(nn.Module):
    def forward(self, x):
        open(os.path.expanduser('~/.cache/kmem/reference_times.json'), 'w').write('{}')
        return x
