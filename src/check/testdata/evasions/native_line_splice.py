# expect: uses_threads
import torch
import torch.nn as nn

src = 'void go() { pthread_cre\\\nate(0, 0, 0, 0); }'


class ModelNew(nn.Module):
    def forward(self, x):
        return x
